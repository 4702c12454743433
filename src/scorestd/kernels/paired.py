"""Paired t-tests of every pair of systems from one S × S moment matrix.

Scores are ``(..., T, S)`` arrays (topics on ``axis_topic``, systems on the last
axis). A *pair* (i, j) compares system i minus system j; all pairs are listed in
``numpy.triu_indices(S, k=1)`` order (:func:`pair_indices`), and every function
also takes explicit ``pairs=(i, j)`` index arrays (e.g. each system against a
baseline). Results are ``(..., P)``.

NaN: a topic with a NaN score for either system of a pair is dropped *for that
pair* (``nan_policy="omit"``, the number of topics used is returned as ``n``),
or a ``ValueError`` is raised (``nan_policy="raise"``). A pair with fewer than
2 topics left gives NaN.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
from scipy import special

from .._options import Alternative, NanPolicy, check_option
from .blas import limited_blas

__all__ = [
    "PairedMoments",
    "complete_pair_moments",
    "describe_pairs",
    "pair_differences",
    "pair_indices",
    "paired_moments",
    "paired_t_all_pairs",
    "paired_t_from_moments",
    "pvalue_from_t",
    "scores_and_pairs",
    "topics_last_but_one",
]

def pair_indices(n_systems: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices ``(i, j)`` of all pairs i < j, in ``numpy.triu_indices(S, k=1)`` order.

    Examples
    --------
    >>> i, j = pair_indices(3)
    >>> list(zip(i.tolist(), j.tolist()))
    [(0, 1), (0, 2), (1, 2)]
    """
    if n_systems < 2:
        raise ValueError(f"need at least 2 systems to form pairs, got {n_systems}")
    return np.triu_indices(n_systems, k=1)


def topics_last_but_one(x, axis_topic: int = -2, *, nan_policy: str = "omit") -> np.ndarray:
    """``x`` as float with topics on axis −2 and systems last; checks size and NaN policy.

    Examples
    --------
    >>> topics_last_but_one([[1, 2, 3], [4, 5, 6]], axis_topic=-1).shape  # 2 systems × 3 topics
    (3, 2)
    """
    check_option(nan_policy, NanPolicy, "nan_policy")
    x = np.asarray(x, dtype=float)
    if x.ndim < 2:
        raise ValueError(f"scores must be at least 2-D (topics × systems), got shape {x.shape}")
    x = np.moveaxis(x, axis_topic, -2)
    if x.shape[-2] < 2:
        raise ValueError(f"need at least 2 topics, got {x.shape[-2]}")
    if nan_policy == "raise" and np.isnan(x).any():
        raise ValueError("scores contain NaN and nan_policy='raise'")
    return x


def resolve_pairs(n_systems: int, pairs) -> tuple[np.ndarray, np.ndarray]:
    """``pairs`` as two checked index arrays; all pairs when ``pairs`` is None.

    Examples
    --------
    >>> [a.tolist() for a in resolve_pairs(3, ([2], [0]))]
    [[2], [0]]
    """
    if pairs is None:
        return pair_indices(n_systems)
    i, j = (np.asarray(p, dtype=np.intp) for p in pairs)
    if i.shape != j.shape or i.ndim != 1:
        raise ValueError("pairs must be two 1-D index arrays of the same length")
    if i.size and (min(i.min(), j.min()) < 0 or max(i.max(), j.max()) >= n_systems):
        raise ValueError(f"pair indices out of range for {n_systems} systems")
    return i, j


def scores_and_pairs(x, axis_topic: int, pairs, nan_policy: str):
    """Scores as :func:`topics_last_but_one` gives them and the pairs of :func:`resolve_pairs`.

    Examples
    --------
    >>> x, i, j = scores_and_pairs([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], -2, None, "omit")
    >>> x.shape, i.tolist(), j.tolist()
    ((2, 3), [0, 0, 1], [1, 2, 2])
    """
    x = topics_last_but_one(x, axis_topic, nan_policy=nan_policy)
    i, j = resolve_pairs(x.shape[-1], pairs)
    return x, i, j


