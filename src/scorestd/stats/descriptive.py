"""A summary of a score cube: shape, missing cells, range checks and per-measure statistics."""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..mapping import maps_extra_dims
from ..score_cube import range_report, validate

__all__ = ["COLUMNS", "describe"]

#: What each column of :func:`describe` holds (printed under the table by ``scorestd info``).
COLUMNS: dict[str, str] = {
    "cells": "topic × system cells",
    "missing": "cells without a score (NaN)",
    "range": "what the measure can score (unknown measures are unbounded)",
    "out_of_range": "present scores outside that range or support",
    "mean": "mean of the present scores",
    "sd": "their standard deviation (n − 1)",
    "min": "smallest present score",
    "median": "median present score",
    "max": "largest present score",
    "zero_fraction": "fraction (0–1) of the present scores that are exactly 0",
    "degenerate_topics": "topics whose present scores are all equal",
    "missing_topics": "topics with at least one missing score",
}


@maps_extra_dims()
def describe(scores: xr.DataArray) -> pd.DataFrame:
    """Per-measure summary of a cube: cells, missing and out-of-range scores, distribution.

    Missing (``NaN``) cells are counted and left out of the statistics. Scores outside
    their measure's range (see :func:`scorestd.measure_info`) are counted, not warned
    about: this is the function to look at them with.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array.

    Returns
    -------
    pandas.DataFrame
        One row per measure with the columns of :data:`COLUMNS`: ``cells``,
        ``missing``, ``range`` (e.g. ``"[0, 1]"``, ``"multiples of 1/10 in [0, 1]"``,
        ``"unknown: unbounded"`` for a measure the registry does not know, ``"not raw
        scores"`` for standardized ones), ``out_of_range``, ``mean``, ``sd`` (n−1),
        ``min``, ``median``, ``max``, ``zero_fraction`` (fraction of exact zeros among
        the present scores), ``degenerate_topics`` (topics whose present scores are all
        equal) and ``missing_topics`` (topics with at least one missing score). The
        frame's ``attrs["columns"]`` says the same.

    Examples
    --------
    >>> from scorestd import cube
    >>> d = describe(cube([[0.0, 0.5], [1.0, float("nan")]], measures=["ap"]))
    >>> int(d.loc["ap", "missing"]), float(d.loc["ap", "mean"]), d.loc["ap", "range"]
    (1, 0.5, '[0, 1]')
    """
    c = validate(scores, check_range=False)  # counted below instead
    ranges = range_report(c)
    rows = {}
    for m in c[MEASURE].values:
        x = c.sel({MEASURE: m}).transpose(TOPIC, SYSTEM).values
        present = x[~np.isnan(x)]
        with np.errstate(invalid="ignore"):
            spread = np.nanmax(x, axis=1) - np.nanmin(x, axis=1) if present.size else np.array([])
        text, bad = ranges[str(m)]
        rows[str(m)] = {
            "cells": int(x.size),
            "missing": int(np.isnan(x).sum()),
            "range": text,
            "out_of_range": int(bad.sum()),
            "mean": float(present.mean()) if present.size else np.nan,
            "sd": float(present.std(ddof=1)) if present.size > 1 else np.nan,
            "min": float(present.min()) if present.size else np.nan,
            "median": float(np.median(present)) if present.size else np.nan,
            "max": float(present.max()) if present.size else np.nan,
            "zero_fraction": float((present == 0).mean()) if present.size else np.nan,
            "degenerate_topics": int(np.sum(spread == 0)),
            "missing_topics": int(np.isnan(x).any(axis=1).sum()),
        }
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = MEASURE
    frame.attrs["columns"] = dict(COLUMNS)
    return frame
