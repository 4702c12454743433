"""One spelling for the files a command writes: ``--output``/``-o`` (a score file, or the
printed table), ``--figure`` (a figure), ``--figures`` (the report's folder of plots). The
spellings of earlier releases still work, with a notice naming today's."""

from __future__ import annotations

import pytest
import xarray as xr

import scorestd
from scorestd.cli import build_parser, main

QRELS = scorestd.datasets.example_path("qrels")
RUNS = scorestd.datasets.example_path("runs")


def _subparsers() -> dict:
    parser = build_parser()
    return next(a for a in parser._actions if a.dest == "command").choices


@pytest.mark.parametrize("command", sorted(set(_subparsers()) - {"datasets"}))
def test_every_command_writes_with_output_or_o(command):
    options = {s: a for a in _subparsers()[command]._actions for s in a.option_strings}
    assert options["--output"] is options["-o"]
    visible = [s for s, a in options.items() if a.help != "==SUPPRESS=="]
    assert "--out" not in visible  # an earlier spelling, read but not shown


def test_standardize_positional_output_still_works_with_a_notice(tmp_path, capsys):
    new, old = tmp_path / "new.nc", tmp_path / "old.nc"
    assert main(["standardize", "adhoc8_ap", "--output", str(new), "-q"]) == 0
    assert "deprecated" not in capsys.readouterr().err
    assert main(["standardize", "adhoc8_ap", str(old), "-q"]) == 0
    assert (f"the positional output file is deprecated; use --output {old}"
            in capsys.readouterr().err)
    xr.testing.assert_identical(scorestd.load(new), scorestd.load(old))


def test_convert_refuses_two_outputs_and_asks_for_one(tmp_path, capsys):
    assert main(["convert", "adhoc8_ap", str(tmp_path / "a.nc"), "-o",
                 str(tmp_path / "b.nc")]) == 1
    assert "two output files" in capsys.readouterr().err
    assert main(["convert", "adhoc8_ap"]) == 1
    assert "the output file is required: --output FILE" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_simulate_out_still_works_with_a_notice(tmp_path, capsys):
    small = scorestd.save(scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4)),
                          tmp_path / "small.nc")
    out = tmp_path / "sims.nc"
    assert main(["simulate", str(small), "--out", str(out), "--trials", "2", "--seed", "1",
                 "--copula", "gaussian", "-q"]) == 0
    assert "--out is deprecated; use --output" in capsys.readouterr().err
    assert scorestd.load(out).sizes["trial"] == 2
    assert main(["simulate", str(small), "--trials", "2", "-q"]) == 1
    assert "--output FILE.nc" in capsys.readouterr().err


def test_evaluate_out_with_output_reads_as_earlier_releases(tmp_path, capsys):
    pytest.importorskip("ir_measures")
    scores, table = tmp_path / "s.nc", tmp_path / "summary.md"
    assert main(["evaluate", str(QRELS), str(RUNS), "-m", "AP",
                 "--out", str(scores), "--output", str(table), "-q"]) == 0
    err = capsys.readouterr().err
    assert "--out is deprecated; use --output" in err
    assert f"scorestd info {scores} --output {table}" in err
    assert scorestd.load(scores).sizes["measure"] == 1
    assert "Scores of 4 runs on 20 topics" in table.read_text()


def test_a_figure_named_by_o_of_earlier_releases_is_the_figure(tmp_path, capsys):
    fig = tmp_path / "swap.png"
    assert main(["swap-rate", "adhoc8_ap", "--trials", "20", "--sizes", "5,10", "-o",
                 str(fig), "-q"]) == 0
    assert f"the figure is --figure {fig}" in capsys.readouterr().err
    assert fig.read_bytes()[:4] == b"\x89PNG"
    again = tmp_path / "again.png"
    assert main(["swap-rate", "adhoc8_ap", "--trials", "20", "--sizes", "5,10", "--out",
                 str(again), "-q"]) == 0
    assert "--out is deprecated; use --figure" in capsys.readouterr().err
    assert again.exists()


def test_report_out_is_figures(tmp_path, capsys):
    folder = tmp_path / "plots"
    assert main(["report", "adhoc8_ap", "--models", "normal", "--out", str(folder), "-q"]) == 0
    assert "--out is deprecated; use --figures" in capsys.readouterr().err
    assert any(folder.glob("*.png"))