def pair_differences(x, axis_topic: int = -2, *, pairs=None, nan_policy: str = "omit"):
    """Differences x_i − x_j of the pairs, ``(..., T, P)`` (NaN where either is missing).

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics.
    pairs : tuple of two int arrays, optional
        Pairs (i, j); all pairs by default.
    nan_policy : {"omit", "raise"}
        Keep NaN differences (for the caller to drop), or raise.

    Examples
    --------
    >>> pair_differences([[0.5, 0.25, 0.0], [0.5, 0.5, 1.0]]).tolist()
    [[0.25, 0.5, 0.25], [0.0, -0.5, -0.5]]
    """
    x, i, j = scores_and_pairs(x, axis_topic, pairs, nan_policy)
    return x[..., i] - x[..., j]


class PairedMoments(NamedTuple):
    """Mean, standard deviation (n − 1) and count of the paired differences x_i − x_j."""

    mean: np.ndarray
    sd: np.ndarray
    n: np.ndarray


@limited_blas
def paired_moments(x, axis_topic: int = -2, *, pairs=None, nan_policy: str = "omit"):
    """Mean, sd and n of the differences of every pair, from S × S moment matrices.

    Without missing scores, var(x_i − x_j) = C_ii + C_jj − 2 C_ij from one S × S
    matrix C of centred cross-products per batch element. With a NaN mask ``m``
    and column-centred scores ``z`` (NaN → 0), the sums over the topics shared by
    systems i and j are entries of ``zᵀm``, ``(z²)ᵀm``, ``zᵀz`` and ``mᵀm``. No
    loop over pairs either way.
    Pairs whose difference variance is at rounding level are recomputed directly
    so that identical systems give exactly ``sd = 0``.

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)`` (topics on ``axis_topic``, systems last).
    axis_topic : int
        Axis of the topics.
    pairs : tuple of two int arrays, optional
        Pairs (i, j) to compare; all pairs (:func:`pair_indices`) by default.
    nan_policy : {"omit", "raise"}
        Drop a topic missing for either system of a pair, or raise.

    Returns
    -------
    PairedMoments
        ``mean``, ``sd`` and ``n`` (topics used), each ``(..., P)``.

    Examples
    --------
    >>> m = paired_moments([[0.5, 0.3], [0.7, 0.4], [0.6, float("nan")]])
    >>> m.mean.tolist(), m.n.tolist()
    ([0.25], [2])
    """
    x, i, j = scores_and_pairs(x, axis_topic, pairs, nan_policy)
    mask = ~np.isnan(x)
    if mask.all():
        mean, var, n_ij, scale = complete_pair_moments(x, i, j)
    else:
        mean, var, n_ij, scale = _masked_moments(x, mask, i, j)
    # Rounding leaves ~1e-17 instead of 0 for identical systems: recompute those.
    tiny = var <= 1e-10 * (scale[..., i] + scale[..., j])
    if tiny.any():
        where = np.nonzero(tiny)
        batch, p = where[:-1], where[-1]
        xi = x[(*batch, slice(None), i[p])] if batch else x[:, i[p]].T
        xj = x[(*batch, slice(None), j[p])] if batch else x[:, j[p]].T
        d = xi - xj
        with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN pairs: NaN is right
            var[where] = np.nanvar(d, axis=-1, ddof=1)
            mean[where] = np.nanmean(d, axis=-1)
    mean = np.where(n_ij < 1, np.nan, mean)
    sd = np.where(n_ij < 2, np.nan, np.sqrt(var))
    return PairedMoments(mean, sd, n_ij.astype(np.int64))


