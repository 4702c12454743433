"""Variance components of a topic × system score matrix (numpy only).

Every kernel takes ``x`` shaped ``(..., T, S)`` (topics on the second-to-last axis,
systems on the last) and returns a sum of squares and its degrees of freedom per
leading batch element: the residual sum of squares of the two-way ANOVA without
replication on the complete topics, the within-system sum of squares of the one-way ANOVA
(systems as groups) and the sums of squares of the paired differences of every system
pair.
"""

from __future__ import annotations

import numpy as np

__all__ = ["paired_difference_ss", "residual_ss", "within_system_ss"]


def residual_ss(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Residual sum of squares of the two-way ANOVA without replication (topic × system).

    The residual of score x_ts is x_ts − x̄_t· − x̄_·s + x̄, with (T − 1)(S − 1) degrees
    of freedom. A topic with a missing score on any system is left out of its batch
    element (the design must be complete), so each element has its own T: the result is
    the kernel on that element's complete topics, with no loop over the batch.

    Returns
    -------
    ss, df, n_complete : numpy.ndarray
        Per batch element: S_E, φ_E = (T − 1)(S − 1) with T the complete topics (0 when
        fewer than two), and T.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 3.0], [9.0, np.nan]])
    >>> ss, df, n = residual_ss(x)
    >>> float(ss), int(df), int(n)
    (1.0, 2, 3)
    """
    x = np.asarray(x, dtype=np.float64)
    n_systems = x.shape[-1]
    complete = ~np.isnan(x).any(axis=-1, keepdims=True)  # (..., T, 1)
    n = complete.sum(axis=-2, keepdims=True)  # (..., 1, 1)
    filled = np.where(complete, x, 0.0)
    safe_n = np.maximum(n, 1)
    topic_means = filled.mean(axis=-1, keepdims=True)
    system_means = filled.sum(axis=-2, keepdims=True) / safe_n
    grand = system_means.mean(axis=-1, keepdims=True)
    resid = np.where(complete, filled - topic_means - system_means + grand, 0.0)
    ss = np.square(resid).sum(axis=(-2, -1))
    n = n[..., 0, 0]
    df = np.clip(n - 1, 0, None) * (n_systems - 1)
    return ss, df.astype(np.int64), n.astype(np.int64)


def within_system_ss(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Within-system sum of squares of the one-way ANOVA (systems as groups).

    ``NaN`` scores are left out: each system contributes the squared deviations of its
    present scores from its own mean, and ``n_s − 1`` degrees of freedom.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0], [3.0, np.nan], [5.0, 4.0]])
    >>> ss, df = within_system_ss(x)
    >>> float(ss), int(df)
    (10.0, 3)
    """
    x = np.asarray(x, dtype=np.float64)
    present = ~np.isnan(x)
    n = present.sum(axis=-2)
    means = np.nanmean(np.where(present.any(axis=-2, keepdims=True), x, 0.0), axis=-2,
                       keepdims=True)
    ss = np.nansum(np.square(x - means), axis=(-2, -1))
    df = np.clip(n - 1, 0, None).sum(axis=-1)
    return ss, df


def paired_difference_ss(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sums of squares of the paired differences of every system pair, and their df.

    For each pair ``j < k`` the differences ``x[:, j] − x[:, k]`` over the topics where
    both scores are present give ``Σ (d − d̄)²`` with ``n_jk − 1`` degrees of freedom;
    the kernel returns the totals over all pairs. Built from matrix products (no loop
    over pairs). On complete data ``ss / df`` equals twice the two-way residual mean
    square, ``2 S_E / φ_E``.

    Examples
    --------
    >>> x = np.array([[1.0, 2.0], [2.0, 4.0], [3.0, 3.0]])
    >>> ss, df = paired_difference_ss(x)
    >>> float(ss), int(df)
    (2.0, 2)
    """
    x = np.asarray(x, dtype=np.float64)
    present = (~np.isnan(x)).astype(np.float64)
    filled = np.where(present > 0, x, 0.0)
    square = np.square(filled)

    def cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.einsum("...tj,...tk->...jk", a, b)

    n = cross(present, present)
    sum_sq = cross(square, present) + cross(present, square) - 2.0 * cross(filled, filled)
    total = cross(filled, present) - cross(present, filled)
    with np.errstate(invalid="ignore", divide="ignore"):
        ss = sum_sq - np.where(n > 0, np.square(total) / np.where(n > 0, n, 1.0), 0.0)
    upper = np.triu(np.ones(n.shape[-2:], dtype=bool), k=1)
    usable = upper & (n >= 2)
    ss_total = np.where(usable, np.clip(ss, 0.0, None), 0.0).sum(axis=(-2, -1))
    df_total = np.where(usable, n - 1, 0.0).sum(axis=(-2, -1)).astype(np.int64)
    return ss_total, df_total
