"""Sign-flip permutation and bootstrap tests of the mean difference, all pairs at once.

One set of B sign flips (or bootstrap resamples of the topics) is drawn from
``seed`` and applied to every pair and every batch element: with ``w`` the
(B, T) matrix of flips or resample counts, the resampled sums of every pair are
``(w @ x)[..., i] − (w @ x)[..., j]``, one matrix product per chunk of
resamples. p-values are (1 + #{resampled as extreme as observed}) / (B + 1).

NaN: a topic missing for either system of a pair is dropped for that pair
(``nan_policy="omit"``; the resampled sums then use per-pair masked
differences) or raises (``nan_policy="raise"``).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from .._options import Alternative, NanPolicy, check_option
from .blas import limited_blas
from .paired import scores_and_pairs
from .rank_tests import PairTestResult

__all__ = ["bootstrap_all_pairs", "bootstrap_counts", "mean_difference_pvalues",
           "permutation_all_pairs", "resample_blocks", "sign_flips"]

# Max cells of a (..., B_chunk, P) block of resampled statistics: 16 MiB, cache-sized
# (measured: 64 MiB blocks were fresh pages on a first call, 2-4x slower, and 15-30%
# slower on repeated calls; the p-values do not depend on it).
_CHUNK_CELLS = 2**21
# Max cells of a (B_chunk, T) block of resample weights: drawing one takes about 32
# bytes a cell (the draws, their counts and bincount's temporaries), 8 MiB a block.
_WEIGHT_CELLS = 2**18
# Resampled statistics within this relative distance of the observed one count as
# "as extreme" (they are equal in exact arithmetic, e.g. the identity flip).
_REL_TOL = 1e-9


def sign_flips(n_topics: int, B: int | Literal["exact"], seed=None) -> np.ndarray:
    """A (B, T) matrix of ±1 topic sign flips; all 2^T of them for ``B="exact"``.

    Examples
    --------
    >>> sign_flips(2, "exact").tolist()
    [[1, 1], [-1, 1], [1, -1], [-1, -1]]
    >>> sign_flips(3, 4, seed=1).shape
    (4, 3)
    """
    if B == "exact":
        if n_topics > 20:
            raise ValueError(f"exact enumeration of 2^{n_topics} sign flips is too large")
        codes = np.arange(2**n_topics)[:, None] >> np.arange(n_topics) & 1
        return (1 - 2 * codes).astype(np.int8)
    _check_b(B)
    rng = np.random.default_rng(seed)
    return (1 - 2 * rng.integers(0, 2, size=(B, n_topics))).astype(np.int8)


def resample_blocks(kind: Literal["flips", "counts"], n_topics: int,
                    B: int | Literal["exact"], seed, step: int):
    """The rows of :func:`sign_flips` (``"flips"``) or :func:`bootstrap_counts`
    (``"counts"``), ``step`` resamples at a time: the same numbers, never all B at once.

    numpy draws a (b1 + b2, T) block as a (b1, T) block then a (b2, T) one from the same
    generator, so the resamples do not depend on ``step``.

    Examples
    --------
    >>> blocks = list(resample_blocks("counts", 4, 5, 1, step=2))
    >>> [len(b) for b in blocks]
    [2, 2, 1]
    >>> bool((np.concatenate(blocks) == bootstrap_counts(4, 5, seed=1)).all())
    True
    """
    if B == "exact":
        yield sign_flips(n_topics, B)
        return
    _check_b(B)
    rng = np.random.default_rng(seed)
    for start in range(0, B, step):
        b = min(step, B - start)
        if kind == "flips":
            yield (1 - 2 * rng.integers(0, 2, size=(b, n_topics))).astype(np.int8)
        else:
            yield _counts_of(rng.integers(0, n_topics, size=(b, n_topics)))


def _counts_of(draws: np.ndarray) -> np.ndarray:
    """(b, T) drawn topic indices → (b, T) counts of each topic per resample."""
    b, n_topics = draws.shape
    rows = np.repeat(np.arange(b), n_topics)
    return np.bincount(rows * n_topics + draws.ravel(), minlength=b * n_topics).reshape(
        b, n_topics)


def _check_b(B) -> None:
    if not isinstance(B, int | np.integer) or isinstance(B, bool) or B < 1:
        raise ValueError(f"B must be a positive integer number of resamples, got {B!r}")


def _pair_setup(x, axis_topic, pairs, nan_policy):
    x, i, j = scores_and_pairs(x, axis_topic, pairs, nan_policy)
    d = x[..., i] - x[..., j]  # (..., T, P)
    valid = ~np.isnan(d)
    return x, i, j, np.where(valid, d, 0.0), valid


def _resampled_sums(w, x, i, j, d0, valid):
    """Σ_t w_bt d_t (and Σ_t w_bt m_t when some topics are missing) → (..., B, P)."""
    w = w.astype(float)
    if valid.all():
        wx = w @ x
        return wx[..., i] - wx[..., j], None
    return w @ d0, w @ valid.astype(float)


def _count_extreme(stat, obs, tol, alternative):
    if alternative == "greater":
        return (stat >= obs[..., None, :] - tol[..., None, :]).sum(axis=-2)
    if alternative == "less":
        return (stat <= obs[..., None, :] + tol[..., None, :]).sum(axis=-2)
    return (np.abs(stat) >= np.abs(obs)[..., None, :] - tol[..., None, :]).sum(axis=-2)


def _step(cells_per_resample: int, n_topics: int) -> int:
    """Resamples per block: its statistics and its (b, T) weights each within
    _CHUNK_CELLS cells, so memory does not grow with B."""
    return max(1, min(_CHUNK_CELLS // max(cells_per_resample, 1),
                       _WEIGHT_CELLS // max(n_topics, 1)))


@limited_blas
def permutation_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    B: int | Literal["exact"] = 10_000,
    seed=None,
    alternative: Alternative = "two-sided",
    pairs=None,
    nan_policy: NanPolicy = "omit",
) -> PairTestResult:
    """Sign-flip permutation (randomisation) tests of the mean difference of all pairs.

    Under the null hypothesis the two systems' scores on a topic are exchangeable,
    so the sign of each topic's difference is flipped at random. The same B flips
    serve every pair and every batch element.

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics.
    B : int or "exact"
        Number of random sign flips, or ``"exact"`` to enumerate all 2^T (T ≤ 20;
        the p-value is then the exact proportion, identity included).
    seed : int, numpy.random.Generator or None
        Seed of the flips; the same seed gives the same p-values.
    alternative : {"two-sided", "greater", "less"}
        "greater": the mean of system i minus system j is > 0.
    pairs : tuple of two int arrays, optional
        Pairs (i, j); all pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    PairTestResult
        ``statistic`` (mean difference), ``pvalue`` and ``n`` (topics used). A pair
        with all differences 0 has p-value 1.

    Examples
    --------
    >>> x = [[0.5, 0.1], [0.6, 0.2], [0.4, 0.1], [0.3, 0.2], [0.9, 0.1]]
    >>> r = permutation_all_pairs(x, B="exact")
    >>> round(float(r.statistic[0]), 3), float(r.pvalue[0])
    (0.4, 0.0625)
    """
    check_option(alternative, Alternative, "alternative")
    x, i, j, d0, valid = _pair_setup(x, axis_topic, pairs, nan_policy)
    n = valid.sum(axis=-2)
    obs = d0.sum(axis=-2)
    tol = _REL_TOL * np.abs(d0).sum(axis=-2)
    count = np.zeros(obs.shape, dtype=np.int64)
    drawn = 0
    for flips in resample_blocks("flips", x.shape[-2], B, seed, _step(obs.size, x.shape[-2])):
        sums, _ = _resampled_sums(flips, x, i, j, d0, valid)
        count += _count_extreme(sums, obs, tol, alternative)
        drawn += len(flips)
    if B == "exact":
        p = count / drawn
    else:
        p = (1.0 + count) / (drawn + 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = obs / n
    return PairTestResult(mean, np.where(n > 0, p, np.nan), n.astype(np.int64))


@limited_blas
def bootstrap_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    B: int = 10_000,
    seed=None,
    alternative: Alternative = "two-sided",
    pairs=None,
    nan_policy: NanPolicy = "omit",
) -> PairTestResult:
    """Bootstrap tests of the mean difference of all pairs (shift method).

    The differences are centred on their mean (imposing the null hypothesis) and
    the topics are resampled with replacement; the p-value compares the resampled
    means with the observed one. One set of B resamples of the topic indices
    serves every pair and every batch element; for a pair with missing topics the
    resampled mean is over the drawn topics it has.

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics.
    B : int
        Number of bootstrap resamples.
    seed : int, numpy.random.Generator or None
        Seed of the resamples; the same seed gives the same p-values.
    alternative : {"two-sided", "greater", "less"}
        "greater": the mean of system i minus system j is > 0.
    pairs : tuple of two int arrays, optional
        Pairs (i, j); all pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    PairTestResult
        ``statistic`` (mean difference), ``pvalue`` and ``n`` (topics used). A pair
        with all differences 0 has p-value 1.

    Examples
    --------
    >>> x = [[0.5, 0.1], [0.6, 0.2], [0.4, 0.1], [0.3, 0.2], [0.9, 0.1]]
    >>> r = bootstrap_all_pairs(x, B=2000, seed=1)
    >>> bool(r.pvalue[0] < 0.01)
    True
    """
    check_option(alternative, Alternative, "alternative")
    _check_b(B)
    x, i, j, d0, valid = _pair_setup(x, axis_topic, pairs, nan_policy)
    n_topics = x.shape[-2]
    n = valid.sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        obs = d0.sum(axis=-2) / n
    tol = _REL_TOL * np.abs(d0).sum(axis=-2) / np.maximum(n, 1)
    count = np.zeros(obs.shape, dtype=np.int64)
    for weights in resample_blocks("counts", n_topics, B, seed, _step(obs.size, n_topics)):
        sums, drawn = _resampled_sums(weights, x, i, j, d0, valid)
        with np.errstate(invalid="ignore", divide="ignore"):
            if drawn is None:
                means = sums / n_topics
            else:
                means = sums / drawn  # NaN when a resample drew none of the pair's topics
        centred = means - obs[..., None, :]
        count += _count_extreme(centred, obs, tol, alternative)
    p = (1.0 + count) / (B + 1.0)
    return PairTestResult(obs, np.where(n > 0, p, np.nan), n.astype(np.int64))


def bootstrap_counts(n_topics: int, B: int, seed=None) -> np.ndarray:
    """A (B, T) matrix of resample counts: entry ``[b, t]`` is how many times topic
    ``t`` is drawn (with replacement) in bootstrap resample ``b``.

    Examples
    --------
    >>> w = bootstrap_counts(4, 3, seed=1)
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 4), [4, 4, 4])
    """
    _check_b(B)
    return _counts_of(np.random.default_rng(seed).integers(0, n_topics, size=(B, n_topics)))


def mean_difference_pvalues(
    d,
    *,
    method: Literal["permutation", "bootstrap"],
    B: int = 10_000,
    seed=None,
    alternatives: tuple[Alternative, ...] = ("two-sided",),
) -> dict[str, np.ndarray]:
    """Permutation or bootstrap p-values of many complete difference vectors at once.

    The same tests as :func:`permutation_all_pairs` and :func:`bootstrap_all_pairs`
    (same resamples for the same ``seed``, same p-values), for a batch of pairs given
    by their per-topic differences: the resampled statistics of every vector come from
    one matrix product ``w @ d.T`` per chunk of resamples, and every alternative is
    counted from the same resamples (simulation studies want both tails).

    Parameters
    ----------
    d : array_like
        Differences ``(N, T)`` (e.g. experimental minus baseline), without NaN.
    method : {"permutation", "bootstrap"}
        Random sign flips, or bootstrap resamples of the centred differences.
    B : int
        Number of resamples.
    seed : int, numpy.random.Generator or None
        Seed of the resamples.
    alternatives : tuple of {"two-sided", "greater", "less"}
        "greater": the mean difference is > 0.

    Returns
    -------
    dict of str to numpy.ndarray
        ``(N,)`` p-values per alternative; ``(1 + #{as extreme}) / (B + 1)``.

    Examples
    --------
    >>> x = np.array([[0.5, 0.1], [0.6, 0.2], [0.4, 0.1], [0.3, 0.2], [0.9, 0.1]])
    >>> p = mean_difference_pvalues((x[:, 0] - x[:, 1])[None], method="bootstrap", B=500,
    ...                             seed=1, alternatives=("two-sided",))
    >>> float(p["two-sided"][0]) == float(bootstrap_all_pairs(x, B=500, seed=1).pvalue[0])
    True
    """
    for alternative in alternatives:
        check_option(alternative, Alternative, "alternative")
    check_option(method, ("permutation", "bootstrap"), "method")
    d = np.asarray(d, dtype=np.float64)
    if d.ndim != 2 or np.isnan(d).any():
        raise ValueError("d must be a complete (N, T) array of differences")
    n_topics = d.shape[1]
    if method == "permutation":
        obs = d.sum(axis=1)
        tol = _REL_TOL * np.abs(d).sum(axis=1)
    else:
        obs = d.mean(axis=1)
        tol = _REL_TOL * np.abs(d).sum(axis=1) / n_topics
    alternatives = tuple(dict.fromkeys(alternatives))
    counts = {a: np.zeros(len(d), dtype=np.int64) for a in alternatives}
    drawn = 0
    blocks = resample_blocks("flips" if method == "permutation" else "counts", n_topics, B,
                             seed, _step(len(d), n_topics))
    for w in blocks:
        drawn += len(w)
        stat = w.astype(float) @ d.T  # (B_chunk, N)
        if method == "bootstrap":
            stat = stat / n_topics - obs
        for a in alternatives:
            counts[a] += _count_extreme(stat, obs, tol, a)
    return {a: (1.0 + c) / (drawn + 1.0) for a, c in counts.items()}
