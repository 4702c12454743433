"""Multiple-comparison control over a family of pairs: p-value adjustment and
Tukey's HSD (ANOVA-based and randomised), vectorised over leading batch axes.

The family is a whole axis (all pairs of one batch element), never a single
p-value.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats
from scipy.interpolate import CubicSpline

from .._options import Correction, check_option
from .._progress import progress_bar
from .blas import limited_blas
from .paired import resolve_pairs, topics_last_but_one
from .rank_tests import PairTestResult
from .resampling_tests import _check_b
from .variance import residual_ss

__all__ = [
    "adjust_pvalues",
    "complete_topics",
    "randomised_tukey_hsd_all_pairs",
    "studentized_range_sf",
    "tukey_hsd_all_pairs",
    "two_way_anova_mse",
]

# Max cells of a block of permuted score matrices: about 24 bytes a cell (the orders, their
# permuted copy, the shuffled scores), 48 MiB a block. The p-values do not depend on it:
# the permutations are drawn block after block from one stream.
_CHUNK_CELLS = 2**21



def adjust_pvalues(p, method: Correction = "holm", axis: int = -1) -> np.ndarray:
    """Family-wise adjusted p-values along ``axis`` (the family), batched.

    Bonferroni and Holm control the family-wise error rate, Benjamini–Hochberg
    ("bh") the false discovery rate; the numbers equal statsmodels'
    ``multipletests(p, method="bonferroni" | "holm" | "fdr_bh")[1]``. NaN
    p-values stay NaN and are not part of the family (its size is the number of
    non-NaN p-values).

    Parameters
    ----------
    p : array_like
        p-values; ``axis`` holds the family.
    method : {"bonferroni", "holm", "bh"}
        Adjustment.
    axis : int
        Axis of the family.

    Returns
    -------
    numpy.ndarray
        Adjusted p-values, the shape of ``p``.

    Examples
    --------
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.2], "holm").tolist()
    [0.04, 0.09, 0.09, 0.2]
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.2], "bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    """
    check_option(method, Correction, "method")
    p = np.moveaxis(np.asarray(p, dtype=float), axis, -1)
    nan = np.isnan(p)
    m = (~nan).sum(axis=-1, keepdims=True)
    if method == "bonferroni":
        out = np.minimum(p * m, 1.0)
        return np.moveaxis(out, -1, axis)
    order = np.argsort(p, axis=-1)  # NaN sorts last
    ps = np.take_along_axis(p, order, axis=-1)
    rank = np.arange(1, p.shape[-1] + 1)
    if method == "holm":
        adj = np.fmax.accumulate(np.minimum((m - rank + 1) * ps, 1.0), axis=-1)
    else:
        scaled = np.where(np.isnan(ps), np.inf, m / rank * ps)
        adj = np.minimum.accumulate(scaled[..., ::-1], axis=-1)[..., ::-1]
        adj = np.minimum(adj, 1.0)
    out = np.empty_like(p)
    np.put_along_axis(out, order, adj, axis=-1)
    out[nan] = np.nan
    return np.moveaxis(out, -1, axis)


def complete_topics(x, axis_topic: int = -2) -> np.ndarray:
    """Scores with topics on axis −2, raising if any score is NaN (a complete block
    design is needed by the two-way ANOVA).

    Examples
    --------
    >>> complete_topics([[0.1, float("nan")], [0.2, 0.3]])
    Traceback (most recent call last):
    ...
    ValueError: Tukey's HSD needs complete data: drop topics with missing scores
    """
    x = topics_last_but_one(x, axis_topic)
    if np.isnan(x).any():
        raise ValueError("Tukey's HSD needs complete data: drop topics with missing scores")
    if x.shape[-1] < 2:
        raise ValueError(f"need at least 2 systems, got {x.shape[-1]}")
    return x


