"""``scorestd power`` and ``scorestd topics`` give the numbers of the Python API."""

from __future__ import annotations

import math
import re

import pytest
from statsmodels.stats.power import TTestPower

import scorestd
from scorestd.cli import main
from scorestd.design.topic_sets import topic_set_size
from scorestd.design.variance import estimate_variance


def _rows(out: str) -> list[list[str]]:
    # without the legend under the table ("  column: what it is")
    return [line.split() for line in out.strip().splitlines()
            if not re.match(r"^  \S[^:]*: ", line)]


def test_power_solves_n_like_statsmodels(capsys):
    assert main(["power", "--variance", "0.04", "--min-diff", "0.1", "--power", "0.8"]) == 0
    out = capsys.readouterr().out
    expected = math.ceil(TTestPower().solve_power(effect_size=0.5, alpha=0.05, power=0.8))
    assert "solving for n_topics" in out
    assert _rows(out)[-1][-1] == str(expected)


def test_power_says_what_it_was_given_and_what_each_column_is(capsys):
    assert main(["power", "adhoc8_ap", "--min-diff", "0.1", "--power", "0.8"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "paired_t: solving for n_topics, given min_diff = 0.1, α = 0.05, power = 0.8"
    assert "  variance: 2 × residual variance estimated from DATA" in out
    assert any(line.startswith("  n_topics: topics needed, rounded up, to detect min_diff") for line in out)
    assert main(["power", "--variance", "0.04", "--min-diff", "0.1", "--n-topics", "50"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["variance", "power"]  # no row position before them
    assert "  variance: the variance given (--variance)" in out


def test_power_solves_alpha(capsys):
    assert main(["power", "--variance", "0.04", "--min-diff", "0.1", "--n-topics", "50",
                 "--alpha", "solve", "--power", "0.9"]) == 0
    alpha = float(_rows(capsys.readouterr().out)[-1][-1])
    assert TTestPower().power(effect_size=0.5, nobs=50, alpha=alpha) == pytest.approx(0.9,
                                                                                      abs=1e-4)


def test_power_on_a_dataset_per_scheme(capsys):
    assert main(["power", "adhoc8_ap", "--min-diff", "0.05", "--n-topics", "50",
                 "--schemes", "raw"]) == 0
    out = capsys.readouterr().out
    var = 2 * estimate_variance(scorestd.datasets.load("adhoc8_ap"))  # σ_t² = 2 V_E
    expected = TTestPower().power(effect_size=0.05 / math.sqrt(var.item()), nobs=50, alpha=0.05)
    assert float(_rows(out)[-1][-1]) == pytest.approx(expected, rel=1e-4)


def test_topics_table_matches_the_api(capsys):
    assert main(["topics", "robust2004", "--min-diff", "0.05,0.1", "--schemes", "raw"]) == 0
    rows = _rows(capsys.readouterr().out)
    var = 2 * estimate_variance(scorestd.datasets.load("robust2004"))  # σ_t² = 2 V_E
    expected = topic_set_size(variance=var.sel(measure="ndcg").item(), min_diff=0.05)
    ndcg = next(r for r in rows if "ndcg" in r)
    assert int(ndcg[-2]) == expected


def test_topics_pooled_anova_exact(capsys):
    assert main(["topics", "adhoc8_ap", "robust2004", "-m", "ap", "--test", "anova",
                 "--n-systems", "10", "--min-diff", "0.1", "--method", "exact"]) == 0
    rows = _rows(capsys.readouterr().out)
    pooled = estimate_variance([scorestd.datasets.load("adhoc8_ap"),
                                scorestd.load("robust2004", measure="ap")])
    expected = topic_set_size(variance=pooled.item(), test="anova", min_diff=0.1,
                              n_systems=10, method="exact")
    assert int(rows[-1][-1]) == expected


@pytest.mark.parametrize("argv,message", [
    (["topics", "--variance", "0.04", "--alpha", "1.5"], "alpha must be strictly between"),
    (["topics", "--variance", "0.04", "--min-diff", "0,0.1"], "min_diff must be a finite"),
    (["topics"], "give one or more DATA"),
    (["topics", "adhoc8_ap", "--variance", "0.1"], "not both"),
    (["power", "--variance", "0.04", "--min-diff", "0.001", "--power", "0.99",
      "--n-topics", "3"], "exactly one of"),
    (["topics", "--variance", "0.04", "--min-diff", "0.1,x"], "cannot read the list"),
])
def test_bad_input_is_a_one_line_error(capsys, argv, message):
    assert main(argv) == 1
    assert message in capsys.readouterr().err
