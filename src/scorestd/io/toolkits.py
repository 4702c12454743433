"""Per-query scores from the evaluation toolkits: ir_measures, ranx, and TREC runs.

Every adapter goes through the toolkit's own per-query scores (never recomputes a
measure) and through :func:`~scorestd.io.tidy.from_dataframe`, so labels are read by name
and scores are range-checked like any other input. PyTerrier's
``pt.Experiment(..., perquery=True)`` frame (columns ``name``, ``qid``, ``measure``,
``value``) needs no adapter: :func:`scorestd.from_dataframe` reads it as it is.

:func:`evaluate` turns TREC run files and qrels into a cube with ``ir_measures``, an
optional extra: ``pip install "scorestd[eval]"``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import xarray as xr

from .._options import MissingRun, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, ScorestdError
from ..score_cube import validate
from ._common import existing_file, head_lines
from .tidy import from_dataframe

__all__ = ["evaluate", "from_ir_measures", "from_ranx"]


def from_ir_measures(
    results: Any,
    *,
    run_name: str | None = None,
    strict: bool = False,
) -> xr.DataArray:
    """A cube from ``ir_measures`` per-query results.

    Parameters
    ----------
    results : iterable of Metric, DataFrame, or mapping of run name to either
        The output of ``ir_measures.iter_calc(measures, qrels, run)`` (namedtuples
        ``Metric(query_id, measure, value)``), a DataFrame of it, or one such result per
        run in a ``{run name: results}`` mapping.
    run_name : str, optional
        The system label of a single run's results (required then).
    strict : bool
        Raise instead of warning on scores outside their measure's range.

    Returns
    -------
    xarray.DataArray
        Measures labelled as ir_measures prints them (``AP``, ``nDCG@20``, ``P@10``).

    Examples
    --------
    >>> from collections import namedtuple
    >>> Metric = namedtuple("Metric", "query_id measure value")  # ir_measures' record
    >>> rows = [Metric("401", "AP", 0.25), Metric("402", "AP", 0.5)]
    >>> from_ir_measures(rows, run_name="bm25").sel(measure="AP").values.ravel().tolist()
    [0.25, 0.5]
    """
    if isinstance(results, Mapping):
        frames = [_ir_measures_frame(r).assign(run=str(name)) for name, r in results.items()]
        if not frames:
            raise ScoreDataError("no runs given")
        return from_dataframe(pd.concat(frames, ignore_index=True), system="run",
                              strict=strict)
    if run_name is None:
        raise ScoreDataError("ir_measures results carry no run name: give run_name='…', or "
                             "a mapping {run name: results} for several runs")
    return from_dataframe(_ir_measures_frame(results), run_name=run_name, strict=strict)


def _ir_measures_frame(results: Any) -> pd.DataFrame:
    frame = results if isinstance(results, pd.DataFrame) else pd.DataFrame(
        list(results), columns=["query_id", "measure", "value"])
    if frame.empty:
        raise ScoreDataError("the ir_measures results are empty")
    missing = {"query_id", "measure", "value"} - set(frame.columns)
    if missing:
        raise ScoreDataError(f"ir_measures results need columns query_id, measure, value; "
                             f"missing {sorted(missing)}")
    return frame.assign(measure=frame["measure"].map(str))


def from_ranx(
    runs: Any,
    qrels: Any = None,
    metrics: str | Sequence[str] | None = None,
    *,
    strict: bool = False,
) -> xr.DataArray:
    """A cube from ranx's per-query scores of one or several ``Run`` objects.

    Parameters
    ----------
    runs : ranx.Run, sequence of ranx.Run, or mapping of name to ranx.Run
        Runs evaluated by ``ranx.evaluate``/``ranx.compare`` (their ``run.scores``
        hold every metric per query), or to be evaluated here with ``qrels`` and
        ``metrics``. A ``ranx.Report`` holds only mean scores and is refused, with
        the call to make.
    qrels : ranx.Qrels, optional
        Evaluate the runs against these (``ranx.evaluate(..., return_mean=False)``).
    metrics : str or sequence of str, optional
        ranx metric names (``"map"``, ``"ndcg@20"``, ``"precision@10"``, ``"mrr"``);
        with ``qrels``, required; without, the runs' stored metrics (all by default).
    strict : bool
        Raise instead of warning on scores outside their measure's range.

    Returns
    -------
    xarray.DataArray
        Systems labelled by ``run.name`` (or the mapping's keys), measures by the ranx
        metric names.

    Examples
    --------
    >>> class Run:  # what ranx.Run keeps after ranx.evaluate(qrels, run, ["map"])
    ...     name = "bm25"
    ...     scores = {"map": {"q1": 1.0, "q2": 0.5}}
    >>> from_ranx(Run()).sel(system="bm25", measure="map").values.ravel().tolist()
    [1.0, 0.5]
    """
    if type(runs).__name__ == "Report":
        raise ScoreDataError(
            "a ranx Report keeps only the mean of each metric, not the per-query scores a "
            "cube needs; pass the runs you compared: scorestd.from_ranx([run1, run2]) "
            f"(ranx.compare stored every metric per query in run.scores; metrics "
            f"{list(getattr(runs, 'metrics', []))})")
    if isinstance(runs, Mapping):
        named = {str(k): v for k, v in runs.items()}
    else:
        seq = [runs] if hasattr(runs, "scores") else list(runs)
        named = {}
        for i, run in enumerate(seq):
            name = getattr(run, "name", None) or f"run{i + 1}"
            if name in named:
                raise ScoreDataError(f"two runs are named {name!r}; pass a mapping "
                                     "{name: run} to label them")
            named[str(name)] = run
    if not named:
        raise ScoreDataError("no runs given")
    wanted = [metrics] if isinstance(metrics, str) else (list(metrics) if metrics else None)
    if qrels is not None:
        if not wanted:
            raise ScoreDataError("give metrics=[…] to evaluate the runs against qrels")
        from ranx import evaluate as ranx_evaluate

        for run in named.values():
            ranx_evaluate(qrels, run, wanted, return_mean=False, save_results_in_run=True)
    rows = []
    for name, run in named.items():
        scores = getattr(run, "scores", None) or {}
        chosen = wanted or list(scores)
        if not chosen:
            raise ScoreDataError(f"run {name!r} holds no per-query scores: evaluate it first "
                                 "(ranx.evaluate(qrels, run, metrics)) or pass qrels= and "
                                 "metrics=")
        for metric in chosen:
            if metric not in scores:
                raise ScoreDataError(f"run {name!r} has no per-query scores of {metric!r} "
                                     f"(it has {sorted(scores)})")
            per_query = scores[metric]
            rows.append(pd.DataFrame({SYSTEM: name, TOPIC: list(map(str, per_query)),
                                      MEASURE: metric,
                                      "value": [float(v) for v in per_query.values()]}))
    return from_dataframe(pd.concat(rows, ignore_index=True), strict=strict)


def evaluate(
    qrels: str | os.PathLike,
    runs: str | os.PathLike | Iterable[str | os.PathLike] | Mapping[str, str | os.PathLike],
    measures: Sequence[str],
    *,
    missing: MissingRun = "zero",
    collection: str | None = None,
    strict: bool = False,
) -> xr.DataArray:
    """Evaluate TREC run files against qrels into a cube, with ``ir_measures``.

    Needs the optional extra ``eval`` (``pip install "scorestd[eval]"``, which installs
    ``ir_measures``); the measures are computed by ir_measures' providers (trec_eval's
    own code for ``AP``, ``P@k``, ``nDCG@k`` …), never here.

    Parameters
    ----------
    qrels : path
        A TREC qrels file (``topic 0 docid relevance`` lines).
    runs : path, directory, sequence of paths, or mapping of name to path
        TREC run files (``topic Q0 docid rank score tag`` lines); a directory means
        every file in it. A run is named by its tag (6th column), or by the mapping's
        key.
    measures : sequence of str
        ir_measures names: ``"AP"``, ``"nDCG@20"``, ``"P@10"``, ``"RR"``, ``"R@100"`` …
    missing : {"zero", "nan"}
        The score of a qrels topic a run retrieved nothing for: 0, as ``trec_eval -c``
        reports it (default), or missing (``NaN``).
    collection : str, optional
        Stored in ``attrs["collection"]``.
    strict : bool
        Raise instead of warning on scores outside their measure's range.

    Returns
    -------
    xarray.DataArray
        Topics of the qrels that have a relevant document, runs in file order,
        measures as given.

    Raises
    ------
    ScorestdError
        Without ir_measures (naming the extra to install).
    ScoreDataError
        A file that cannot be read as qrels or a run (naming it), an unknown measure.

    Examples
    --------
    >>> import scorestd
    >>> c = scorestd.evaluate(scorestd.datasets.example_path("qrels"),
    ...                       scorestd.datasets.example_path("runs"), ["AP", "P@10"])
    ... # doctest: +SKIP
    """
    check_option(missing, MissingRun, "missing")
    ir_measures = _require_ir_measures()
    try:
        parsed = [ir_measures.parse_measure(str(m)) for m in measures]
    except (ValueError, NameError, SyntaxError, TypeError) as exc:
        raise ScoreDataError(f"unknown ir_measures measure in {list(measures)}: {exc}") from None
    qrels_path = existing_file(qrels)
    judged = _read_qrels(ir_measures, qrels_path)
    topics = sorted({q.query_id for q in judged if q.relevance > 0})
    files = _run_files(runs)
    frames = []
    for name, path in files.items():
        run = _read_run(ir_measures, path)
        rows = pd.DataFrame(
            [(m.query_id, str(m.measure), float(m.value))
             for m in ir_measures.iter_calc(parsed, judged, run)],
            columns=[TOPIC, MEASURE, "value"])
        full = pd.MultiIndex.from_product([topics, [str(m) for m in parsed]],
                                          names=[TOPIC, MEASURE])
        rows = rows[rows[TOPIC].isin(topics)].set_index([TOPIC, MEASURE]).reindex(full)
        if missing == "zero":
            rows = rows.fillna(0.0)
        else:  # ir_measures scores a topic the run lacks as 0: make it missing
            retrieved = {doc.query_id for doc in run}
            lacking = ~rows.index.get_level_values(TOPIC).isin(list(retrieved))
            rows.loc[lacking, "value"] = float("nan")
        frames.append(rows.reset_index().assign(**{SYSTEM: name}))
    cube = from_dataframe(pd.concat(frames, ignore_index=True), strict=strict,
                          attrs={"source": f"{qrels_path}; " + ", ".join(map(str, files.values())),
                                 "source_format": "trec_runs",
                                 **({"collection": collection} if collection else {})})
    return validate(cube.reindex({MEASURE: [str(m) for m in parsed]}), copy=False,
                    check_range=False)


def _require_ir_measures():
    try:
        import ir_measures
    except ImportError:
        raise ScorestdError('scorestd.evaluate needs ir_measures: pip install "scorestd[eval]"'
                            ) from None
    return ir_measures


def _read_qrels(ir_measures: Any, path: Path) -> list:
    lines = [line.split() for line in head_lines(path, 5) if line.strip()]
    if not lines or len(lines[0]) != 4:
        raise ScoreDataError("not a TREC qrels file (expected 'topic iteration docid "
                             f"relevance' lines; the first has {len(lines[0]) if lines else 0} "
                             "fields)", path=path)
    try:
        return list(ir_measures.read_trec_qrels(str(path)))
    except Exception as exc:  # the toolkit's parser raises its own types
        raise ScoreDataError(f"cannot read as TREC qrels: {exc}", path=path) from None


def _read_run(ir_measures: Any, path: Path) -> list:
    try:
        return list(ir_measures.read_trec_run(str(path)))
    except Exception as exc:
        raise ScoreDataError(f"cannot read as a TREC run: {exc}", path=path) from None


def _run_files(runs: Any) -> dict[str, Path]:
    if isinstance(runs, Mapping):
        return {str(name): existing_file(p) for name, p in runs.items()}
    if isinstance(runs, str | os.PathLike):
        p = Path(runs)
        paths = (sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
                 if p.is_dir() else [existing_file(p)])
    else:
        paths = [existing_file(p) for p in runs]
    if not paths:
        raise ScoreDataError("no run files given")
    named: dict[str, Path] = {}
    for path in paths:
        fields = next((line.split() for line in head_lines(path, 5) if line.strip()), [])
        if len(fields) != 6:
            raise ScoreDataError("not a TREC run file (expected 'topic Q0 docid rank score "
                                 f"tag' lines; the first has {len(fields)} fields)", path=path)
        name = fields[5]
        if name in named:
            raise ScoreDataError(f"run tag {name!r} is also the tag of {named[name]}; pass a "
                                 "mapping {name: path}", path=path)
        named[name] = path
    return named
