"""Wilcoxon signed-rank and sign tests of all system pairs, vectorised over pairs.

Scores are ``(..., T, S)``; results are ``(..., P)`` for the pairs (i, j) (all
``numpy.triu_indices(S, k=1)`` pairs by default, or ``pairs=``). A topic with a
NaN score for either system of a pair is dropped for that pair
(``nan_policy="omit"``) or raises (``nan_policy="raise"``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy import special, stats

from .._options import Alternative, NanPolicy, WilcoxonMethod, check_option
from .paired import (
    scores_and_pairs,
)

__all__ = ["PairTestResult", "sign_test_all_pairs", "wilcoxon_all_pairs", "wilcoxon_null_cdf"]



# Max cells of a (batch chunk, T, P) block of pair differences.
_CHUNK_CELLS = 2**23


def _over_batch_chunks(fn, x, axis_topic, pairs, nan_policy):
    """Apply ``fn(d)`` ((N, T, P) differences → tuple of (N, P)) over chunks of the
    flattened batch, so that memory stays bounded for many trials × many pairs."""
    x, i, j = scores_and_pairs(x, axis_topic, pairs, nan_policy)
    batch = x.shape[:-2]
    flat = x.reshape(-1, *x.shape[-2:])
    step = max(1, _CHUNK_CELLS // max(x.shape[-2] * len(i), 1))
    parts = [fn(flat[s : s + step][..., i] - flat[s : s + step][..., j])
             for s in range(0, flat.shape[0], step)]
    return tuple(np.concatenate([p[k] for p in parts]).reshape(*batch, len(i))
                 for k in range(len(parts[0])))


#: Largest number of scores for which ``method="auto"`` counts all 2ⁿ sign flips when a
#: pair has ties or zeros (scipy's permutation test is exhaustive up to 13).
FLIP_ALL_MAX = 13


class PairTestResult(NamedTuple):
    """Statistic, p-value and number of informative topics of each pair."""

    statistic: np.ndarray
    pvalue: np.ndarray
    n: np.ndarray


def wilcoxon_null_cdf(n_max: int) -> np.ndarray:
    """Exact null cdf of the signed-rank statistic W⁺: ``table[n, w] = P(W⁺ ≤ w)``.

    Built by the recursion pmf_n(w) = (pmf_{n−1}(w) + pmf_{n−1}(w − n)) / 2.

    Examples
    --------
    >>> wilcoxon_null_cdf(3)[3].tolist()  # W+ of 3 differences: 0..6, 8 sign patterns
    [0.125, 0.25, 0.375, 0.625, 0.75, 0.875, 1.0]
    """
    w_max = n_max * (n_max + 1) // 2
    pmf = np.zeros((n_max + 1, w_max + 1))
    pmf[0, 0] = 1.0
    for n in range(1, n_max + 1):
        pmf[n] = pmf[n - 1] / 2
        pmf[n, n:] += pmf[n - 1, : w_max + 1 - n] / 2
    return np.cumsum(pmf, axis=1)


def _exact_pvalue(r_plus, n, alternative):
    n_int = n.astype(np.intp)
    table = wilcoxon_null_cdf(int(n_int.max()) if n_int.size else 0)
    w_top = table.shape[1] - 1

    def cdf(k):  # P(W+ <= k)
        k = k.astype(np.intp)
        return np.where(k < 0, 0.0, table[n_int, np.clip(k, 0, w_top)])

    # Non-integer W+ (ties) is rounded conservatively, as scipy does; the upper
    # tail P(W+ >= k) = P(W+ <= n(n+1)/2 − k) by symmetry (no 1 − cdf cancellation).
    lower = cdf(np.ceil(r_plus))
    upper = cdf(n_int * (n_int + 1) // 2 - np.floor(r_plus))
    if alternative == "less":
        return lower
    if alternative == "greater":
        return upper
    return np.clip(2 * np.minimum(lower, upper), 0.0, 1.0)


def _sign_flip_pvalue(ranks, positive, which, alternative):
    """P-values of W⁺ over all 2ⁿ sign flips, with average ranks for ties (scipy's
    permutation test for n ≤ 13, counted exactly instead of enumerated).

    W⁺ of a flip is Σ rᵢ Bᵢ with independent fair Bᵢ, so its distribution follows from
    n convolutions; average ranks are multiples of 1/2, so doubled sums are integers.
    ``ranks`` and ``positive`` are ``(..., T, P)`` (``NaN`` rank: a dropped score),
    ``which`` ``(..., P)`` selects the pairs; other pairs get ``NaN``.
    """
    doubled = np.moveaxis(np.where(np.isnan(ranks), 0.0, 2 * ranks), -2, -1)[which]
    doubled = np.rint(doubled).astype(np.intp)  # (K, T); 0 leaves the distribution as is
    observed = np.where(np.moveaxis(positive, -2, -1)[which], doubled, 0).sum(axis=-1)
    width = int(doubled.sum(axis=-1).max()) + 1
    pmf = np.zeros((doubled.shape[0], width))
    pmf[:, 0] = 1.0
    sums = np.arange(width)
    for shift in doubled.T:  # one score at a time: half the flips add its rank
        source = sums - shift[:, np.newaxis]
        moved = np.take_along_axis(pmf, np.maximum(source, 0), axis=1)
        pmf = (pmf + np.where(source >= 0, moved, 0.0)) / 2
    rows = np.arange(pmf.shape[0])
    at_most = np.cumsum(pmf, axis=1)[rows, observed]  # P(W⁺ <= observed)
    at_least = np.cumsum(pmf[:, ::-1], axis=1)[rows, width - 1 - observed]  # P(W⁺ >= obs)
    if alternative == "less":
        p = at_most
    elif alternative == "greater":
        p = at_least
    else:
        p = np.minimum(2 * np.minimum(at_most, at_least), 1.0)
    out = np.full(which.shape, np.nan)
    out[which] = p
    return out


def wilcoxon_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    alternative: Alternative = "two-sided",
    method: WilcoxonMethod = "auto",
    pairs=None,
    nan_policy: NanPolicy = "omit",
) -> PairTestResult:
    """Wilcoxon signed-rank tests of all pairs (``scipy.stats.wilcoxon`` defaults).

    Zero differences are dropped (Wilcoxon's method); tied absolute differences
    get average ranks. ``method="auto"`` uses the exact null distribution when a
    pair has at most 50 differences, none zero and no ties, and the normal
    approximation with tie correction (no continuity correction) otherwise, as
    scipy does; like scipy, a pair with ties or zeros and at most 13 scores gets the
    p-value of all 2ⁿ sign flips (counted exactly, see ``FLIP_ALL_MAX``).

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics.
    alternative : {"two-sided", "greater", "less"}
        "greater": system i tends to score higher than system j.
    method : {"auto", "exact", "asymptotic"}
        Null distribution of the statistic.
    pairs : tuple of two int arrays, optional
        Pairs (i, j); all pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    PairTestResult
        ``statistic`` (min(W⁺, W⁻) two-sided, W⁺ otherwise, as scipy), ``pvalue``
        and ``n`` (non-zero differences). A pair whose differences are all zero
        has statistic 0 and p-value 1.

    Examples
    --------
    >>> x = [[0.1, 0.3], [0.4, 0.5], [0.2, 0.6], [0.3, 0.2], [0.5, 0.9]]
    >>> r = wilcoxon_all_pairs(x)
    >>> float(r.statistic[0]), float(r.pvalue[0])  # as scipy.stats.wilcoxon: 5 topics, ties
    (1.5, 0.1875)
    """
    check_option(alternative, Alternative, "alternative")
    check_option(method, WilcoxonMethod, "method")
    stat, p, n = _over_batch_chunks(
        lambda d: _wilcoxon(d, alternative, method), x, axis_topic, pairs, nan_policy)
    return PairTestResult(stat, p, n.astype(np.int64))


def _wilcoxon(d, alternative, method):
    n_present = (~np.isnan(d)).sum(axis=-2)
    has_zeros = (d == 0).any(axis=-2)
    d = np.where(d == 0, np.nan, d)  # zeros are dropped
    a = np.abs(d)
    r = stats.rankdata(a, axis=-2, nan_policy="omit")
    # tie group size of each value: (max rank − min rank + 1)
    tsize = (stats.rankdata(a, "max", axis=-2, nan_policy="omit")
             - stats.rankdata(a, "min", axis=-2, nan_policy="omit") + 1)
    valid = ~np.isnan(d)
    n = valid.sum(axis=-2).astype(float)
    r_plus = np.where(d > 0, r, 0.0).sum(axis=-2)
    r_minus = np.where(d < 0, r, 0.0).sum(axis=-2)
    tie_sum = np.where(valid, tsize * tsize - 1.0, 0.0).sum(axis=-2)  # Σ_groups t³ − t
    mean = n * (n + 1) / 4
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt((n * (n + 1) * (2 * n + 1) - tie_sum / 2) / 24)
        z = (r_plus - mean) / se
    if alternative == "greater":
        p = special.ndtr(-z)
    elif alternative == "less":
        p = special.ndtr(z)
    else:
        p = np.minimum(2 * special.ndtr(-np.abs(z)), 1.0)
    exact = np.full(n.shape, method == "exact")
    if method == "auto":
        exact = (n_present <= 50) & (tie_sum == 0) & ~has_zeros
        # scipy: with ties or zeros and at most 13 scores, every sign flip is counted
        flips = (n_present <= FLIP_ALL_MAX) & ~exact & (n > 0)
        if flips.any():
            p = np.where(flips, _sign_flip_pvalue(r, d > 0, flips, alternative), p)
    exact &= n > 0
    if exact.any():
        p = np.where(exact, _exact_pvalue(np.where(exact, r_plus, 0), np.where(exact, n, 0),
                                          alternative), p)
    p = np.where(n == 0, 1.0, p)
    statistic = np.minimum(r_plus, r_minus) if alternative == "two-sided" else r_plus
    return statistic, p, n


def sign_test_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    alternative: Alternative = "two-sided",
    min_diff: float = 0.01,
    pairs=None,
    nan_policy: NanPolicy = "omit",
) -> PairTestResult:
    """Sign tests of all pairs: binomial test of wins against losses.

    A topic whose absolute difference is below ``min_diff`` (or exactly 0) is a
    tie and is dropped; the p-value is that of
    ``scipy.stats.binomtest(wins, wins + losses, 0.5)``. With no wins or losses at all
    the p-value is 1. The error-rate study decides its sign tests as the published R
    code does instead (a difference of exactly ``min_diff`` is a tie there):
    :func:`scorestd.kernels.paired_decisions.paired_decisions`.

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics.
    alternative : {"two-sided", "greater", "less"}
        "greater": system i wins more often than system j.
    min_diff : float
        Smallest absolute difference that counts as a win or a loss.
    pairs : tuple of two int arrays, optional
        Pairs (i, j); all pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    PairTestResult
        ``statistic`` (wins of system i), ``pvalue`` and ``n`` (wins + losses).

    Examples
    --------
    >>> x = [[0.5, 0.1], [0.6, 0.2], [0.4, 0.1], [0.3, 0.305], [0.9, 0.1]]
    >>> r = sign_test_all_pairs(x)
    >>> int(r.statistic[0]), int(r.n[0]), float(r.pvalue[0])
    (4, 4, 0.125)
    """
    check_option(alternative, Alternative, "alternative")
    if not min_diff >= 0:
        raise ValueError(f"min_diff must be a non-negative number, got {min_diff!r}")
    wins, p, n = _over_batch_chunks(
        lambda d: _sign_test(d, alternative, min_diff), x, axis_topic, pairs, nan_policy)
    return PairTestResult(wins.astype(float), p, n.astype(np.int64))


def _sign_test(d, alternative, min_diff):
    decided = (np.abs(d) >= min_diff) & (d != 0)  # False for NaN too
    wins = ((d > 0) & decided).sum(axis=-2)
    n = decided.sum(axis=-2)
    binom = stats.binom(n, 0.5)
    if alternative == "greater":
        p = binom.sf(wins - 1)
    elif alternative == "less":
        p = binom.cdf(wins)
    else:
        # binomtest's two-sided p for a symmetric null: twice the smaller tail
        p = np.minimum(2 * binom.cdf(np.minimum(wins, n - wins)), 1.0)
    p = np.where(n == 0, 1.0, p)
    return wins, p, n
