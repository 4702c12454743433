"""Naming the first flagged score of a cube in error messages."""

from __future__ import annotations

import numpy as np
import xarray as xr

from .dims import MEASURE, SYSTEM, TOPIC

__all__ = ["cell_label", "first_cell"]


def first_cell(flagged: np.ndarray) -> tuple[int, ...]:
    """Index of the first ``True`` entry of a boolean array (C order).

    Examples
    --------
    >>> first_cell(np.array([[False, False], [False, True]]))
    (1, 1)
    """
    return tuple(int(k[0]) for k in np.nonzero(flagged))


def cell_label(cube: xr.DataArray, t: int, s: int, m: int) -> str:
    """``"topic 'a', system 'b', measure 'c'"`` for position (t, s, m) of a cube.

    Examples
    --------
    >>> import scorestd
    >>> cell_label(scorestd.cube([[0.5, 0.2]], topics=["q7"]), 0, 1, 0)
    "topic 'q7', system 's2', measure 'score'"
    """
    return (f"topic {str(cube[TOPIC].values[t])!r}, system {str(cube[SYSTEM].values[s])!r}, "
            f"measure {str(cube[MEASURE].values[m])!r}")
