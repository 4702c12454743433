"""``trec_eval -q`` output: ``measure<ws>topic<ws>value`` lines, one file per run."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import xarray as xr

from .._options import TopicSet, check_flag, check_option
from ..errors import ScoreDataError, warn
from ..measures import find_measure, measure_info, out_of_range
from ..score_cube import labelled, validate
from ._common import existing_file, head_lines, parse_score, read_text

__all__ = ["align_topics", "read_trec_eval"]

#: Topics quoted per run in a message.
_SHOWN = 5

#: Per-topic "measures" of trec_eval that are not numbers; their lines are skipped.
TEXT_MEASURES = frozenset({"runid", "relstring"})

#: The topic field of trec_eval's summary lines (averages over topics, not a topic).
SUMMARY_TOPIC = "all"


@dataclass
class _RunCells:
    """The per-topic scores of one file, compact: 16 bytes a score once it is parsed."""

    runid: str | None
    topics: list[str]  # labels in order of first appearance
    measures: list[str]
    topic_code: np.ndarray  # int32, one per score
    measure_code: np.ndarray  # int32
    values: np.ndarray  # float64

    def topics_with(self, measures: Iterable[str]) -> set[str]:
        """The topics that have a score for one of ``measures``."""
        codes = [k for k, m in enumerate(self.measures) if m in set(measures)]
        return {self.topics[t] for t in np.unique(self.topic_code[np.isin(self.measure_code,
                                                                           codes)])}


def read_trec_eval(
    paths: str | os.PathLike | Iterable[str | os.PathLike],
    *,
    runs: Iterable[str] | None = None,
    measures: Iterable[str] | None = None,
    topics: TopicSet | None = None,
    strict: bool = False,
    collection: str | None = None,
) -> xr.DataArray:
    """Read ``trec_eval -q`` output files (one per run) into a score cube.

    Each line is ``measure topic value`` separated by white space. Lines whose topic is
    ``all`` are trec_eval's summaries over topics and are not topics; the ``runid``
    summary line names the run (otherwise the file name without its extension does).
    Measures with parameters (``P_10``, ``ndcg_cut_20``) are kept by name.

    Runs that cover different topics (``trec_eval`` without ``-c`` leaves out the topics
    a run retrieved nothing for) are never merged silently: see ``topics``.

    Parameters
    ----------
    paths : path, directory, or iterable of paths
        The files; a directory means every file in it, in name order, except files that
        are not ``trec_eval`` output (a README, a run or qrels file, a binary file):
        those are skipped with a warning naming them.
    runs : iterable of str, optional
        Run names to use instead of the ``runid`` lines, one per file.
    measures : iterable of str, optional
        Keep only these measures (all by default), under any usual spelling (``AP``
        finds ``map``; labelled as the files spell them); a measure asked for but absent
        from every file is an error.
    topics : {"union", "intersection", "strict"}, optional
        When runs cover different topics: keep every topic (``NaN`` where a run lacks
        it), keep only the topics every run covers, or raise. By default ``"union"``
        with a warning that counts each run's missing topics and names the first ones.
    strict : bool
        Raise instead of warning on a score outside its measure's range.
    collection : str, optional
        Stored in ``attrs["collection"]``.

    Returns
    -------
    xarray.DataArray
        Topics in natural order (numerically when all ids are numbers), runs in file
        order, measures in order of first appearance. ``attrs["topics"]`` records the
        policy applied when topic sets differed.

    Raises
    ------
    ScoreDataError
        Naming file and line for: a missing or empty file, a line with too few or too
        many fields, a value that is not a number, the same (topic, measure) twice with
        different values, two ``runid`` names in one file, two files with the same run
        name; with ``strict``, a score outside its measure's range; with
        ``topics="strict"``, runs with different topics.

    Warns
    -----
    ScorestdWarning
        Files of a directory skipped; runs covering different topics (default policy);
        a run without a measure the others have; a score outside its measure's range
        (naming file, line, topic, run and value).

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
    if topics is not None:
        check_option(topics, TopicSet, "topics")
    strict = check_flag("strict", strict)
    files = _expand(paths)
    names = list(runs) if runs is not None else None
    if names is not None and len(names) != len(files):
        raise ScoreDataError(f"{len(names)} run names given for {len(files)} files")
    parsed = [_parse_file(f, strict) for f in files]
    run_files: dict[str, Path] = {}
    run_names: list[str] = []
    for i, (path, run) in enumerate(zip(files, parsed, strict=True)):
        name = names[i] if names is not None else (run.runid or path.stem)
        if name in run_files:
            raise ScoreDataError(
                f"run name {name!r} is also the run of {run_files[name]}; pass runs= to rename",
                path=path,
            )
        run_files[name] = path
        run_names.append(name)

    measure_set = dict.fromkeys(m for run in parsed for m in run.measures)
    wanted = list(measure_set)
    if measures is not None:  # any usual spelling, as the files spell it
        wanted = [find_measure(m, list(measure_set), required=False) for m in measures]
        for m, found in zip(measures, wanted, strict=True):
            if found is None:
                raise ScoreDataError(f"measure {m!r} is in none of the files "
                                     f"{[str(f) for f in files]}")
    per_run = {name: run.topics_with(wanted) for name, run in zip(run_names, parsed, strict=True)}
    _warn_missing_measures(run_names, parsed, wanted)
    kept, policy = align_topics(per_run, topics, what="trec_eval files")
    topic_list = sorted(kept, key=_natural_key)
    topic_index = {t: i for i, t in enumerate(topic_list)}
    measure_index = {m: i for i, m in enumerate(wanted)}
    values = np.full((len(topic_list), len(files), len(wanted)), np.nan)
    for s, run in enumerate(parsed):
        rows = np.array([topic_index.get(t, -1) for t in run.topics], dtype=np.intp)
        cols = np.array([measure_index.get(m, -1) for m in run.measures], dtype=np.intp)
        row, col = rows[run.topic_code], cols[run.measure_code]
        keep = (row >= 0) & (col >= 0)
        values[row[keep], s, col[keep]] = run.values[keep]
    attrs = {
        "source": ", ".join(str(f) for f in files),
        "source_format": "trec_eval",
    }
    if policy is not None:
        attrs["topics"] = policy
    if collection is not None:
        attrs["collection"] = collection
    # ranges were checked line by line, naming file and line
    return validate(labelled(values, topics=topic_list, systems=run_names, measures=wanted,
                             attrs=attrs), copy=False, check_range=False)


