"""All-pairs significance tests and decision counting (re-exported from small modules)."""

from __future__ import annotations

from .decisions import fraction_significant
from .paired import PairedMoments, pair_indices, paired_moments, paired_t_all_pairs, pvalue_from_t
from .unpaired import system_moments, unpaired_t_all_pairs

__all__ = [
    "PairedMoments",
    "fraction_significant",
    "pair_indices",
    "paired_moments",
    "paired_t_all_pairs",
    "pvalue_from_t",
    "system_moments",
    "unpaired_t_all_pairs",
]
