"""pandas objects as scores: read by their labels, never by position.

A wide DataFrame is a ``(topic, system)`` matrix only when its axis names say which axis
is which (``frame.rename_axis(index="topic", columns="system")``, or the transpose); a
tidy (long) frame, with topic, system, measure or value columns, goes through
:func:`scorestd.from_dataframe`. Anything else is refused with the call to make, so a
column of query ids is never averaged as if it were a run.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pandas as pd
import xarray as xr

from .dims import MEASURE, SYSTEM, TOPIC
from .errors import ScoreDataError

__all__ = ["COLUMN_ALIASES", "axis_role", "frame_to_array", "id_like", "role_of"]

#: Column (or axis) names recognised for each role, lower case, in order of preference.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    SYSTEM: ("system", "run", "run_id", "runid", "run_name", "name", "model", "systems",
             "runs"),
    TOPIC: ("topic", "query", "query_id", "qid", "topic_id", "q_id", "topics", "queries",
            "queryid", "topicid", "qno"),
    MEASURE: ("measure", "metric", "measures", "metrics"),
    "value": ("value", "score", "values", "scores"),
}

_WIDE_CALL = ("frame.rename_axis(index='topic', columns='system') (topics as rows) or "
              "frame.rename_axis(index='system', columns='topic') (systems as rows)")


def role_of(name: Hashable) -> str | None:
    """The role (``"topic"``, ``"system"``, ``"measure"``, ``"value"``) a label names.

    Examples
    --------
    >>> role_of("qid"), role_of("Run"), role_of("bm25")
    ('topic', 'system', None)
    """
    if name is None:
        return None
    text = str(name).strip().lower()
    return next((role for role, names in COLUMN_ALIASES.items() if text in names), None)


def axis_role(index: pd.Index) -> str | None:
    """The role the name of a one-level pandas axis gives it (``None`` when unnamed)."""
    return role_of(index.name) if index.nlevels == 1 else None


def frame_to_array(obj: Any, what: str = "scores") -> xr.DataArray:
    """A ``(topic, system)`` or cube DataArray from a labelled wide frame or Series.

    Accepted: a DataFrame whose index and columns are named as topics and systems (either
    way round; one name suffices); a Series whose index levels are named ``topic``,
    ``system`` and optionally ``measure`` (or their aliases). Refused, with the call to
    make: a tidy frame (columns named like ``qid``, ``run``, ``measure``, ``value``), a
    frame with unnamed axes, axes that name the same role.

    Examples
    --------
    >>> frame = pd.DataFrame({"bm25": [0.5, 0.25]}, index=pd.Index(["401", "402"], name="qid"))
    >>> frame_to_array(frame).dims
    ('topic', 'system')
    """
    if isinstance(obj, pd.Series):
        return _series_to_array(obj, what)
    frame: pd.DataFrame = obj
    tidy = {str(c): role_of(c) for c in frame.columns if role_of(c) is not None}
    if tidy:
        raise ScoreDataError(
            f"{what}: a DataFrame with columns named as {_roles(tidy)} is a tidy (long) table, "
            "not a topic × system matrix; read it with scorestd.from_dataframe(frame) "
            "(add run_name='…' for the per-query scores of one run)"
        )
    if frame.index.nlevels != 1 or frame.columns.nlevels != 1:
        raise ScoreDataError(
            f"{what}: a DataFrame with several index or column levels is not a topic × system "
            "matrix; read it with scorestd.from_dataframe(frame.reset_index())"
        )
    rows, cols = axis_role(frame.index), axis_role(frame.columns)
    pair = {(TOPIC, SYSTEM), (TOPIC, None), (None, SYSTEM)}
    if (rows, cols) in pair:
        dims = (TOPIC, SYSTEM)
    elif (rows, cols) in {(SYSTEM, TOPIC), (SYSTEM, None), (None, TOPIC)}:
        dims = (SYSTEM, TOPIC)
    elif rows is None and cols is None:
        raise ScoreDataError(
            f"{what}: the DataFrame's index and columns are not named, so which are topics and "
            f"which are systems cannot be told (pandas objects are read by their labels, never "
            f"by position); name them: {_WIDE_CALL}"
        )
    else:
        raise ScoreDataError(
            f"{what}: the DataFrame's index is named {frame.index.name!r} and its columns "
            f"{frame.columns.name!r}; a topic × system matrix needs one axis of topics and one "
            f"of systems: {_WIDE_CALL}; or read a per-query table with scorestd.from_dataframe"
        )
    _check_no_id_columns(frame if dims[1] == SYSTEM else frame.T, what)
    return xr.DataArray(
        frame.to_numpy(),
        dims=dims,
        coords={dims[0]: list(frame.index), dims[1]: list(frame.columns)},
        attrs=dict(frame.attrs),
    )


def id_like(values: Any) -> bool:
    """Whether a column of numbers reads like identifiers: distinct, sorted whole numbers
    above 1 (``401, 402, 403``), which no effectiveness measure gives topic after topic.

    Examples
    --------
    >>> id_like([401, 402, 403]), id_like([0.25, 0.5, 0.75]), id_like([3, 1, 2])
    (True, False, False)
    """
    x = pd.to_numeric(pd.Series(values), errors="coerce").dropna().to_numpy()
    return bool(x.size >= 2 and (x == x.round()).all() and x.max() > 1
                and (x[1:] > x[:-1]).all())


def _check_no_id_columns(frame: pd.DataFrame, what: str) -> None:
    for column in frame.columns:
        if id_like(frame[column]):
            raise ScoreDataError(
                f"{what}: column {column!r} holds sorted distinct whole numbers "
                f"({', '.join(map(str, frame[column].iloc[:3].tolist()))} …): ids, not the "
                "scores of a system; make it the index (frame.set_index(...)) and name it, "
                "or read the frame with scorestd.from_dataframe")


def _series_to_array(series: pd.Series, what: str) -> xr.DataArray:
    names = list(series.index.names)
    roles = [role_of(n) for n in names]
    if sorted(r for r in roles if r) not in ([SYSTEM, TOPIC], [MEASURE, SYSTEM, TOPIC]) or (
        None in roles
    ):
        raise ScoreDataError(
            f"{what}: a Series of scores needs index levels named topic and system (and "
            f"optionally measure); its levels are {names}. Name them, e.g. "
            "series.rename_axis(['topic', 'system']), or read a table with "
            "scorestd.from_dataframe(series.reset_index())"
        )
    if not series.index.is_unique:
        raise ScoreDataError(f"{what}: the Series has repeated (topic, system) labels")
    renamed = series.rename_axis(roles)
    return xr.DataArray.from_series(renamed).assign_attrs(series.attrs)


def _roles(columns: dict[str, str | None]) -> str:
    return ", ".join(f"{role} ({name!r})" for name, role in columns.items())
