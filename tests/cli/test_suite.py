"""``scorestd discriminative-power``, ``swap-rate`` and ``leave-one-out`` print the API's numbers."""

from __future__ import annotations

import pytest

import scorestd
from scorestd.cli import main
from scorestd.errors import ScorestdWarning
from scorestd.experiments.discrimination import discriminative_power
from scorestd.experiments.leave_out import leave_one_out
from scorestd.experiments.swap_rates import swap_rate


def _last_row(out: str) -> list[str]:
    return out.strip().splitlines()[-1].split()


def test_discriminative_power(capsys):
    assert main(["discriminative-power", "web2013", "-m", "ndcg20", "--schemes", "raw,E",
                 "--alpha", "0.05"]) == 0
    out = capsys.readouterr().out
    assert "  alpha=α: fraction of the " in out  # the legend under the table
    row = _last_row(out.split("\n  alpha=α:")[0])
    expected = discriminative_power(scorestd.load("web2013", measure="ndcg20"),
                                    schemes=["raw", "E"], alphas=[0.05])
    assert row[0] == "E"
    assert float(row[-1]) == pytest.approx(
        expected.data["fraction"].sel(scheme="E").item(), abs=5e-5)


def test_swap_rate(capsys, tmp_path):
    out_png = tmp_path / "swap.png"
    assert main(["swap-rate", "web2013", "-m", "ndcg20", "--sizes", "10,25", "--trials", "20",
                 "--seed", "3", "--no-progress", "--figure", str(out_png)]) == 0
    out = capsys.readouterr().out
    expected = swap_rate(scorestd.load("web2013", measure="ndcg20"), sizes=[10, 25],
                         trials=20, seed=3)
    row = out.strip().splitlines()[-2].split()  # last line is "figure written to …"
    assert row == ["25", f"{expected.summary().loc[25, 'raw']:.4f}"]
    assert out_png.stat().st_size > 0


def test_leave_one_out_with_groups(capsys, tmp_path):
    data = scorestd.load("web2013", measure="ndcg20")
    runs = data.system.values.tolist()
    groups = tmp_path / "groups.csv"
    groups.write_text("".join(f"{r},{'t' + str(k // 3)}\n" for k, r in enumerate(runs)))
    # topic t02 has the same score for every run: standardization warns about it
    assert main(["leave-one-out", "web2013", "-m", "ndcg20", "--schemes", "U",
                 "--groups", str(groups)]) == 0
    captured = capsys.readouterr()  # the command line prints warnings, never raises them
    assert "scorestd leave-one-out: warning:" in captured.err and "t02" in captured.err
    row = _last_row(captured.out)
    with pytest.warns(ScorestdWarning, match="t02"):
        expected = leave_one_out(data, schemes=["U"],
                                 groups={r: "t" + str(k // 3) for k, r in enumerate(runs)})
    assert float(row[2]) == pytest.approx(
        expected.summary().loc[("ndcg20", "U"), "max_abs_change"], abs=5e-5)


def test_leave_one_out_bad_group_file(capsys, tmp_path):
    groups = tmp_path / "groups.csv"
    groups.write_text("run1,a\nrun2\n")
    assert main(["leave-one-out", "web2013", "-m", "ndcg20", "--groups", str(groups)]) == 1
    assert "groups.csv, line 2: expected 2 fields" in capsys.readouterr().err


def test_group_files_skip_a_header_and_comments_and_refuse_a_run_listed_twice(tmp_path):
    from scorestd.errors import ScoreDataError
    from scorestd.io import read_groups

    path = tmp_path / "teams.csv"
    path.write_text("run,group\n# the TREC teams\n\nuwat1, uwaterloo\nmsr1,msr\n")
    assert read_groups(path) == {"uwat1": "uwaterloo", "msr1": "msr"}
    path.write_text("uwat1,uwaterloo\nmsr1,msr\nuwat1,msr\n")
    with pytest.raises(ScoreDataError, match=r"teams.csv, line 3: run 'uwat1' is listed twice "
                                             r"\(first on line 1\)"):
        read_groups(path)
    path.write_text("uwat1,\n")
    with pytest.raises(ScoreDataError, match="line 1: empty run or group"):
        read_groups(path)
