"""Wilcoxon signed-rank and sign tests: the one implementation of their statistics and
p-values, and the tests of all system pairs, vectorised over pairs.

The statistics of rows of differences (:func:`signed_ranks`, :func:`sign_counts`) and
their p-values (:func:`signed_rank_pvalues`, :func:`sign_pvalues`) serve two sets of
conventions: scipy's (``scipy.stats.wilcoxon`` and ``binomtest`` defaults:
:func:`wilcoxon_all_pairs`, :func:`sign_test_all_pairs`) and R's (``wilcox.test``,
``binom.test``, as the published error-rate study ran them:
:func:`scorestd.kernels.paired_decisions.paired_decisions`, which tabulates these
p-values once to decide millions of trials).

Scores of the all-pairs tests are ``(..., T, S)``; results are ``(..., P)`` for the
pairs (i, j) (all ``numpy.triu_indices(S, k=1)`` pairs by default, or ``pairs=``). A
topic with a NaN score for either system of a pair is dropped for that pair
(``nan_policy="omit"``) or raises (``nan_policy="raise"``).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
from scipy import special, stats

from .._options import Alternative, NanPolicy, WilcoxonMethod, check_option
from .paired import (
    scores_and_pairs,
)

__all__ = ["PairTestResult", "SignedRanks", "sign_counts", "sign_pvalues", "sign_test_all_pairs",
           "signed_rank_pvalues", "signed_ranks", "wilcoxon_all_pairs", "wilcoxon_null_cdf"]



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


@functools.lru_cache(maxsize=8)
def wilcoxon_null_cdf(n_max: int) -> np.ndarray:
    """Exact null cdf of the signed-rank statistic W⁺: ``table[n, w] = P(W⁺ ≤ w)``.

    Built by the recursion pmf_n(w) = (pmf_{n−1}(w) + pmf_{n−1}(w − n)) / 2, once per
    ``n_max`` (the table is read-only).

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
    cdf = np.cumsum(pmf, axis=1)
    cdf.flags.writeable = False
    return cdf


class SignedRanks(NamedTuple):
    """Signed-rank statistics of rows of differences (:func:`signed_ranks`)."""

    #: W⁺: the sum of the ranks of the positive differences (average ranks for ties).
    v: np.ndarray
    #: Differences ranked: neither zero nor NaN.
    n: np.ndarray
    #: Whether a row had a zero difference.
    zeros: np.ndarray
    #: Σ (t³ − t) over the groups of ``t`` tied absolute differences (the tie correction).
    ties: np.ndarray
    #: Twice the rank of each difference, in order of ``|d|`` (0 for a zero or NaN).
    doubled_ranks: np.ndarray


def signed_ranks(d) -> SignedRanks:
    """Wilcoxon's statistics of every row of ``d`` ``(N, T)``: zeros and NaN dropped,
    average ranks of ``|d|`` for ties.

    One sort of integer keys per row: the bits of ``|d|`` (non-negative floats order as
    their bit patterns; NaN after every number) shifted left by one, with the sign in
    the freed lowest bit.

    Parameters
    ----------
    d : array_like
        Differences ``(N, T)``, one row per test; NaN is a missing difference (dropped).

    Returns
    -------
    SignedRanks
        ``(N,)`` arrays ``v``, ``n``, ``zeros``, ``ties`` and ``(N, T)`` ``doubled_ranks``.

    Examples
    --------
    >>> r = signed_ranks([[0.5, -0.2, 0.2, 0.0, np.nan]])
    >>> float(r.v[0]), int(r.n[0]), bool(r.zeros[0]), float(r.ties[0])
    (4.5, 3, True, 6.0)
    """
    d = np.ascontiguousarray(d, dtype=np.float64)
    n_rows, n_cols = d.shape
    key = (np.abs(d).view(np.uint64) << np.uint64(1)) | (d > 0)
    key.sort(axis=1)
    positive = (key & np.uint64(1)).astype(bool)
    value = key >> np.uint64(1)
    zeros = np.count_nonzero(value == 0, axis=1)
    ranked = (value != 0) & (value <= np.uint64(np.float64(np.inf).view(np.uint64)))
    index = np.arange(n_cols)
    starts = np.ones((n_rows, n_cols), dtype=bool)
    starts[:, 1:] = value[:, 1:] != value[:, :-1]
    ends = np.ones((n_rows, n_cols), dtype=bool)
    ends[:, :-1] = starts[:, 1:]
    first = np.maximum.accumulate(np.where(starts, index, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, index, n_cols - 1)[:, ::-1], axis=1)[:, ::-1]
    doubled = np.where(ranked, first + last + 2 - 2 * zeros[:, None], 0)  # among the ranked
    v = np.where(positive, doubled, 0).sum(axis=1) / 2
    size = last - first + 1
    ties = np.where(ranked, size * size - 1, 0).sum(axis=1)  # Σ_t (t² − 1) per member
    return SignedRanks(v, np.count_nonzero(ranked, axis=1), zeros > 0, ties.astype(float),
                       doubled)


