"""Counting significance decisions: the fraction of p-values below each α.

This is what power and Type I error estimates are made of.
"""

from __future__ import annotations

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

__all__ = ["fraction_significant"]


def fraction_significant(p, alphas, axis=-1, *, return_count: bool = False):
    """Fraction of p-values strictly below each α, NaN p-values excluded.

    Parameters
    ----------
    p : array_like
        p-values, any shape.
    alphas : array_like
        1-D grid of significance levels (A values).
    axis : int or tuple of int or None
        Axis (axes) to count over; ``None`` counts over all.
    return_count : bool
        Also return the number of non-NaN p-values each fraction is based on.

    Returns
    -------
    fraction : numpy.ndarray
        The shape of ``p`` without ``axis``, plus a last axis of length A. NaN where
        every p-value is NaN.
    count : numpy.ndarray
        Only with ``return_count=True``: non-NaN p-values counted (shape without A).

    Examples
    --------
    >>> fraction_significant([0.001, 0.02, 0.2, float("nan")], [0.01, 0.05]).tolist()
    [0.333..., 0.666...]
    """
    p = np.asarray(p, dtype=float)
    alphas = np.asarray(alphas, dtype=float)
    if alphas.ndim != 1:
        raise ValueError(f"alphas must be 1-D, got shape {alphas.shape}")
    valid = ~np.isnan(p)
    count = valid.sum(axis=axis)
    below = (p[..., None] < alphas) & valid[..., None]
    axes = axis if axis is None else normalize_axis_tuple(axis, p.ndim)
    hits = below.sum(axis=tuple(range(p.ndim)) if axes is None else axes)
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = hits / np.asarray(count)[..., None]
    return (frac, count) if return_count else frac
