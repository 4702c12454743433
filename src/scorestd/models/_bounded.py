"""Helpers of the models on [0, 1]: exact 0/1 scores and moments of the present scores."""

from __future__ import annotations

import numpy as np

from ..kernels.standardize import location_scale

__all__ = ["sample_moments", "squeeze"]


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
