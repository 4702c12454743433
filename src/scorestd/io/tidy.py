"""Tidy (long) tables: one row per (system, topic, measure) with its value.

This is the shape of ir_measures, ranx and PyTerrier per-query results, and of the
long CSV files scorestd writes.
"""

from __future__ import annotations

import csv
import itertools
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import DEFAULT_MEASURE, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..frames import COLUMN_ALIASES, id_like, role_of
from ..score_cube import labelled, validate
from ._common import MISSING_MARKERS, existing_file, file_dialect, open_text, text_lines
from .paths import check_writable

__all__ = ["from_dataframe", "read_long_csv", "read_parquet", "to_dataframe", "write_long_csv",
           "write_parquet"]

#: Rows written per block by :func:`write_long_csv` (memory stays bounded by the block).
WRITE_BLOCK = 1 << 18

#: First line of a long CSV written by scorestd: the cube's attrs as JSON.
ATTRS_PREFIX = "# scorestd-attrs: "


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
    for role, col in ((SYSTEM, system), (TOPIC, topic), (MEASURE, measure), ("value", value)):
        if col is not None and col not in df.columns:
            raise ScoreDataError(f"no {role} column {col!r}; columns are {list(df.columns)}")
    sys_col = system or _find(lower, SYSTEM)
    top_col = topic or _find(lower, TOPIC)
    mea_col = measure or _find(lower, MEASURE)
    val_col = value or _find(lower, "value")
    wide = mea_col is None and val_col is None
    if wide and columns_role in (SYSTEM, TOPIC):
        # the columns' axis name says what the columns other than the labels are
        label_cols = [c for c in (sys_col, top_col) if c is not None]
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
        label_cols = {sys_col, top_col}
        value_cols = [val_col] if val_col is not None else [c for c in df.columns if c not in label_cols]
        if not value_cols:
            raise ScoreDataError(f"no value column; columns are {list(frame.columns)}")
        _refuse_ids(df, value_cols)
        if len(value_cols) == 1:
            df = df.assign(**{"__measure__": measure_name or str(value_cols[0])})
        else:
            df = df.melt(id_vars=[sys_col, top_col], value_vars=value_cols,
                         var_name="__measure__", value_name="__value__")
            val_col = "__value__"
        mea_col = "__measure__"
        val_col = val_col or value_cols[0]
    if val_col is None:
        raise ScoreDataError(
            f"no value column (tried {COLUMN_ALIASES['value']}); columns are {list(df.columns)}"
        )
    return _build(df, sys_col, top_col, mea_col, val_col, {**frame.attrs, **(attrs or {})},
                  source=None, strict=strict)


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
    Missing scores are kept as ``NaN`` rows unless ``dropna=True``.

    Examples
    --------
    >>> from scorestd import cube
    >>> c = cube([[0.5, 0.25]], topics=["401"], systems=["a", "b"], measures=["ap"])
    >>> to_dataframe(c).to_dict("records")[0]
    {'system': 'a', 'topic': '401', 'measure': 'ap', 'value': 0.5}
    """
    c = validate(scores, check_range=False)  # a writer writes what it is given
    s, t, m = np.meshgrid(
        c[SYSTEM].values, c[TOPIC].values, c[MEASURE].values, indexing="ij"
    )
    values = c.transpose(SYSTEM, TOPIC, MEASURE).values
    df = pd.DataFrame({
        SYSTEM: s.ravel().astype(object),
        TOPIC: t.ravel().astype(object),
        MEASURE: m.ravel().astype(object),
        "value": values.ravel(),
    })
    if dropna:
        df = df[df["value"].notna()].reset_index(drop=True)
    return df


def write_long_csv(scores: xr.DataArray, path: str | os.PathLike, *,
                   delimiter: str = ",") -> Path:
    """Write a cube as a long CSV (system, topic, measure, value), attrs on line 1.

    The first line is ``# scorestd-attrs: {json}`` so that :func:`read_long_csv`
    restores the provenance; values keep full precision (the shortest text that reads
    back as the same float); missing scores are empty. Rows are written in blocks of
    :data:`WRITE_BLOCK`, so memory stays bounded whatever the size of the cube.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, float("nan")]], topics=["401"], systems=["a", "b"])
    >>> p = write_long_csv(c, pathlib.Path(tempfile.mkdtemp()) / "long.csv")
    >>> read_long_csv(p).identical(c)
    True
    """
    c = validate(scores, copy=False, check_range=False)  # a writer writes what it is given
    out = check_writable(path)
    quote = _quoter(delimiter)
    topics = [quote(t) for t in c[TOPIC].values.tolist()]
    measures = [quote(m) for m in c[MEASURE].values.tolist()]
    # the (topic, measure) part of every row of one system, in row order
    suffixes = [f"{delimiter}{t}{delimiter}{m}{delimiter}" for t in topics for m in measures]
    per_system = len(suffixes)
    values = c.transpose(SYSTEM, TOPIC, MEASURE).values.reshape(c.sizes[SYSTEM], per_system)
    with out.open("w", newline="", encoding="utf-8") as fh:
        fh.write(ATTRS_PREFIX + json.dumps(_jsonable(c.attrs), ensure_ascii=False) + "\n")
        fh.write(delimiter.join((SYSTEM, TOPIC, MEASURE, "value")) + "\n")
        block = max(1, WRITE_BLOCK // max(per_system, 1))
        for start in range(0, c.sizes[SYSTEM], block):
            rows = values[start:start + block]
            texts = rows.astype(str).tolist()  # shortest round-trip text, as repr()
            lines = []
            for system, row, text in zip(c[SYSTEM].values[start:start + block].tolist(),
                                         rows, texts, strict=True):
                head = quote(system)
                missing = np.isnan(row)
                if missing.any():
                    text = ["" if m else t for m, t in zip(missing.tolist(), text, strict=True)]
                lines.append("\n".join(map("".join, zip([head] * per_system, suffixes, text,
                                                         strict=True))))
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
) -> xr.DataArray:
    """Read a long CSV (one row per system, topic, measure) into a cube.

    Column names are found as in :func:`from_dataframe`. Labels are read as text
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
    with open_text(p) as fh:
        lines = text_lines(p, fh)
        first = next(lines, "")
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
        reader = csv.reader(itertools.chain([first] if first else [], lines),
                            delimiter=dialect.delimiter)
        try:
            rows = list(reader)
        except csv.Error as exc:
            raise ScoreDataError(f"not a CSV line: {exc}", path=p,
                                 line=reader.line_num + header_lines) from None
    if not rows:
        raise ScoreDataError("no header line", path=p)
    header = rows[0]
    for offset, row in enumerate(rows[1:], start=2 + header_lines):
        if row and len(row) != len(header):
            raise ScoreDataError(
                f"expected {len(header)} fields as in the header, found {len(row)}",
                path=p,
                line=offset,
            )
    body = [r for r in rows[1:] if r]
    if not body:
        raise ScoreDataError("no rows after the header", path=p)
    if len(set(header)) != len(header):
        raise ScoreDataError(f"repeated column names in the header {header}", path=p,
                             line=1 + header_lines)
    df = pd.DataFrame(body, columns=header, dtype=object)
    lower = {c.lower(): c for c in header}
    cols = {
        SYSTEM: system or _find(lower, SYSTEM),
        TOPIC: topic or _find(lower, TOPIC),
        MEASURE: measure or _find(lower, MEASURE),
        "value": value or _find(lower, "value"),
    }
    for role, col in cols.items():
        if col is None or col not in df.columns:
            raise ScoreDataError(
                f"no {role} column (tried {COLUMN_ALIASES[role]}); header is {header}", path=p, line=1 + header_lines
            )
    line_of_row = _line_numbers(rows[1:], first_line=2 + header_lines)
    return _build(df, cols[SYSTEM], cols[TOPIC], cols[MEASURE], cols["value"], attrs,
                  source=p, line_of_row=line_of_row, decimal=dialect.decimal, strict=strict)


