"""``trec_eval -q`` output: ``measure<ws>topic<ws>value`` lines, one file per run."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import xarray as xr

from ..errors import ScoreDataError
from ..score_cube import cube as make_cube
from ._common import existing_file, parse_score, read_text

__all__ = ["read_trec_eval"]

#: Per-topic "measures" of trec_eval that are not numbers; their lines are skipped.
TEXT_MEASURES = frozenset({"runid", "relstring"})

#: The topic field of trec_eval's summary lines (averages over topics, not a topic).
SUMMARY_TOPIC = "all"


def read_trec_eval(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    *,
    runs: Iterable[str] | None = None,
    measures: Iterable[str] | None = None,
) -> xr.DataArray:
    """Read ``trec_eval -q`` output files (one per run) into a score cube.

    Each line is ``measure topic value`` separated by white space. Lines whose topic is
    ``all`` are trec_eval's summaries over topics and are not topics; the ``runid``
    summary line names the run (otherwise the file name without its extension does).
    Measures with parameters (``P_10``, ``ndcg_cut_20``) are kept by name.
    A (topic, measure) that a run lacks is ``NaN``.

    Parameters
    ----------
    paths : path, directory, or iterable of paths
        The files; a directory means every file in it, in name order.
    runs : iterable of str, optional
        Run names to use instead of the ``runid`` lines, one per file.
    measures : iterable of str, optional
        Keep only these measures (all by default); a measure asked for but absent from
        every file is an error.

    Returns
    -------
    xarray.DataArray
        Topics in natural order (numerically when all ids are numbers), runs in file
        order, measures in order of first appearance.

    Raises
    ------
    ScoreDataError
        Naming file and line for: a missing or empty file, a line with too few or too
        many fields, a value that is not a number, the same (topic, measure) twice with
        different values, two ``runid`` names in one file, two files with the same run
        name.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "bm25.txt"
    >>> _ = p.write_text("map 401 0.25\\nP_10 401 0.4\\nmap 402 0.5\\n"
    ...                  "runid all bm25\\nmap all 0.375\\n")
    >>> c = read_trec_eval(p)
    >>> c.topic.values.tolist(), c.system.values.tolist(), c.measure.values.tolist()
    (['401', '402'], ['bm25'], ['map', 'P_10'])
    >>> bool(c.sel(topic="402", measure="P_10").isnull().all())
    True
    """
    files = _expand(paths)
    names = list(runs) if runs is not None else None
    if names is not None and len(names) != len(files):
        raise ScoreDataError(f"{len(names)} run names given for {len(files)} files")
    parsed = [_parse_file(f) for f in files]
    run_files: dict[str, Path] = {}
    run_names: list[str] = []
    for i, (path, (runid, _)) in enumerate(zip(files, parsed, strict=True)):
        name = names[i] if names is not None else (runid or path.stem)
        if name in run_files:
            raise ScoreDataError(
                f"run name {name!r} is also the run of {run_files[name]}; pass runs= to rename",
                path=path,
            )
        run_files[name] = path
        run_names.append(name)

    topic_set: dict[str, None] = {}
    measure_set: dict[str, None] = {}
    for _, cells in parsed:
        for topic, measure in cells:
            topic_set.setdefault(topic)
            measure_set.setdefault(measure)
    wanted = list(measure_set) if measures is None else list(measures)
    for m in wanted:
        if m not in measure_set:
            raise ScoreDataError(f"measure {m!r} is in none of the files {[str(f) for f in files]}")
    topics = sorted(topic_set, key=_natural_key)
    topic_index = {t: i for i, t in enumerate(topics)}
    measure_index = {m: i for i, m in enumerate(wanted)}
    values = np.full((len(topics), len(files), len(wanted)), np.nan)
    for s, (_, cells) in enumerate(parsed):
        for (topic, measure), value in cells.items():
            if measure in measure_index:
                values[topic_index[topic], s, measure_index[measure]] = value
    attrs = {
        "source": ", ".join(str(f) for f in files),
        "source_format": "trec_eval",
    }
    return make_cube(values, topics=topics, systems=run_names, measures=wanted, attrs=attrs)


def _expand(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    if isinstance(paths, str | os.PathLike):
        p = Path(paths)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
            if not files:
                raise ScoreDataError("directory holds no files", path=p)
            return files
        return [existing_file(p)]
    files = [existing_file(p) for p in paths]
    if not files:
        raise ScoreDataError("no trec_eval files given")
    return files


def _parse_file(path: Path) -> tuple[str | None, dict[tuple[str, str], float]]:
    runid: tuple[str, int] | None = None
    cells: dict[tuple[str, str], float] = {}
    first_line: dict[tuple[str, str], int] = {}
    for line_no, line in enumerate(read_text(path).splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            few_or_many = "too few" if len(fields) < 3 else "too many"
            raise ScoreDataError(
                f"{few_or_many} fields: expected 3 (measure topic value), found {len(fields)}",
                path=path,
                line=line_no,
            )
        measure, topic, text = fields
        if measure == "runid":
            if runid is not None and runid[0] != text:
                raise ScoreDataError(
                    f"second run id {text!r}; line {runid[1]} named the run {runid[0]!r} "
                    "(one file per run)",
                    path=path,
                    line=line_no,
                )
            runid = (text, line_no)
            continue
        if topic == SUMMARY_TOPIC or measure in TEXT_MEASURES:
            continue
        value = parse_score(text, path=path, line=line_no, where=f"{measure} of topic {topic!r}")
        key = (topic, measure)
        if key in cells:
            same = cells[key] == value or (np.isnan(cells[key]) and np.isnan(value))
            if not same:
                raise ScoreDataError(
                    f"{measure} of topic {topic!r} is {text} here but {cells[key]!r} on line "
                    f"{first_line[key]}",
                    path=path,
                    line=line_no,
                )
            continue
        cells[key] = value
        first_line[key] = line_no
    if not cells:
        raise ScoreDataError("no per-topic lines (was trec_eval run with -q?)", path=path)
    return (runid[0] if runid else None), cells


def _natural_key(label: str) -> tuple:
    """Sort key putting ``2`` before ``10`` and numbers before text."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", label) if part)
