"""Helpers of the models on [0, 1]: exact 0/1 scores and moments of the present scores."""

from __future__ import annotations

import numpy as np

from ..kernels.standardize import location_scale

__all__ = ["invert_cdf", "sample_moments", "squeeze"]

_BISECTIONS = 52  # halvings of [0, 1] to reach double precision


def squeeze(values: np.ndarray) -> np.ndarray:
    """Move scores off the bounds: ``(x (n − 1) + 1/2) / n`` per row of ``n`` present scores.

    Smithson & Verkuilen (2006), "A better lemon squeezer? Maximum-likelihood
    regression with beta-distributed dependent variables", Psychological Methods 11(1).
    A likelihood on the open interval (0, 1) is undefined at exact 0 and 1 scores
    (AP of 0 is common); this maps [0, 1] into [1/(2n), 1 − 1/(2n)], shrinking less as
    ``n`` grows. ``NaN`` stays ``NaN``.

    Examples
    --------
    >>> squeeze(np.array([[0.0, 0.5, 1.0, np.nan]])).round(4).tolist()
    [[0.1667, 0.5, 0.8333, nan]]
    """
    n = (~np.isnan(values)).sum(axis=-1, keepdims=True)
    return (values * (n - 1) + 0.5) / n


def sample_moments(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and ``n`` (biased) variance of the present scores of each row (no kept axis)."""
    n, mean, sd = location_scale(values)
    var = np.where(n > 1, sd * sd * (n - 1) / n, 0.0)
    return mean[..., 0], var[..., 0]


def invert_cdf(cdf, p: np.ndarray) -> np.ndarray:
    """The smallest ``x`` in [0, 1] with ``cdf(x) >= p`` (to double precision), by bisection.

    ``cdf`` maps an array shaped like ``p`` to cdf values; NaN ``p`` gives NaN.

    Examples
    --------
    >>> invert_cdf(lambda x: x**2, np.array([0.25, 0.81])).round(12).tolist()
    [0.5, 0.9]
    """
    lo, hi = np.zeros(p.shape), np.ones(p.shape)
    for _ in range(_BISECTIONS):
        mid = (lo + hi) / 2
        below = cdf(mid) < p
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return np.where(np.isnan(p), np.nan, (lo + hi) / 2)
