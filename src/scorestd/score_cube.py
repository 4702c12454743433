"""The score cube: one validating constructor and one validator.

A score cube is an :class:`xarray.DataArray` of float64 with dims
``("topic", "system", "measure")``, string labels on every dim, ``NaN`` for a missing
score and provenance in ``attrs``. Every public entry point of scorestd passes its
input through :func:`validate`, which also accepts a 2-D ``(topic, system)`` array and
gives it a ``measure`` dim of its own.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .dims import CUBE_DIMS, CUBE_NAME, DEFAULT_MEASURE, MEASURE, SYSTEM, TOPIC
from .errors import ScoreDataError

__all__ = ["cell_label", "cube", "first_cell", "match_input_dims", "validate"]


def cube(
    values: Any,
    *,
    topics: Sequence[Hashable] | None = None,
    systems: Sequence[Hashable] | None = None,
    measures: Sequence[Hashable] | None = None,
    attrs: Mapping[str, Any] | None = None,
) -> xr.DataArray:
    """Build a validated score cube from an array of scores.

    Parameters
    ----------
    values : array_like
        Scores shaped ``(topic, system)`` or ``(topic, system, measure)``. ``NaN`` marks
        a missing score; infinite values are rejected.
    topics, systems, measures : sequence, optional
        Labels of each dim; converted to ``str``. Missing labels default to ``"t1"``,
        ``"t2"``, … for topics, ``"s1"``, … for systems and ``"score"`` for the single
        measure of a 2-D array.
    attrs : mapping, optional
        Provenance to keep with the cube (e.g. ``collection``, ``source``).

    Returns
    -------
    xarray.DataArray
        A float64 cube with dims ``("topic", "system", "measure")``.

    Raises
    ------
    ScoreDataError
        If the shape and labels disagree, a label is repeated or empty, or a value
        is not a finite number or ``NaN``.

    Examples
    --------
    >>> c = cube([[0.1, 0.2], [0.3, float("nan")]], topics=["401", "402"],
    ...          systems=["bm25", "qld"], measures=["ap"])
    >>> c.dims
    ('topic', 'system', 'measure')
    >>> c.sel(topic="402", system="bm25", measure="ap").item()
    0.3
    """
    array = np.asarray(values)
    if array.ndim == 2:
        array = array[:, :, np.newaxis]
        if measures is None:
            measures = [DEFAULT_MEASURE]
    if array.ndim != 3:
        raise ScoreDataError(
            f"scores must be 2-D (topic, system) or 3-D (topic, system, measure), "
            f"got {array.ndim}-D with shape {array.shape}"
        )
    n_topics, n_systems, n_measures = array.shape
    labels = {
        TOPIC: _default_labels(topics, "t", n_topics),
        SYSTEM: _default_labels(systems, "s", n_systems),
        MEASURE: _default_labels(measures, "m", n_measures),
    }
    for dim, size in zip(CUBE_DIMS, array.shape, strict=True):
        if len(labels[dim]) != size:
            raise ScoreDataError(
                f"{len(labels[dim])} {dim} labels given for {size} {dim}s in the scores"
            )
    da = xr.DataArray(array, dims=CUBE_DIMS, coords=labels, attrs=dict(attrs or {}))
    return validate(da)


def validate(obj: Any, *, what: str = "scores", copy: bool = True) -> xr.DataArray:
    """Check a score cube and return it in canonical form.

    The result is a new DataArray (the input is never modified) with dims in the order
    ``("topic", "system", "measure")``, float64 values and ``str`` labels.

    Parameters
    ----------
    obj : xarray.DataArray or pandas.DataFrame
        A cube, a 2-D ``(topic, system)`` array, or a DataFrame with topics as rows
        and systems as columns. A 2-D input gets a ``measure`` dim labelled by its
        scalar ``measure`` coordinate if it has one (as after
        ``cube.sel(measure="ap")``), by ``attrs["measure"]``, or ``"score"``.
    what : str
        How the input is called in error messages.
    copy : bool
        ``False`` lets the result share float64 values with ``obj`` instead of
        copying them: faster for a caller that never writes to the result.

    Returns
    -------
    xarray.DataArray
        The canonical cube.

    Raises
    ------
    ScoreDataError
        On missing or unexpected dims, missing, empty or repeated labels,
        non-numeric values, or infinite values (named by topic, system and measure).
        ``NaN`` is a missing score and always allowed. Values of a dask-backed cube
        are not inspected (that would compute them).

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray([[0.5, 0.25]], dims=("topic", "system"),
    ...                   coords={"topic": [401], "system": ["a", "b"]})
    >>> c = validate(da)
    >>> c.dims, c.topic.values.tolist(), c.measure.values.tolist()
    (('topic', 'system', 'measure'), ['401'], ['score'])
    """
    if isinstance(obj, pd.DataFrame):
        obj = _from_wide_frame(obj)
    if not isinstance(obj, xr.DataArray):
        raise ScoreDataError(
            f"{what} must be an xarray.DataArray with dims {CUBE_DIMS} (or a 2-D "
            f"(topic, system) array), got {type(obj).__name__}"
        )
    da = obj
    dims = set(da.dims)
    if dims == {TOPIC, SYSTEM}:
        da = _add_measure_dim(da)
    elif dims != set(CUBE_DIMS):
        raise ScoreDataError(
            f"{what} must have dims {CUBE_DIMS} or ({TOPIC!r}, {SYSTEM!r}), got {tuple(da.dims)}"
        )
    da = da.transpose(*CUBE_DIMS)
    coords = {dim: _checked_labels(da, dim, what) for dim in CUBE_DIMS}
    data = _checked_values(da, what, copy)
    extra = {
        name: coord
        for name, coord in da.coords.items()
        if name not in CUBE_DIMS and set(coord.dims) <= set(CUBE_DIMS)
    }
    out = xr.DataArray(data, dims=CUBE_DIMS, coords=coords, attrs=dict(da.attrs), name=CUBE_NAME)
    return out.assign_coords(extra) if extra else out


def match_input_dims(result: xr.DataArray, original: Any) -> xr.DataArray:
    """Drop the ``measure`` dim that :func:`validate` added to a 2-D input.

    Public functions call this so that a 2-D input gives a result without a
    ``measure`` dim, as the caller would expect.

    Examples
    --------
    >>> import xarray as xr
    >>> two_d = xr.DataArray([[0.5, 0.25]], dims=("topic", "system"),
    ...                      coords={"topic": ["q1"], "system": ["a", "b"]})
    >>> match_input_dims(validate(two_d), two_d).dims
    ('topic', 'system')
    """
    original_dims = original.columns.names if isinstance(original, pd.DataFrame) else None
    has_measure = (
        isinstance(original, xr.DataArray | xr.Dataset) and MEASURE in original.dims
    ) or (original_dims is not None and MEASURE in original_dims)
    if has_measure or MEASURE not in result.dims or result.sizes[MEASURE] != 1:
        return result
    return result.squeeze(MEASURE, drop=False)


def _default_labels(labels: Sequence[Hashable] | None, prefix: str, n: int) -> list[Hashable]:
    if labels is None:
        return [f"{prefix}{i + 1}" for i in range(n)]
    return list(labels)


def _from_wide_frame(frame: pd.DataFrame) -> xr.DataArray:
    if frame.index.nlevels != 1 or frame.columns.nlevels != 1:
        raise ScoreDataError(
            "a DataFrame of scores must have topics as its index and systems as its columns "
            "(one level each); use scorestd.io.from_dataframe for long/tidy frames"
        )
    return xr.DataArray(
        frame.to_numpy(),
        dims=(TOPIC, SYSTEM),
        coords={TOPIC: list(frame.index), SYSTEM: list(frame.columns)},
        attrs=dict(frame.attrs),
    )


def _add_measure_dim(da: xr.DataArray) -> xr.DataArray:
    if MEASURE in da.coords and da.coords[MEASURE].ndim == 0:
        label = da.coords[MEASURE].item()
        da = da.drop_vars(MEASURE)
    else:
        label = da.attrs.get("measure", DEFAULT_MEASURE)
    return da.expand_dims({MEASURE: [label]}, axis=-1)


def _checked_labels(da: xr.DataArray, dim: str, what: str) -> np.ndarray:
    if dim not in da.coords:
        raise ScoreDataError(f"{what}: the {dim!r} dim has no labels (coordinate)")
    raw = da.coords[dim].values.tolist()
    labels: list[str] = []
    seen: dict[str, int] = {}
    for position, value in enumerate(raw):
        if value is None or (isinstance(value, float) and np.isnan(value)):
            raise ScoreDataError(f"{what}: {dim} label at position {position} is missing")
        if isinstance(value, bytes):
            value = value.decode("utf-8")
        label = str(value)
        if label == "":
            raise ScoreDataError(f"{what}: {dim} label at position {position} is empty")
        if label in seen:
            raise ScoreDataError(
                f"{what}: duplicate {dim} label {label!r} (positions {seen[label]} and {position})"
            )
        seen[label] = position
        labels.append(label)
    if not labels:
        raise ScoreDataError(f"{what}: no {dim}s")
    return np.array(labels, dtype=str)


def _checked_values(da: xr.DataArray, what: str, copy: bool = True) -> Any:
    data = da.data
    dtype = np.dtype(data.dtype)
    if dtype.kind == "b" or dtype.kind == "c":
        raise ScoreDataError(f"{what}: scores must be real numbers, got dtype {dtype}")
    if _is_dask(data):
        if dtype.kind not in "iuf":
            raise ScoreDataError(f"{what}: scores must be numeric, got dtype {dtype}")
        return data.astype(np.float64)
    if dtype.kind in "iuf":
        values = np.array(data, dtype=np.float64, copy=True if copy else None)
    else:
        values = _coerce_objects(np.asarray(data), da, what)
    bad = np.isinf(values)
    if bad.any():
        t, s, m = (int(i[0]) for i in np.nonzero(bad))
        raise ScoreDataError(
            f"{what}: infinite score {values[t, s, m]} at {_where(da, t, s, m)}"
        )
    return values


def _coerce_objects(values: np.ndarray, da: xr.DataArray, what: str) -> np.ndarray:
    out = np.empty(values.shape, dtype=np.float64)
    for index, value in np.ndenumerate(values):
        if isinstance(value, np.generic):
            value = value.item()
        try:
            out[index] = np.nan if value is None else float(value)
        except (TypeError, ValueError):
            t, s, m = index
            raise ScoreDataError(
                f"{what}: score {value!r} at {_where(da, t, s, m)} is not a number"
            ) from None
    return out


def _where(da: xr.DataArray, t: int, s: int, m: int) -> str:
    labels = (str(da[dim].values[i]) for dim, i in zip(CUBE_DIMS, (t, s, m), strict=True))
    return ", ".join(f"{dim} {label!r}" for dim, label in zip(CUBE_DIMS, labels, strict=True))


def _is_dask(data: Any) -> bool:
    return type(data).__module__.startswith("dask")

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
    >>> cell_label(cube([[0.5, 0.2]], topics=["q7"]), 0, 1, 0)
    "topic 'q7', system 's2', measure 'score'"
    """
    return (f"topic {str(cube[TOPIC].values[t])!r}, system {str(cube[SYSTEM].values[s])!r}, "
            f"measure {str(cube[MEASURE].values[m])!r}")
