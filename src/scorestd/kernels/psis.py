r"""Pareto-smoothed importance sampling (PSIS; Vehtari et al. 2024), vectorised over rows.

The rule of arviz 0.x's ``psislw`` (the number of tail draws
``M = ⌈min(S/5, 3·√(S/r_eff))⌉``, Zhang & Stephens' empirical-Bayes fit of the generalized
Pareto tail with its weakly informative prior on k, the tail replaced by the fitted
quantiles at (i − ½)/M and truncated at the largest raw weight), applied to every row of a
``(rows, S)`` array at once: arviz loops over the rows in Python, which for a PSIS-LOO
over ten thousand scores costs seconds. Rows whose tail does not hold exactly M draws
(ties at the cut, or weights below the smallest normal number) are worked with their own
tail length, as arviz does.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["log_sum_exp", "pareto_smoothed_log_weights", "tail_draws"]

#: Rows of the generalized Pareto fit worked on at once (its temporaries are
#: rows × (30 + √M) × M floats: a few MB).
FIT_ROWS = 128


def log_sum_exp(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """log Σ exp(x) along ``axis``, shifted by the largest value (``-inf`` for a slice of
    ``-inf`` only): ``scipy.special.logsumexp`` without its generality, several times
    faster on the large arrays of a PSIS-LOO.

    Examples
    --------
    >>> float(log_sum_exp(np.log(np.array([1.0, 2.0, 3.0]))))  # log 6
    1.791759469228055
    """
    top = np.max(x, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    total = np.sum(np.exp(x - top), axis=axis, keepdims=True)
    with np.errstate(divide="ignore"):
        return np.squeeze(np.log(total) + top, axis=axis)


def tail_draws(draws: int, reff: float = 1.0) -> int:
    """Draws in the smoothed tail: ⌈min(S/5, 3·√(S/r_eff))⌉.

    Examples
    --------
    >>> tail_draws(8000), tail_draws(100)
    (269, 20)
    """
    return math.ceil(min(draws / 5.0, 3.0 * (draws / reff) ** 0.5))


def pareto_smoothed_log_weights(log_ratios: np.ndarray,
                                reff: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Smoothed, normalized log importance weights of each row and its Pareto shape k.

    Parameters
    ----------
    log_ratios : (rows, S) array
        Log importance ratios (for LOO: minus each score's pointwise log-likelihood).
    reff : float
        Relative efficiency of the draws (ESS / S).

    Returns
    -------
    log_weights : (rows, S) array, each row's ``logsumexp`` 0
    k : (rows,) array, ``inf`` where the tail has 4 draws or fewer (no smoothing)

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> lw, k = pareto_smoothed_log_weights(rng.standard_t(3, (2, 1000)))
    >>> bool(np.allclose(log_sum_exp(lw, axis=1), 0)), k.shape
    (True, (2,))
    """
    x = np.array(log_ratios, dtype=float, ndmin=2, order="C")
    rows, n = x.shape
    x -= x.max(axis=1, keepdims=True)
    m = tail_draws(n, reff)
    k = np.full(rows, np.inf)
    floor = np.log(np.finfo(float).tiny)
    # the largest m + 1 draws of each row, sorted (a partition, not a sort of the row)
    if m < n:
        top_at = np.argpartition(x, n - m - 1, axis=1)[:, n - m - 1:]
        top = np.take_along_axis(x, top_at, axis=1)
        by = np.argsort(top, axis=1)
        top_at = np.take_along_axis(top_at, by, axis=1)
        top = np.take_along_axis(top, by, axis=1)
        usual = np.flatnonzero(top[:, 0] >= floor)
    else:
        usual = np.empty(0, dtype=np.intp)
    # a row's tail is x > its cut (the (m + 1)-th largest draw, or the smallest normal
    # number): within its top m + 1 draws unless the cut is that floor (worked apart)
    if usual.size:
        top, top_at = top[usual], top_at[usual]
        cut = top[:, 0]
        part = k[usual]
        _smooth_rows(top, m + 1 - np.sum(top <= cut[:, None], axis=1), cut, part)
        k[usual] = part
        np.minimum(top, 0.0, out=top)  # (truncated at the largest raw weight)
        x[usual[:, None], top_at] = top
    other = np.setdiff1d(np.arange(rows), usual)
    if other.size:
        xs = np.sort(x[other], axis=1)  # (the rows' order is restored below)
        order = np.argsort(x[other], axis=1)
        cut = np.maximum(xs[:, n - m - 1], floor) if m < n else np.full(other.size, floor)
        part = k[other]
        _smooth_rows(xs, n - np.sum(xs <= cut[:, None], axis=1), cut, part)
        k[other] = part
        np.minimum(xs, 0.0, out=xs)
        back = np.empty_like(xs)
        np.put_along_axis(back, order, xs, axis=1)
        x[other] = back
    x -= log_sum_exp(x, axis=1)[:, None]
    return x, k


