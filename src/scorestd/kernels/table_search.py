"""Compiled inverse of tabulated cdfs through a bucket index (numba).

:func:`scorestd.models._grid.table_inverse` turns the uniforms of a simulation into scores
by searching each ``u`` in its margin's cdf row. With the rows stacked into one sorted
array (row ``r`` offset by ``r``) and a bucket index (where row ``r`` first reaches
``r + b / buckets``), each search is bracketed to the few positions of its bucket. This
loop does the search and the linear interpolation of one value at a time, with the same
floating-point operations in the same order as the numpy expressions it replaces (no
fast-math, no fused multiply-add): the quantiles are equal bit for bit, without the
temporary arrays of the vectorised version.

numba is imported when this module is; callers import it inside the function that uses
it (``import scorestd`` does not load numba).
"""

from __future__ import annotations

import numpy as np

from .compiled import jit

__all__ = ["bucketed_inverse"]


@jit
def _inverse(flat, grid, support, rows, u, index, n_cols, out):  # pragma: no cover
    buckets = index.shape[1] - 1
    size = flat.shape[0]
    for e in range(u.shape[0]):
        r = rows[e]
        target = u[e] + r
        within = target - r  # exact: target lies in [r, r + 1] (Sterbenz)
        if not (within >= 0.0 and within <= 1.0):
            return False  # e.g. NaN: the caller searches all of flat
        b = min(int(within * buckets), buckets - 1)
        # flat[lo - 1] < r + b / buckets <= target <= r + (b + 1) / buckets <= flat[hi]:
        # searchsorted(flat, target, "left") lies in [lo, hi]
        low, high = index[r, b], index[r, b + 1]
        while low < high:
            mid = (low + high) >> 1
            if flat[min(mid, size - 1)] < target:
                low = mid + 1
            else:
                high = mid
        first = r * n_cols
        j = min(max(low - first, 0), n_cols - 1)
        if support.shape[0]:
            out[e] = support[j]
            continue
        j = max(j, 1)
        hi_f = flat[first + j] - r
        lo_f = flat[first + j - 1] - r
        frac = (u[e] - lo_f) / (hi_f - lo_f) if hi_f > lo_f else 1.0
        frac = min(max(frac, 0.0), 1.0)
        out[e] = grid[j - 1] + frac * (grid[j] - grid[j - 1])
    return True


def bucketed_inverse(flat: np.ndarray, grid: np.ndarray, n_cols: int, u: np.ndarray,
                     rows: np.ndarray, index: np.ndarray,
                     support: np.ndarray | None = None) -> np.ndarray | None:
    """Quantiles of ``u`` in the stacked cdf rows ``flat``, searched through ``index``.

    Parameters
    ----------
    flat : numpy.ndarray
        ``(M * n_cols,)`` float64: the cdf rows stacked, row ``r`` offset by ``r``.
    grid : numpy.ndarray
        ``(n_cols,)`` the points the continuous cdfs are tabulated at.
    n_cols : int
        Points per row.
    u : numpy.ndarray
        Probabilities, any shape.
    rows : numpy.ndarray
        Integer rows, broadcastable to ``u``.
    index : numpy.ndarray
        ``(M, buckets + 1)``: where row ``r`` of ``flat`` first reaches
        ``r + b / buckets`` (``buckets`` a power of 2).
    support : numpy.ndarray, optional
        ``(n_cols,)`` support of discrete margins: ``min{s_k : F(s_k) ≥ u}``; without
        it, linear between the grid points.

    Returns
    -------
    numpy.ndarray or None
        Quantiles shaped as ``u``; ``None`` when some ``u`` is not in [0, 1] (e.g. NaN:
        search the whole table instead).

    Examples
    --------
    >>> grid = np.linspace(0.0, 1.0, 5)
    >>> flat = np.concatenate([grid, grid ** 2 + 1])  # F(x) = x and F(x) = x²
    >>> index = np.searchsorted(flat, np.arange(2)[:, None] + np.arange(5) / 4)
    >>> bucketed_inverse(flat, grid, 5, np.array([0.25, 0.25]), np.array([0, 1]),
    ...                  index).tolist()
    [0.25, 0.5]
    """
    shape = np.broadcast_shapes(np.shape(u), np.shape(rows))
    u_flat = np.ascontiguousarray(np.broadcast_to(u, shape), dtype=np.float64).ravel()
    rows_flat = np.ascontiguousarray(np.broadcast_to(rows, shape), dtype=np.int64).ravel()
    out = np.empty(u_flat.size, dtype=np.float64)
    values = np.empty(0) if support is None else np.ascontiguousarray(support, np.float64)
    if not _inverse(flat, grid, values, rows_flat, u_flat, index, n_cols, out):
        return None
    return out.reshape(shape)
