"""``--systems`` selects, ``--output`` writes the printed table, ``--quiet`` silences notices."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats
from statsmodels.stats.multitest import multipletests

import scorestd
from scorestd.cli import main


@pytest.fixture(scope="module")
def robust():
    return scorestd.datasets.load("robust2004")


def _systems_of(out: str) -> list[str]:
    return [ln.split()[0] for ln in out.splitlines()[3:]  # after the header, before the legend
            if ln.strip() and not re.match(r"^  \S[^:]*: ", ln)]


def test_systems_names_globs_and_file(capsys, tmp_path):
    assert main(["aggregate", "adhoc8_ap", "--systems", "run1,run2*"]) == 0
    got = set(_systems_of(capsys.readouterr().out))
    assert got == {"run1", "run2", *(f"run2{k}" for k in range(10))}
    names = tmp_path / "systems.txt"
    names.write_text("# the three I care about\nrun3\nrun7  # baseline\n\nrun12\n")
    assert main(["aggregate", "adhoc8_ap", "--systems", f"@{names}"]) == 0
    assert set(_systems_of(capsys.readouterr().out)) == {"run3", "run7", "run12"}
    assert main(["aggregate", "adhoc8_ap", "-s", str(names)]) == 0  # a path that exists
    assert set(_systems_of(capsys.readouterr().out)) == {"run3", "run7", "run12"}


def test_top_k_is_by_mean_of_the_measure(capsys, robust):
    assert main(["aggregate", "robust2004", "-m", "ndcg", "--systems", "top:4"]) == 0
    got = _systems_of(capsys.readouterr().out)
    means = robust.sel(measure="ndcg").mean("topic").to_series().sort_values(ascending=False)
    assert got == means.index[:4].tolist()


def test_selection_changes_the_family_of_the_correction(capsys, robust):
    # Holm over the 3 pairs of 3 systems, not over every pair of the collection
    chosen = ["run67", "run68", "run74"]
    assert main(["compare", "robust2004", "-m", "ap", "--systems", ",".join(chosen)]) == 0
    out = capsys.readouterr().out
    assert "pairs: 3 " in out
    x = robust.sel(measure="ap", system=chosen).transpose("topic", "system").values
    p = [stats.ttest_rel(x[:, i], x[:, j]).pvalue for i, j in ((0, 1), (0, 2), (1, 2))]
    holm = multipletests(p, method="holm")[1]
    printed = [float(ln.split()[-2]) for ln in out.splitlines()[2:5]]
    np.testing.assert_allclose(printed, holm, rtol=5e-3)


@pytest.mark.parametrize("selection, message", [
    ("rnu1", "'rnu1' matches no system.*did you mean run1"),
    ("top:0", "at least 1"),
    ("top:x", "whole number"),
    ("top:500", "more systems than the data has"),
    ("@/nonexistent/list.txt", "cannot read"),
])
def test_bad_selection_is_named(capsys, selection, message):
    assert main(["aggregate", "adhoc8_ap", "--systems", selection]) == 1
    assert re.search(message, capsys.readouterr().err)


@pytest.mark.parametrize("suffix", [".tex", ".md", ".csv"])
def test_compare_output_is_the_significance_table(capsys, tmp_path, suffix, robust):
    path = tmp_path / f"table{suffix}"
    assert main(["compare", "robust2004", "-s", "top:3", "--output", str(path)]) == 0
    assert f"table written to {path}" in capsys.readouterr().out
    cube = robust.sel(system=["run68", "run74", "run75"])  # the order of the data
    expected = scorestd.table(scorestd.compare(cube, correction="holm"), scores=cube)
    assert path.read_text() == expected.render({".tex": "latex", ".md": "markdown",
                                                ".csv": "csv"}[suffix])


def test_output_is_checked_before_computing(capsys, tmp_path):
    assert main(["experiment", "within", "--trials", "100000", "--output",
                 str(tmp_path / "t.docx")]) == 1
    assert "cannot write a table as '.docx'" in capsys.readouterr().err
    assert main(["aggregate", "adhoc8_ap", "--output", str(tmp_path / "no" / "t.md")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_aggregate_output_csv_holds_the_printed_numbers(capsys, tmp_path, robust):
    path = tmp_path / "agg.csv"
    assert main(["aggregate", "robust2004", "-q", "--output", str(path)]) == 0
    assert "written" not in capsys.readouterr().out  # --quiet: no notice
    frame = pd.read_csv(path, index_col="system")
    np.testing.assert_allclose(frame.loc["run74", "ap"], float(robust.sel(system="run74",
                                                                           measure="ap").mean()))


def test_experiment_output_has_the_legend(tmp_path, capsys):
    path = tmp_path / "within.md"
    assert main(["experiment", "within", "--data", "adhoc8_ap", "--trials", "5",
                 "--no-figure", "-q", "--output", str(path)]) == 0
    text = path.read_text()
    assert "power@0.05: fraction of system pairs with a significant two-sided paired t-test " \
           "at α = 0.05" in text
    assert "power@0.05: fraction" in capsys.readouterr().out  # printed under the table too


def test_standardize_selects_the_output_not_the_reference(tmp_path, robust):
    # E-std of 3 systems against the whole collection, as without --systems
    out = tmp_path / "std.nc"
    assert main(["standardize", "robust2004", "--output", str(out), "-s", "run1,run2,run3", "-q"]) == 0
    got = scorestd.load(out)
    assert got.system.values.tolist() == ["run1", "run2", "run3"]
    whole = scorestd.standardize(robust, "empirical")
    np.testing.assert_allclose(got.values, whole.sel(system=got.system.values).values)


def test_report_output_writes_every_table(tmp_path, capsys):
    path = tmp_path / "report.csv"
    assert main(["report", "adhoc8_ap", "--no-plots", "--models", "normal", "empirical",
                 "-s", "top:20", "--output", str(path)]) == 0
    out = capsys.readouterr().out
    assert "<model>#: rank of the system by that mean (1 = best)" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report-means-ap.csv",
                                                          "report-tau.csv"]
    frame = pd.read_csv(tmp_path / "report-tau.csv", index_col="model")
    means = pd.read_csv(tmp_path / "report-means-ap.csv", index_col="system")
    cube = scorestd.datasets.load("adhoc8_ap")
    top = cube.mean("topic").sel(measure="ap").to_series().nlargest(20).index
    cube = cube.sel(system=[s for s in cube.system.values if s in top])
    raw = scorestd.aggregate(cube).sel(measure="ap").to_series()
    assert means["raw"].to_dict() == pytest.approx(raw.to_dict())
    for model in ("normal", "empirical"):
        standardized = scorestd.aggregate(scorestd.standardize(cube, model), skipna=True)
        want = scorestd.correlation(standardized, scorestd.aggregate(cube), "tau_b")
        assert frame.loc[model, "ap"] == pytest.approx(float(want.sel(measure="ap")))
        mean = standardized.sel(measure="ap").to_series()
        assert means[model].to_dict() == pytest.approx(mean.to_dict())
        assert means[f"{model}#"].to_dict() == mean.rank(ascending=False,
                                                          method="min").to_dict()


def test_bayes_output_writes_each_printed_table(tmp_path, capsys):
    path = tmp_path / "bayes.md"
    assert main(["bayes", "adhoc8_ap", "-s", "top:3", "--chains", "2", "--draws", "100",
                 "--warmup", "100", "--pairs", "2", "--output", str(path)]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "bayes-pairs.md", "bayes-systems.md", "bayes-variance.md"]
    systems = (tmp_path / "bayes-systems.md").read_text()
    assert "mu = " in systems and "prob_best: posterior probability" in systems
    rows = [line.split("|")[1].strip() for line in systems.splitlines()
            if line.startswith("| run")]
    printed = [line.split()[0] for line in out.splitlines() if line.startswith("run")][:3]
    assert rows == printed  # the file lists the systems in the order printed, best first
    assert "| residual" in (tmp_path / "bayes-variance.md").read_text()
    closed = tmp_path / "closed.csv"
    assert main(["bayes", "adhoc8_ap", "-s", "top:3", "--closed-form", "--output",
                 str(closed)]) == 0
    pairs = pd.read_csv(closed)
    assert len(pairs) == 3 and {"prob_greater", "ci_low"} <= set(pairs.columns)


def test_a_selected_slice_is_named_in_the_table_caption(tmp_path):
    base = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    sims = xr.concat([base, base ** 1.5], dim=pd.Index([4, 9], name="trial"))
    scorestd.save(sims, tmp_path / "sims.nc")
    out = tmp_path / "t9.csv"
    md = tmp_path / "t9.md"
    for path in (out, md):
        assert main(["compare", str(tmp_path / "sims.nc"), "--select", "trial=9", "-q",
                     "--output", str(path)]) == 0
    assert "over 50 topics (trial 9);" in md.read_text().splitlines()[0]
    one = sims.sel(trial=9, drop=True)
    want = scorestd.table(scorestd.compare(one, correction="holm"), scores=one)
    got = pd.read_csv(out, index_col="system")
    np.testing.assert_allclose(got["ap"], want.values["ap"])
    assert got["ap_marks"].fillna("").tolist() == want.marks["ap"].tolist()
