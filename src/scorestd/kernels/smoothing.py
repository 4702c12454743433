"""Smoothing kernel: Equation 1 of Ravana, Park & Moffat (2009).

Smoothed score of system s on topic q = α·x[q, s] + (1 − α)·prior_mean[s], where the
prior mean of each system is taken over whichever prior topics it was run on.
Arrays are ``(..., T, S)``: topics then systems.
"""

from __future__ import annotations

import numpy as np

from .aggregate import am

__all__ = ["prior_mean", "smooth_kernel"]


def prior_mean(prior: np.ndarray, axis: int = -2) -> np.ndarray:
    """Mean prior score of each system over the prior topics it has scores on.

    ``NaN`` marks a prior topic the system was not run on and is skipped; a system
    with no prior score at all gets ``NaN``.

    Examples
    --------
    >>> prior_mean(np.array([[0.2, np.nan], [0.4, 0.1], [np.nan, np.nan]])).tolist()
    [0.30000000000000004, 0.1]
    """
    return am(prior, axis=axis, skipna=True)


def smooth_kernel(x: np.ndarray, prior_means: np.ndarray, alpha: float | np.ndarray) -> np.ndarray:
    """α·x + (1 − α)·prior mean, the prior mean broadcast over the topics of ``x``.

    Parameters
    ----------
    x : array_like
        New scores ``(..., T, S)``; a ``NaN`` stays ``NaN`` whatever α.
    prior_means : array_like
        ``(..., S)``, e.g. from :func:`prior_mean`.
    alpha : float or array_like
        Weight of the new scores in [0, 1], broadcastable against ``(..., S)``.

    Examples
    --------
    >>> smooth_kernel([[0.5, 0.1], [0.3, 0.0]], [0.2, 0.4], 0.8).round(3).tolist()
    [[0.44, 0.16], [0.28, 0.08]]
    """
    x = np.asarray(x, dtype=np.float64)
    alpha = np.asarray(alpha, dtype=np.float64)[..., np.newaxis, :] if np.ndim(alpha) else alpha
    weighted_prior = (1.0 - alpha) * np.asarray(prior_means, dtype=np.float64)[..., np.newaxis, :]
    return alpha * x + weighted_prior
