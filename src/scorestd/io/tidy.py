"""Tidy (long) tables: one row per (system, topic, measure) with its value.

This is the shape of ir_measures, ranx and PyTerrier per-query results, and of the
long CSV files scorestd writes.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from .._options import check_flag
from ..dims import DEFAULT_MEASURE, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..frames import COLUMN_ALIASES, id_like, role_of
from ..mapping import slice_labels
from ..score_cube import extra_dims_of, validate
from ._common import existing_file, file_dialect, open_text, undecodable_line
from .atomic import atomic_output
from .dialect import csv_error
from .long_rows import BLOCK_ROWS, LongRows, paused_gc
from .paths import check_output_path

__all__ = ["from_dataframe", "read_long_csv", "read_parquet", "to_dataframe", "write_long_csv",
           "write_parquet"]

#: Rows written per block by :func:`write_long_csv` (memory stays bounded by the block).
WRITE_BLOCK = 1 << 18

#: First line of a long CSV written by scorestd: the cube's attrs as JSON.
ATTRS_PREFIX = "# scorestd-attrs: "

#: Key of the attrs written with a long table that names its extra dims' columns and the
#: type of their labels (``"int64"``, ``"float64"``, ``"bool"``, ``"str"``, or
#: ``"position"`` for a dim without labels); not an attr of the cube read back.
EXTRA_DIMS_KEY = "scorestd:extra_dims"

#: Key of the attrs written with a long table that holds the cube's coordinates besides its
#: labels (a simulated collection's ``true_mean`` per system …): their dims and values.
COORDS_KEY = "scorestd:coords"


def from_dataframe(
    frame: pd.DataFrame | pd.Series,
    *,
    system: str | None = None,
    topic: str | None = None,
    measure: str | None = None,
    value: str | None = None,
    run_name: str | None = None,
    measure_name: str | None = None,
    attrs: dict | None = None,
    strict: bool = False,
    extra_dims: Sequence[str] = (),
) -> xr.DataArray:
    """Build a cube from a DataFrame of per-topic scores, read by its labels.

    Columns are found by name (case-insensitive) unless given: system from ``system``,
    ``run``, ``run_id``, ``name`` (PyTerrier) …; topic from ``topic``, ``query``,
    ``query_id`` (ir_measures, ranx), ``qid`` (PyTerrier) …; measure from
    ``measure``/``metric``; value from ``value``/``score``. Named index levels count as
    columns (``frame.set_index(["qid", "name"])`` reads the same). A frame without a
    measure and value column is wide, and its other columns are what the columns' axis
    name says: measures by default (``{qid, AP, nDCG}``: one run's per-query table,
    with ``run_name``), systems with ``frame.rename_axis(columns="system")``, topics with
    ``columns="topic"`` (a system-by-topic frame). Nothing is read by position, and a
    column of sorted distinct whole numbers (ids) is never taken as scores.

    Parameters
    ----------
    frame : pandas.DataFrame or pandas.Series
        The scores (a Series: its named index levels are the labels).
    system, topic, measure, value : str, optional
        Column names, overriding the automatic choice.
    run_name : str, optional
        System label for a frame without a system column (one run, as from
        ``ir_measures.iter_calc``).
    measure_name : str, optional
        Measure label for a frame without a measure column and a single value column,
        or a wide topic-by-system frame (default ``"score"``).
    attrs : dict, optional
        Provenance for the cube (``collection`` …).
    strict : bool
        Raise instead of warning on scores outside their measure's range.
    extra_dims : sequence of str
        Columns holding extra dims (the ``trial``, ``fold`` … columns that
        :func:`to_dataframe` writes for a cube with extra dims): they become the
        cube's leading dims, their labels keeping their type.

    Returns
    -------
    xarray.DataArray
        Labels in order of first appearance; (topic, system, measure) cells absent
        from the frame, or with a missing value, are ``NaN``. Measure objects (such as
        ir_measures' ``nDCG@10``) are labelled by ``str()``.

    Raises
    ------
    ScoreDataError
        For a missing column (with the call that names it), a missing label, a value
        that is not a number, a column of ids among the scores, or the same (system,
        topic, measure) twice with different values (naming both rows).

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"name": ["bm25", "bm25", "qld"], "qid": ["1", "2", "1"],
    ...                    "measure": ["AP", "AP", "AP"], "value": [0.5, 0.25, 0.125]})
    >>> c = from_dataframe(df)
    >>> c.sel(topic="1", measure="AP").values.tolist()
    [0.5, 0.125]
    >>> bool(c.sel(topic="2", system="qld").isnull().all())
    True
    >>> per_query = pd.DataFrame({"qid": [401, 402, 403], "AP": [0.5, 0.25, 0.0]})
    >>> from_dataframe(per_query, run_name="bm25").sel(system="bm25", measure="AP").values
    array([0.5 , 0.25, 0.  ])
    """
    if isinstance(frame, pd.Series):
        frame = frame.rename(frame.name if frame.name is not None else "value").to_frame()
    if not isinstance(frame, pd.DataFrame):
        raise ScoreDataError(f"expected a pandas DataFrame, got {type(frame).__name__}")
    if frame.empty:
        raise ScoreDataError("the DataFrame has no rows")
    columns_role = role_of(frame.columns.name) if frame.columns.nlevels == 1 else None
    named_index = any(n is not None for n in frame.index.names)
    try:
        df = frame.reset_index(drop=not named_index)
    except ValueError as exc:  # an index level named like a column
        raise ScoreDataError(f"cannot use the index as columns: {exc}") from None
    df.columns = [c if isinstance(c, str) else str(c) for c in df.columns]
    lower = {str(c).lower(): c for c in df.columns}
    extra = [str(d) for d in ([extra_dims] if isinstance(extra_dims, str) else extra_dims)]
    for role, col in ((SYSTEM, system), (TOPIC, topic), (MEASURE, measure), ("value", value),
                      *(("extra dim", d) for d in extra)):
        if col is not None and col not in df.columns:
            raise ScoreDataError(f"no {role} column {col!r}; columns are {list(df.columns)}")
    sys_col = system or _find(lower, SYSTEM)
    top_col = topic or _find(lower, TOPIC)
    mea_col = measure or _find(lower, MEASURE)
    val_col = value or _find(lower, "value")
    wide = mea_col is None and val_col is None
    if wide and columns_role in (SYSTEM, TOPIC):
        # the columns' axis name says what the columns other than the labels are
        label_cols = [*extra, *(c for c in (sys_col, top_col) if c is not None)]
        spread = [c for c in df.columns if c not in label_cols]
        if not spread:
            raise ScoreDataError(f"no score columns besides {label_cols}")
        _refuse_ids(df, spread)
        df = df.melt(id_vars=label_cols, value_vars=spread, var_name=f"__{columns_role}__",
                     value_name="__value__")
        if columns_role == SYSTEM:
            sys_col = "__system__"
        else:
            top_col = "__topic__"
        df = df.assign(__measure__=measure_name or DEFAULT_MEASURE)
        mea_col, val_col = "__measure__", "__value__"
    if top_col is None:
        raise ScoreDataError(
            f"no topic column (tried {COLUMN_ALIASES[TOPIC]}); columns are {list(df.columns)}; "
            "name it with topic='…' (or name the index: frame.rename_axis('topic'))"
        )
    if sys_col is None:
        if run_name is None:
            raise ScoreDataError(
                f"no system column (tried {COLUMN_ALIASES[SYSTEM]}); columns are "
                f"{list(df.columns)}; name it with system='…', give run_name='…' for the "
                "scores of one run, or say that the other columns are systems: "
                "scorestd.from_dataframe(frame.set_index(<topic column>)"
                ".rename_axis(columns='system'))"
            )
        df = df.assign(**{"__system__": run_name})
        sys_col = "__system__"
    if mea_col is None:
        label_cols = {sys_col, top_col, *extra}
        value_cols = [val_col] if val_col is not None else [c for c in df.columns if c not in label_cols]
        if not value_cols:
            raise ScoreDataError(f"no value column; columns are {list(frame.columns)}")
        _refuse_ids(df, value_cols)
        if len(value_cols) == 1:
            df = df.assign(**{"__measure__": measure_name or str(value_cols[0])})
        else:
            df = df.melt(id_vars=[*extra, sys_col, top_col], value_vars=value_cols,
                         var_name="__measure__", value_name="__value__")
            val_col = "__value__"
        mea_col = "__measure__"
        val_col = val_col or value_cols[0]
    if val_col is None:
        raise ScoreDataError(
            f"no value column (tried {COLUMN_ALIASES['value']}); columns are {list(df.columns)}"
        )
    rows = LongRows({**{d: d for d in extra}, SYSTEM: sys_col, TOPIC: top_col,
                     MEASURE: mea_col},
                    lambda row, message: ScoreDataError(f"row {row}: {message}"), extra=extra)
    for start in range(0, len(df), BLOCK_ROWS):
        block = df.iloc[start:start + BLOCK_ROWS]
        rows.add({**{d: block[d] for d in extra}, SYSTEM: block[sys_col],
                  TOPIC: block[top_col], MEASURE: block[mea_col]}, block[val_col])
    return rows.cube({**frame.attrs, **(attrs or {})}, where=lambda row: f"row {row}",
                     strict=strict)


def _refuse_ids(df: pd.DataFrame, columns: list) -> None:
    for column in columns:
        if id_like(df[column]):
            raise ScoreDataError(
                f"column {column!r} holds sorted distinct whole numbers "
                f"({', '.join(map(str, df[column].iloc[:3].tolist()))} …): ids, not scores; "
                f"name its role: from_dataframe(frame, topic={column!r}) for topic ids")


def to_dataframe(scores: xr.DataArray, *, dropna: bool = False) -> pd.DataFrame:
    """Turn a cube into a tidy DataFrame with columns system, topic, measure, value.

    Rows come system by system, then topic, then measure, in the cube's label order.
    Missing scores are kept as ``NaN`` rows unless ``dropna=True``. Extra dims
    (``trial`` …) come as the first columns, slice by slice.

    Examples
    --------
    >>> from scorestd import cube
    >>> c = cube([[0.5, 0.25]], topics=["401"], systems=["a", "b"], measures=["ap"])
    >>> to_dataframe(c).to_dict("records")[0]
    {'system': 'a', 'topic': '401', 'measure': 'ap', 'value': 0.5}
    """
    dropna = check_flag("dropna", dropna)
    c = validate(scores, check_range=False, extra_dims=True)  # written as given
    extra = list(c.dims[:-3])
    order = [*extra, SYSTEM, TOPIC, MEASURE]
    labels = [c[d].values if d in c.coords else np.arange(c.sizes[d]) for d in order]
    grids = np.meshgrid(*labels, indexing="ij")
    values = c.transpose(*order).values
    df = pd.DataFrame({
        **{d: g.ravel() for d, g in zip(extra, grids, strict=False)},
        **{d: g.ravel().astype(object) for d, g in zip(order[len(extra):],
                                                        grids[len(extra):], strict=True)},
        "value": values.ravel(),
    })
    if dropna:
        df = df[df["value"].notna()].reset_index(drop=True)
    return df


def write_long_csv(scores: xr.DataArray, path: str | os.PathLike, *,
                   delimiter: str = ",") -> Path:
    """Write a cube as a long CSV (system, topic, measure, value), attrs on line 1.

    The first line is ``# scorestd-attrs: {json}`` so that :func:`read_long_csv`
    restores the provenance. Extra dims (``trial`` …) are written as the first columns,
    slice by slice (as :func:`to_dataframe`), and named with the type of their labels
    on line 1, as are the cube's other coordinates (a simulated collection's
    ``true_mean`` …), so that the file reads back into the same cube; values keep full precision (the shortest text that reads
    back as the same float); missing scores are empty. Rows are written in blocks of
    :data:`WRITE_BLOCK`, so memory stays bounded whatever the size of the cube. The
    file is written whole or not at all (:func:`scorestd.io.atomic.atomic_output`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, float("nan")]], topics=["401"], systems=["a", "b"])
    >>> p = write_long_csv(c, pathlib.Path(tempfile.mkdtemp()) / "long.csv")
    >>> read_long_csv(p).identical(c)
    True
    """
    out = check_output_path(path, "csv")
    c = validate(scores, copy=False, check_range=False, extra_dims=True)  # written as given
    extra = list(extra_dims_of(c))
    quote = _quoter(delimiter)
    topics = [quote(t) for t in c[TOPIC].values.tolist()]
    measures = [quote(m) for m in c[MEASURE].values.tolist()]
    # the (topic, measure) part of every row of one system, in row order
    suffixes = [f"{delimiter}{t}{delimiter}{m}{delimiter}" for t in topics for m in measures]
    per_system = len(suffixes)
    systems = c[SYSTEM].values.tolist()
    block = max(1, WRITE_BLOCK // max(per_system, 1))
    with atomic_output(out) as tmp, tmp.open("w", newline="", encoding="utf-8") as fh:
        fh.write(ATTRS_PREFIX + json.dumps(_header_attrs(c), ensure_ascii=False) + "\n")
        fh.write(delimiter.join(map(quote, (*extra, SYSTEM, TOPIC, MEASURE, "value"))) + "\n")
        for where in slice_labels(c):  # one collection after another, as to_dataframe
            lead = "".join(quote(label) + delimiter for label in where.values())
            one = c.sel(where) if where else c
            values = one.transpose(SYSTEM, TOPIC, MEASURE).values.reshape(len(systems),
                                                                          per_system)
            for start in range(0, len(systems), block):
                rows = values[start:start + block]
                texts = rows.astype(str).tolist()  # shortest round-trip text, as repr()
                lines = []
                for system, row, text in zip(systems[start:start + block], rows, texts,
                                             strict=True):
                    head = lead + quote(system)
                    missing = np.isnan(row)
                    if missing.any():
                        text = ["" if m else t
                                for m, t in zip(missing.tolist(), text, strict=True)]
                    lines.append("\n".join(map("".join, zip([head] * per_system, suffixes,
                                                             text, strict=True))))
                fh.write("\n".join(lines) + "\n")
    return out


def read_long_csv(
    path: str | os.PathLike,
    *,
    system: str | None = None,
    topic: str | None = None,
    measure: str | None = None,
    value: str | None = None,
    delimiter: str | None = None,
    decimal: str | None = None,
    strict: bool = False,
    extra_dims: Sequence[str] = (),
) -> xr.DataArray:
    """Read a long CSV (one row per system, topic, measure) into a cube.

    Column names are found as in :func:`from_dataframe`. Extra dims are the columns
    that line 1 of a file written by :func:`write_long_csv` names (their labels get
    back their type), or those given as ``extra_dims`` (labels read as text). Labels are read as text
    (``"NA"`` stays a label), values with full precision; empty values and
    ``NA``/``NaN`` are missing. The field separator and decimal mark are sniffed unless
    given. Errors name the file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "runs.csv"
    >>> _ = p.write_text("run,query_id,metric,score\\nbm25,7,ndcg,0.5\\n")
    >>> read_long_csv(p).sel(system="bm25", topic="7", measure="ndcg").item()
    0.5
    """
    p = existing_file(path)
    dialect = file_dialect(p, delimiter, decimal, skip_prefix=ATTRS_PREFIX)
    attrs: dict = {"source": str(p), "source_format": "long_csv"}
    with open_text(p) as fh, paused_gc():
        first = _decoded(p, fh.readline)
        header_lines = 0
        if first.startswith(ATTRS_PREFIX):
            header_lines = 1
            try:
                attrs = json.loads(first[len(ATTRS_PREFIX):])
            except json.JSONDecodeError as exc:
                raise ScoreDataError(f"attrs line is not JSON: {exc}", path=p, line=1) from None
            if not isinstance(attrs, dict):
                raise ScoreDataError("attrs line is not a JSON object", path=p, line=1)
            first = ""
        kinds = {str(d): str(k) for d, k in dict(attrs.pop(EXTRA_DIMS_KEY, {})).items()}
        extra = list(dict.fromkeys([*kinds, *([extra_dims] if isinstance(extra_dims, str)
                                              else map(str, extra_dims))]))
        reader = csv.reader(itertools.chain([first] if first else [], fh),
                            delimiter=dialect.delimiter)

        def line_of(row: int) -> int:  # only on the way to an error: read the file again
            return _line_of_row(p, dialect.delimiter, header_lines, row)

        def fail(row: int, message: str) -> ScoreDataError:
            return ScoreDataError(message, path=p, line=line_of(row))

        header = _next_rows(reader, 1, p, header_lines)
        if not header:
            raise ScoreDataError("no header line", path=p)
        header = header[0]
        if len(set(header)) != len(header):
            raise ScoreDataError(f"repeated column names in the header {header}", path=p,
                                 line=1 + header_lines)
        lower = {c.lower(): c for c in header}
        cols = {
            SYSTEM: system or _find(lower, SYSTEM),
            TOPIC: topic or _find(lower, TOPIC),
            MEASURE: measure or _find(lower, MEASURE),
            "value": value or _find(lower, "value"),
        }
        for role, col in cols.items():
            if col is None or col not in header:
                raise ScoreDataError(f"no {role} column (tried {COLUMN_ALIASES[role]}); "
                                     f"header is {header}", path=p, line=1 + header_lines)
        for dim in extra:
            if dim not in header:
                raise ScoreDataError(f"no column {dim!r} of the extra dim {dim!r}; header is "
                                     f"{header}", path=p, line=1 + header_lines)
        cols = {**{dim: dim for dim in extra}, **cols}
        where = {role: header.index(col) for role, col in cols.items()}
        rows = LongRows(cols, fail, extra=extra)
        while block := [r for r in _next_rows(reader, BLOCK_ROWS, p, header_lines) if r]:
            if set(map(len, block)) != {len(header)}:
                k = next(k for k, r in enumerate(block) if len(r) != len(header))
                raise fail(rows.n + k, f"expected {len(header)} fields as in the header, "
                                       f"found {len(block[k])}")
            rows.add({role: [r[k] for r in block] for role, k in where.items()},
                     [r[where["value"]] for r in block], dialect.decimal)
    if rows.n == 0:
        raise ScoreDataError("no rows after the header", path=p)
    coords = attrs.pop(COORDS_KEY, {})
    cube = rows.cube(attrs, where=lambda row: f"line {line_of(row)}", strict=strict)
    return _with_coords(_typed_extra_labels(cube, kinds) if kinds else cube, coords)


def _next_rows(reader, n: int, path: Path, header_lines: int) -> list[list[str]]:
    """Up to ``n`` more rows of ``reader`` (blank rows included, as ``[]``)."""
    try:
        return _decoded(path, lambda: list(itertools.islice(reader, n)))
    except csv.Error as exc:
        raise ScoreDataError(csv_error(exc), path=path,
                             line=reader.line_num + header_lines) from None


def _decoded(path: Path, read):
    """``read()``; a byte that is not UTF-8 is an error naming its line (found again)."""
    try:
        return read()
    except UnicodeDecodeError as exc:
        raise ScoreDataError(f"not UTF-8 text ({exc.reason})", path=path,
                             line=undecodable_line(path)) from None


def _line_of_row(path: Path, delimiter: str, header_lines: int, row: int) -> int:
    """The line on which data row ``row`` (0-based, blank rows not counted) ends."""
    with open_text(path) as fh:
        lines = itertools.islice(fh, header_lines, None)
        reader = csv.reader(lines, delimiter=delimiter)
        next(reader, None)  # the header
        seen = -1
        for fields in reader:
            seen += bool(fields)
            if seen == row:
                break
        return reader.line_num + header_lines


def write_parquet(scores: xr.DataArray, path: str | os.PathLike) -> Path:
    """Write a cube as a long Parquet table (system, topic, measure, value; attrs kept).

    Needs ``pyarrow`` (``pip install pyarrow``); pandas writes the file. Extra dims
    (``trial`` …) are the first columns, as in :func:`to_dataframe`, and are named in the
    stored attrs so that :func:`read_parquet` restores them.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, 0.25]], measures=["ap"], attrs={"collection": "demo"})
    >>> p = write_parquet(c, pathlib.Path(tempfile.mkdtemp()) / "c.parquet")  # doctest: +SKIP
    >>> read_parquet(p).identical(c)  # doctest: +SKIP
    True
    """
    _require_pyarrow()
    out = check_output_path(path, "parquet")
    c = validate(scores, copy=False, check_range=False, extra_dims=True)
    frame = to_dataframe(c)
    frame.attrs = {"scorestd": json.dumps(_header_attrs(c), ensure_ascii=False)}
    with atomic_output(out) as tmp:
        frame.to_parquet(tmp, engine="pyarrow", index=False)
    return out


def read_parquet(path: str | os.PathLike, *, strict: bool = False) -> xr.DataArray:
    """Read a long Parquet table (as :func:`write_parquet` writes, or any tidy table).

    Needs ``pyarrow``. Columns are found as in :func:`from_dataframe`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> p = write_parquet(cube([[0.5]]), pathlib.Path(tempfile.mkdtemp()) / "c.parquet")  # doctest: +SKIP
    >>> read_parquet(p).sizes["system"]  # doctest: +SKIP
    1
    """
    _require_pyarrow()
    p = existing_file(path)
    try:
        frame = pd.read_parquet(p, engine="pyarrow")
    except Exception as exc:  # pyarrow raises its own types on a damaged file
        raise ScoreDataError(f"cannot read as Parquet: {type(exc).__name__}: {exc}",
                             path=p) from None
    stored = frame.attrs.get("scorestd")
    attrs = json.loads(stored) if stored else {"source": str(p), "source_format": "parquet"}
    kinds = dict(attrs.pop(EXTRA_DIMS_KEY, {}))
    coords = attrs.pop(COORDS_KEY, {})
    frame.attrs = {}
    try:
        cube = from_dataframe(frame, attrs=attrs, strict=strict, extra_dims=list(kinds))
        unlabelled = [dim for dim, kind in kinds.items() if kind == "position"]
        return _with_coords(cube.drop_vars(unlabelled) if unlabelled else cube, coords)
    except ScoreDataError as exc:
        raise ScoreDataError(exc.message, path=p) from None


def _require_pyarrow() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise ScoreDataError("Parquet files need pyarrow: pip install pyarrow "
                             "(or write .nc or .csv)") from None


def _quoter(delimiter: str):
    """A function quoting a label for CSV when it needs it (as csv.writer would)."""
    special = (delimiter, '"', "\n", "\r")

    def quote(label: object) -> str:
        text = str(label)
        if any(ch in text for ch in special) or text != text.strip() or text == "":
            return '"' + text.replace('"', '""') + '"'
        return text

    return quote


def _find(lower_columns: dict[str, object], role: str) -> str | None:
    for alias in COLUMN_ALIASES[role]:
        if alias in lower_columns:
            return lower_columns[alias]  # type: ignore[return-value]
    return None


def _header_attrs(c: xr.DataArray) -> dict:
    """The cube's attrs, with its extra dims and the type of their labels if it has some."""
    attrs = _jsonable(c.attrs)
    kinds = {"i": "int64", "u": "int64", "f": "float64", "b": "bool"}
    extra = {str(dim): (kinds.get(c[dim].dtype.kind, "str") if dim in c.coords else "position")
             for dim in extra_dims_of(c)}
    if extra:
        attrs[EXTRA_DIMS_KEY] = extra
    coords = {str(name): {"dims": [str(d) for d in coord.dims],
                          "values": _jsonable({"v": coord.values})["v"]}
              for name, coord in c.coords.items()
              if name not in c.dims and coord.dtype.kind in "iufbU"}
    if coords:
        attrs[COORDS_KEY] = coords
    return attrs


def _with_coords(cube: xr.DataArray, coords: dict) -> xr.DataArray:
    """The coordinates :func:`_header_attrs` recorded, back on the cube read (its labels
    come in the order they were written)."""
    for name, coord in coords.items():
        cube = cube.assign_coords({name: (tuple(coord["dims"]), np.asarray(coord["values"]))})
    return cube


def _typed_extra_labels(cube: xr.DataArray, kinds: dict[str, str]) -> xr.DataArray:
    """Extra dims' labels read as text, back in the type :func:`_header_attrs` recorded."""
    for dim, kind in kinds.items():
        text = np.asarray([str(v) for v in cube[dim].values])
        if kind == "position":
            cube = cube.drop_vars(dim)
        elif kind == "bool":
            cube = cube.assign_coords({dim: text == "True"})
        elif kind in ("int64", "float64"):
            cube = cube.assign_coords({dim: text.astype(kind)})
        else:
            cube = cube.assign_coords({dim: text})
    return cube


def _jsonable(attrs: dict) -> dict:
    out = {}
    for key, value in attrs.items():
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, np.generic):
            value = value.item()
        out[str(key)] = value
    return out

