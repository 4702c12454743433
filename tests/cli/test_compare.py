"""The ``scorestd compare`` command."""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy import stats

import scorestd
from scorestd.cli import main


def test_compare_baseline_table(capsys):
    assert main(["compare", "adhoc8_ap", "--baseline", "run3", "--test", "paired_t",
                 "--correction", "holm", "--sort", "p"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("measure: ap   test: paired_t   correction: holm   pairs: 128")
    header = lines[1].split()
    assert header == ["system", "system2", "mean_diff", "effect_size", "ci_low", "ci_high",
                      "statistic", "p_value", "p_adjusted", "n"]
    # first row: the smallest p-value; check it against scipy. Rows start with the
    # system, not with pandas' integer positions
    row = lines[2].split()
    ap = scorestd.datasets.load("adhoc8_ap").isel(measure=0)
    a, b = ap.sel(system=row[0]).values, ap.sel(system="run3").values
    assert row[1] == "run3"
    assert float(row[2]) == pytest.approx(np.mean(a - b), abs=1e-4)
    assert float(row[6]) == pytest.approx(stats.ttest_rel(a, b).statistic, abs=1e-4)


def test_compare_top_and_tukey(capsys):
    assert main(["compare", "adhoc8_ap", "--test", "tukey_hsd", "--top", "3"]) == 0
    out = capsys.readouterr().out
    assert "correction: family-wise by tukey_hsd" in out and "pairs: 8256" in out
    table = [ln for ln in out.splitlines() if ln.strip() and not re.match(r"^  \S[^:]*: ", ln)]
    assert len(table) == 1 + 1 + 3  # the header line, the column names, 3 rows
    assert "p_value:     p-value (family-wise adjusted) (two-sided)" in out


def test_compare_says_the_scores_are_standardized(tmp_path, capsys):
    std = tmp_path / "std.nc"
    assert main(["standardize", "adhoc8_ap", "--systems", "top:4", "-o", str(std), "-q"]) == 0
    assert main(["compare", str(std)]) == 0
    assert capsys.readouterr().out.startswith(
        "measure: ap (standardized by empirical)   test: paired_t")


def test_compare_errors(capsys):
    assert main(["compare", "adhoc8_ap", "--baseline", "nope"]) == 1
    assert "baseline 'nope' is not a system" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["compare", "adhoc8_ap", "--test", "anova"])


def test_old_option_spellings_are_read_with_a_notice(capsys):
    # --test t and --B are the spellings of earlier releases
    assert main(["compare", "adhoc8_ap", "--baseline", "run3", "--test", "t", "--top", "1"]) == 0
    captured = capsys.readouterr()
    assert "--test t is deprecated; use --test paired_t" in captured.err
    assert "test: paired_t" in captured.out
    assert main(["discriminative-power", "adhoc8_ap", "--test", "randomised_tukey", "--B", "20",
                 "--seed", "3"]) == 0
    captured = capsys.readouterr()
    assert "--test randomised_tukey is deprecated" in captured.err
    assert "--B is deprecated; use --resamples" in captured.err
    assert "randomised_tukey_hsd" in captured.out
