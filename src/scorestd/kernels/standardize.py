"""Per-topic standardization kernels: numpy arrays, systems on the last axis.

Every function takes evaluated scores ``x`` shaped ``(..., T, S)`` and reference scores
``ref`` shaped ``(..., T, R)`` (any leading batch dims, then topics, then systems) and
fits one distribution per row of ``ref`` (one topic of one batch element) that it
applies to the same row of ``x``. ``NaN`` in ``ref`` is skipped when fitting; ``NaN``
in ``x`` stays ``NaN``. A row of ``ref`` without a finite score, or with zero spread
for the location-scale transforms, gives ``NaN`` (the labelled layer applies the
degenerate-topic policy before it gets here).

No xarray here; :func:`scorestd.standardize` wraps these.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import special

__all__ = [
    "ecdf",
    "ecdf_counts",
    "location_scale",
    "normal_cdf",
    "uniform_bounds",
    "uniform_cdf",
    "zscore",
]

Ties = Literal["right", "mid"]
TIES: tuple[str, ...] = ("right", "mid")


def location_scale(ref: np.ndarray, axis: int = -1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Count, mean and ``n - 1`` standard deviation of the non-NaN values along ``axis``.

    Returns ``(n, mean, sd)`` with ``axis`` kept as length 1 so they broadcast
    against the scores. ``mean`` is ``NaN`` where ``n == 0`` and ``sd`` where ``n < 2``.

    Examples
    --------
    >>> n, mean, sd = location_scale(np.array([[0.1, 0.3, np.nan]]))
    >>> n.ravel().tolist(), mean.ravel().round(3).tolist(), sd.ravel().round(4).tolist()
    ([2], [0.2], [0.1414])
    """
    ref = np.asarray(ref, dtype=np.float64)
    missing = np.isnan(ref)
    if not missing.any():  # the common case: plain reductions, no masked copies
        mean = ref.mean(axis=axis, keepdims=True)
        n = np.full(mean.shape, ref.shape[axis])
        if ref.shape[axis] < 2:
            return n, mean, np.full(mean.shape, np.nan)
        return n, mean, ref.std(axis=axis, ddof=1, keepdims=True)
    n = (~missing).sum(axis=axis, keepdims=True)
    filled = np.where(missing, 0.0, ref)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = filled.sum(axis=axis, keepdims=True) / n
        dev = np.where(missing, 0.0, ref - mean)
        sd = np.sqrt((dev * dev).sum(axis=axis, keepdims=True) / (n - 1))
    sd = np.where(n > 1, sd, np.nan)
    return n, mean, sd


