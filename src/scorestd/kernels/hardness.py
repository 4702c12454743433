"""Topic hardness and the deterministic Hard/Easy and Middle/Rest topic splits.

Ravana & Moffat (2009), section 3 and 5.4. Arrays are ``(..., T, S)`` (topics then
systems); hardness reduces the systems axis, the splits work on ``(..., T)`` hardness.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._options import HardnessMethod, SplitExtra, SplitKind, check_option
from .aggregate import am

__all__ = ["hardest_first", "split_sizes", "topic_hardness_kernel"]

#: ``"mean"``: 1 − mean_t (Mizzaro 2008; the paper's Equation 1); ``"max"``: 1 − max_t;
#: ``"zmax"``: (max_t − mean_t) / sd_t, the paper's Equation 2 (the default).


def topic_hardness_kernel(
    x: np.ndarray,
    method: HardnessMethod = "zmax",
    axis: int = -1,
    skipna: bool = False,
    ddof: int = 1,
) -> np.ndarray:
    """Difficulty of each topic from its scores across systems (higher = harder).

    Parameters
    ----------
    x : array_like
        Scores with the systems along ``axis``.
    method : {"zmax", "mean", "max"}, default "zmax"
        ``"zmax"`` is Equation 2 of Ravana & Moffat (2009), (max − mean) / sd: the
        topic whose best score is most surprising in standard deviations is the
        hardest. ``"mean"`` is 1 − mean, ``"max"`` is 1 − max.
    axis : int, default -1
        The systems axis.
    skipna : bool, default False
        Leave ``NaN`` out (True) or let it make the topic's hardness ``NaN`` (False,
        the package default).
    ddof : int, default 1
        Delta degrees of freedom of sd (1: sample sd). With the same number of systems
        on every topic it does not change the order of the topics.

    Returns
    -------
    numpy.ndarray
        ``x`` reduced over ``axis``. A topic on which every system has the same score
        has sd 0, so its ``"zmax"`` hardness is ``0/0 = NaN``.

    Examples
    --------
    >>> x = np.array([[0.1, 0.2, 0.9], [0.5, 0.6, 0.7]])  # 2 topics × 3 systems
    >>> topic_hardness_kernel(x).round(3).tolist()
    [1.147, 1.0]
    >>> topic_hardness_kernel(x, "mean").round(3).tolist()
    [0.6, 0.4]
    """
    method = check_option(method, HardnessMethod, "method")
    x = np.asarray(x, dtype=np.float64)
    top, low = _extreme(x, np.max, -np.inf, axis, skipna), _extreme(x, np.min, np.inf, axis, skipna)
    if method == "max":
        return 1.0 - top
    mean = am(x, axis=axis, skipna=skipna)
    if method == "mean":
        return 1.0 - mean
    deviations = x - np.expand_dims(mean, axis)
    sq = am(deviations**2, axis=axis, skipna=skipna)
    n = np.sum(~np.isnan(x), axis=axis) if skipna else x.shape[axis]
    with np.errstate(invalid="ignore", divide="ignore"):
        sd = np.sqrt(sq * n / (n - ddof))
        # Equal scores: sd is 0 up to rounding of the mean, so 0/0 is made exact.
        return np.where(top == low, np.nan, (top - mean) / sd)


def _extreme(x: np.ndarray, reduce: Callable[..., np.ndarray], fill: float, axis: int, skipna: bool) -> np.ndarray:
    """max or min along ``axis``; with ``skipna`` NaN is ignored (all-NaN gives NaN)."""
    if not skipna:
        return reduce(x, axis=axis)
    out = reduce(np.where(np.isnan(x), fill, x), axis=axis)
    return np.where(np.isinf(out), np.nan, out)


def split_sizes(n_topics: int, kind: SplitKind, extra: SplitExtra = "easy") -> tuple[int, int, int]:
    """How many of the hardest, middle and easiest topics go where.

    Topics sorted hardest first are cut into ``(n_hard, n_middle, n_easy)``:

    - ``"hard_easy"``: the ``n_hard`` hardest against the others; ``n_middle`` is 0.
      The halves are ⌊T/2⌋ and ⌈T/2⌉, the easy half taking the odd topic (with
      ``extra="easy"``).
    - ``"middle_rest"``: the ⌈T/2⌉ middle topics against the ⌊T/2⌋ others, which are
      split into hardest and easiest with the easiest taking the odd topic: for
      T = 50, the 12 hardest and the 13 easiest against the middle 25, as in the paper.

    ``extra="hard"`` gives the odd topic of each cut to the hard side instead.

    Examples
    --------
    >>> split_sizes(50, "hard_easy"), split_sizes(50, "middle_rest")
    ((25, 0, 25), (12, 25, 13))
    >>> split_sizes(51, "middle_rest"), split_sizes(50, "middle_rest", extra="hard")
    ((12, 26, 13), (13, 25, 12))
    """
    kind = check_option(kind, SplitKind, "kind")
    extra = check_option(extra, SplitExtra, "extra")
    if n_topics < 2:
        raise ValueError(f"a topic split needs at least 2 topics, got {n_topics}")
    if kind == "hard_easy":
        rest, n_middle = n_topics, 0
    else:
        rest, n_middle = n_topics // 2, n_topics - n_topics // 2
    small, large = rest // 2, rest - rest // 2
    n_hard, n_easy = (small, large) if extra == "easy" else (large, small)
    return n_hard, n_middle, n_easy


def hardest_first(hardness: np.ndarray, axis: int = -1) -> np.ndarray:
    """Positions of the topics from hardest to easiest; ties keep their order.

    Examples
    --------
    >>> hardest_first([0.3, 0.9, 0.3, 0.1]).tolist()
    [1, 0, 2, 3]
    """
    return np.argsort(-np.asarray(hardness, dtype=np.float64), axis=axis, kind="stable")
