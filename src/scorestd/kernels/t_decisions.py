"""Significance decisions of many t-tests at a grid of α, without computing p-values.

Resampling studies only need *how many* tests are significant at each α, for millions
of tests: a two-sided p-value from ``scipy.special.stdtr`` costs about a microsecond
each, which dominates such a study. The decision ``p < α`` is the same as
``|t| > t_{1-α/2}(df)``, so

- with one ``df`` for every test (paired tests on complete data) the statistics are
  compared with the exact critical values;
- with a ``df`` per test (Welch's test) ``|t|`` is mapped to the standard normal
  deviate with the same tail probability by Hill's (1970, CACM Algorithm 395)
  transformation, accurate to better than 1e-6 for ``df >= 10``, and compared with
  the normal critical values; the few tests within 1e-5 of a critical value (or with
  ``df < 10``) get their exact p-value.

The decisions therefore equal ``p < α`` with the p-values of
:func:`scorestd.kernels.significance.pvalue_from_t`.

The t statistics come from :func:`paired_t_complete` (every pair of systems, from one
covariance matrix per batch element) and :func:`welch_t_all_pairs` (the moments and statistics of
:mod:`scorestd.kernels.paired` and :mod:`scorestd.kernels.unpaired`, without their
p-values); both expect complete scores.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .paired import complete_pair_moments
from .unpaired import unpaired_t_statistic

__all__ = [
    "count_significant_t",
    "fraction_significant_t",
    "paired_t_complete",
    "welch_t_all_pairs",
]

# Hill's transformation is checked to 1e-6 for df >= 10; closer calls get exact p-values.
_EXACT_DF_BELOW = 10.0
_TOLERANCE = 1e-5


def paired_t_complete(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Paired t statistics of every pair of systems on complete scores.

    Parameters
    ----------
    x : numpy.ndarray
        Scores ``(..., T, S)`` without NaN (topics second to last).

    Returns
    -------
    t : numpy.ndarray
        ``(..., P)`` for the pairs of ``numpy.triu_indices(S, k=1)`` (system i minus
        system j). ``NaN`` for two identical systems (0/0: never significant).
    df : int
        ``T - 1``.

    Examples
    --------
    >>> x = np.array([[0.2, 0.1, 0.3], [0.4, 0.2, 0.1], [0.6, 0.4, 0.2], [0.5, 0.4, 0.3]])
    >>> t, df = paired_t_complete(x)
    >>> t.round(3).tolist(), df
    ([5.196, 1.852, 0.577], 3)
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-2]
    i, j = np.triu_indices(x.shape[-1], k=1)
    diff, var, _, _ = complete_pair_moments(x, i, j)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = diff / np.sqrt(var / n)
    return t, n - 1


def welch_t_all_pairs(x1: np.ndarray, x2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welch's t and df of every system on ``x1`` against every system on ``x2``.

    Parameters
    ----------
    x1, x2 : numpy.ndarray
        Scores ``(..., T1, S)`` and ``(..., T2, S)`` (topics second to last).

    Returns
    -------
    t, df : numpy.ndarray
        Each ``(..., S, S)``: entry ``[i, j]`` is system i on ``x1`` against system j
        on ``x2``, as :func:`scorestd.kernels.unpaired.unpaired_t_all_pairs` (without
        its p-values).

    Examples
    --------
    >>> t, df = welch_t_all_pairs(np.array([[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]]),
    ...                           np.array([[0.1, 0.3], [0.2, 0.2]]))
    >>> t.round(3).tolist()
    [[0.655, -0.655], [4.583, 3.273]]
    """
    return unpaired_t_statistic(x1, x2)


def fraction_significant_t(t, df, alphas, axis: int = -1) -> np.ndarray:
    """Fraction of two-sided t-tests with ``p < α``, for each α, from ``t`` and ``df``.

    :func:`count_significant_t` divided by the number of tests along ``axis``.

    Examples
    --------
    >>> fraction_significant_t([2.5, -1.0, 4.0, 0.0], 20, [0.01, 0.05]).tolist()
    [0.25, 0.5]
    """
    return count_significant_t(t, df, alphas, axis=axis) / np.shape(t)[axis]


