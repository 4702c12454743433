"""Ranking kernel: ranks of systems by score, best first, with an explicit tie rule."""

from __future__ import annotations

import numpy as np
from scipy.stats import rankdata

from .._options import TieRule, check_option

__all__ = ["rank_descending"]

#: How tied scores share ranks (scipy.stats.rankdata's methods): "min" gives
#: competition ranks 1, 2, 2, 4; "average" 1, 2.5, 2.5, 4; "max" 1, 3, 3, 4;
#: "dense" 1, 2, 2, 3; "ordinal" 1, 2, 3, 4 in order of position.


def rank_descending(x: np.ndarray, axis: int = -1, ties: TieRule = "min") -> np.ndarray:
    """Rank scores along ``axis`` so that the highest score gets rank 1.

    Parameters
    ----------
    x : array_like
        Scores, e.g. aggregated system scores ``(..., S)``.
    axis : int, default -1
        The axis holding the systems.
    ties : {"min", "average", "max", "dense", "ordinal"}, default "min"
        Ranks of tied scores (see :data:`scorestd._options.TieRule`); "min" is competition ranking:
        tied systems share the best of their ranks.

    Returns
    -------
    numpy.ndarray
        float64 ranks; ``NaN`` where the score is ``NaN`` (a missing aggregate is
        not ranked and does not take a rank from the others).

    Examples
    --------
    >>> rank_descending([0.2, 0.5, 0.2, np.nan, 0.1]).tolist()
    [2.0, 1.0, 2.0, nan, 4.0]
    >>> rank_descending([0.2, 0.5, 0.2, 0.1], ties="average").tolist()
    [2.5, 1.0, 2.5, 4.0]
    """
    ties = check_option(ties, TieRule, "ties")
    x = np.asarray(x, dtype=np.float64)
    return rankdata(-x, method=ties, axis=axis, nan_policy="omit").astype(np.float64)