def _smooth_rows(xs: np.ndarray, lengths: np.ndarray, cut: np.ndarray,
                 k: np.ndarray) -> None:
    """Smooth the tail (the last ``lengths[i]`` of the sorted ``xs[i]``) of each row with
    more than 4 tail draws, grouped by tail length; ``k`` receives the fitted shapes."""
    for length in np.unique(lengths):
        if length > 4:
            _smooth_tail(xs, np.flatnonzero(lengths == length), int(length), cut, k)


def _smooth_tail(xs: np.ndarray, pick: np.ndarray, length: int, cut: np.ndarray,
                 k: np.ndarray) -> None:
    """Replace the last ``length`` sorted log weights of rows ``pick`` by the quantiles
    of their fitted generalized Pareto law (where the fit is finite), in place."""
    probs = np.arange(0.5, length) / length
    for start in range(0, pick.size, FIT_ROWS):
        rows = pick[start:start + FIT_ROWS]
        shift = np.exp(cut[rows])[:, None]
        tail = np.exp(xs[rows, -length:]) - shift
        kappa, sigma = _gpd_fit(tail)
        k[rows] = kappa
        ok = np.isfinite(kappa)
        with np.errstate(invalid="ignore", divide="ignore"):
            small = np.abs(kappa) < np.finfo(float).eps
            safe = np.where(small, 1.0, kappa)[:, None]
            q = np.where(small[:, None], -np.log1p(-probs),
                         np.expm1(-safe * np.log1p(-probs)) / safe)
            q = np.where((sigma > 0)[:, None], q * sigma[:, None], np.nan)
            smoothed = np.log(q + shift)
        xs[rows[ok], -length:] = smoothed[ok]


def _gpd_fit(tail: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Zhang & Stephens (2009) empirical-Bayes estimates (k, σ) of the generalized Pareto
    law of each row of sorted exceedances ``(rows, n)``, with the prior of Vehtari et al.
    (k shrunk towards 0.5 by 10 pseudo-observations)."""
    prior_bs, prior_k = 3.0, 10.0
    n = tail.shape[1]
    m = 30 + int(n ** 0.5)
    grid = 1.0 - np.sqrt(m / (np.arange(1, m + 1, dtype=float) - 0.5))
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        b = (grid[None, :] / (prior_bs * tail[:, int(n / 4 + 0.5) - 1:int(n / 4 + 0.5)])
             + 1.0 / tail[:, -1:])
        k_grid = np.log1p(-b[:, :, None] * tail[:, None, :]).mean(axis=2)
        profile = n * (np.log(-(b / k_grid)) - k_grid - 1.0)
        weights = 1.0 / np.exp(profile[:, None, :] - profile[:, :, None]).sum(axis=2)
    # negligible weights (NaN included) are left out, as arviz drops them: their grid
    # points (b may be ±∞ there) take no part, and a row without any has b = 0
    kept = weights >= 10 * np.finfo(float).eps
    weights = np.where(kept, weights, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        weights /= weights.sum(axis=1, keepdims=True)
        b_post = np.sum(np.where(kept, b * weights, 0.0), axis=1)
        k_post = np.log1p(-b_post[:, None] * tail).mean(axis=1)
        sigma = -k_post / b_post
    return (n * k_post + prior_k * 0.5) / (n + prior_k), sigma