def align_topics(per_run: dict[str, set[str]], policy: TopicSet | None, *,
                 what: str = "runs") -> tuple[set[str], str | None]:
    """The topics to keep of runs covering the topic sets ``per_run``, under ``policy``.

    Returns the topics and the policy applied (``None`` when all runs cover the same
    topics). Without a policy the union is kept, with a warning that counts each run's
    missing topics and names the first ones.

    Examples
    --------
    >>> kept, how = align_topics({"a": {"1", "2"}, "b": {"1"}}, "intersection")
    >>> sorted(kept), how
    (['1'], 'intersection')
    """
    union = set().union(*per_run.values())
    common = set.intersection(*per_run.values()) if per_run else set()
    if union == common:
        return union, None
    lacking = {run: sorted(union - covered, key=_natural_key)
               for run, covered in per_run.items() if covered != union}
    report = "; ".join(
        f"{run} lacks {len(missing)} ({', '.join(missing[:_SHOWN])}"
        f"{', …' if len(missing) > _SHOWN else ''})" for run, missing in lacking.items())
    summary = (f"{what} cover different topics ({len(union)} in all, {len(common)} in every "
               f"run): {report}")
    if policy == "strict":
        raise ScoreDataError(f"{summary}; pass topics='union' or 'intersection'")
    if policy == "intersection":
        return common, "intersection"
    if policy is None:
        warn(f"{summary}. Their cells are missing (NaN), and tests drop those topics pair by "
             "pair; trec_eval -c scores a run's missing topics as 0 instead. Pass "
             f"topics='intersection' to keep the {len(common)} topics every run covers, "
             "topics='union' to keep all without this warning, or topics='strict' to stop")
    return union, "union"


def _warn_missing_measures(run_names: list[str], parsed: list, wanted: list[str]) -> None:
    lacking = {}
    for name, run in zip(run_names, parsed, strict=True):
        present = set(run.measures)
        missing = [m for m in wanted if m not in present]
        if missing:
            lacking[name] = missing
    if lacking:
        warn("runs without some measures (their cells are missing, NaN): " + "; ".join(
            f"{run} lacks {', '.join(ms)}" for run, ms in lacking.items()))


