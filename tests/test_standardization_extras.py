"""Factors files, goodness_of_fit, the report, the CLI and the Figure-1 plots."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import scorestd
from scorestd.cli import main
from scorestd.errors import ScoreDataError, ScorestdError
from scorestd.plots.report import standardization_report

# --- the paper's Figure 1 ------------------------------------------------------------------


def test_figure1_numbers_of_the_paper(robust2004):
    """Urbano, Lima & Hanjalic (2019), §2, on the robust2004 AP scores of Figure 1."""
    ap = robust2004.sel(measure="ap")
    n = scorestd.standardize(ap, "normal").values
    mean, sd = n.mean(axis=1), n.std(axis=1, ddof=1)
    # Paper: N-std per-topic means "range between 0.45 and 0.55", sds "between 0.14 and 0.31".
    assert 0.43 < mean.min() < 0.46 and 0.54 < mean.max() < 0.56
    assert sd.min() == pytest.approx(0.14, abs=0.005) and sd.max() == pytest.approx(0.31, abs=0.005)
    u = scorestd.standardize(ap, "uniform").values
    # Paper: U-std keeps means at B = 0.5 and sds at A = 0.15 "with slight deviations if
    # censoring is needed".
    assert np.abs(u.mean(axis=1) - 0.5).max() < 0.01
    assert u.std(axis=1, ddof=1).max() == pytest.approx(0.15, abs=1e-9)
    e = scorestd.standardize(ap, "empirical").values
    # Paper: E-std gives nearly constant mean 0.5 and sd sqrt(1/12).
    assert np.abs(e.mean(axis=1) - 0.5).max() < 0.015
    assert np.abs(e.std(axis=1, ddof=1) - np.sqrt(1 / 12)).max() < 0.01


# --- factors -------------------------------------------------------------------------------


def test_factors_round_trip_and_layout(robust2004, tmp_path):
    means, sds = scorestd.write_factors(robust2004, tmp_path / "m.csv", tmp_path / "s.csv")
    frame = pd.read_csv(means, index_col=0)
    assert frame.columns.tolist() == ["ap", "ndcg"] and frame.index[0] == "t01"
    # Reference: pandas on the raw matrix.
    want = robust2004.sel(measure="ndcg").to_pandas().mean(axis=1)
    np.testing.assert_allclose(frame["ndcg"].to_numpy(), want.to_numpy(), rtol=1e-15)
    sd = pd.read_csv(sds, index_col=0)["ap"]
    np.testing.assert_allclose(sd, robust2004.sel(measure="ap").to_pandas().std(axis=1, ddof=1))
    factors = scorestd.read_factors(means, sds)
    for model in ["normal", "uniform", "z"]:
        np.testing.assert_array_equal(
            scorestd.standardize(robust2004, model, reference=factors).values,
            scorestd.standardize(robust2004, model).values)


def test_factors_apply_to_new_runs(robust2004, tmp_path):
    old, new = robust2004.isel(system=slice(0, 80)), robust2004.isel(system=slice(80, None))
    scorestd.write_factors(old, tmp_path / "m.csv", tmp_path / "s.csv")
    y = scorestd.standardize(new, "normal",
                             reference=scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv"))
    x = new.sel(topic="t10", system="run90", measure="ap").item()
    r = old.sel(topic="t10", measure="ap").values
    assert y.sel(topic="t10", system="run90", measure="ap").item() == pytest.approx(
        stats.norm.cdf(x, r.mean(), r.std(ddof=1)))


def test_degenerate_topic_factors_are_zero_and_one(tmp_path):
    p10 = scorestd.datasets.load("adhoc5_p10")
    with pytest.warns(scorestd.ScorestdWarning):
        f = scorestd.standardization_factors(p10)
    assert float(f["mean"].sel(topic="t17")[0]) == 0 and float(f["sd"].sel(topic="t17")[0]) == 1
    scorestd.write_factors(f, tmp_path / "m.csv", tmp_path / "s.csv")
    back = scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    y = scorestd.standardize(p10, "z", reference=back)
    np.testing.assert_array_equal(y.sel(topic="t17").values, p10.sel(topic="t17").values)


def test_bad_factor_files(tmp_path):
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n402,zero\n")
    (tmp_path / "s.csv").write_text("topic,ap\n401,0.1\n402,0.1\n")
    with pytest.raises(ScoreDataError, match=r"m.csv, line 3: 'zero' is not a number.*'402'"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n403,0.3\n")
    with pytest.raises(ScoreDataError, match=r"different topics: \['402', '403'\]"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n402,0.3\n")
    (tmp_path / "s.csv").write_text("topic,ap\n401,0.1\n402,-0.1\n")
    with pytest.raises(ScoreDataError, match=r"s.csv, line 3: negative.*'402'"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")


def test_factors_missing_a_measure(robust2004, tmp_path):
    scorestd.write_factors(robust2004.sel(measure=["ap"]), tmp_path / "m.csv", tmp_path / "s.csv")
    f = scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    with pytest.raises(ScoreDataError, match="has no measure 'ndcg'"):
        scorestd.standardize(robust2004, "normal", reference=f)
    with pytest.raises(ScoreDataError, match=r"needs parameters"):
        scorestd.standardize(robust2004.sel(measure=["ap"]), "beta", reference=f)


# --- goodness_of_fit ------------------------------------------------------------------------


def test_goodness_of_fit_against_scipy(adhoc8_ap):
    c = scorestd.goodness_of_fit(adhoc8_ap, ["normal", "beta"])
    x = adhoc8_ap.sel(topic="t04", measure="ap").values
    mu, sd = x.mean(), x.std(ddof=1)
    # Reference: scipy's one-sample KS statistic against the same fitted normal.
    ks = stats.kstest(x, stats.norm(mu, sd).cdf).statistic
    assert float(c.data["distance"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(ks, abs=1e-12)
    n = x.size
    squeezed = (x * (n - 1) + 0.5) / n
    ll = stats.norm.logpdf(squeezed, mu, sd).sum()
    assert float(c.data["loglik"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(ll)
    assert float(c.data["aic"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(4 - 2 * ll)
    cvm = scorestd.goodness_of_fit(adhoc8_ap, ["normal"], distance="cvm")
    # Reference: scipy's Cramér–von Mises statistic.
    want = stats.cramervonmises(x, stats.norm(mu, sd).cdf).statistic
    assert float(cvm.data["distance"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(want)
    wins = c.wins("aic").sel(measure="ap")
    assert int(wins.sum()) == adhoc8_ap.sizes["topic"]
    summary = c.summary()
    assert summary.loc[("beta", "ap"), "wins_aic"] == int(wins.sel(model="beta"))


def test_goodness_of_fit_rejects_the_z_score_and_bad_distance(adhoc8_ap):
    with pytest.raises(ScorestdError, match="'z' is not a cdf"):
        scorestd.goodness_of_fit(adhoc8_ap, ["normal", "z"])
    with pytest.raises(ValueError, match="distance must be one of 'ks', 'cvm'"):
        scorestd.goodness_of_fit(adhoc8_ap, ["normal"], distance="ad")


# --- report and CLI ------------------------------------------------------------------------


def test_report_means_ranks_and_tau(adhoc8_ap):
    r = standardization_report(adhoc8_ap, ["normal", "empirical"])
    table = r.tables["ap"]
    e = scorestd.standardize(adhoc8_ap, "empirical").sel(measure="ap")
    assert table.loc["run5", "empirical"] == pytest.approx(float(e.sel(system="run5").mean()))
    raw = adhoc8_ap.sel(measure="ap").mean("topic").to_pandas()
    assert table.index[0] == raw.idxmax() and table["raw#"].iloc[0] == 1
    # Reference: scipy's tau_b between the two vectors of system means.
    tau = stats.kendalltau(table["normal"], table["raw"]).statistic
    assert r.tau.loc["normal", "ap"] == pytest.approx(tau)


def test_cli_report_default_is_robust2004_ap(tmp_path, capsys):
    assert main(["report", "--out", str(tmp_path / "rep"), "--models", "normal", "empirical",
                 "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "robust2004_ap, ap: 99 topics, 110 systems" in out
    assert "Kendall tau_b" in out
    # run74 has the best raw mean AP of the robust2004 data.
    first_row = next(line for line in out.splitlines() if line.startswith("run"))
    assert first_row.split()[0] == "run74"
    assert (tmp_path / "rep" / "figure1_ap.png").stat().st_size > 10_000
    assert (tmp_path / "rep" / "mappings_ap.png").exists()


def test_cli_standardize_writes_and_reads_back(tmp_path, capsys):
    out = tmp_path / "e.nc"
    assert main(["standardize", "adhoc8_ap", str(out), "--model", "uniform",
                 "--reference", "adhoc8_ap"]) == 0
    back = scorestd.load(out)
    np.testing.assert_allclose(back.values,
                               scorestd.standardize(scorestd.datasets.load("adhoc8_ap"),
                                                    "uniform").values)
    assert "uniform standardization of 50 topics" in capsys.readouterr().out


def test_cli_standardize_with_factors(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap")
    scorestd.write_factors(ap, tmp_path / "m.csv", tmp_path / "s.csv")
    assert main(["standardize", "adhoc8_ap", str(tmp_path / "n.csv"), "--model", "normal",
                 "--factors", str(tmp_path / "m.csv"), str(tmp_path / "s.csv")]) == 0
    back = scorestd.load(tmp_path / "n.csv")
    np.testing.assert_allclose(back.values, scorestd.standardize(ap, "normal").values)


def test_cli_saves_a_fitted_reference_and_standardizes_new_runs_against_it(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap")
    reference, new_runs = ap.isel(system=slice(0, 60)), ap.isel(system=slice(60, None))
    scorestd.save(reference, tmp_path / "reference.nc")
    scorestd.save(new_runs, tmp_path / "new.nc")
    assert main(["standardize", str(tmp_path / "reference.nc"), str(tmp_path / "r.nc"),
                 "--model", "kde", "--save-fitted", str(tmp_path / "fitted.nc")]) == 0
    assert "the fitted kde model" in capsys.readouterr().out
    assert main(["standardize", str(tmp_path / "new.nc"), str(tmp_path / "y.nc"),
                 "--fitted", str(tmp_path / "fitted.nc")]) == 0
    assert "kde standardization of 50 topics, 69 systems" in capsys.readouterr().out
    expected = scorestd.standardize(new_runs, "kde", reference=reference)
    np.testing.assert_allclose(scorestd.load(tmp_path / "y.nc").values, expected.values,
                               rtol=1e-12)
    with pytest.raises(SystemExit):  # one source of the reference at a time
        main(["standardize", "adhoc8_ap", str(tmp_path / "o.nc"), "--reference", "adhoc8_ap",
              "--fitted", str(tmp_path / "fitted.nc")])


def test_cli_errors_name_the_problem(tmp_path, capsys):
    ref = tmp_path / "ref.csv"
    scorestd.save(scorestd.datasets.load("adhoc8_ap").isel(topic=slice(0, 10)), ref)
    assert main(["standardize", "adhoc8_ap", str(tmp_path / "o.nc"), "--reference",
                 str(ref)]) == 1
    assert "has no topic 't11'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["standardize", "adhoc8_ap", str(tmp_path / "o.nc"), "--model", "gamma"])


# --- plots ---------------------------------------------------------------------------------


def test_mapping_plot_draws_the_fitted_cdf(adhoc8_ap):
    ax = scorestd.plot_mapping(adhoc8_ap, "normal")
    segments = ax.collections[0].get_segments()
    assert len(segments) == adhoc8_ap.sizes["topic"]
    x, y = segments[0][:, 0], segments[0][:, 1]
    r = adhoc8_ap.isel(topic=0, measure=0).values
    np.testing.assert_allclose(y, stats.norm.cdf(x, r.mean(), r.std(ddof=1)))
    points = ax.collections[1].get_offsets()
    assert len(points) == adhoc8_ap.sizes["topic"] * adhoc8_ap.sizes["system"]


def test_distribution_plot_orders_topics_by_mean_raw_score(adhoc8_ap):
    ax = scorestd.plot_topic_distributions(adhoc8_ap)
    means = ax.collections[-1].get_offsets()[:, 1]
    assert (np.diff(means) >= 0).all()
    np.testing.assert_allclose(np.sort(means), np.sort(adhoc8_ap.mean("system").values[:, 0]))


def test_figure1_plot_shares_the_topic_order(robust2004):
    fig = scorestd.plot_standardization(robust2004, measure="ndcg")
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["normal", "uniform", "empirical", "raw", "normal", "uniform", "empirical"]
    raw_means = fig.axes[3].collections[-1].get_offsets()[:, 1]
    assert (np.diff(raw_means) >= 0).all()
    with pytest.raises(ScoreDataError, match="unknown measure 'p10'"):
        scorestd.plot_standardization(robust2004, measure="p10")
