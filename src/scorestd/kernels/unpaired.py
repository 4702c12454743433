"""Unpaired (two-sample) t-tests of every system on one topic set against every
system on another, e.g. the same systems on two disjoint topic sets.

NaN scores are left out of each system's mean and variance (each system's own
``n``); a system with fewer than 2 scores on a side gives NaN.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._options import Alternative, check_option
from .paired import pvalue_from_t, topics_last_but_one

__all__ = ["describe_unpaired", "system_moments", "unpaired_t_all_pairs", "unpaired_t_statistic"]


def system_moments(x, axis_topic: int = -2):
    """Per-system mean, variance (n − 1) and count of non-NaN scores, each ``(..., S)``.

    Examples
    --------
    >>> mean, var, n = system_moments([[0.1, 0.5], [0.3, float("nan")]])
    >>> mean.tolist(), n.tolist()
    ([0.2, 0.5], [2, 1])
    """
    x = topics_last_but_one(x, axis_topic)
    n = np.count_nonzero(~np.isnan(x), axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.nansum(x, axis=-2) / n
        var = np.nansum((x - mean[..., None, :]) ** 2, axis=-2) / (n - 1)
    var = np.where(n > 1, var, np.nan)
    return mean, var, n


def unpaired_t_all_pairs(
    x1,
    x2,
    equal_var: bool = False,
    *,
    axis_topic: int = -2,
    alternative: Alternative = "two-sided",
    return_df: bool = False,
):
    """Two-sample t-tests of system i on ``x1`` against system j on ``x2``, for all i, j.

    Welch's test by default, Student's pooled-variance test with
    ``equal_var=True``; equal to ``scipy.stats.ttest_ind`` entry by entry. Two
    constant samples with equal means give t = NaN and p = 1.

    Parameters
    ----------
    x1, x2 : array_like
        Scores ``(..., T1, S)`` and ``(..., T2, S)`` with the same batch shape.
    equal_var : bool
        Pool the variances (Student) instead of Welch's approximation.
    axis_topic : int
        Axis of the topics in both arrays.
    alternative : {"two-sided", "greater", "less"}
        "greater": the mean of system i on ``x1`` exceeds that of system j on ``x2``.
    return_df : bool
        Also return the degrees of freedom.

    Returns
    -------
    t, p : numpy.ndarray
        Each ``(..., S, S)``; entry ``[..., i, j]`` tests i on ``x1`` against j on
        ``x2`` (the diagonal: the same system across the two topic sets).
    df : numpy.ndarray
        Only with ``return_df=True``.

    Examples
    --------
    >>> t, p = unpaired_t_all_pairs([[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]],
    ...                             [[0.1, 0.3], [0.2, 0.2]])
    >>> t.round(3).tolist()
    [[0.655, -0.655], [4.583, 3.273]]
    """
    check_option(alternative, Alternative, "alternative")
    t, df, se2 = _t_df_se2(_moments(x1, x2, axis_topic), equal_var)
    p = pvalue_from_t(t, df, alternative)
    # zero standard error and t = 0/0: equal means of two constant samples
    p = np.where((se2 == 0) & np.isnan(t), 1.0, p)
    return (t, p, df) if return_df else (t, p)


def unpaired_t_statistic(x1, x2, equal_var: bool = False, *, axis_topic: int = -2):
    """t statistics and degrees of freedom of :func:`unpaired_t_all_pairs`, without p-values.

    For studies that only compare ``|t|`` with critical values (p-values cost more
    than the statistics). Two constant samples with equal means give t = NaN.

    Returns
    -------
    t, df : numpy.ndarray
        Each ``(..., S, S)``, as in :func:`unpaired_t_all_pairs`.

    Examples
    --------
    Student's test of 3 against 2 topics (df = 3 + 2 − 2):

    >>> t, df = unpaired_t_statistic([[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]],
    ...                              [[0.1, 0.3], [0.2, 0.2]], equal_var=True)
    >>> t.round(3).tolist(), df.tolist()
    ([[0.6, -0.6], [4.2, 3.0]], [[3.0, 3.0], [3.0, 3.0]])
    """
    t, df, _ = _t_df_se2(_moments(x1, x2, axis_topic), equal_var)
    return t, df


def describe_unpaired(x1, x2, equal_var: bool = False, *, conf_level: float = 0.95,
                      axis_topic: int = -2):
    """Difference of means, its t-based interval, Cohen's d, Glass's Δ, n1 and n2 of every
    system i on ``x1`` against every system j on ``x2``.

    The interval is Student's (pooled variance) with ``equal_var=True``, else Welch's, at
    ``conf_level``; Cohen's d divides by the pooled sd, Glass's Δ by the sd of system j on
    ``x2`` (the control).

    Returns
    -------
    diff, ci_low, ci_high, cohen_d, glass_delta, n1, n2 : numpy.ndarray
        Each ``(..., S, S)``, as in :func:`unpaired_t_all_pairs`.

    Examples
    --------
    >>> diff, low, high, d, glass, n1, n2 = describe_unpaired(
    ...     [[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]], [[0.1, 0.3], [0.2, 0.2]], equal_var=True)
    >>> diff.round(3).tolist(), n1.tolist(), n2.tolist()
    ([[0.05, -0.05], [0.35, 0.25]], [[3, 3], [3, 3]], [[2, 2], [2, 2]])
    """
    moments = _moments(x1, x2, axis_topic)
    m1, v1, n1, m2, v2, n2 = moments
    _, df, se2 = _t_df_se2(moments, equal_var)
    nn1, nn2 = n1[..., :, None], n2[..., None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = m1[..., :, None] - m2[..., None, :]
        half = special.stdtrit(df, (1 + conf_level) / 2) * np.sqrt(se2)
        pooled = np.sqrt(((nn1 - 1) * v1[..., :, None] + (nn2 - 1) * v2[..., None, :])
                         / (nn1 + nn2 - 2))
        cohen = diff / pooled
        glass = diff / np.sqrt(v2)[..., None, :]
    shape = diff.shape
    return (diff, diff - half, diff + half, cohen, glass, np.broadcast_to(nn1, shape),
            np.broadcast_to(nn2, shape))


def _moments(x1, x2, axis_topic: int):
    """Per-system moments of both topic sets, checked to have the same batch and systems."""
    m1, v1, n1 = system_moments(x1, axis_topic)
    m2, v2, n2 = system_moments(x2, axis_topic)
    if m1.shape != m2.shape:
        raise ValueError(
            f"x1 and x2 must have the same batch shape and systems, got {m1.shape} and {m2.shape}"
        )
    return m1, v1, n1, m2, v2, n2


def _t_df_se2(moments, equal_var: bool):
    """t, df and squared standard error of every pair (i on x1, j on x2)."""
    m1, v1, n1, m2, v2, n2 = moments
    a = v1[..., :, None] / n1[..., :, None]
    b = v2[..., None, :] / n2[..., None, :]
    with np.errstate(invalid="ignore", divide="ignore"):
        if equal_var:
            df = (n1[..., :, None] + n2[..., None, :] - 2).astype(float)
            pooled = ((n1[..., :, None] - 1) * v1[..., :, None]
                      + (n2[..., None, :] - 1) * v2[..., None, :]) / df
            se2 = pooled * (1.0 / n1[..., :, None] + 1.0 / n2[..., None, :])
        else:
            se2 = a + b
            df = se2 * se2 / (a * a / (n1[..., :, None] - 1) + b * b / (n2[..., None, :] - 1))
        # the mean difference last: one short-lived temporary (this runs in resampling loops)
        t = (m1[..., :, None] - m2[..., None, :]) / np.sqrt(se2)
    return t, df, se2