def signed_rank_pvalues(v, n, zeros, ties, alternative: Alternative, *,
                        exact_max: int = 50, correction: bool = False) -> np.ndarray:
    """p-values of signed-rank statistics (:func:`signed_ranks`).

    The exact null distribution of W⁺ (:func:`wilcoxon_null_cdf`) where ``n <=
    exact_max`` and the row had no zero and no tie, else the normal approximation with
    the tie correction, and with a continuity correction of 1/2 if ``correction``.
    scipy's ``wilcoxon`` (defaults): ``exact_max=50, correction=False``; R's
    ``wilcox.test``: ``exact_max=49, correction=True``. A row with nothing ranked
    (``n = 0``) gets 1 (R: 1 one-tailed, NaN two-tailed).

    Parameters
    ----------
    v, n, zeros, ties : array_like
        W⁺, differences ranked, whether there were zeros, Σ (t³ − t) (:class:`SignedRanks`).
    alternative : {"two-sided", "greater", "less"}
        "greater": the differences tend to be positive.
    exact_max : int
        Largest ``n`` with the exact distribution (when there are no ties and no zeros).
    correction : bool
        Continuity correction of the normal approximation.

    Returns
    -------
    numpy.ndarray
        p-values, the shape of ``v``.

    Examples
    --------
    >>> r = signed_ranks([[0.3, 0.1, -0.2, 0.4, 0.5]])
    >>> float(signed_rank_pvalues(r.v, r.n, r.zeros, r.ties, "two-sided")[0])  # as scipy
    0.1875
    """
    v, n = np.broadcast_arrays(np.asarray(v, dtype=float), np.asarray(n))
    ties = np.broadcast_to(np.asarray(ties, dtype=float), v.shape)
    exact = (n <= exact_max) & ~np.asarray(zeros) & (ties == 0) & (n > 0)
    p = np.ones(v.shape)
    if exact.any():
        p[exact] = _exact_pvalue(v[exact], n[exact], alternative)
    approx = ~exact & (n > 0)
    if approx.any():
        p[approx] = _normal_pvalue(v[approx], n[approx].astype(float), ties[approx],
                                   alternative, 0.5 if correction else 0.0)
    return p


def _normal_pvalue(v, n, ties, alternative, shift):
    """Normal approximation of W⁺ with the tie correction, continuity ``shift``."""
    centred = v - n * (n + 1) / 4
    sigma = np.sqrt((n * (n + 1) * (2 * n + 1) - ties / 2) / 24)
    with np.errstate(invalid="ignore", divide="ignore"):  # σ = 0: all tied, p NaN or 0/1
        if alternative == "greater":
            return special.ndtr(-(centred - shift) / sigma)
        if alternative == "less":
            return special.ndtr((centred + shift) / sigma)
        return np.minimum(2 * special.ndtr(-np.abs((centred - np.sign(centred) * shift)
                                                     / sigma)), 1.0)