def write_parquet(scores: xr.DataArray, path: str | os.PathLike) -> Path:
    """Write a cube as a long Parquet table (system, topic, measure, value; attrs kept).

    Needs ``pyarrow`` (``pip install pyarrow``); pandas writes the file.

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
    c = validate(scores, copy=False, check_range=False)
    out = check_writable(path)
    frame = to_dataframe(c)
    frame.attrs = {"scorestd": json.dumps(_jsonable(c.attrs), ensure_ascii=False)}
    frame.to_parquet(out, engine="pyarrow", index=False)
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
    frame.attrs = {}
    try:
        return from_dataframe(frame, attrs=attrs, strict=strict)
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


def _line_numbers(rows: list[list[str]], *, first_line: int) -> np.ndarray:
    return np.array([first_line + i for i, row in enumerate(rows) if row])


def _build(
    df: pd.DataFrame,
    sys_col: str,
    top_col: str,
    mea_col: str,
    val_col: str,
    attrs: dict,
    *,
    source: Path | None,
    line_of_row: np.ndarray | None = None,
    decimal: str = ".",
    strict: bool = False,
) -> xr.DataArray:
    def at(row: int) -> dict:
        """Where a row came from: file and line, or the frame's row number."""
        if source is None:
            return {"prefix": f"row {row}: "}
        return {"prefix": "", "path": source, "line": int(line_of_row[row])}

    def fail(row: int, message: str) -> ScoreDataError:
        loc = at(row)
        return ScoreDataError(loc.pop("prefix") + message, **loc)

    if df.empty:
        raise ScoreDataError("no rows of scores")
    labels = {}
    for role, col in ((SYSTEM, sys_col), (TOPIC, top_col), (MEASURE, mea_col)):
        column = df[col]
        missing = column.isna().to_numpy() | (column.map(str).str.strip() == "").to_numpy()
        if missing.any():
            row = int(np.argmax(missing))
            raise fail(row, f"missing {role} label in column {col!r}")
        labels[role] = column.map(str).to_numpy()
    values = _numeric(df[val_col], fail, decimal)
    codes = {}
    uniques = {}
    for role in (SYSTEM, TOPIC, MEASURE):
        codes[role], uniques[role] = pd.factorize(labels[role], sort=False)
    flat = np.ravel_multi_index(
        (codes[TOPIC], codes[SYSTEM], codes[MEASURE]),
        (len(uniques[TOPIC]), len(uniques[SYSTEM]), len(uniques[MEASURE])),
    )
    order = np.argsort(flat, kind="stable")
    sorted_flat = flat[order]
    repeated = np.nonzero(sorted_flat[1:] == sorted_flat[:-1])[0]
    for k in repeated:
        a, b = order[k], order[k + 1]
        va, vb = values[a], values[b]
        if not (va == vb or (np.isnan(va) and np.isnan(vb))):
            first, second = sorted((int(a), int(b)))
            earlier = f"row {first}" if source is None else f"line {int(line_of_row[first])}"
            raise fail(
                second,
                f"system {labels[SYSTEM][second]!r}, topic {labels[TOPIC][second]!r}, measure "
                f"{labels[MEASURE][second]!r} is {float(values[second])!r} here but "
                f"{float(values[first])!r} on {earlier}",
            )
    shape = (len(uniques[TOPIC]), len(uniques[SYSTEM]), len(uniques[MEASURE]))
    cube_values = np.full(int(np.prod(shape)), np.nan)
    cube_values[flat] = values
    cube = labelled(
        cube_values.reshape(shape),
        topics=list(uniques[TOPIC]),
        systems=list(uniques[SYSTEM]),
        measures=list(uniques[MEASURE]),
        attrs=attrs,
    )
    return validate(cube, copy=False, strict=strict)


