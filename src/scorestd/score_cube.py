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
from .errors import ScoreDataError, warn
from .frames import frame_to_array
from .measures import measure_info, out_of_range

__all__ = ["cell_label", "check_ranges", "cube", "first_cell", "labelled", "match_input_dims",
           "range_report", "validate"]

#: ``attrs`` key marking a cube whose values are not raw measure scores (set by
#: :func:`scorestd.standardize`); such cubes are not range-checked.
TRANSFORMED = "standardization"

#: Out-of-range scores quoted in a message.
_QUOTED = 3


def cube(
    values: Any,
    *,
    topics: Sequence[Hashable] | None = None,
    systems: Sequence[Hashable] | None = None,
    measures: Sequence[Hashable] | None = None,
    attrs: Mapping[str, Any] | None = None,
    strict: bool = False,
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
    strict : bool
        Raise instead of warning on scores outside their measure's range (see
        :func:`validate`).

    Returns
    -------
    xarray.DataArray
        A float64 cube with dims ``("topic", "system", "measure")``.

    Raises
    ------
    ScoreDataError
        If the shape and labels disagree, a label is repeated or empty, or a value
        is not a finite number or ``NaN``; with ``strict=True``, a score outside its
        measure's range.

    Warns
    -----
    ScorestdWarning
        A score outside its measure's range (see :func:`validate`).

    Examples
    --------
    >>> c = cube([[0.1, 0.2], [0.3, float("nan")]], topics=["401", "402"],
    ...          systems=["bm25", "qld"], measures=["ap"])
    >>> c.dims
    ('topic', 'system', 'measure')
    >>> c.sel(topic="402", system="bm25", measure="ap").item()
    0.3
    """
    return validate(labelled(values, topics=topics, systems=systems, measures=measures,
                             attrs=attrs), strict=strict)


def labelled(
    values: Any,
    *,
    topics: Sequence[Hashable] | None = None,
    systems: Sequence[Hashable] | None = None,
    measures: Sequence[Hashable] | None = None,
    attrs: Mapping[str, Any] | None = None,
) -> xr.DataArray:
    """The DataArray :func:`cube` validates: labels checked against the shape only.

    Readers that check ranges themselves (naming file and line) validate it with
    ``check_range=False``.

    Examples
    --------
    >>> labelled([[0.5]]).dims
    ('topic', 'system', 'measure')
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
    return xr.DataArray(array, dims=CUBE_DIMS, coords=labels, attrs=dict(attrs or {}))