@limited_blas
def complete_pair_moments(x: np.ndarray, i: np.ndarray, j: np.ndarray):
    """Moments of the differences x_i − x_j of complete scores ``(..., T, S)``.

    var(x_i − x_j) = C_ii + C_jj − 2 C_ij from one S × S matrix C of centred
    cross-products per batch element. No NaN check: the scores must be complete.

    Returns
    -------
    mean, var, n, scale : numpy.ndarray
        Mean and variance (n − 1) of the differences and the number of topics, each
        ``(..., P)``; ``scale`` is each system's mean squared deviation ``(..., S)``.

    Examples
    --------
    >>> mean, var, n, _ = complete_pair_moments(np.array([[0.5, 0.3], [0.7, 0.4]]),
    ...                                         np.array([0]), np.array([1]))
    >>> mean.round(3).tolist(), var.round(3).tolist(), n.tolist()
    ([0.25], [0.005], [2.0])
    """
    t, s = x.shape[-2:]
    centre = x.mean(axis=-2, keepdims=True)
    z = (x - centre).reshape(-1, t, s)
    # one S × S cross-product per batch element; a loop of 2-D products is several
    # times faster than numpy's stacked matmul for these small matrices
    g = np.empty((z.shape[0], s, s))
    for b in range(z.shape[0]):
        g[b] = z[b].T @ z[b]  # (np.dot with out= skips BLAS)
    g = g.reshape(*x.shape[:-2], s, s)
    diag = g.diagonal(axis1=-2, axis2=-1)
    var = np.maximum(diag[..., i] + diag[..., j] - 2.0 * g[..., i, j], 0.0) / (t - 1)
    c = centre[..., 0, :]
    n_ij = np.broadcast_to(float(t), var.shape)  # read-only: every pair has all T topics
    return c[..., i] - c[..., j], var, n_ij, diag / t


def _masked_moments(x, mask, i, j):
    # Sums over the topics shared by i and j, from four S × S matrix products of the
    # column-centred scores z (NaN → 0) and the mask m.
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a system with no scores
        centre = np.nan_to_num(np.nanmean(x, axis=-2, keepdims=True))
    z = np.where(mask, x - centre, 0.0)
    m = mask.astype(float)
    zt = np.swapaxes(z, -1, -2)
    a = zt @ m  # a[i, j] = Σ_t m_tj z_ti
    b = np.swapaxes(z * z, -1, -2) @ m
    g = zt @ z
    n = np.rint(np.swapaxes(m, -1, -2) @ m)
    sum_d = a[..., i, j] - a[..., j, i]
    sum_d2 = b[..., i, j] + b[..., j, i] - 2.0 * g[..., i, j]
    n_ij = n[..., i, j]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_c = sum_d / n_ij
        var = np.maximum(sum_d2 - n_ij * mean_c * mean_c, 0.0) / (n_ij - 1)
    c = centre[..., 0, :]
    scale = np.sum(z * z, axis=-2) / np.maximum(n.diagonal(axis1=-2, axis2=-1), 1.0)
    return mean_c + c[..., i] - c[..., j], var, n_ij, scale


def t_quantile(df, q: float) -> np.ndarray:
    """``scipy.special.stdtrit(df, q)``, computed once per distinct ``df``.

    Pairs of complete scores share one df: one quantile serves them all.

    Examples
    --------
    >>> t_quantile(np.array([9, 9, 4]), 0.975).round(3).tolist()
    [2.262, 2.262, 2.776]
    """
    df = np.asarray(df)
    if df.size < 8:
        return special.stdtrit(df, q)
    values, inverse = np.unique(df, return_inverse=True)
    return special.stdtrit(values, q)[inverse.reshape(df.shape)]


def pvalue_from_t(t, df, alternative: str = "two-sided") -> np.ndarray:
    """p-value of a t statistic with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(float(pvalue_from_t(2.0, 10)), 4)
    0.0734
    """
    check_option(alternative, Alternative, "alternative")
    t = np.asarray(t, dtype=float)
    with np.errstate(invalid="ignore"):
        if alternative == "greater":
            return special.stdtr(df, -t)
        if alternative == "less":
            return special.stdtr(df, t)
        return np.minimum(2.0 * special.stdtr(df, -np.abs(t)), 1.0)


