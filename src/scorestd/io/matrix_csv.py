"""Topic-by-system CSV matrices: one row per topic, one column per system."""

from __future__ import annotations

import csv
import os
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from .._options import DecimalMark, Delimiter, check_flag
from ..dims import DEFAULT_MEASURE, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..measures import find_measure, measure_info
from ..score_cube import extra_dims_of, labelled, validate
from ._common import count_lines, existing_file, file_dialect, open_text, parse_score, text_lines
from .atomic import atomic_output
from .dialect import csv_error
from .paths import check_output_path

__all__ = ["read_matrix_csv", "write_matrix_csv"]

#: Header names that mark the first column as topic ids.
TOPIC_HEADERS = frozenset({"", "topic", "topics", "topic_id", "topicid", "query", "query_id", "qid", "id"})


def read_matrix_csv(
    path: str | os.PathLike,
    *,
    measure: str | None = None,
    topic_column: bool | None = None,
    collection: str | None = None,
    delimiter: Delimiter | None = None,
    decimal: DecimalMark | None = None,
    strict: bool = False,
) -> xr.DataArray:
    """Read a topic-by-system CSV matrix into a score cube.

    The first line names the systems (runs). Each further line holds the scores of one
    topic. The first column holds topic ids when its header cell is empty or one of
    ``topic``, ``query``, ``qid``, ``id`` (and the like); otherwise topics are
    labelled ``t1``, ``t2``, … by row (zero-padded so that labels sort in row order) —
    unless that first column holds distinct whole numbers above 1, which are topic ids
    under another header (``run,s1,s2``): that is an error asking for ``topic_column``.

    The file is read line by line into one preallocated array, so reading takes about
    the memory of the cube itself.

    Parameters
    ----------
    path : str or os.PathLike
        The CSV file.
    measure : str, optional
        Label of the measure; defaults to the file name's last ``_`` part when it names
        a known measure (``adhoc8_ap.csv`` gives ``ap``), else ``"score"``.
    topic_column : bool, optional
        Force (``True``) or forbid (``False``) reading the first column as topic ids;
        ``None`` decides from the header as described above.
    collection : str, optional
        Stored in ``attrs["collection"]`` (the file name is not taken for it).
    delimiter : {",", ";", "\\t"}, optional
        Field separator; sniffed from the first lines by default.
    decimal : {".", ","}, optional
        Decimal mark; sniffed by default (``,`` for ``0,25`` in a ``;``- or tab-separated
        file).
    strict : bool
        Raise instead of warning on scores outside the measure's range.

    Returns
    -------
    xarray.DataArray
        A cube with one measure. Empty cells and ``NA``/``NaN`` become ``NaN``.

    Raises
    ------
    ScoreDataError
        Naming the file and line for a missing or empty file, a ragged row, a cell
        that is not a number, a duplicate topic or system label, or a first column of
        ids read as scores.

    Warns
    -----
    ScorestdWarning
        Scores outside the measure's range (see :func:`scorestd.validate`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "demo_ap.csv"
    >>> _ = p.write_text("topic,bm25,qld\\n401,0.25,0.5\\n402,0.125,\\n")
    >>> c = read_matrix_csv(p)
    >>> c.sizes["topic"], c.sizes["system"], c.measure.values.tolist()
    (2, 2, ['ap'])
    >>> bool(c.sel(topic="402", system="qld").isnull())
    True
    >>> _ = p.write_text("topic;bm25;qld\\n401;0,25;0,5\\n")  # a spreadsheet's CSV
    >>> read_matrix_csv(p).sel(system="qld").item()
    0.5
    """
    p = existing_file(path)
    dialect = file_dialect(p, delimiter, decimal)
    capacity = count_lines(p)
    with open_text(p) as fh:
        reader = csv.reader(text_lines(p, fh), delimiter=dialect.delimiter)
        header = _next_row(reader, p)
        if not header or not any(cell.strip() for cell in header):
            raise ScoreDataError("the first line is empty: expected a header naming the "
                                 "systems", path=p, line=reader.line_num)
        has_topics = _has_topic_column(header) if topic_column is None else topic_column
        systems = [s.strip() for s in (header[1:] if has_topics else header)]
        _check_unique(systems, SYSTEM, p, line=1)
        topics: list[str] = []
        topic_lines: dict[str, int] = {}
        values = np.empty((max(capacity - 1, 1), len(systems)), dtype=np.float64)
        n = 0
        while (row := _next_row(reader, p, required=False)) is not None:
            line_no = reader.line_num
            if not row or all(not cell.strip() for cell in row):
                continue  # blank lines carry no topic
            if len(row) != len(header):
                raise ScoreDataError(
                    f"expected {len(header)} fields as in the header, found {len(row)}",
                    path=p, line=line_no)
            if has_topics:
                topic = row[0].strip()
                if not topic:
                    raise ScoreDataError("empty topic id", path=p, line=line_no)
                if topic in topic_lines:
                    raise ScoreDataError(
                        f"duplicate topic label {topic!r} (first on line {topic_lines[topic]})",
                        path=p, line=line_no)
                topic_lines[topic] = line_no
                topics.append(topic)
            if n == len(values):  # more rows than lines counted (the file grew): grow
                values = np.concatenate([values, np.empty_like(values)])
            values[n] = _parse_row(row[1:] if has_topics else row, systems, p, line_no,
                                   dialect.decimal)
            n += 1
    if n == 0:
        raise ScoreDataError("no topic rows after the header", path=p)
    values = values[:n]
    _, stem_measure = _split_stem(p.stem)
    measure = measure or stem_measure
    if not has_topics:
        if topic_column is None:
            _refuse_id_column(values[:, 0], header[0], measure, p)
        width = len(str(n))
        topics = [f"t{i + 1:0{width}d}" for i in range(n)]
    attrs = {"source": str(p), "source_format": "matrix_csv"}
    if collection is not None:
        attrs["collection"] = collection
    cube = labelled(values[:, :, np.newaxis], topics=topics, systems=systems,
                    measures=[measure], attrs=attrs)
    return validate(cube, copy=False, strict=strict)