def count_significant_t(t, df, alphas, axis: int = -1) -> np.ndarray:
    """Number of two-sided t-tests with ``p < α``, for each α, from ``t`` and ``df``.

    Parameters
    ----------
    t : array_like
        t statistics.
    df : float or array_like
        Degrees of freedom: one number, or one per test (broadcast against ``t``).
    alphas : array_like
        1-D grid of significance levels.
    axis : int
        Axis of ``t`` to count over.

    Returns
    -------
    numpy.ndarray
        Counts (int): the shape of ``t`` without ``axis``, plus a last axis of length
        ``len(alphas)``. A NaN statistic (0/0: two identical samples, p = 1) is counted as a test that
        is not significant.

    Examples
    --------
    >>> count_significant_t([2.5, -1.0, 4.0, 0.0], 20, [0.01, 0.05]).tolist()
    [1, 2]
    """
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or alphas.size == 0:
        raise ValueError(f"alphas must be a non-empty 1-D grid, got shape {alphas.shape}")
    t = np.moveaxis(np.asarray(t, dtype=np.float64), axis, -1)
    df = np.asarray(df, dtype=np.float64)
    if df.ndim:
        df = np.moveaxis(np.broadcast_to(df, np.shape(t)), axis, -1)
    batch, n = t.shape[:-1], t.shape[-1]
    a = np.abs(t).reshape(-1, n)
    df_flat = df.reshape(-1, n) if df.ndim else df
    lowest, highest = (np.nanmin(df_flat), np.nanmax(df_flat)) if df.ndim else (df, df)
    if not np.isfinite(lowest):  # every df NaN: no statistic can be significant
        lowest = highest = np.inf
    # |t| below the smallest critical value of any test is never significant, above
    # the largest always: only the band between needs a decision per α
    below = stats.t.isf(alphas.max() / 2.0, highest) * (1 - 1e-9)
    above = stats.t.isf(alphas.min() / 2.0, lowest) * (1 + 1e-9)
    always = np.count_nonzero(a > above, axis=-1)
    rows, cols = np.nonzero((a >= below) & (a <= above))
    band = a[rows, cols]
    if df.ndim:
        critical = -special.ndtri(alphas / 2.0)
    else:
        critical = stats.t.isf(alphas / 2.0, df)
    # level of a band statistic = how many critical values it exceeds; one histogram of
    # (row, level) then gives every row's count at every α
    order = np.argsort(critical)
    if df.ndim:
        band = _normal_deviate(band, df_flat[rows, cols], critical[order])
    level = np.searchsorted(critical[order], band, side="left")
    width = alphas.size + 1
    hist = np.bincount(rows * width + level, minlength=a.shape[0] * width).reshape(-1, width)
    exceeding = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # [r, m]: band values with level >= m
    counts = np.empty((a.shape[0], alphas.size))
    counts[:, order] = always[:, None] + exceeding[:, 1:]
    return counts.astype(np.int64).reshape(*batch, alphas.size)


def _normal_deviate(a: np.ndarray, df: np.ndarray, critical: np.ndarray) -> np.ndarray:
    """Normal deviate with the two-sided tail probability of ``|t| = a`` (Hill 1970).

    Values within the approximation's tolerance of a (sorted) critical value, or with
    a small ``df``, are recomputed from the exact p-value.
    """
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        h = df - 0.5
        b = 48.0 * h * h
        y = h * np.log1p(a * a / df)
        z = (((((-0.4 * y - 3.3) * y - 24.0) * y - 85.5) / (0.8 * y * y + 100.0 + b)
              + y + 3.0) / b + 1.0) * np.sqrt(y)
    z = np.where(np.isinf(a) & (df > 0), np.inf, z)
    level = np.searchsorted(critical, z)
    nearest_below = critical[np.maximum(level - 1, 0)]
    nearest_above = critical[np.minimum(level, critical.size - 1)]
    close = (np.abs(z - nearest_below) < _TOLERANCE) | (np.abs(z - nearest_above) < _TOLERANCE)
    close |= df < _EXACT_DF_BELOW
    close &= np.isfinite(a)
    if close.any():
        half_p = special.stdtr(df[close], -a[close])  # the p-value is 2 × this
        z[close] = -special.ndtri(half_p)
    return z
