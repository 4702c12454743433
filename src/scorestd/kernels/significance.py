"""All-pairs significance tests, multiple comparisons and decision counting.

The kernels live in small modules (:mod:`.paired`, :mod:`.unpaired`,
:mod:`.rank_tests`, :mod:`.resampling_tests`, :mod:`.multiple`,
:mod:`.decisions`); this module gathers them under one name and dispatches a paired
test by name (:func:`paired_test`), for :func:`scorestd.compare` and the experiments.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._options import PairedTest, check_option
from .decisions import fraction_significant
from .multiple import (
    adjust_pvalues,
    randomised_tukey_hsd_all_pairs,
    tukey_hsd_all_pairs,
    two_way_anova_mse,
)
from .paired import (
    PairedMoments,
    describe_pairs,
    pair_differences,
    pair_indices,
    paired_moments,
    paired_t_all_pairs,
    paired_t_from_moments,
    pvalue_from_t,
)
from .rank_tests import PairTestResult, sign_test_all_pairs, wilcoxon_all_pairs
from .resampling_tests import bootstrap_all_pairs, permutation_all_pairs, sign_flips
from .unpaired import describe_unpaired, system_moments, unpaired_t_all_pairs

__all__ = [
    "PairTestResult",
    "PairedMoments",
    "adjust_pvalues",
    "bootstrap_all_pairs",
    "describe_pairs",
    "describe_unpaired",
    "fraction_significant",
    "pair_differences",
    "pair_indices",
    "paired_moments",
    "paired_t_all_pairs",
    "paired_test",
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


#: Paired tests whose p-values come from resamples (they take ``B`` and ``seed``).
RESAMPLING_TESTS: tuple[str, ...] = ("permutation", "bootstrap", "randomised_tukey_hsd")
#: Paired tests whose p-values are already adjusted for the family of all pairs.
FAMILY_TESTS: tuple[str, ...] = ("tukey_hsd", "randomised_tukey_hsd")


def paired_test(x: Any, test: PairedTest, *, pairs: tuple[np.ndarray, np.ndarray] | None = None,
                alternative: str = "two-sided", min_diff: float = 0.01, B: int = 10_000,
                seed: Any = None, nan_policy: str = "omit",
                moments: PairedMoments | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Statistic and p-value of ``test`` for every pair of systems of ``x`` ``(..., T, S)``.

    The one dispatcher from a test's name to its all-pairs kernel
    (:func:`paired_t_all_pairs`, :func:`wilcoxon_all_pairs`, :func:`sign_test_all_pairs`,
    :func:`permutation_all_pairs`, :func:`bootstrap_all_pairs`, :func:`tukey_hsd_all_pairs`,
    :func:`randomised_tukey_hsd_all_pairs`); ``min_diff`` is the sign test's tie margin,
    ``B`` and ``seed`` the resampling tests' resamples. The Tukey tests are two-sided and
    need complete scores. The paired t-test takes the ``moments`` of the pairs when the
    caller has them (:func:`paired_moments`).

    Returns
    -------
    statistic, p : numpy.ndarray
        Each ``(..., P)`` over ``pairs`` (default: all pairs i < j).

    Examples
    --------
    >>> x = np.array([[0.1, 0.3, 0.2], [0.4, 0.5, 0.1], [0.2, 0.6, 0.3]])
    >>> t, p = paired_test(x, "paired_t")
    >>> p.round(4).tolist()  # scipy.stats.ttest_rel pair by pair
    [0.1181, 0.8259, 0.0942]
    """
    test = check_option(test, PairedTest, "test")
    if test == "paired_t" and moments is not None:
        return paired_t_from_moments(moments, alternative)
    common = {"pairs": pairs}
    if test not in FAMILY_TESTS:
        common.update(alternative=alternative, nan_policy=nan_policy)
    if test in RESAMPLING_TESTS:
        common.update(B=B, seed=seed)
    kernel = {
        "paired_t": paired_t_all_pairs,
        "wilcoxon": wilcoxon_all_pairs,
        "sign": lambda v, **kw: sign_test_all_pairs(v, min_diff=min_diff, **kw),
        "permutation": permutation_all_pairs,
        "bootstrap": bootstrap_all_pairs,
        "tukey_hsd": tukey_hsd_all_pairs,
        "randomised_tukey_hsd": randomised_tukey_hsd_all_pairs,
    }[test]
    result = kernel(x, **common)
    return result[0], result[1]