def _expand(paths: str | os.PathLike | Iterable[str | os.PathLike]) -> list[Path]:
    if isinstance(paths, str | os.PathLike):
        p = Path(paths)
        if p.is_dir():
            files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
            kept = [f for f in files if _looks_like_trec_eval(f)]
            skipped = [f.name for f in files if f not in kept]
            if not kept:
                runs = [f for f in files if _looks_like_run(f)]
                hint = ("; they are TREC runs: evaluate them against qrels first, e.g. "
                        f"scorestd evaluate QRELS {p} -m AP,nDCG@20 --output scores.nc"
                        if runs and len(runs) == len(files) else "")
                raise ScoreDataError("directory holds no trec_eval -q files"
                                     + (f" (not: {', '.join(skipped[:_SHOWN])})" if skipped
                                        else "") + hint, path=p)
            if skipped:
                warn(f"{p}: skipped {len(skipped)} file(s) that are not trec_eval output: "
                     f"{', '.join(skipped[:_SHOWN])}{', …' if len(skipped) > _SHOWN else ''}")
            return kept
        return [existing_file(p)]
    files = [existing_file(p) for p in paths]
    if not files:
        raise ScoreDataError("no trec_eval files given")
    return files


def _looks_like_run(path: Path) -> bool:
    """Whether a file's first non-blank line reads ``topic Q0 docid rank score tag``."""
    try:
        lines = head_lines(path, 5)
    except ScoreDataError:
        return False
    first = next((line.split() for line in lines if line.strip()), [])
    if len(first) != 6:
        return False
    try:
        int(first[3]), float(first[4])  # rank, score
    except ValueError:
        return False
    return True


def _looks_like_trec_eval(path: Path) -> bool:
    """Whether a file's first non-blank line reads ``measure topic value``."""
    try:
        lines = head_lines(path, 5)
    except ScoreDataError:  # empty, or not UTF-8 text
        return False
    first = next((line.split() for line in lines if line.strip()), [])
    if len(first) != 3:
        return False
    if first[0] == "runid":
        return True
    try:
        float(first[2])
    except ValueError:
        return False
    return True


def _parse_file(path: Path, strict: bool = False) -> _RunCells:
    runid: tuple[str, int] | None = None
    cells: dict[tuple[str, str], float] = {}
    first_line: dict[tuple[str, str], int] = {}
    for line_no, line in enumerate(read_text(path).splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 3:
            few_or_many = "too few" if len(fields) < 3 else "too many"
            hint = {6: "; this looks like a TREC run file: evaluate runs with "
                       "scorestd.evaluate(qrels, runs, measures)",
                    4: "; this looks like a qrels file"}.get(len(fields), "")
            raise ScoreDataError(
                f"{few_or_many} fields: expected 3 (measure topic value), found "
                f"{len(fields)}{hint}",
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
    _check_ranges(path, cells, first_line, runid[0] if runid else path.stem, strict)
    return _compact(runid[0] if runid else None, cells)


def _compact(runid: str | None, cells: dict[tuple[str, str], float]) -> _RunCells:
    """The scores of ``cells`` as codes and values (the dict of one file is then freed)."""
    topics: dict[str, int] = {}
    measures: dict[str, int] = {}
    n = len(cells)
    topic_code = np.fromiter((topics.setdefault(t, len(topics)) for t, _ in cells),
                             dtype=np.int32, count=n)
    measure_code = np.fromiter((measures.setdefault(m, len(measures)) for _, m in cells),
                               dtype=np.int32, count=n)
    values = np.fromiter(cells.values(), dtype=np.float64, count=n)
    return _RunCells(runid, list(topics), list(measures), topic_code, measure_code, values)


def _check_ranges(path: Path, cells: dict[tuple[str, str], float],
                  first_line: dict[tuple[str, str], int], run: str, strict: bool) -> None:
    by_measure: dict[str, list[tuple[str, str]]] = {}
    for key in cells:
        by_measure.setdefault(key[1], []).append(key)
    for measure, keys in by_measure.items():
        info = measure_info(measure)
        if info is None:
            continue
        bad = out_of_range(np.array([cells[k] for k in keys]), info)
        if not bad.any():
            continue
        flagged = [k for k, b in zip(keys, bad, strict=True) if b]
        first = flagged[0]
        message = (f"{len(flagged)} {measure!r} score(s) of run {run!r} outside "
                   f"{info.describe()}: {cells[first]!r} for topic {first[0]!r}"
                   + (f" (and {len(flagged) - 1} more)" if len(flagged) > 1 else ""))
        error = ScoreDataError(message, path=path, line=first_line[first])
        if strict:
            raise error
        warn(str(error))


def _natural_key(label: str) -> tuple:
    """Sort key putting ``2`` before ``10`` and numbers before text."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", label) if part)
