r"""Closed-form Bayesian paired comparison of every pair of systems.

For a pair (i, j) with per-topic differences :math:`d_t = x_{ti} - x_{tj}` over the
``n`` topics both have, the model :math:`d_t \sim N(\delta, \sigma^2)` with the
reference (Jeffreys) prior :math:`p(\delta, \sigma^2) \propto 1/\sigma^2` gives the
posterior

.. math:: \delta \mid d \sim t_{n-1}\!\left(\bar d,\ s/\sqrt{n}\right),

with :math:`\bar d` and :math:`s` (``n − 1``) the mean and sd of the differences. So
:math:`P(\delta \le 0 \mid d)` is the one-sided (``"greater"``) paired t p-value, and the
equal-tailed credible interval is the t confidence interval. The moments of all pairs
come from one S × S moment matrix (:func:`scorestd.kernels.paired.paired_moments`): no
loop over pairs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .blas import limited_blas
from .paired import NanPolicy, paired_moments
from .posterior import t_interval, t_prob_greater, t_rope_split

__all__ = ["PairedPosterior", "paired_posterior_all_pairs"]


class PairedPosterior(NamedTuple):
    """The Student-t posterior of δ for every pair and its summaries, each ``(..., P)``.

    ``loc``, ``scale``, ``df``: the posterior t_df(loc, scale) (a zero ``scale`` is a
    point mass: all differences equal). ``mean`` (``NaN`` when df ≤ 1) and ``sd``
    (``inf`` when df ≤ 2); ``ci_low``/``ci_high``: the central ``prob`` interval;
    ``prob_greater`` = P(δ > 0) and ``prob_less`` = P(δ < 0) (both 0 for identical
    systems, 1 − each other otherwise); ``prob_below``/``prob_rope``/``prob_above``: the ROPE
    split (``NaN`` without a ROPE); ``n``: topics used.
    """

    loc: np.ndarray
    scale: np.ndarray
    df: np.ndarray
    mean: np.ndarray
    sd: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    prob_greater: np.ndarray
    prob_less: np.ndarray
    prob_below: np.ndarray
    prob_rope: np.ndarray
    prob_above: np.ndarray
    n: np.ndarray


@limited_blas
def paired_posterior_all_pairs(
    x,
    axis_topic: int = -2,
    *,
    prob: float = 0.95,
    rope: tuple[float, float] | None = None,
    pairs=None,
    nan_policy: NanPolicy = "omit",
) -> PairedPosterior:
    """Posterior of the mean difference δ of every pair of systems (reference prior).

    Parameters
    ----------
    x : array_like
        Scores ``(..., T, S)``.
    axis_topic : int
        Axis of the topics (systems are the last axis).
    prob : float
        Probability of the credible interval.
    rope : (float, float), optional
        Region of practical equivalence ``(low, high)`` of δ.
    pairs : tuple of two int arrays, optional
        Pairs (i, j), δ = mean of system i minus system j; all
        ``numpy.triu_indices(S, k=1)`` pairs by default.
    nan_policy : {"omit", "raise"}
        Drop, per pair, the topics missing for either system, or raise.

    Returns
    -------
    PairedPosterior
        Fewer than 2 topics in a pair give ``NaN``.

    Examples
    --------
    >>> x = [[0.2, 0.1], [0.4, 0.2], [0.6, 0.4], [0.5, 0.4]]
    >>> post = paired_posterior_all_pairs(x)
    >>> round(float(post.loc[0]), 3), round(float(1 - post.prob_greater[0]), 5)
    (0.15, 0.00692)
    >>> from scipy import stats
    >>> a, b = np.array(x).T
    >>> round(float(stats.ttest_rel(a, b, alternative="greater").pvalue), 5)
    0.00692
    """
    mom = paired_moments(x, axis_topic, pairs=pairs, nan_policy=nan_policy)
    df = (mom.n - 1).astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        df = np.where(mom.n >= 2, df, np.nan)
        loc = np.where(mom.n >= 2, mom.mean, np.nan)
        scale = mom.sd / np.sqrt(mom.n)
        mean = np.where(df > 1, loc, np.nan)
        sd = np.where(df > 2, scale * np.sqrt(df / (df - 2.0)), np.where(df > 1, np.inf, np.nan))
        sd = np.where(scale == 0, 0.0, sd)
    low, high = t_interval(loc, scale, df, prob)
    greater = t_prob_greater(loc, scale, df)
    less = np.where(np.asarray(scale) == 0, (loc < 0).astype(float), 1.0 - greater)
    if rope is None:
        below = inside = above = np.full(loc.shape, np.nan)
    else:
        below, inside, above = t_rope_split(loc, scale, df, *rope)
    missing = np.isnan(loc)
    greater, less, below, inside, above = (np.where(missing, np.nan, v)
                                           for v in (greater, less, below, inside, above))
    return PairedPosterior(loc, scale, df, mean, sd, low, high, greater, less, below, inside,
                           above, mom.n)
