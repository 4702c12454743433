"""``scorestd evaluate``: runs + qrels → scores, checked against ir_measures called directly;
``scorestd info`` on a folder of runs points to it."""

from __future__ import annotations

import sys

import pytest

import scorestd
from scorestd.cli import main

QRELS = scorestd.datasets.example_path("qrels")
RUNS = scorestd.datasets.example_path("runs")


def test_evaluate_writes_what_ir_measures_computes(tmp_path, capsys):
    import ir_measures

    out = tmp_path / "scores.nc"
    assert main(["evaluate", str(QRELS), str(RUNS), "-m", "AP,nDCG@20", "--output", str(out)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed[0] == f"wrote {out} (20 topics, 4 runs, 2 measures)"
    assert printed[1] == "each measure's scores, over every topic × system cell:"  # a title
    cube = scorestd.load(out)
    # reference: ir_measures' per-topic values of the same files, read independently
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    for run_file in sorted(RUNS.iterdir()):
        run = list(ir_measures.read_trec_run(str(run_file)))
        name = run[0].run_id if hasattr(run[0], "run_id") else run_file.stem
        for m in ir_measures.iter_calc([ir_measures.AP, ir_measures.nDCG @ 20], qrels, run):
            got = cube.sel(system=run_file.stem, topic=m.query_id, measure=str(m.measure))
            assert float(got) == pytest.approx(m.value), (name, m)


def test_evaluate_selects_systems_and_writes_a_table(tmp_path, capsys):
    out, table = tmp_path / "s.csv", tmp_path / "summary.md"
    assert main(["evaluate", str(QRELS), *map(str, sorted(RUNS.iterdir())), "-m", "P@10",
                 "-o", str(out), "-s", "bm25,rm3", "-q"]) == 0
    assert "wrote" not in capsys.readouterr().out
    cube = scorestd.load(out)
    assert sorted(cube.system.values.tolist()) == ["bm25", "rm3"]
    assert main(["info", str(out), "--output", str(table)]) == 0  # the summary's table
    assert "rm3" in table.read_text() or "P@10" in table.read_text()


def test_evaluate_without_ir_measures_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)  # import fails
    assert main(["evaluate", str(QRELS), str(RUNS), "-m", "AP", "--output",
                 str(tmp_path / "s.nc")]) == 1
    assert 'pip install "scorestd[eval]"' in capsys.readouterr().err


def test_evaluate_checks_the_output_first(tmp_path, capsys):
    assert main(["evaluate", str(QRELS), str(RUNS), "-m", "AP", "--output",
                 str(tmp_path / "s.xlsx")]) == 1
    assert ".xlsx" in capsys.readouterr().err


def test_info_on_a_runs_folder_points_to_evaluate(capsys):
    assert main(["info", str(RUNS)]) == 1
    err = capsys.readouterr().err
    assert "they are TREC runs" in err and f"scorestd evaluate QRELS {RUNS}" in err