def two_way_anova_mse(x, axis_topic: int = -2):
    """Residual mean square and its df of the two-way ANOVA without replication.

    Topics are blocks and systems the treatment: the residual of score x_ts is
    x_ts − x̄_t· − x̄_·s + x̄, with (T − 1)(S − 1) degrees of freedom.

    Examples
    --------
    >>> mse, df = two_way_anova_mse([[0.1, 0.3], [0.4, 0.4], [0.2, 0.5]])
    >>> round(float(mse), 4), df
    (0.0117, 2)
    """
    x = complete_topics(x, axis_topic)
    t, s = x.shape[-2:]
    df = (t - 1) * (s - 1)
    return residual_ss(x)[0] / df, df


def _simpson_weights(grid: np.ndarray) -> np.ndarray:
    w = np.full(grid.size, 2.0)
    w[1::2] = 4.0
    w[0] = w[-1] = 1.0
    return w * (grid[1] - grid[0]) / 3


def _normal_range_cdf(k: int) -> CubicSpline:
    """cdf of the range of k standard normals, R(w) = k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz,
    tabulated by Simpson's rule on w ∈ [0, 20] and interpolated by a cubic spline."""
    z = np.linspace(-9.0, 9.0, 601)
    wz = _simpson_weights(z) * k * np.exp(-z * z / 2) / np.sqrt(2 * np.pi)
    w = np.linspace(0.0, 20.0, 2001)
    inner = np.clip(special.ndtr(z) - special.ndtr(z - w[:, None]), 0.0, 1.0) ** (k - 1)
    return CubicSpline(w, np.clip(inner @ wz, 0.0, 1.0))


def _chi_scale_nodes(df: float):
    """Nodes and weights of s = sqrt(χ²_df / df), by Simpson's rule in log s between
    its 1e-15 and 1 − 1e-15 quantiles."""
    lo, hi = (np.sqrt(stats.chi2.ppf(u, df) / df) for u in (1e-15, 1 - 1e-15))
    t = np.linspace(np.log(lo), np.log(hi), 257)
    s = np.exp(t)
    log_density = ((df / 2) * np.log(df) + (df - 1) * t - df * s * s / 2
                   - (df / 2 - 1) * np.log(2) - special.gammaln(df / 2))
    return s, _simpson_weights(t) * np.exp(log_density) * s


@limited_blas
def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    """Survival function of the studentized range of ``k`` means with ``df`` df.

    The same quantity as ``scipy.stats.studentized_range.sf`` (to about 1e-10
    absolute), but fast for many ``q`` at once: the cdf of the normal range is
    tabulated once and averaged over the distribution of the error scale,
    P(Q ≤ q) = E[R(q·s)] with s = sqrt(χ²_df / df). scipy's general-purpose
    integration takes about 20 ms per value, too slow for thousands of pairs.

    Examples
    --------
    >>> round(float(studentized_range_sf(3.5, 3, 20)), 6)
    0.055892
    """
    q = np.asarray(q, dtype=float)
    if k < 2:
        raise ValueError(f"need at least 2 means, got k={k}")
    spline = _normal_range_cdf(int(k))
    if np.isinf(df) or df > 1e7:
        s, ws = np.ones(1), np.ones(1)
    else:
        s, ws = _chi_scale_nodes(float(df))
    x = np.minimum(np.nan_to_num(q, nan=0.0)[..., None] * s, 20.0)
    sf = np.clip(1.0 - spline(x) @ ws, 0.0, 1.0)
    return np.where(np.isnan(q), np.nan, sf)