def _exact_pvalue(r_plus, n, alternative):
    n_int = np.asarray(n).astype(np.intp)
    # one table per 50 differences, so that calls with other sizes share it
    table = wilcoxon_null_cdf(-(-int(n_int.max(initial=0)) // 50) * 50)
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


def _sign_flip_pvalue(doubled, v, alternative):
    """p-values of W⁺ over all 2ⁿ sign flips of rows with average ranks for ties
    (scipy's permutation test for n ≤ 13, counted exactly instead of enumerated).

    W⁺ of a flip is Σ rᵢ Bᵢ with independent fair Bᵢ, so its distribution follows from
    n convolutions; average ranks are multiples of 1/2, so doubled sums are integers.
    ``doubled`` ``(K, T)``: twice the ranks (0: a dropped difference); ``v`` ``(K,)``.
    """
    doubled = np.asarray(doubled, dtype=np.intp)
    observed = np.rint(2 * np.asarray(v)).astype(np.intp)
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
        return at_most
    if alternative == "greater":
        return at_least
    return np.minimum(2 * np.minimum(at_most, at_least), 1.0)


def sign_counts(d, min_diff: float, *, tie_at_min_diff: bool = False
                ) -> tuple[np.ndarray, np.ndarray]:
    """Wins (``d > 0``) and decided differences of every row of ``d`` ``(N, T)``.

    A difference is a tie (not decided) when ``|d| < min_diff``, or exactly 0, or NaN;
    with ``tie_at_min_diff`` also when ``|d| == min_diff`` (the published R code:
    ``|d| <= min_diff`` is a tie).

    Parameters
    ----------
    d : array_like
        Differences ``(..., T)``.
    min_diff : float
        Smallest absolute difference that is decided.
    tie_at_min_diff : bool
        Whether ``|d| == min_diff`` is a tie.

    Returns
    -------
    wins, n : numpy.ndarray
        Positive decided differences and decided differences, ``(...)``.

    Examples
    --------
    >>> sign_counts([[0.5, -0.01, 0.2, 0.005]], 0.01)
    (array([2]), array([3]))
    >>> sign_counts([[0.5, -0.01, 0.2, 0.005]], 0.01, tie_at_min_diff=True)
    (array([2]), array([2]))
    """
    d = np.asarray(d, dtype=np.float64)
    size = np.abs(d)
    decided = (size > min_diff) if tie_at_min_diff else (size >= min_diff) & (d != 0)
    return np.count_nonzero(decided & (d > 0), axis=-1), np.count_nonzero(decided, axis=-1)


def sign_pvalues(wins, n, alternative: Alternative) -> np.ndarray:
    """p-values of the sign test: ``scipy.stats.binomtest(wins, n, 0.5)`` (the same as R's
    ``binom.test``: for p = 1/2 the two-sided p-value is twice the smaller tail); 1 where
    ``n = 0``.

    Parameters
    ----------
    wins, n : array_like
        Wins and decided differences (:func:`sign_counts`).
    alternative : {"two-sided", "greater", "less"}
        "greater": wins are more likely than losses.

    Returns
    -------
    numpy.ndarray
        p-values, the broadcast shape of ``wins`` and ``n``.

    Examples
    --------
    >>> sign_pvalues([4, 9], [4, 10], "two-sided").tolist()
    [0.125, 0.021484375]
    """
    wins, n = np.asarray(wins), np.asarray(n)
    binom = stats.binom(n, 0.5)
    if alternative == "greater":
        p = binom.sf(wins - 1)
    elif alternative == "less":
        p = binom.cdf(wins)
    else:
        p = np.minimum(2 * binom.cdf(np.minimum(wins, n - wins)), 1.0)
    return np.where(n == 0, 1.0, p)


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
    """``d`` ``(N, T, P)`` → statistic, p-value and n ``(N, P)``, from rows of pairs."""
    rows = np.moveaxis(d, -2, -1).reshape(-1, d.shape[-2])  # (N P, T)
    n_present = np.count_nonzero(~np.isnan(rows), axis=1)
    r = signed_ranks(rows)
    n = r.n.astype(float)
    if method == "auto":
        p = signed_rank_pvalues(r.v, r.n, r.zeros, r.ties, alternative)
        # scipy: with ties or zeros and at most 13 scores, every sign flip is counted
        flips = (n_present <= FLIP_ALL_MAX) & ((r.ties > 0) | r.zeros) & (r.n > 0)
        if flips.any():
            p[flips] = _sign_flip_pvalue(r.doubled_ranks[flips], r.v[flips], alternative)
    elif method == "exact":  # forced, with ties and zeros too, as scipy
        p = np.where(r.n > 0, _exact_pvalue(r.v, r.n, alternative), 1.0)
    else:
        p = signed_rank_pvalues(r.v, r.n, r.zeros, r.ties, alternative, exact_max=-1)
    r_minus = n * (n + 1) / 2 - r.v
    statistic = np.minimum(r.v, r_minus) if alternative == "two-sided" else r.v
    shape = d.shape[:-2] + d.shape[-1:]
    return statistic.reshape(shape), p.reshape(shape), n.reshape(shape)


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
    wins, n = sign_counts(np.moveaxis(d, -2, -1), min_diff)
    return wins, sign_pvalues(wins, n, alternative), n