def zscore(x: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """z-score of ``x`` against the mean and ``n - 1`` sd of ``ref`` (z-std, Webber et al. 2008).

    Examples
    --------
    >>> zscore(np.array([[0.1, 0.5]]), np.array([[0.1, 0.3, 0.5]])).round(6).tolist()
    [[-1.0, 1.0]]
    """
    _, mean, sd = location_scale(ref)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (np.asarray(x, dtype=np.float64) - mean) / sd


def normal_cdf(x: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Normal cdf of ``x`` with the mean and sd of ``ref`` (N-std, Webber et al. 2008).

    Examples
    --------
    >>> normal_cdf(np.array([[0.3]]), np.array([[0.1, 0.3, 0.5]])).tolist()
    [[0.5]]
    """
    return special.ndtr(zscore(x, ref))


def uniform_bounds(
    mean: np.ndarray, sd: np.ndarray, A: float = 0.15, B: float = 0.5
) -> tuple[np.ndarray, np.ndarray]:
    """Support ``[a, b]`` of the uniform whose cdf is Sakai's ``A z + B`` (Urbano et al. 2019, Eq. 6).

    Examples
    --------
    >>> [float(v) for v in uniform_bounds(0.5, 0.1)]
    [0.1666..., 0.8333...]
    """
    _check_sakai(A, B)
    return mean - sd * B / A, mean + sd * (1.0 - B) / A


def uniform_cdf(x: np.ndarray, ref: np.ndarray, A: float = 0.15, B: float = 0.5) -> np.ndarray:
    """U-std (Sakai 2016): ``clip(A z + B, 0, 1)`` with ``z`` from :func:`zscore`.

    Examples
    --------
    >>> uniform_cdf(np.array([[0.1, 0.3, 0.9]]), np.array([[0.1, 0.3, 0.5]])).round(6).tolist()
    [[0.35, 0.5, 0.95]]
    """
    _check_sakai(A, B)
    y = A * zscore(x, ref) + B
    return np.clip(y, 0.0, 1.0, out=y)


def ecdf_counts(
    x: np.ndarray, ref: np.ndarray, *, ties: Ties = "right"
) -> tuple[np.ndarray, np.ndarray]:
    """Counts behind :func:`ecdf`: ``(#{ref <= x}, n)``, or the mid-rank count for ``ties="mid"``.

    One stable sort of ``[ref, x]`` per row (reference first, so that a reference
    score equal to ``x`` sorts before it); a running count of reference scores then
    gives ``#{ref <= x}`` at each ``x``. When ``x is ref`` a single sort of ``ref``
    is enough. No loop over rows.

    Examples
    --------
    >>> counts, n = ecdf_counts(np.array([[0.2, 0.3]]), np.array([[0.1, 0.2, 0.2, 0.4]]))
    >>> counts.tolist(), n.ravel().tolist()
    ([[3.0, 3.0]], [4])
    """
    if ties not in TIES:
        raise ValueError(f"unknown ties={ties!r}; choose one of {TIES}")
    same = x is ref
    # Sorting along a strided axis is several times slower than along a contiguous one.
    ref = np.ascontiguousarray(ref, dtype=np.float64)
    n = (~np.isnan(ref)).sum(axis=-1, keepdims=True)
    if same:
        counts = _self_counts(ref, ties)
    else:
        x = np.ascontiguousarray(x, dtype=np.float64)
        ref, x = _broadcast_rows(ref, x)
        counts = _merged_counts(x, ref, ties)
    return counts, n


def ecdf(x: np.ndarray, ref: np.ndarray, *, ties: Ties = "right") -> np.ndarray:
    """Empirical cdf of ``ref`` evaluated at ``x`` (E-std, Urbano et al. 2019, Eq. 7).

    ``ties="right"`` is the right-continuous ecdf ``#{ref <= x} / n``; ``ties="mid"``
    counts reference scores equal to ``x`` as one half,
    ``(#{ref < x} + #{ref <= x}) / (2 n)``, so tied systems get the mid-rank. ``n`` is
    the number of non-NaN reference scores of the row.

    Examples
    --------
    >>> ecdf(np.array([[0.05, 0.2, 0.5]]), np.array([[0.1, 0.2, 0.2, 0.4]])).tolist()
    [[0.0, 0.75, 1.0]]
    >>> ecdf(np.array([[0.2]]), np.array([[0.1, 0.2, 0.2, 0.4]]), ties="mid").tolist()
    [[0.5]]
    """
    counts, n = ecdf_counts(x, ref, ties=ties)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = counts / n
    return out


def _broadcast_rows(ref: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    lead = np.broadcast_shapes(ref.shape[:-1], x.shape[:-1])
    return (np.broadcast_to(ref, (*lead, ref.shape[-1])),
            np.broadcast_to(x, (*lead, x.shape[-1])))


def _self_counts(ref: np.ndarray, ties: Ties) -> np.ndarray:
    """``#{ref <= ref_i}`` (or mid-rank) for every element, from one argsort per row."""
    order = np.argsort(ref, axis=-1)
    values = np.sort(ref, axis=-1)  # equals ref[order] (tied values are interchangeable), faster
    r = ref.shape[-1]
    # A tie group ends where the next sorted value differs; its last 1-based position is
    # #{ref <= v} for every member. A reverse running minimum spreads it over the group.
    ends = np.empty(values.shape, dtype=bool)
    ends[..., -1] = True
    np.not_equal(values[..., 1:], values[..., :-1], out=ends[..., :-1])
    position = np.arange(1, r + 1, dtype=np.int32)
    le = np.where(ends, position, np.int32(r))
    np.minimum.accumulate(le[..., ::-1], axis=-1, out=le[..., ::-1])
    le = le.astype(np.float64)
    if ties == "mid":
        starts = np.empty(values.shape, dtype=bool)
        starts[..., 0] = True
        starts[..., 1:] = ends[..., :-1]
        lt = np.where(starts, position - 1, np.int32(0))
        np.maximum.accumulate(lt, axis=-1, out=lt)
        le = (le + lt) / 2.0
    le[np.isnan(values)] = np.nan
    return _scatter_rows(le, order)


def _scatter_rows(sorted_values: np.ndarray, order: np.ndarray) -> np.ndarray:
    """``out[..., order[..., j]] = sorted_values[..., j]`` by flat indexing (put_along_axis
    builds full-size index grids and is several times slower)."""
    r = order.shape[-1]
    rows = order.size // r if r else 0
    flat = order.reshape(rows, r) + (np.arange(rows, dtype=order.dtype) * r)[:, np.newaxis]
    out = np.empty(order.size)
    out[flat.ravel()] = sorted_values.ravel()
    return out.reshape(order.shape)


def _merged_counts(x: np.ndarray, ref: np.ndarray, ties: Ties) -> np.ndarray:
    """``#{ref <= x_j}`` (or mid-rank) from one stable sort of ``[ref, x]`` per row."""
    r = ref.shape[-1]
    merged = np.concatenate([ref, x], axis=-1)
    order = np.argsort(merged, axis=-1, kind="stable")
    from_ref = (order < r) & ~np.isnan(np.take_along_axis(merged, order, axis=-1))
    # Stable sort keeps each reference score before an equal x, so the running count
    # of reference scores at an x is #{ref <= x}.
    le = np.cumsum(from_ref, axis=-1, dtype=np.float64)
    if ties == "mid":
        values = np.take_along_axis(merged, order, axis=-1)
        starts = np.empty(values.shape, dtype=bool)
        starts[..., 0] = True
        np.not_equal(values[..., 1:], values[..., :-1], out=starts[..., 1:])
        before = le - from_ref  # reference scores strictly before this sorted position
        # #{ref < v}: the count before the first member of v's tie group.
        group_start = np.maximum.accumulate(
            np.where(starts, np.arange(values.shape[-1]), 0), axis=-1)
        lt = np.take_along_axis(before, group_start, axis=-1)
        le = (le + lt) / 2.0
    counts = _scatter_rows(le, order)[..., r:]
    counts[np.isnan(x)] = np.nan
    return counts


def _check_sakai(A: float, B: float) -> None:
    if not A > 0:
        raise ValueError(f"U-std needs a positive slope A, got A={A}")
    if not 0 <= B <= 1:
        raise ValueError(f"U-std needs an intercept B in [0, 1], got B={B}")
