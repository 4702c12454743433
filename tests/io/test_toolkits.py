"""Every input a researcher has: ir_measures results, ranx runs, PyTerrier frames, TREC
runs and qrels (evaluate), on small real-format fixtures."""

from __future__ import annotations

import sys
from collections import namedtuple
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest

import scorestd
from scorestd.errors import ScoreDataError, ScorestdError

DATA = Path(__file__).parents[1] / "data"
Metric = namedtuple("Metric", "query_id measure value")  # ir_measures' record


def test_pyterrier_perquery_frame():
    frame = pd.read_csv(DATA / "pyterrier_perquery.csv", dtype={"qid": str})
    c = scorestd.from_dataframe(frame)
    assert c.system.values.tolist() == ["BM25", "BM25 >> RM3"]
    assert c.sel(system="BM25 >> RM3", topic="401", measure="map").item() == 0.3013


def test_ir_measures_records_frame_and_mapping():
    frame = pd.read_csv(DATA / "ir_measures_bm25.csv", dtype={"query_id": str})
    records = [Metric(*row) for row in frame.itertuples(index=False)]
    a = scorestd.from_ir_measures(records, run_name="bm25")
    b = scorestd.from_ir_measures(frame, run_name="bm25")
    assert a.identical(b)
    assert a.sel(topic="402", measure="nDCG@20").item() == 0.2011
    both = scorestd.from_ir_measures({"bm25": records, "copy": frame})
    assert both.system.values.tolist() == ["bm25", "copy"]
    with pytest.raises(ScoreDataError, match="give run_name"):
        scorestd.from_ir_measures(records)


def test_ir_measures_iter_calc_itself():
    ir_measures = pytest.importorskip("ir_measures")
    qrels = list(ir_measures.read_trec_qrels(str(scorestd.datasets.example_path("qrels"))))
    run = list(ir_measures.read_trec_run(str(scorestd.datasets.example_path("runs") / "qld.txt")))
    results = list(ir_measures.iter_calc([ir_measures.AP, ir_measures.P @ 10], qrels, run))
    c = scorestd.from_ir_measures(results, run_name="qld")
    evals = scorestd.read_trec_eval(scorestd.datasets.example_path("trec_eval"))
    # trec_eval's printed 4 decimals against ir_measures' full precision
    np.testing.assert_allclose(c.sel(measure="AP", system="qld").values,
                               evals.sel(measure="map", system="qld").values, atol=5e-5)


def test_ranx_runs_through_their_own_per_query_scores():
    ranx = pytest.importorskip("ranx")
    qrels = ranx.Qrels.from_file(str(scorestd.datasets.example_path("qrels")), kind="trec")
    runs = [ranx.Run.from_file(str(p), kind="trec")
            for p in sorted(scorestd.datasets.example_path("runs").iterdir())]
    for run, path in zip(runs, sorted(scorestd.datasets.example_path("runs").iterdir()),
                         strict=True):
        run.name = path.stem
    c = scorestd.from_ranx(runs, qrels, ["precision@10", "mrr"])
    evals = scorestd.read_trec_eval(scorestd.datasets.example_path("trec_eval"))
    np.testing.assert_allclose(c.sel(measure="precision@10").values,
                               evals.sel(measure="P_10").values, atol=5e-5)
    report = ranx.compare(qrels, runs, ["map"])
    with pytest.raises(ScoreDataError, match="Report keeps only the mean"):
        scorestd.from_ranx(report)
    again = scorestd.from_ranx(runs, metrics=["map"])  # scores stored by ranx.compare
    assert again.sizes == {"topic": 20, "system": 4, "measure": 1}


def test_ranx_shaped_run_without_ranx():
    class Run:
        name = "bm25"
        scores: ClassVar = {"map": {"q1": 1.0, "q2": 0.5}, "mrr": {"q1": 1.0, "q2": 0.5}}

    c = scorestd.from_ranx(Run())
    assert c.measure.values.tolist() == ["map", "mrr"]
    with pytest.raises(ScoreDataError, match="no per-query scores of 'ndcg@10'"):
        scorestd.from_ranx(Run(), metrics="ndcg@10")


def test_evaluate_agrees_with_trec_eval():
    pytest.importorskip("ir_measures")
    c = scorestd.evaluate(scorestd.datasets.example_path("qrels"),
                          scorestd.datasets.example_path("runs"),
                          ["AP", "P@10", "nDCG@20", "RR"], collection="example")
    evals = scorestd.read_trec_eval(scorestd.datasets.example_path("trec_eval"))
    for ours, theirs in (("AP", "map"), ("P@10", "P_10"), ("nDCG@20", "ndcg_cut_20"),
                         ("RR", "recip_rank")):
        np.testing.assert_allclose(c.sel(measure=ours).values, evals.sel(measure=theirs).values,
                                   atol=5e-5, err_msg=ours)
    assert c.attrs["collection"] == "example"


def test_evaluate_scores_missing_topics_as_trec_eval_c(tmp_path):
    pytest.importorskip("ir_measures")
    runs = scorestd.datasets.example_path("runs")
    short = tmp_path / "short.txt"
    lines = (runs / "bm25.txt").read_text().splitlines(True)
    short.write_text("".join(line for line in lines if not line.startswith("420 "))
                     .replace(" bm25\n", " short\n"))
    zero = scorestd.evaluate(scorestd.datasets.example_path("qrels"), [short], ["AP"])
    assert zero.sel(topic="420").item() == 0.0
    nan = scorestd.evaluate(scorestd.datasets.example_path("qrels"), [short], ["AP"],
                            missing="nan")
    assert np.isnan(nan.sel(topic="420").item())
    with pytest.raises(ScoreDataError, match="not a TREC run file"):
        scorestd.evaluate(scorestd.datasets.example_path("qrels"),
                          [scorestd.datasets.example_path("qrels")], ["AP"])


def test_evaluate_without_ir_measures_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)
    with pytest.raises(ScorestdError, match=r'pip install "scorestd\[eval\]"'):
        scorestd.evaluate(scorestd.datasets.example_path("qrels"),
                          scorestd.datasets.example_path("runs"), ["AP"])