def write_matrix_csv(
    scores: xr.DataArray,
    path: str | os.PathLike,
    *,
    measure: str | None = None,
    topic_column: bool = True,
) -> Path:
    """Write one measure of a cube as a topic-by-system CSV matrix.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array.
    path : str or os.PathLike
        Output file (``.csv``, ``.tsv`` or ``.txt``), written whole or not at all
        (:func:`scorestd.io.atomic.atomic_output`): an error or Ctrl-C leaves the
        previous file as it was.
    measure : str, optional
        The measure to write; required when the cube has more than one.
    topic_column : bool
        Write topic ids as a first column headed ``topic``.

    Returns
    -------
    pathlib.Path
        The file written. Missing scores are written as empty cells and values with
        full (round-trip) precision.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, 0.25]], topics=["401"], systems=["a", "b"], measures=["ap"])
    >>> out = write_matrix_csv(c, pathlib.Path(tempfile.mkdtemp()) / "x.csv")
    >>> print(out.read_text().strip())
    topic,a,b
    401,0.5,0.25
    """
    out = check_output_path(path, "csv")
    topic_column = check_flag("topic_column", topic_column)
    _refuse_extra_dims(scores, out)
    c = validate(scores, check_range=False)  # a writer writes what it is given
    measure = find_measure(measure, c[MEASURE].values, what="the cube")  # any usual spelling
    matrix = c.sel({MEASURE: measure}).values
    with atomic_output(out) as tmp, tmp.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        systems = c[SYSTEM].values.tolist()
        writer.writerow(["topic", *systems] if topic_column else systems)
        for topic, row in zip(c[TOPIC].values.tolist(), matrix, strict=True):
            cells = ["" if np.isnan(v) else repr(float(v)) for v in row]
            writer.writerow([topic, *cells] if topic_column else cells)
    return out


