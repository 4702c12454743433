"""The command line: datasets, info, convert; errors on stderr with a non-zero exit."""

from __future__ import annotations

import re
import signal
import subprocess
import sys

import pytest
import xarray as xr

import scorestd
from scorestd.cli import main


def test_datasets_lists_collections(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert "robust2004" in out and "ap, ndcg" in out and "CC-BY-SA-4.0" in out


def test_info_reports_shape_measures_missing_and_summary(capsys, tmp_path):
    assert main(["info", "robust2004"]) == 0
    out = capsys.readouterr().out
    assert "99 topics × 110 systems × 2 measures" in out
    assert re.search(r"missing:\s+0 of 21780 cells", out)
    (tmp_path / "m.csv").write_text("topic,a,b\n1,0.5,\n2,0.25,0.75\n")
    assert main(["info", str(tmp_path / "m.csv")]) == 0
    assert re.search(r"missing:\s+1 of 4 cells", capsys.readouterr().out)


def test_convert_round_trip(tmp_path, capsys):
    out = tmp_path / "adhoc8.nc"
    assert main(["convert", "adhoc8", "--output", str(out)]) == 0
    xr.testing.assert_identical(scorestd.read_netcdf(out), scorestd.datasets.load("adhoc8"))
    matrix = tmp_path / "p10.csv"
    assert main(["convert", str(out), "--output", str(matrix), "--to", "matrix", "--measure", "p10"]) == 0
    assert scorestd.read_matrix_csv(matrix).sizes["system"] == 129


def test_errors_go_to_stderr_with_exit_code(capsys, tmp_path):
    assert main(["info", str(tmp_path / "missing.csv")]) == 1
    err = capsys.readouterr().err
    assert "scorestd info: error:" in err and "missing.csv" in err
    (tmp_path / "bad.csv").write_text("topic,a\n1,x\n")
    assert main(["info", str(tmp_path / "bad.csv")]) == 1
    assert "line 2" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2


@pytest.mark.parametrize("command", [[], ["datasets"], ["info"], ["convert"]])
def test_help_everywhere(command, capsys):
    with pytest.raises(SystemExit) as exc:
        main([*command, "--help"])
    assert exc.value.code == 0
    assert "usage: scorestd" in capsys.readouterr().out


def test_module_entry_point_runs():
    done = subprocess.run([sys.executable, "-m", "scorestd", "info", "adhoc5_ap"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "50 topics × 61 systems × 1 measures" in done.stdout


def test_copy_examples_makes_a_folder_the_readers_read(tmp_path, capsys):
    target = tmp_path / "ex"
    assert main(["datasets", "--copy-examples", str(target)]) == 0
    assert {p.name for p in target.iterdir()} == {"README.md", "groups.csv", "qrels.txt",
                                                   "runs", "trec_eval"}
    copied = scorestd.read_trec_eval(target / "trec_eval")
    original = scorestd.read_trec_eval(scorestd.datasets.example_path("trec_eval"))
    assert copied.drop_attrs().equals(original.drop_attrs())
    assert main(["datasets", "--copy-examples", str(target)]) == 1  # not over a full folder
    assert "exists and is not empty" in capsys.readouterr().err


CTRL_C_DURING_WRITE = """
import signal, sys
import scorestd.io.tidy as tidy
from scorestd.cli import main
real = tidy.write_long_csv

def interrupted(cube, path, **kw):
    signal.raise_signal(signal.SIGINT)  # Ctrl-C while the CSV is being written
    return real(cube, path, **kw)

tidy.write_long_csv = interrupted
import scorestd.io.formats as formats
formats.write_long_csv = interrupted
sys.exit(main(["convert", "adhoc8", "--output", sys.argv[1]]))
"""


def test_ctrl_c_exits_130_with_a_message_and_leaves_the_old_file(tmp_path):
    target = tmp_path / "scores.csv"
    target.write_text("old contents\n")
    child = subprocess.run(
        [sys.executable, "-c", CTRL_C_DURING_WRITE, str(target)],
        capture_output=True, text=True, timeout=120,
        # a child of a non-interactive shell may inherit an ignored SIGINT: restore Ctrl-C
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.returncode == 130, child.stderr
    assert "scorestd convert: interrupted" in child.stderr
    assert "Traceback" not in child.stderr
    assert target.read_text() == "old contents\n"
    assert [p.name for p in tmp_path.iterdir()] == ["scores.csv"]


def test_memory_budget_errors_speak_of_the_command_line_options(capsys, monkeypatch, tmp_path):
    # simulate has --memory: the API's "memory=" becomes the option (one trial of 200,000
    # topics is over 64 MB; any number of trials is written chunk by chunk)
    assert main(["simulate", "adhoc8", "-m", "ap", "--n-topics", "200000", "--memory", "64MB",
                 "--copula", "gaussian", "-q", "--output", str(tmp_path / "s.nc")]) == 1
    err = capsys.readouterr().err
    assert "(--memory 64MB)" in err and err.rstrip().endswith("raise --memory")
    assert "memory=" not in err
    # bayes has no --memory: the environment variable is named
    monkeypatch.setenv("SCORESTD_MEMORY", "2MiB")
    assert main(["bayes", "robust2004", "-m", "ap", "-q"]) == 1
    err = capsys.readouterr().err
    assert "$SCORESTD_MEMORY or the default" in err and "set $SCORESTD_MEMORY" in err
    assert "raise memory=" not in err
