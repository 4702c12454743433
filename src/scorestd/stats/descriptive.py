"""A summary of a score cube: shape, missing cells and per-measure statistics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..score_cube import validate

__all__ = ["describe"]


def describe(scores: xr.DataArray) -> pd.DataFrame:
    """Per-measure summary of a cube: cells, missing cells and score distribution.

    Missing (``NaN``) cells are counted and left out of the statistics.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array.

    Returns
    -------
    pandas.DataFrame
        One row per measure with ``cells``, ``missing``, ``mean``, ``sd`` (n−1),
        ``min``, ``median``, ``max``, ``zeros`` (fraction of exact zeros among the
        present scores), ``degenerate_topics`` (topics whose present scores are all
        equal) and ``missing_topics`` (topics with at least one missing score).

    Examples
    --------
    >>> from scorestd import cube
    >>> d = describe(cube([[0.0, 0.5], [1.0, float("nan")]]))
    >>> int(d.loc["score", "missing"]), float(d.loc["score", "mean"])
    (1, 0.5)
    """
    c = validate(scores)
    rows = {}
    for m in c[MEASURE].values:
        x = c.sel({MEASURE: m}).transpose(TOPIC, SYSTEM).values
        present = x[~np.isnan(x)]
        with np.errstate(invalid="ignore"):
            spread = np.nanmax(x, axis=1) - np.nanmin(x, axis=1) if present.size else np.array([])
        rows[str(m)] = {
            "cells": int(x.size),
            "missing": int(np.isnan(x).sum()),
            "mean": float(present.mean()) if present.size else np.nan,
            "sd": float(present.std(ddof=1)) if present.size > 1 else np.nan,
            "min": float(present.min()) if present.size else np.nan,
            "median": float(np.median(present)) if present.size else np.nan,
            "max": float(present.max()) if present.size else np.nan,
            "zeros": float((present == 0).mean()) if present.size else np.nan,
            "degenerate_topics": int(np.sum(spread == 0)),
            "missing_topics": int(np.isnan(x).any(axis=1).sum()),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = MEASURE
    return frame
