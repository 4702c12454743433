"""The grid every continuous margin is tabulated on, and what the tables give.

A continuous margin on [0, 1] is tabulated as its cdf ``F`` at the points :data:`X` (a
uniform grid of 4097 points refined geometrically towards both bounds). From the
table:

- moments by the trapezoidal rule, ``E[X] = ∫ (1 − F)``, ``E[X²] = ∫ 2x (1 − F)``;
- random draws by inverse interpolation, ``x = F⁻¹(u)`` linear between grid points
  (exact at the grid points; the cdf round trip is within about 1e-6);
- the mean transform ``G = F^a`` or ``G = 1 − (1 − F)^b`` by element-wise powers.

Discrete margins use their support as the grid (a step cdf, exact inverse).
"""

from __future__ import annotations

import numpy as np

__all__ = ["WEIGHTS", "X", "search_index", "stacked", "table_inverse", "table_moments"]

#: Buckets of u per row of :func:`search_index` (a power of 2: ``u · buckets`` is exact).
BUCKETS = 4096


def _grid() -> np.ndarray:
    uniform = np.linspace(0.0, 1.0, 4097)
    near = np.geomspace(1e-10, uniform[1], 24)[:-1]
    return np.unique(np.concatenate([uniform, near, 1.0 - near]))


#: Points of the continuous tables.
X: np.ndarray = _grid()
#: Trapezoid weights on :data:`X` (Σ w f ≈ ∫₀¹ f).
WEIGHTS: np.ndarray = np.concatenate([[0.0], np.diff(X)]) / 2 + np.concatenate(
    [np.diff(X), [0.0]]) / 2


def table_moments(cdf: np.ndarray, support: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of margins tabulated as cdf rows ``(..., K)``.

    Continuous (``support=None``): the trapezoidal rule on :data:`X`. Discrete: the
    exact sums over ``support``.

    Examples
    --------
    >>> mean, var = table_moments(X[np.newaxis] ** 2)  # density 2x on [0, 1]
    >>> round(float(mean[0]), 7), round(float(var[0]), 7)
    (0.6666667, 0.0555556)
    """
    if support is None:
        tail = 1.0 - cdf
        mean = tail @ WEIGHTS
        second = tail @ (2.0 * X * WEIGHTS)
    else:
        pmf = np.diff(cdf, axis=-1, prepend=0.0)
        mean = pmf @ support
        second = pmf @ (support * support)
    return mean, np.maximum(second - mean * mean, 0.0)


def stacked(cdf: np.ndarray) -> np.ndarray:
    """The cdf rows ``(M, K)`` as one sorted array, row ``r`` offset by ``r`` (what
    :func:`table_inverse` searches; compute it once for many calls)."""
    m = cdf.shape[0]
    return (np.maximum.accumulate(cdf, axis=1) + np.arange(m)[:, np.newaxis]).ravel()


def search_index(flat: np.ndarray, m: int) -> np.ndarray:
    """Where row ``r`` of :func:`stacked` first reaches ``r + b / BUCKETS``, for
    ``b = 0 … BUCKETS``: ``(m, BUCKETS + 1)`` positions in ``flat`` that bracket every
    search of :func:`table_inverse` to a few grid points (compute it once for many calls).

    Examples
    --------
    >>> index = search_index(stacked(X[np.newaxis]), 1)  # uniform: F = X
    >>> index.shape, int(index[0, BUCKETS // 2]) == int(np.searchsorted(X, 0.5))
    ((1, 4097), True)
    """
    edges = np.arange(m)[:, np.newaxis] + np.arange(BUCKETS + 1) / BUCKETS
    positions = np.searchsorted(flat, edges, side="left")
    return positions.astype(np.int32) if flat.size < 2**31 else positions


def table_inverse(cdf: np.ndarray, u: np.ndarray, rows: np.ndarray | None = None,
                  support: np.ndarray | None = None, flat: np.ndarray | None = None,
                  index: np.ndarray | None = None) -> np.ndarray:
    """Quantiles ``F⁻¹(u)`` of tabulated margins, all at once.

    Parameters
    ----------
    cdf : numpy.ndarray
        ``(M, K)`` cdf rows (non-decreasing, last value 1).
    u : numpy.ndarray
        Probabilities in (0, 1), any shape.
    rows : numpy.ndarray, optional
        Integer array broadcastable to ``u``: the margin (row of ``cdf``) of each
        ``u``; default: the last axis of ``u`` runs over the ``M`` rows.
    support : numpy.ndarray, optional
        ``(K,)`` support of discrete margins: ``min{s_k : F(s_k) ≥ u}``. Without it,
        continuous margins on :data:`X`, linear between grid points.
    flat : numpy.ndarray, optional
        :func:`stacked` of ``cdf``, if already computed.
    index : numpy.ndarray, optional
        :func:`search_index` of ``flat``: each ``u`` is then searched among the few grid
        points of its bucket (the same quantiles, found faster).

    Examples
    --------
    >>> cdf = np.vstack([X, X ** 2])  # uniform, and density 2x
    >>> table_inverse(cdf, np.array([[0.25, 0.25]])).round(6).tolist()
    [[0.25, 0.5]]
    """
    m, k = cdf.shape
    if rows is None:
        rows = np.arange(m)
    rows = np.broadcast_to(rows, u.shape)
    # Offsetting row r by r makes all rows one sorted array: one searchsorted for all.
    if flat is None:
        flat = stacked(cdf)
    if index is not None:
        from ..kernels.table_search import bucketed_inverse  # numba: loaded when used

        out = bucketed_inverse(flat, X, k, u, rows, index, support)
        if out is not None:
            return out
    target = (u + rows).ravel()
    order = np.argsort(target)  # sorted keys search faster (memory locality)
    pos = np.empty(target.size, dtype=np.intp)
    pos[order] = np.searchsorted(flat, target[order], side="left")
    first = rows * k  # row r's first position in flat
    j = np.clip(pos.reshape(u.shape) - first, 0, k - 1)
    if support is not None:
        return support[j]
    j = np.maximum(j, 1)
    at = first + j
    hi_f, lo_f = flat[at] - rows, flat[at - 1] - rows
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.where(hi_f > lo_f, (u - lo_f) / (hi_f - lo_f), 1.0)
    return X[j - 1] + np.clip(frac, 0.0, 1.0) * (X[j] - X[j - 1])