def validate(obj: Any, *, what: str = "scores", copy: bool = True, strict: bool = False,
             check_range: bool = True) -> xr.DataArray:
    """Check a score cube and return it in canonical form.

    The result is a new DataArray (the input is never modified) with dims in the order
    ``("topic", "system", "measure")``, float64 values and ``str`` labels.

    Parameters
    ----------
    obj : xarray.DataArray, pandas.DataFrame or pandas.Series
        A cube, a 2-D ``(topic, system)`` array, a DataFrame whose axis names say which
        axis holds topics and which systems (``frame.rename_axis(index="topic",
        columns="system")``, or the transpose), or a Series indexed by named
        ``topic``/``system`` (and ``measure``) levels. pandas objects are read by their
        labels, never by position: an unnamed or tidy frame is refused with the call to
        make (:func:`scorestd.from_dataframe` for tidy tables). A 2-D input gets a
        ``measure`` dim labelled by its scalar ``measure`` coordinate if it has one (as
        after ``cube.sel(measure="ap")``), by ``attrs["measure"]``, or ``"score"``.
    what : str
        How the input is called in error messages.
    copy : bool
        ``False`` lets the result share float64 values with ``obj`` instead of
        copying them: faster for a caller that never writes to the result.
    strict : bool
        Raise :class:`~scorestd.errors.ScoreDataError` instead of warning when a score is
        outside the range of its measure.
    check_range : bool
        Check scores against their measure's range (:func:`scorestd.measure_info`):
        ``AP`` in [0, 1], ``P@10`` a multiple of 0.1, ``RR`` 0 or 1/rank … Measures the
        registry does not know are unbounded. Cubes whose ``attrs`` have
        ``standardization`` (standardized values) are never checked.

    Returns
    -------
    xarray.DataArray
        The canonical cube.

    Raises
    ------
    ScoreDataError
        On missing or unexpected dims, missing, empty or repeated labels,
        non-numeric values, or infinite values (named by topic, system and measure);
        with ``strict=True``, scores outside their measure's range. ``NaN`` is a
        missing score and always allowed. Values of a dask-backed cube are not
        inspected (that would compute them).

    Warns
    -----
    ScorestdWarning
        Scores outside their measure's range, naming the source file (``attrs["source"]``),
        the measure, its range, and the first topics, systems and values at fault.

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray([[0.5, 0.25]], dims=("topic", "system"),
    ...                   coords={"topic": [401], "system": ["a", "b"]})
    >>> c = validate(da)
    >>> c.dims, c.topic.values.tolist(), c.measure.values.tolist()
    (('topic', 'system', 'measure'), ['401'], ['score'])
    """
    if isinstance(obj, pd.DataFrame | pd.Series):
        obj = frame_to_array(obj, what)
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
    out = out.assign_coords(extra) if extra else out
    if check_range:
        check_ranges(out, strict=strict, what=what)
    return out


def range_report(scores: xr.DataArray) -> dict[str, tuple[str, np.ndarray]]:
    """Per measure of a canonical cube: its range in words and the mask of scores outside it.

    Unknown measures read ``"unknown: unbounded"`` with an all-``False`` mask; a cube of
    standardized values (``attrs["standardization"]``) reads ``"standardized"``.

    Examples
    --------
    >>> text, bad = range_report(labelled([[0.5, 0.7]], measures=["recip_rank"]))["recip_rank"]
    >>> text, bad.ravel().tolist()
    ('0 or 1/rank in [0, 1]', [False, True])
    """
    out = {}
    for k, label in enumerate(scores[MEASURE].values):
        values = np.asarray(scores.data[..., k])
        info = None if TRANSFORMED in scores.attrs else measure_info(str(label))
        if info is None:
            text = "standardized" if TRANSFORMED in scores.attrs else "unknown: unbounded"
            out[str(label)] = (text, np.zeros(values.shape, dtype=bool))
        else:
            out[str(label)] = (info.describe(), out_of_range(values, info))
    return out


def check_ranges(scores: xr.DataArray, *, strict: bool = False, what: str = "scores") -> None:
    """Warn (or raise with ``strict``) when a canonical cube has scores its measures cannot give.

    Nothing is checked for a dask-backed cube or one of standardized values.

    Examples
    --------
    >>> check_ranges(labelled([[0.5, 1.5]], measures=["ap"]), strict=True)
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: scores: 1 'ap' score outside [0, 1] ...
    """
    if _is_dask(scores.data) or TRANSFORMED in scores.attrs:
        return
    source = scores.attrs.get("source") or what
    for k, (label, (text, bad)) in enumerate(range_report(scores).items()):
        if not bad.any():
            continue
        positions = np.argwhere(bad)[:_QUOTED]
        examples = "; ".join(
            f"{float(scores.data[t, s, k])!r} at topic {str(scores[TOPIC].values[t])!r}, "
            f"system {str(scores[SYSTEM].values[s])!r}" for t, s in positions)
        count = int(bad.sum())
        message = (f"{source}: {count} {label!r} score{'s' if count > 1 else ''} outside "
                   f"{text} ({examples}{'; …' if count > _QUOTED else ''}); a column of ids "
                   "read as scores, a mislabelled measure or a damaged file? "
                   "(scorestd.register_measure declares other bounds)")
        if strict:
            raise ScoreDataError(message)
        warn(message)


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
