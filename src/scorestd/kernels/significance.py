"""All-pairs significance tests, multiple comparisons and decision counting.

The kernels live in small modules (:mod:`.paired`, :mod:`.unpaired`,
:mod:`.rank_tests`, :mod:`.resampling_tests`, :mod:`.multiple`,
:mod:`.decisions`); this module gathers them under one name.
"""

from __future__ import annotations

from .decisions import fraction_significant
from .multiple import (
    adjust_pvalues,
    randomised_tukey_hsd_all_pairs,
    tukey_hsd_all_pairs,
    two_way_anova_mse,
)
from .paired import (
    PairedMoments,
    pair_differences,
    pair_indices,
    paired_moments,
    paired_t_all_pairs,
    pvalue_from_t,
)
from .rank_tests import PairTestResult, sign_test_all_pairs, wilcoxon_all_pairs
from .resampling_tests import bootstrap_all_pairs, permutation_all_pairs, sign_flips
from .unpaired import system_moments, unpaired_t_all_pairs

__all__ = [
    "PairTestResult",
    "PairedMoments",
    "adjust_pvalues",
    "bootstrap_all_pairs",
    "fraction_significant",
    "pair_differences",
    "pair_indices",
    "paired_moments",
    "paired_t_all_pairs",
    "permutation_all_pairs",
    "pvalue_from_t",
    "randomised_tukey_hsd_all_pairs",
    "sign_flips",
    "sign_test_all_pairs",
    "system_moments",
    "tukey_hsd_all_pairs",
    "two_way_anova_mse",
    "unpaired_t_all_pairs",
    "wilcoxon_all_pairs",
]