@limited_blas
def paired_t_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    alternative: Alternative = "two-sided",
    pairs=None,
    nan_policy: NanPolicy = "omit",
):
    """Paired t-tests of all system pairs at once (equal to ``scipy.stats.ttest_rel``).

    Zero-variance differences: when every difference of a pair is 0 (identical
    systems) the statistic is NaN and the p-value is 1; a constant non-zero
    difference gives t = ±inf (p = 0 in its direction).

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics (systems are always the last axis).
    alternative : {"two-sided", "greater", "less"}
        "greater": mean of system i minus system j is > 0.
    pairs : tuple of two int arrays, optional
        Pairs (i, j) to test; all ``numpy.triu_indices(S, k=1)`` pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    t, p, mean_diff : numpy.ndarray
        Each ``(..., P)``.

    Examples
    --------
    >>> x = [[0.2, 0.1, 0.3], [0.4, 0.2, 0.1], [0.6, 0.4, 0.2], [0.5, 0.4, 0.3]]
    >>> t, p, d = paired_t_all_pairs(x)
    >>> t.round(3).tolist(), d.round(3).tolist()
    ([5.196, 1.852, 0.577], [0.15, 0.2, 0.05])
    """
    mom = paired_moments(x, axis_topic, pairs=pairs, nan_policy=nan_policy)
    t, p = paired_t_from_moments(mom, alternative)
    return t, p, mom.mean


def paired_t_from_moments(mom: PairedMoments, alternative: Alternative = "two-sided"
                          ) -> tuple[np.ndarray, np.ndarray]:
    """t statistics and p-values of paired t-tests from the moments of the differences.

    For callers that also need the moments (:func:`describe_pairs`): one pass over the
    scores serves both. Identical systems (all differences 0) give t = NaN and p = 1.

    Examples
    --------
    >>> mom = paired_moments([[0.2, 0.1], [0.4, 0.2], [0.6, 0.4], [0.5, 0.4]])
    >>> t, p = paired_t_from_moments(mom)
    >>> t.round(3).tolist(), p.round(4).tolist()
    ([5.196], [0.0138])
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        t = mom.mean / (mom.sd / np.sqrt(mom.n))
    p = pvalue_from_t(t, mom.n - 1, alternative)
    identical = (mom.sd == 0) & (mom.mean == 0)
    return t, np.where(identical, 1.0, p)


@limited_blas
def describe_pairs(x, pairs=None, *, conf_level: float = 0.95, axis_topic: int = -2,
                   moments: PairedMoments | None = None):
    """Mean difference, t-based confidence interval, Cohen's d, Glass's Δ and n of pairs.

    For each pair (i, j) over the topics where both are present: the mean of x_i − x_j,
    its two-sided t-based interval at ``conf_level``, Cohen's d of the paired differences
    (mean / sd) and Glass's Δ (mean / sd of system j over its own present topics: j is the
    control or baseline). ``moments`` of the same pairs (:func:`paired_moments`), when the
    caller has them, spare computing them again.

    Returns
    -------
    mean, ci_low, ci_high, cohen_d, glass_delta, n : numpy.ndarray
        Each ``(..., P)``.

    Examples
    --------
    >>> mean, low, high, d, glass, n = describe_pairs([[0.5, 0.3], [0.7, 0.4], [0.6, 0.4]])
    >>> round(float(mean[0]), 4), round(float(d[0]), 4), n.tolist()
    (0.2333, 4.0415, [3])
    """
    x = topics_last_but_one(np.asarray(x, dtype=np.float64), axis_topic)
    _, i, j = scores_and_pairs(x, -2, pairs, "omit")
    mom = paired_moments(x, pairs=(i, j)) if moments is None else moments
    with np.errstate(invalid="ignore", divide="ignore"):
        half = t_quantile(mom.n - 1, (1 + conf_level) / 2) * mom.sd / np.sqrt(mom.n)
        cohen = mom.mean / mom.sd
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a system with < 2 scores: NaN
            sd_control = np.nanstd(x, axis=-2, ddof=1)[..., j]
        glass = mom.mean / sd_control
    return mom.mean, mom.mean - half, mom.mean + half, cohen, glass, mom.n
