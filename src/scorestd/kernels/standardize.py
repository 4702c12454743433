"""Per-topic standardization kernels: numpy arrays, systems on the last axis.

Scores ``x`` are shaped ``(..., S)`` (systems last, any leading dims, one distribution per
row). The location-scale cdfs take the per-row parameters (``mean``, ``sd`` broadcasting
against ``x``, as :func:`location_scale` returns them); the ecdf takes the reference
scores ``ref`` ``(..., R)`` of each row. ``NaN`` in ``ref`` is skipped when fitting;
``NaN`` in ``x`` stays ``NaN``; zero spread gives ``inf``/``NaN`` (the models apply the
degenerate-topic policy).

No xarray here: the models of :mod:`scorestd.models` (N-std, U-std, z-std, E-std) are
these formulas with a fit, and :func:`scorestd.standardize` wraps the models.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._options import Ties, check_option
from .ecdf import merged_counts, self_counts

__all__ = [
    "ecdf",
    "ecdf_counts",
    "location_scale",
    "normal_cdf",
    "uniform_bounds",
    "uniform_cdf",
    "zscore",
]



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


def zscore(x: np.ndarray, mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """z-score ``(x − μ) / σ`` (z-std, Webber et al. 2008), as one new array.

    Examples
    --------
    >>> n, mean, sd = location_scale(np.array([[0.1, 0.3, 0.5]]))
    >>> zscore(np.array([[0.1, 0.5]]), mean, sd).round(6).tolist()
    [[-1.0, 1.0]]
    """
    z = np.subtract(x, mean, dtype=np.float64)  # then in place: one full-size array
    with np.errstate(invalid="ignore", divide="ignore"):
        z /= sd
    return z


def normal_cdf(x: np.ndarray, mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """Normal cdf ``Φ((x − μ) / σ)`` (N-std, Webber et al. 2008).

    Examples
    --------
    >>> normal_cdf(np.array([[0.3]]), 0.3, 0.2).tolist()
    [[0.5]]
    """
    z = zscore(x, mean, sd)
    return special.ndtr(z, out=z)


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


def uniform_cdf(x: np.ndarray, mean: np.ndarray, sd: np.ndarray, A: float = 0.15,
                B: float = 0.5) -> np.ndarray:
    """U-std (Sakai 2016): ``clip(A (x − μ) / σ + B, 0, 1)``, the cdf of the uniform on
    :func:`uniform_bounds`.

    Examples
    --------
    >>> uniform_cdf(np.array([[0.1, 0.3, 0.9]]), 0.3, 0.2).round(6).tolist()
    [[0.35, 0.5, 0.95]]
    """
    _check_sakai(A, B)
    y = np.subtract(x, mean, dtype=np.float64)  # A (x − μ) / σ + B, in place: one array
    y *= A
    with np.errstate(invalid="ignore", divide="ignore"):
        y /= sd
    y += B
    return np.clip(y, 0.0, 1.0, out=y)


def ecdf_counts(
    x: np.ndarray, ref: np.ndarray, *, ties: Ties = "right"
) -> tuple[np.ndarray, np.ndarray]:
    """Counts behind :func:`ecdf`: ``(#{ref <= x}, n)``, or the mid-rank count for ``ties="mid"``.

    One sort of packed integer keys per row (see :mod:`scorestd.kernels.ecdf`): of
    ``ref`` alone when ``x is ref``, else of ``[ref, x]`` with reference scores
    before equal ``x``. No loop over rows and no argsort.

    Examples
    --------
    >>> counts, n = ecdf_counts(np.array([[0.2, 0.3]]), np.array([[0.1, 0.2, 0.2, 0.4]]))
    >>> counts.tolist(), n.ravel().tolist()
    ([[3.0, 3.0]], [4])
    """
    check_option(ties, Ties, "ties")
    if x is ref:
        ranks = self_counts(ref, ties, keep_sorted=False)
        return ranks.counts, ranks.n
    return merged_counts(x, ref, ties)


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
    check_option(ties, Ties, "ties")
    if x is ref:
        return self_counts(ref, ties, keep_sorted=False, divide=True).counts
    counts, n = merged_counts(x, ref, ties)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.divide(counts, n, out=counts)  # in place: counts is ours


def _check_sakai(A: float, B: float) -> None:
    if not A > 0:
        raise ValueError(f"U-std needs a positive slope A, got A={A}")
    if not 0 <= B <= 1:
        raise ValueError(f"U-std needs an intercept B in [0, 1], got B={B}")
