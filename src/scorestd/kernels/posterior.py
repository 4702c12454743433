"""Summaries of posterior distributions: Student-t posteriors in closed form and draws.

Two kinds of posterior, one vocabulary:

- a Student-t posterior ``t_df(loc, scale)`` (the paired comparison under the reference
  prior): :func:`t_interval`, :func:`t_prob_greater`, :func:`t_rope_split`;
- draws on an axis (the Gibbs sampler, the Bayesian bootstrap): :func:`eti`, :func:`hdi`,
  :func:`prob_greater`, :func:`rope_split`, and for systems on another axis
  :func:`pair_summaries`, :func:`rank_probabilities`, :func:`prob_best`.

Intervals are *credible* intervals with an explicit probability ``prob``: equal-tailed
(``"eti"``: the ``(1 − prob)/2`` and ``(1 + prob)/2`` quantiles) or highest density
(``"hdi"``: the shortest interval holding ``prob`` of the mass; for draws, the shortest
interval between two order statistics ``ceil(prob·n)`` draws apart, as arviz does). For a
symmetric unimodal posterior such as the Student-t the two coincide.

A ROPE (region of practical equivalence) ``[low, high]`` splits the posterior mass three
ways: below, inside, above.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special

from .paired import t_quantile

__all__ = [
    "CI_KINDS",
    "eti",
    "hdi",
    "interval",
    "pair_summaries",
    "prob_best",
    "prob_greater",
    "rank_probabilities",
    "rope_split",
    "t_interval",
    "t_prob_greater",
    "t_rope_split",
]

#: Kinds of credible interval.
CI_KINDS = ("eti", "hdi")


def _t_sf(x, loc, scale, df):
    """P(X > x) for X ~ t_df(loc, scale); a zero scale is a point mass at ``loc``."""
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (np.asarray(x, dtype=float) - loc) / scale
        sf = special.stdtr(df, -z)
    point = np.where(np.asarray(loc) > x, 1.0, 0.0)
    return np.where(np.asarray(scale) == 0, point, sf)


def t_prob_greater(loc, scale, df, threshold: float = 0.0) -> np.ndarray:
    """P(δ > threshold) for δ ~ t_df(loc, scale) (a zero ``scale``: a point mass at ``loc``).

    ``1 − t_prob_greater(loc, scale, df)`` is ``stdtr(df, −loc/scale)``: the one-sided
    (``"greater"``) p-value of the t-test with statistic ``loc/scale``.

    Examples
    --------
    >>> round(float(t_prob_greater(0.1, 0.05, 9)), 4)
    0.9617
    >>> float(t_prob_greater(0.0, 0.0, 9))  # identical systems: all mass at 0
    0.0
    """
    return _t_sf(threshold, loc, scale, df)


def t_interval(loc, scale, df, prob: float) -> tuple[np.ndarray, np.ndarray]:
    """Central (equal-tailed = highest-density) ``prob`` interval of t_df(loc, scale).

    Examples
    --------
    >>> low, high = t_interval(0.0, 1.0, 1e9, 0.95)
    >>> round(float(low), 3), round(float(high), 3)
    (-1.96, 1.96)
    """
    df = np.asarray(df, dtype=float)
    with np.errstate(invalid="ignore"):
        # the quantile depends on df only: once per distinct df (all pairs share it
        # when no score is missing)
        half = t_quantile(df, 0.5 + prob / 2.0) * scale
        half = np.where(np.asarray(scale) == 0, 0.0, half)
    return loc - half, loc + half


def t_rope_split(loc, scale, df, low: float, high: float):
    """P(δ < low), P(low ≤ δ ≤ high), P(δ > high) for δ ~ t_df(loc, scale).

    Examples
    --------
    >>> [round(float(p), 4) for p in t_rope_split(0.0, 1.0, 1e9, -1.0, 1.0)]
    [0.1587, 0.6827, 0.1587]
    """
    above = _t_sf(high, loc, scale, df)
    at_or_below_low = 1.0 - _t_sf(low, loc, scale, df)
    # P(δ < low) = P(δ ≤ low) for a continuous posterior; a point mass at low is "in"
    below = np.where(np.asarray(scale) == 0, np.where(np.asarray(loc) < low, 1.0, 0.0),
                     at_or_below_low)
    return below, 1.0 - below - above, above


def eti(draws, prob: float, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Equal-tailed ``prob`` interval of the draws along ``axis`` (linear quantiles).

    Examples
    --------
    >>> low, high = eti(np.arange(101.0), 0.9)
    >>> float(low), float(high)
    (5.0, 95.0)
    """
    q = np.quantile(np.asarray(draws, dtype=float), [0.5 - prob / 2.0, 0.5 + prob / 2.0],
                    axis=axis)
    return q[0], q[1]