def _has_topic_column(header: list[str]) -> bool:
    return header[0].strip().lower() in TOPIC_HEADERS


def _next_row(reader, path: Path, *, required: bool = True) -> list[str] | None:
    try:
        return next(reader)
    except StopIteration:
        if required:
            raise ScoreDataError("file is empty", path=path) from None
        return None
    except csv.Error as exc:
        raise ScoreDataError(csv_error(exc), path=path,
                             line=reader.line_num) from None


def _parse_row(cells: list[str], systems: list[str], path: Path, line: int,
               decimal: str = ".") -> np.ndarray:
    if decimal == ".":
        try:  # the fast route: numpy parses the whole row
            row = np.array(cells, dtype=np.float64)
        except ValueError:
            row = None
        if row is not None and not np.isinf(row).any() and not any("_" in c for c in cells):
            return row
    return np.array([
        parse_score(cell, path=path, line=line, where=f"system {system!r}", decimal=decimal)
        for cell, system in zip(cells, systems, strict=True)
    ])


def _refuse_id_column(first: np.ndarray, header: str, measure: str, path: Path) -> None:
    """A first column of distinct whole numbers above 1 is a column of topic ids."""
    present = first[~np.isnan(first)]
    info = measure_info(measure)
    counts = info is not None and info.support == "integers" and info.upper > 1
    if (present.size >= 2 and not counts and np.all(present == np.round(present))
            and present.max() > 1 and np.unique(present).size == present.size):
        shown = ", ".join(f"{v:g}" for v in present[:3])
        raise ScoreDataError(
            f"the first column, headed {header.strip()!r}, holds distinct whole numbers "
            f"({shown} …): topic ids, not scores of a system {header.strip()!r}? Pass "
            "topic_column=True (or head the column 'topic'), or topic_column=False if they "
            "are scores", path=path, line=1)


def _check_unique(labels: list[str], dim: str, path: Path, *, line: int) -> None:
    seen: set[str] = set()
    for label in labels:
        if not label:
            raise ScoreDataError(f"empty {dim} label in the header", path=path, line=line)
        if label in seen:
            raise ScoreDataError(f"duplicate {dim} label {label!r}", path=path, line=line)
        seen.add(label)


def _split_stem(stem: str) -> tuple[str, str]:
    """``("adhoc8", "ap")`` for ``adhoc8_ap``; the measure only when the registry knows it."""
    head, sep, tail = stem.rpartition("_")
    if sep and head and tail and measure_info(tail) is not None:
        return head, tail
    return stem, DEFAULT_MEASURE


def _refuse_extra_dims(scores: Any, path: Path) -> None:
    """A matrix is one collection's topic × system scores of one measure: a cube with
    extra dims goes to a long CSV, Parquet or netCDF file, or one slice to the matrix."""
    extra = extra_dims_of(scores) if isinstance(scores, xr.DataArray) else ()
    if not extra:
        return
    names = ", ".join(f"{dim!r} ({scores.sizes[dim]})" for dim in extra)
    first = ", ".join(f"{dim}={scores[dim].values[0].item() if dim in scores.coords else 0!r}"
                      for dim in extra)
    raise ScoreDataError(
        f"write_matrix_csv({str(path)!r}): the scores have extra dims {names}, and a matrix "
        "CSV holds one collection (topic × system, one measure). Keep them all with "
        f"scorestd.write_long_csv(scores, {path.with_suffix('.csv').name!r}) (the long CSV, "
        f"extra dims as leading columns) or scorestd.save(scores, "
        f"{path.with_suffix('.nc').name!r}) (netCDF; .parquet too), or write one slice: "
        f"write_matrix_csv(scores.sel({first}), path)")
