"""Tidy (long) tables: one row per (system, topic, measure) with its value.

This is the shape of ir_measures, ranx and PyTerrier per-query results, and of the
long CSV files scorestd writes.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..score_cube import cube as make_cube
from ..score_cube import validate
from ._common import MISSING_MARKERS, existing_file, read_text

__all__ = ["from_dataframe", "read_long_csv", "to_dataframe", "write_long_csv"]

#: Column names recognised for each role, in order of preference.
COLUMN_ALIASES = {
    SYSTEM: ("system", "run", "run_id", "runid", "run_name", "name", "model"),
    TOPIC: ("topic", "query", "query_id", "qid", "topic_id", "q_id"),
    MEASURE: ("measure", "metric"),
    "value": ("value", "score"),
}

#: First line of a long CSV written by scorestd: the cube's attrs as JSON.
ATTRS_PREFIX = "# scorestd-attrs: "


def from_dataframe(
    frame: pd.DataFrame,
    *,
    system: str | None = None,
    topic: str | None = None,
    measure: str | None = None,
    value: str | None = None,
    run_name: str | None = None,
    measure_name: str | None = None,
    attrs: dict | None = None,
) -> xr.DataArray:
    """Build a cube from a tidy DataFrame of per-topic scores.

    Columns are found by name (case-insensitive) unless given: system from ``system``,
    ``run``, ``run_id``, ``name`` (PyTerrier) …; topic from ``topic``, ``query``,
    ``query_id`` (ir_measures), ``qid`` …; measure from ``measure``/``metric``; value
    from ``value``/``score``. A frame without a measure column but with several numeric
    columns is read as one column per measure.

    Parameters
    ----------
    frame : pandas.DataFrame
        The scores.
    system, topic, measure, value : str, optional
        Column names, overriding the automatic choice.
    run_name : str, optional
        System label for a frame without a system column (one run, as from
        ``ir_measures.iter_calc``).
    measure_name : str, optional
        Measure label for a frame without a measure column and a single value column.
    attrs : dict, optional
        Provenance for the cube.

    Returns
    -------
    xarray.DataArray
        Labels in order of first appearance; (topic, system, measure) cells absent
        from the frame, or with a missing value, are ``NaN``. Measure objects (such as
        ir_measures' ``nDCG@10``) are labelled by ``str()``.

    Raises
    ------
    ScoreDataError
        For a missing column, a missing label, a value that is not a number, or the
        same (system, topic, measure) twice with different values (naming both rows).

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
    """
    if not isinstance(frame, pd.DataFrame):
        raise ScoreDataError(f"expected a pandas DataFrame, got {type(frame).__name__}")
    if frame.empty:
        raise ScoreDataError("the DataFrame has no rows")
    df = frame.reset_index(drop=True)
    lower = {str(c).lower(): c for c in df.columns}
    sys_col = system or _find(lower, SYSTEM)
    top_col = topic or _find(lower, TOPIC)
    mea_col = measure or _find(lower, MEASURE)
    val_col = value or _find(lower, "value")
    for role, col in ((SYSTEM, system), (TOPIC, topic), (MEASURE, measure), ("value", value)):
        if col is not None and col not in df.columns:
            raise ScoreDataError(f"no {role} column {col!r}; columns are {list(df.columns)}")
    if top_col is None:
        raise ScoreDataError(
            f"no topic column (tried {COLUMN_ALIASES[TOPIC]}); columns are {list(df.columns)}; "
            "name it with topic="
        )
    if sys_col is None:
        if run_name is None:
            raise ScoreDataError(
                f"no system column (tried {COLUMN_ALIASES[SYSTEM]}); columns are "
                f"{list(df.columns)}; name it with system= or give run_name= for one run"
            )
        df = df.assign(**{"__system__": run_name})
        sys_col = "__system__"
    if mea_col is None:
        label_cols = {sys_col, top_col}
        value_cols = [val_col] if val_col is not None else [c for c in df.columns if c not in label_cols]
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
    return _build(df, sys_col, top_col, mea_col, val_col, attrs or {}, source=None)


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


def write_long_csv(scores: xr.DataArray, path: str | os.PathLike) -> Path:
    """Write a cube as a long CSV (system, topic, measure, value), attrs on line 1.

    The first line is ``# scorestd-attrs: {json}`` so that :func:`read_long_csv`
    restores the provenance; values keep full precision; missing scores are empty.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, float("nan")]], topics=["401"], systems=["a", "b"])
    >>> p = write_long_csv(c, pathlib.Path(tempfile.mkdtemp()) / "long.csv")
    >>> read_long_csv(p).identical(c)
    True
    """
    c = validate(scores, check_range=False)  # a writer writes what it is given
    df = to_dataframe(c)
    out = Path(path)
    with out.open("w", newline="", encoding="utf-8") as fh:
        fh.write(ATTRS_PREFIX + json.dumps(_jsonable(c.attrs), ensure_ascii=False) + "\n")
        writer = csv.writer(fh)
        writer.writerow([SYSTEM, TOPIC, MEASURE, "value"])
        for sys_, top, mea, val in df.itertuples(index=False):
            writer.writerow([sys_, top, mea, "" if np.isnan(val) else repr(float(val))])
    return out


def read_long_csv(
    path: str | os.PathLike,
    *,
    system: str | None = None,
    topic: str | None = None,
    measure: str | None = None,
    value: str | None = None,
    delimiter: str = ",",
) -> xr.DataArray:
    """Read a long CSV (one row per system, topic, measure) into a cube.

    Column names are found as in :func:`from_dataframe`. Labels are read as text
    (``"NA"`` stays a label), values with full precision; empty values and
    ``NA``/``NaN`` are missing. Errors name the file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "runs.csv"
    >>> _ = p.write_text("run,query_id,metric,score\\nbm25,7,ndcg,0.5\\n")
    >>> read_long_csv(p).sel(system="bm25", topic="7", measure="ndcg").item()
    0.5
    """
    p = existing_file(path)
    text = read_text(p)
    attrs: dict = {"source": str(p), "source_format": "long_csv"}
    header_lines = 0
    if text.startswith(ATTRS_PREFIX):
        first, _, text = text.partition("\n")
        header_lines = 1
        try:
            attrs = json.loads(first[len(ATTRS_PREFIX):])
        except json.JSONDecodeError as exc:
            raise ScoreDataError(f"attrs line is not JSON: {exc}", path=p, line=1) from None
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
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
                  source=p, line_of_row=line_of_row)


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
) -> xr.DataArray:
    def at(row: int) -> dict:
        """Where a row came from: file and line, or the frame's row number."""
        if source is None:
            return {"prefix": f"row {row}: "}
        return {"prefix": "", "path": source, "line": int(line_of_row[row])}

    def fail(row: int, message: str) -> ScoreDataError:
        loc = at(row)
        return ScoreDataError(loc.pop("prefix") + message, **loc)

    labels = {}
    for role, col in ((SYSTEM, sys_col), (TOPIC, top_col), (MEASURE, mea_col)):
        column = df[col]
        missing = column.isna().to_numpy() | (column.map(str).str.strip() == "").to_numpy()
        if missing.any():
            row = int(np.argmax(missing))
            raise fail(row, f"missing {role} label in column {col!r}")
        labels[role] = column.map(str).to_numpy()
    values = _numeric(df[val_col], fail)
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
    return make_cube(
        cube_values.reshape(shape),
        topics=list(uniques[TOPIC]),
        systems=list(uniques[SYSTEM]),
        measures=list(uniques[MEASURE]),
        attrs=attrs,
    )


def _numeric(column: pd.Series, fail) -> np.ndarray:
    out = np.empty(len(column), dtype=np.float64)
    for i, raw in enumerate(column.to_numpy()):
        if raw is None or (isinstance(raw, float) and np.isnan(raw)):
            out[i] = np.nan
            continue
        if isinstance(raw, str):
            if raw.strip().lower() in MISSING_MARKERS:
                out[i] = np.nan
                continue
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