def hdi(draws, prob: float, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Highest-density ``prob`` interval of unimodal draws along ``axis``.

    The shortest interval ``[x_(i), x_(i+k)]`` between order statistics with
    ``k = floor(prob · n)`` (the interval arviz's ``hdi`` gives); vectorised over the
    other axes.

    Examples
    --------
    >>> x = np.r_[np.zeros(10), np.linspace(0, 10, 11)]
    >>> [float(v) for v in hdi(x, 0.5)]
    [0.0, 0.0]
    """
    x = np.sort(np.moveaxis(np.asarray(draws, dtype=float), axis, -1), axis=-1)
    n = x.shape[-1]
    k = math.floor(prob * n)
    if k < 1 or k >= n:
        raise ValueError(f"an HDI of probability {prob} needs more than {n} draws")
    widths = x[..., k:] - x[..., : n - k]
    start = np.argmin(widths, axis=-1)[..., None]
    return (np.take_along_axis(x, start, -1)[..., 0],
            np.take_along_axis(x, start + k, -1)[..., 0])


def interval(draws, prob: float, kind: str, axis: int = 0):
    """:func:`eti` or :func:`hdi` by ``kind`` (``"eti"`` or ``"hdi"``).

    Examples
    --------
    >>> [float(v) for v in interval(np.arange(11.0), 0.8, "eti")]
    [1.0, 9.0]
    """
    if kind == "hdi":
        return hdi(draws, prob, axis)
    return eti(draws, prob, axis)


def prob_greater(draws, threshold: float = 0.0, axis: int = 0) -> np.ndarray:
    """Share of draws above ``threshold`` along ``axis``.

    Examples
    --------
    >>> float(prob_greater([-1.0, 0.5, 2.0, 3.0]))
    0.75
    """
    return np.mean(np.asarray(draws) > threshold, axis=axis)


def rope_split(draws, low: float, high: float, axis: int = 0):
    """Shares of draws below ``low``, in ``[low, high]`` and above ``high``.

    Examples
    --------
    >>> [float(p) for p in rope_split([-2.0, -0.5, 0.0, 0.5, 3.0], -1.0, 1.0)]
    [0.2, 0.6, 0.2]
    """
    x = np.asarray(draws)
    below = np.mean(x < low, axis=axis)
    above = np.mean(x > high, axis=axis)
    return below, 1.0 - below - above, above


def pair_summaries(draws, i, j, *, prob: float, kind: str = "eti",
                   rope: tuple[float, float] | None = None,
                   block_bytes: int = 1 << 25) -> dict[str, np.ndarray]:
    """Posterior summaries of θ_i − θ_j for pairs (i, j): ``draws`` ``(n, S)`` → ``(P,)`` each.

    ``mean``, ``sd``, ``ci_low``/``ci_high`` (the ``prob`` interval of ``kind``),
    ``prob_greater`` = P(θ_i > θ_j), ``prob_less`` = P(θ_i < θ_j) and, with a ``rope`` ``(low, high)``, the split
    ``prob_below_rope``, ``prob_in_rope``, ``prob_above_rope``. Pairs are processed in
    blocks of at most ``block_bytes`` of difference draws, so memory stays bounded
    whatever the number of pairs.

    Examples
    --------
    >>> d = np.array([[1.0, 0.0, 2.0], [2.0, 3.0, 1.0]])
    >>> out = pair_summaries(d, [0, 0, 1], [1, 2, 2], prob=0.5)
    >>> out["prob_greater"].tolist(), out["mean"].tolist()
    ([0.5, 0.5, 0.5], [0.0, 0.0, 0.0])
    """
    x = np.asarray(draws, dtype=float)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    names = ["mean", "sd", "ci_low", "ci_high", "prob_greater", "prob_less"]
    if rope is not None:
        names += ["prob_below_rope", "prob_in_rope", "prob_above_rope"]
    out = {name: np.empty(i.shape) for name in names}
    step = max(1, block_bytes // (8 * max(1, x.shape[0])))
    for start in range(0, i.size, step):
        sl = slice(start, start + step)
        d = x[:, i[sl]] - x[:, j[sl]]
        out["mean"][sl] = d.mean(axis=0)
        out["sd"][sl] = d.std(axis=0, ddof=1) if x.shape[0] > 1 else np.nan
        out["ci_low"][sl], out["ci_high"][sl] = interval(d, prob, kind, axis=0)
        out["prob_greater"][sl] = prob_greater(d)
        out["prob_less"][sl] = np.mean(d < 0, axis=0)
        if rope is not None:
            (out["prob_below_rope"][sl], out["prob_in_rope"][sl],
             out["prob_above_rope"][sl]) = rope_split(d, *rope)
    return out


def rank_probabilities(draws) -> np.ndarray:
    """P(system s has rank r), rank 1 = largest: ``draws`` ``(n, S)`` → ``(S, S)``.

    Ties within a draw (probability zero for continuous posteriors) are broken by
    system order.

    Examples
    --------
    >>> d = np.array([[0.3, 0.1, 0.2], [0.1, 0.3, 0.2]])
    >>> rank_probabilities(d).tolist()
    [[0.5, 0.0, 0.5], [0.5, 0.0, 0.5], [0.0, 1.0, 0.0]]
    """
    x = np.asarray(draws, dtype=float)
    n, s = x.shape
    order = np.argsort(-x, axis=1, kind="stable")  # order[d, r] = system at rank r + 1
    cell = order * s + np.arange(s)  # (system, rank) as one index
    return np.bincount(cell.ravel(), minlength=s * s).reshape(s, s) / n


def prob_best(draws) -> np.ndarray:
    """P(system s has the largest value): ``draws`` ``(n, S)`` → ``(S,)``.

    Examples
    --------
    >>> prob_best(np.array([[0.3, 0.1], [0.1, 0.3], [0.5, 0.0]])).round(3).tolist()
    [0.667, 0.333]
    """
    x = np.asarray(draws, dtype=float)
    return np.bincount(np.argmax(x, axis=1), minlength=x.shape[1]) / x.shape[0]