def _numeric(column: pd.Series, fail, decimal: str = ".") -> np.ndarray:
    if decimal == "." and column.dtype.kind in "if":
        out = column.to_numpy(dtype=np.float64)
        if np.isinf(out).any():
            i = int(np.argmax(np.isinf(out)))
            raise fail(i, f"infinite value {out[i]!r}")
        return out
    out = np.empty(len(column), dtype=np.float64)
    for i, raw in enumerate(column.to_numpy()):
        if raw is None or (isinstance(raw, float) and np.isnan(raw)):
            out[i] = np.nan
            continue
        if isinstance(raw, str):
            if raw.strip().lower() in MISSING_MARKERS:
                out[i] = np.nan
                continue
            if "_" in raw or (decimal != "." and "." in raw):
                raise fail(i, f"value {raw!r} is not a number")
            raw = raw.replace(decimal, ".") if decimal != "." else raw
        elif isinstance(raw, bool | np.bool_):
            raise fail(i, f"value {raw!r} is not a number")
        try:
            out[i] = float(raw)
        except (TypeError, ValueError):
            raise fail(i, f"value {raw!r} is not a number") from None
        if np.isinf(out[i]):
            raise fail(i, f"infinite value {raw!r}")
    return out


def _jsonable(attrs: dict) -> dict:
    out = {}
    for key, value in attrs.items():
        if isinstance(value, np.ndarray):
            value = value.tolist()
        elif isinstance(value, np.generic):
            value = value.item()
        out[str(key)] = value
    return out

