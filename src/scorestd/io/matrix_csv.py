"""Topic-by-system CSV matrices: one row per topic, one column per system."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import numpy as np
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..score_cube import cube as make_cube
from ..score_cube import validate
from ._common import existing_file, parse_score, read_text

__all__ = ["read_matrix_csv", "write_matrix_csv"]

#: Header names that mark the first column as topic ids.
TOPIC_HEADERS = frozenset({"", "topic", "topics", "topic_id", "topicid", "query", "query_id", "qid", "id"})


def read_matrix_csv(
    path: str | os.PathLike,
    *,
    measure: str | None = None,
    topic_column: bool | None = None,
    collection: str | None = None,
    delimiter: str = ",",
) -> xr.DataArray:
    """Read a topic-by-system CSV matrix into a score cube.

    The first line names the systems (runs). Each further line holds the scores of one
    topic. The first column holds topic ids when its header cell is empty or one of
    ``topic``, ``query``, ``qid``, ``id`` (and the like); otherwise topics are
    labelled ``t1``, ``t2``, … by row (zero-padded so that labels sort in row order).

    Parameters
    ----------
    path : str or os.PathLike
        The CSV file.
    measure : str, optional
        Label of the measure; defaults to the file name's last ``_`` part
        (``adhoc8_ap.csv`` gives ``ap``) or ``"score"``.
    topic_column : bool, optional
        Force (``True``) or forbid (``False``) reading the first column as topic ids;
        ``None`` decides from the header as described above.
    collection : str, optional
        Stored in ``attrs["collection"]``; defaults to the file name before the measure.
    delimiter : str
        Field separator.

    Returns
    -------
    xarray.DataArray
        A cube with one measure. Empty cells and ``NA``/``NaN`` become ``NaN``.

    Raises
    ------
    ScoreDataError
        Naming the file and line for a missing or empty file, a ragged row, a cell
        that is not a number, or a duplicate topic or system label.

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
    """
    p = existing_file(path)
    rows = list(csv.reader(io.StringIO(read_text(p)), delimiter=delimiter))
    header, body = rows[0], rows[1:]
    has_topics = _has_topic_column(header) if topic_column is None else topic_column
    systems = header[1:] if has_topics else header
    _check_unique([s.strip() for s in systems], SYSTEM, p, line=1)
    topics: list[str] = []
    topic_lines: dict[str, int] = {}
    values: list[list[float]] = []
    for line_no, row in enumerate(body, start=2):
        if not row or all(not cell.strip() for cell in row):
            continue  # blank lines carry no topic
        if len(row) != len(header):
            raise ScoreDataError(
                f"expected {len(header)} fields as in the header, found {len(row)}",
                path=p,
                line=line_no,
            )
        cells = row[1:] if has_topics else row
        if has_topics:
            topic = row[0].strip()
            if not topic:
                raise ScoreDataError("empty topic id", path=p, line=line_no)
            if topic in topic_lines:
                raise ScoreDataError(
                    f"duplicate topic label {topic!r} (first on line {topic_lines[topic]})",
                    path=p,
                    line=line_no,
                )
            topic_lines[topic] = line_no
            topics.append(topic)
        values.append(_parse_row(cells, systems, p, line_no))
    if not values:
        raise ScoreDataError("no topic rows after the header", path=p)
    if not has_topics:
        width = len(str(len(values)))
        topics = [f"t{i + 1:0{width}d}" for i in range(len(values))]
    stem_collection, stem_measure = _split_stem(p.stem)
    attrs = {
        "collection": collection or stem_collection,
        "source": str(p),
        "source_format": "matrix_csv",
    }
    return make_cube(
        np.array(values, dtype=np.float64),
        topics=topics,
        systems=[s.strip() for s in systems],
        measures=[measure or stem_measure],
        attrs=attrs,
    )


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
        Output file.
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
    c = validate(scores, check_range=False)  # a writer writes what it is given
    if measure is None:
        if c.sizes[MEASURE] != 1:
            raise ScoreDataError(
                f"the cube has {c.sizes[MEASURE]} measures {c[MEASURE].values.tolist()}; "
                "name the one to write with measure="
            )
        measure = str(c[MEASURE].values[0])
    if measure not in c[MEASURE].values:
        raise ScoreDataError(f"unknown measure {measure!r}; the cube has {c[MEASURE].values.tolist()}")
    matrix = c.sel({MEASURE: measure}).values
    out = Path(path)
    with out.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        systems = c[SYSTEM].values.tolist()
        writer.writerow(["topic", *systems] if topic_column else systems)
        for topic, row in zip(c[TOPIC].values.tolist(), matrix, strict=True):
            cells = ["" if np.isnan(v) else repr(float(v)) for v in row]
            writer.writerow([topic, *cells] if topic_column else cells)
    return out


def _has_topic_column(header: list[str]) -> bool:
    return header[0].strip().lower() in TOPIC_HEADERS


def _parse_row(cells: list[str], systems: list[str], path: Path, line: int) -> list[float]:
    return [
        parse_score(cell, path=path, line=line, where=f"system {system.strip()!r}")
        for cell, system in zip(cells, systems, strict=True)
    ]


def _check_unique(labels: list[str], dim: str, path: Path, *, line: int) -> None:
    seen: set[str] = set()
    for label in labels:
        if not label:
            raise ScoreDataError(f"empty {dim} label in the header", path=path, line=line)
        if label in seen:
            raise ScoreDataError(f"duplicate {dim} label {label!r}", path=path, line=line)
        seen.add(label)


def _split_stem(stem: str) -> tuple[str, str]:
    head, sep, tail = stem.rpartition("_")
    return (head, tail) if sep and head and tail else (stem, "score")


