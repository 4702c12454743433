"""Tables of cubes and comparisons with extra dims: one block of rows per slice.

A simulated collection's ``trial``, a ``collection`` or a ``fold`` becomes the leading
level of the rows: the table of each slice (its best in bold, its own markers) stacked
under its labels, so that the block of a slice equals the table of that slice alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from typing import Any

import pandas as pd
import xarray as xr

from ..errors import ScoreDataError
from ..io.table import Table

__all__ = ["pick_slice", "stack_slices", "stack_tables"]


def stack_slices(make: Callable[..., Table], objects: Sequence[Any],
                 extra: Sequence[Hashable]) -> Table:
    """``make(*slices)`` for every slice of ``objects`` over the dims ``extra``, stacked.

    Every object with the extra dims must have the same labels on them; an object without
    them (a cube the comparison of each slice shares) goes whole to every call.

    Examples
    --------
    >>> import numpy as np, scorestd
    >>> base = scorestd.cube(np.full((4, 2), 0.5))
    >>> sims = xr.concat([base, base + 0.1], dim="trial")
    >>> from scorestd.tables import means_table
    >>> stack_slices(means_table, [sims], ["trial"]).values.index.names
    FrozenList(['trial', 'system'])
    """
    extra = list(extra)
    labelled = [o for o in objects if set(extra) <= set(o.dims)]
    labels = [_labels(labelled[0], dim) for dim in extra]
    for other in labelled[1:]:
        for dim, known in zip(extra, labels, strict=True):
            if _labels(other, dim) != known:
                raise ScoreDataError(f"the result and the scores differ in their {dim} labels")
    keys, tables = [], []
    for combination in itertools.product(*labels):
        where = dict(zip(extra, combination, strict=True))
        slices = [pick_slice(o, where) if set(extra) <= set(o.dims) else o for o in objects]
        keys.append(combination if len(extra) > 1 else combination[0])
        tables.append(make(*slices))
    return stack_tables(tables, keys, extra)


def stack_tables(tables: Sequence[Table], keys: Sequence[Any],
                 extra: Sequence[Hashable]) -> Table:
    """The tables of the slices stacked, one block of rows per slice under its ``keys``
    (a label, or a tuple of labels over the dims ``extra``); the first table's caption,
    notes and formats.

    Examples
    --------
    >>> import pandas as pd
    >>> one = Table(pd.DataFrame({"mean": [0.5]}, index=["a"]), caption="Means.")
    >>> stack_tables([one, one], [0, 1], ["trial"]).caption
    'Means. One block of rows per trial.'
    """
    extra = list(extra)
    first = tables[0]

    def stacked(part: str) -> pd.DataFrame | None:
        frames = [getattr(t, part) for t in tables]
        if frames[0] is None:
            return None
        return pd.concat(frames, keys=keys, names=[str(d) for d in extra])

    where = " × ".join(map(str, extra))
    return Table(stacked("values"), caption=" ".join(filter(None, [first.caption,
                                                                 f"One block of rows per {where}."])),
                 notes=dict(first.notes), digits=first.digits, bold=stacked("bold"),
                 marks=stacked("marks"), low=stacked("low"), high=stacked("high"),
                 formats=dict(first.formats))


def _labels(obj: xr.DataArray | xr.Dataset, dim: Hashable) -> list:
    if dim in obj.coords:
        return obj[dim].values.tolist()
    return list(range(obj.sizes[dim]))


def pick_slice(obj: xr.DataArray | xr.Dataset, where: dict) -> Any:
    """The slice ``where`` (``{dim: label}``, by position for a dim without labels)."""
    by_label = {d: v for d, v in where.items() if d in obj.coords}
    by_position = {d: v for d, v in where.items() if d not in obj.coords}
    return obj.sel(by_label, drop=True).isel(by_position, drop=True)