@limited_blas
def tukey_hsd_all_pairs(x, axis_topic: int = -2, *, pairs=None) -> PairTestResult:
    """Tukey's HSD test of system pairs with the error term of the two-way ANOVA
    without replication (topics as blocks), as Sakai describes for IR.

    q = abs(x̄_i − x̄_j) / sqrt(MSE / T), compared with the studentized range
    distribution of S means and (T − 1)(S − 1) degrees of freedom. The p-values
    are already adjusted for the family of all S(S − 1)/2 pairs.

    Parameters
    ----------
    x : array_like
        Complete scores ``(..., T, S)`` (no NaN).
    axis_topic : int
        Axis of the topics.
    pairs : tuple of two int arrays, optional
        Pairs (i, j) to report; the family is always all pairs of the S systems.

    Returns
    -------
    PairTestResult
        ``statistic`` (q), ``pvalue`` and ``n`` (topics).

    Examples
    --------
    >>> x = [[0.1, 0.3, 0.2], [0.4, 0.6, 0.4], [0.2, 0.5, 0.3], [0.3, 0.5, 0.3]]
    >>> r = tukey_hsd_all_pairs(x)
    >>> r.statistic.round(2).tolist(), r.pvalue.round(4).tolist()
    ([12.07, 2.68, 9.39], [0.0003, 0.2195, 0.0014])
    """
    x = complete_topics(x, axis_topic)
    t, s = x.shape[-2:]
    i, j = resolve_pairs(s, pairs)
    mse, df = two_way_anova_mse(x)
    means = x.mean(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.abs(means[..., i] - means[..., j]) / np.sqrt(mse / t)[..., None]
    p = studentized_range_sf(q, s, df)
    p = np.where(q == 0, 1.0, p)
    return PairTestResult(q, p, np.full(q.shape, t, dtype=np.int64))


@limited_blas
def randomised_tukey_hsd_all_pairs(
    x, axis_topic: int = -2, *, B: int = 10_000, seed=None, pairs=None
) -> PairTestResult:
    """Randomised Tukey HSD test (Carterette 2012; Sakai 2014) of system pairs.

    Each of B trials permutes the scores of every topic across the systems and
    records the range (max − min) of the system means; the p-value of pair (i, j)
    is (1 + #{ranges ≥ abs(x̄_i − x̄_j)}) / (B + 1), adjusted for the whole family.
    The permutations are shared by the batch elements, so each element's p-values are
    those of the element alone with the same seed.

    Parameters
    ----------
    x : array_like
        Complete scores ``(..., T, S)`` (no NaN).
    axis_topic : int
        Axis of the topics.
    B : int
        Number of permutation trials.
    seed : int, numpy.random.Generator or None
        Seed of the permutations; the same seed gives the same p-values.
    pairs : tuple of two int arrays, optional
        Pairs (i, j) to report; the family is always all pairs.

    Returns
    -------
    PairTestResult
        ``statistic`` (absolute difference of means), ``pvalue`` and ``n`` (topics).

    Examples
    --------
    >>> x = [[0.1, 0.3, 0.2], [0.4, 0.6, 0.4], [0.2, 0.5, 0.3], [0.3, 0.5, 0.3]]
    >>> r = randomised_tukey_hsd_all_pairs(x, B=2000, seed=1)
    >>> r.statistic.round(3).tolist(), bool(r.pvalue[1] > 0.2)
    ([0.225, 0.05, 0.175], True)
    """
    _check_b(B)
    x = complete_topics(x, axis_topic)
    t, s = x.shape[-2:]
    i, j = resolve_pairs(s, pairs)
    means = x.mean(axis=-2)
    diff = np.abs(means[..., i] - means[..., j])
    tol = 1e-9 * np.abs(x).max(axis=(-2, -1), keepdims=True)[..., 0]
    rng = np.random.default_rng(seed)
    count = np.zeros(diff.shape, dtype=np.int64)
    step = max(1, _CHUNK_CELLS // x.size)
    systems = np.arange(s)
    batch = (1,) * (x.ndim - 2)
    # a bar only inside a job that gives it a share, or for a long run on its own
    with progress_bar(B, "randomised Tukey HSD", unit="permutation",
                      show=None if B * x.size > _CHUNK_CELLS else False) as job:
        for start in range(0, B, step):
            b = min(step, B - start)
            # one permutation per trial and topic, shared by every batch element (measures,
            # simulated collections …): a batch element's p-values do not depend on others
            order = rng.permuted(np.broadcast_to(systems, (b, t, s)), axis=-1)
            shuffled = np.take_along_axis(x[np.newaxis], order.reshape(b, *batch, t, s),
                                          axis=-1)
            perm_means = shuffled.mean(axis=-2)  # (b, ..., S)
            ranges = perm_means.max(axis=-1) - perm_means.min(axis=-1)  # (b, ...)
            count += (ranges[..., None] >= diff - tol).sum(axis=0)
            job.advance(b)
    p = (1.0 + count) / (B + 1.0)
    return PairTestResult(diff, p, np.full(diff.shape, t, dtype=np.int64))
