"""A summary of a score cube: shape, missing cells, range checks and per-measure statistics."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..mapping import maps_extra_dims, slice_labels
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


@maps_extra_dims(vectorized=True)
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
    c = validate(scores, check_range=False, extra_dims=True)  # counted below instead
    extra = list(c.dims[:-3])
    ranges = range_report(c)
    n_slices = int(np.prod([c.sizes[d] for d in extra]))
    rows = {}
    for k, m in enumerate(c[MEASURE].values):
        # every slice of the extra dims at once: (slices, topics × systems)
        x = np.asarray(c.data[..., k]).reshape(n_slices, c.sizes[TOPIC], c.sizes[SYSTEM])
        text, bad = ranges[str(m)]
        for where, column in zip(slice_labels(c), _batch_summary(x), strict=True):
            column.update(range=text)
            rows[(*where.values(), str(m))] = column
        out_of_range = bad.reshape(n_slices, -1).sum(axis=1)
        for where, count in zip(slice_labels(c), out_of_range, strict=True):
            rows[(*where.values(), str(m))]["out_of_range"] = int(count)
    frame = pd.DataFrame.from_dict(rows, orient="index")[list(COLUMNS)]
    if extra:
        frame.index = pd.MultiIndex.from_tuples(list(rows), names=[*extra, MEASURE])
    else:
        frame.index = pd.Index([key[-1] for key in rows], name=MEASURE)
    frame.attrs["columns"] = dict(COLUMNS)
    return frame


def _batch_summary(x: np.ndarray) -> list[dict[str, object]]:
    """The columns of :func:`describe` (but ``range``, ``out_of_range``) for each of a
    batch of ``(topic, system)`` matrices ``x`` ``(B, T, S)``, in vectorized numpy."""
    flat = x.reshape(len(x), -1)
    missing = np.isnan(flat)
    count = (~missing).sum(axis=1)
    some = count > 0
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN slices: NaN, as documented
        mean = np.nanmean(flat, axis=1)
        sd = np.where(count > 1, np.nanstd(flat, axis=1, ddof=1), np.nan)
        low, median, high = (np.nanmin(flat, axis=1), np.nanmedian(flat, axis=1),
                             np.nanmax(flat, axis=1))
        zeros = np.where(some, (flat == 0).sum(axis=1) / count, np.nan)
        spread = np.nanmax(x, axis=2) - np.nanmin(x, axis=2)  # per topic
    degenerate = (spread == 0).sum(axis=1)
    missing_topics = np.isnan(x).any(axis=2).sum(axis=1)
    return [{"cells": int(flat.shape[1]), "missing": int(missing[b].sum()),
             "mean": float(mean[b]), "sd": float(sd[b]), "min": float(low[b]),
             "median": float(median[b]), "max": float(high[b]),
             "zero_fraction": float(zeros[b]), "degenerate_topics": int(degenerate[b]),
             "missing_topics": int(missing_topics[b])} for b in range(len(x))]
