"""Comparison of likelihoods (PSIS-LOO through arviz), posterior predictive checks and the
simulation-based calibration of every sampler."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy import stats

import scorestd
from scorestd.bayes import simulation_based_calibration
from scorestd.errors import OptionError

QUIET = pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")


@pytest.fixture(scope="module")
def fits():
    ap = scorestd.datasets.load("robust2004").sel(measure="ap").isel(
        system=slice(0, 6), topic=slice(0, 40))
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scorestd.ScorestdWarning)
        return {lk: scorestd.bayes_crossed(ap, likelihood=lk, chains=2, draws=600,
                                           warmup=200, seed=3, progress=False)
                for lk in ("normal", "censored", "hurdle")}


def test_arviz_object_carries_log_likelihood_and_predictive_groups(fits):
    import arviz

    fit = fits["hurdle"]
    data = fit.to_arviz(predictive=True, memory="2MiB")
    keep = fit.predictive_subset("2MiB")
    assert 8 * keep.size * 2 * 40 * 6 <= 2**21 < 8 * (keep.size + 1) * 2 * 40 * 6 + 1
    assert data["log_likelihood"]["score"].shape == (2, keep.size, 40, 6)
    assert data["posterior_predictive"]["score"].shape == (2, keep.size, 40, 6)
    assert data["posterior"]["mu"].shape == (2, keep.size)
    # arviz's own LOO on it agrees with ours (same draws and cells; the relative ESS
    # that PSIS uses comes from all posterior variables there, from mu and the scores here)
    ours = scorestd.bayes.comparison.loo(fit, memory="2MiB")
    theirs = arviz.loo(data)
    assert float(ours.elpd_loo) == pytest.approx(float(theirs.elpd_loo), rel=2e-3)
    # elpd_loo is close to the sum of log pointwise predictive densities (lppd - p_loo)
    ll = data["log_likelihood"]["score"].values.reshape(-1, 240)
    lppd = float(np.sum(np.log(np.mean(np.exp(ll), axis=0))))
    assert float(ours.elpd_loo) == pytest.approx(lppd - float(ours.p_loo), rel=1e-9)


@pytest.mark.filterwarnings("ignore:Estimated shape parameter:UserWarning")
@pytest.mark.parametrize("likelihood", ["normal", "censored", "hurdle"])
def test_vectorised_psis_loo_equals_arviz_loo_on_the_same_data(fits, likelihood):
    import arviz

    from scorestd.bayes.comparison import _loo_data, _pointwise_loo

    if int(arviz.__version__.split(".")[0]) >= 1:  # (arviz's own loo is called there)
        pytest.skip("the vectorised PSIS serves arviz 0.x")
    fit = fits[likelihood]
    ours = _pointwise_loo(fit, "2MiB", "all").elpd
    data, _ = _loo_data(fit, "2MiB", "all")
    theirs = arviz.loo(data, pointwise=True)
    for key in ("elpd_loo", "se", "p_loo"):
        assert float(ours[key]) == pytest.approx(float(theirs[key]), rel=1e-10), key
    for key in ("n_samples", "n_data_points", "warning", "scale", "good_k"):
        assert ours[key] == theirs[key], key
    np.testing.assert_allclose(ours["loo_i"].values, theirs["loo_i"].values, rtol=1e-10)
    np.testing.assert_allclose(ours["pareto_k"].values, theirs["pareto_k"].values,
                               rtol=1e-10, atol=1e-12)
    assert ours["loo_i"].dims == theirs["loo_i"].dims


@QUIET
def test_compare_likelihoods_reports_rank_agreement_and_changed_decisions(fits):
    res = scorestd.compare_likelihoods(fits)
    assert set(res.table.index) == set(fits) and res.best == res.table.index[0]
    assert (res.table["pareto_k_max"] >= 0).all()
    # Kendall's τ_b between the rankings by expected score, recomputed with scipy
    scores = {lk: f.posterior["system_score"].mean(("chain", "draw")).values
              for lk, f in fits.items()}
    for a in fits:
        for b in fits:
            ref = stats.kendalltau(scores[a], scores[b]).statistic
            assert res.rank_agreement.loc[a, b] == pytest.approx(ref)
    # a changed decision is decided (0.95) under one likelihood but not under another
    for _, row in res.decisions.iterrows():
        p = row[list(fits)].to_numpy(float)
        decided = (p >= 0.95) | (p <= 0.05)
        assert decided.any() and not decided.all()
    assert res.systems[("hurdle", "prob_best")].sum() == pytest.approx(1.0)


def test_compare_likelihoods_warns_where_densities_meet_probabilities(fits):
    y = fits["normal"].observed_data["score"].values
    assert np.any(y == 0.0)
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scorestd.compare_likelihoods(fits, cells="all")
    assert any("density and the others a probability" in str(w.message) for w in caught)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        cont = scorestd.compare_likelihoods(
            {k: v for k, v in fits.items() if k != "hurdle"}, cells="continuous")
    assert not any("probability" in str(w.message) for w in caught)
    n = int(np.sum((y > 0) & (y < 1)))
    loo = scorestd.bayes.comparison.loo(fits["normal"], cells="continuous")
    assert int(loo.n_data_points) == n and len(cont.table) == 2


@QUIET
def test_continuous_scores_comparison_from_one_loo_pass_equals_a_second_pass(fits):
    # PSIS smooths each score's weights on its own: the terms of the scores inside (0, 1)
    # taken from the LOO on all scores are those of a LOO on them alone
    res = scorestd.compare_likelihoods(fits, cells="all")
    one = res.on_continuous_scores()
    two = scorestd.compare_likelihoods(fits, cells="continuous")
    assert one.cells == two.cells == "continuous"
    numbers = ["elpd_loo", "p_loo", "elpd_diff", "weight", "se", "dse", "pareto_k_max"]
    pd.testing.assert_frame_equal(one.table[numbers], two.table[numbers], check_exact=False,
                                  rtol=1e-10, atol=1e-12)
    for name in ("rank", "pareto_k_bad", "warning"):
        assert one.table[name].tolist() == two.table[name].tolist(), name
    y = fits["normal"].observed_data["score"].values
    assert np.sum(y == 0) > 0  # (the subset is a proper one)
    pd.testing.assert_frame_equal(one.systems, res.systems)
    assert one.on_continuous_scores() is one


def test_compare_likelihoods_in_processes_equals_the_sequential_run():
    # each fit draws from the same root seed in its own process: the same fits, LOO and
    # answers as one after another here, and the fits' warnings raised here, in order
    import warnings

    ap = scorestd.datasets.load("robust2004").sel(measure="ap").isel(
        system=slice(0, 5), topic=slice(0, 30))
    runs, said = {}, {}
    for workers in (1, 2):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            runs[workers] = scorestd.compare_likelihoods(
                ap, ["hurdle", "normal", "censored"], chains=2, draws=150, warmup=50,
                seed=7, workers=workers, progress=False)
        said[workers] = [str(w.message) for w in caught
                         if issubclass(w.category, scorestd.ScorestdWarning)]
    one, two = runs[1], runs[2]
    assert list(two.fits) == ["hurdle", "normal", "censored"]
    for name in one.fits:
        xr.testing.assert_identical(one.fits[name].posterior, two.fits[name].posterior)
    pd.testing.assert_frame_equal(one.table, two.table)
    pd.testing.assert_frame_equal(one.systems, two.systems)
    pd.testing.assert_frame_equal(one.decisions, two.decisions)
    # 150 draws: the convergence gate speaks, from the worker processes too
    assert any("have not converged" in m for m in said[2]) and said[1] == said[2]
    # and the given fits' LOO in processes: the same table
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scorestd.ScorestdWarning)
        again = scorestd.compare_likelihoods(one.fits, workers=2)
        pd.testing.assert_frame_equal(again.table, one.table)
        # a fit in the comparison is the fit alone with that seed
        alone = scorestd.bayes_crossed(ap, likelihood="censored", chains=2, draws=150,
                                       warmup=50, seed=7, progress=False)
    np.testing.assert_array_equal(alone.posterior["mu"], two.fits["censored"].posterior["mu"])
    with pytest.raises(OptionError, match="workers"):
        scorestd.compare_likelihoods(ap, workers=0)


def test_compare_likelihoods_refuses_mismatched_fits(fits):
    with pytest.raises(OptionError, match="at least 2 fits"):
        scorestd.compare_likelihoods({"normal": fits["normal"]})
    with pytest.raises(OptionError, match="not a fit of bayes_crossed"):
        scorestd.compare_likelihoods({"a": fits["normal"], "b": 3})
    with pytest.raises(OptionError, match="cells must be one of"):
        scorestd.compare_likelihoods(fits, cells="some")


def test_predictive_checks_against_direct_computation(fits):
    y = fits["normal"].observed_data["score"].values
    normal = fits["normal"].predictive_checks()
    hurdle = fits["hurdle"].predictive_checks()
    for checks in (normal, hurdle):
        ov = checks.overall
        assert ov.loc["share_zero", "observed"] == pytest.approx(np.mean(y == 0))
        assert ov.loc["mean", "observed"] == pytest.approx(y.mean())
        assert ov.loc["sd", "observed"] == pytest.approx(y.std(ddof=1))
        np.testing.assert_allclose(checks.systems["observed_mean"], y.mean(axis=0))
        np.testing.assert_allclose(checks.topics["observed_mean"], y.mean(axis=1))
    # the normal likelihood replicates negative scores and no zeros; the hurdle neither
    assert normal.overall.loc["share_below_0", "replicated"] > 0.01
    assert normal.overall.loc["share_zero", "replicated"] == 0
    assert hurdle.overall.loc["share_below_0", "replicated"] == 0
    assert hurdle.overall.loc["share_zero", "replicated"] > 0
    rep = fits["censored"].posterior_predictive(np.arange(5))["score"].values
    assert rep.min() >= 0 and rep.max() <= 1 and np.mean(rep == 0) > 0


def test_figures(fits, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    axes = scorestd.plot_predictive_checks(fits["hurdle"], path=tmp_path / "ppc.png")
    assert len(axes) == 4 and (tmp_path / "ppc.png").stat().st_size > 0
    ax = scorestd.plot_system_differences(fits["censored"], reference="run1",
                                          path=tmp_path / "d.png")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert "run1" not in labels and len(labels) == 5
    with pytest.raises(scorestd.ScoreDataError, match="reference 'nope'"):
        scorestd.plot_system_differences(fits["censored"], reference="nope")
    ax = scorestd.plot_system_effects(fits["normal"])
    assert "relative to μ" in ax.get_xlabel() and "not of differences" in ax.get_xlabel()
    # a bounded likelihood's forest plot shows what it compares systems by, the expected
    # scores, labelled so (not as effects around 0)
    ax = scorestd.plot_system_effects(fits["hurdle"])
    label = ax.get_xlabel()
    assert "expected score" in label and "hurdle" in label and "μ" not in label
    assert ax.get_title().startswith("Expected scores")
    points = np.sort(ax.lines[0].get_xdata())
    want = np.sort(fits["hurdle"].posterior["system_score"].mean(("chain", "draw")).values)
    np.testing.assert_allclose(points, want, rtol=1e-12)
    assert not any(line.get_linestyle() == "--" for line in ax.lines)  # (no 0 line)


@pytest.mark.parametrize("options", [
    {"likelihood": "normal"}, {"likelihood": "censored"}, {"likelihood": "hurdle"},
    {"errors": "student_t"}, {"heteroscedastic": True}])
def test_simulation_based_calibration_ranks_are_uniform(options):
    # small: detects a wrong conditional (a biased or over/under-dispersed posterior shows
    # as p-values near 0 at any size), not subtle errors; the larger run is in benchmarks/
    res = simulation_based_calibration(simulations=60, n_topics=6, n_systems=3, draws=19,
                                       thin=3, warmup=100, bins=4, seed=2026, **options)
    assert res.ranks.shape[0] == 60 and res.ranks.values.max() <= 19
    assert (res.tests["chi2_p"] > 0.001).all(), res.tests
    assert (res.tests["ks_p"] > 0.001).all(), res.tests


def test_a_wrong_sampler_fails_calibration(monkeypatch):
    # the check has power: a sampler whose residual variance is drawn too small fails
    from scorestd.bayes import calibration, gibbs

    def biased(prior, ss, gamma):
        return 0.6 * (prior.scale + 0.5 * ss) / gamma if prior.fixed is None else prior.fixed

    monkeypatch.setattr(gibbs, "_ig", biased)
    res = calibration.simulation_based_calibration(simulations=60, n_topics=6, n_systems=3,
                                                   draws=19, thin=3, warmup=100, bins=4,
                                                   seed=2026)
    assert res.tests.loc["var_residual", "chi2_p"] < 1e-4


def test_undefined_loo_terms_are_named_by_fit():
    # a fit whose smoothing left a score without weights (its LOO term NaN) is named with
    # the count, beside the usual Pareto-k warning; a fit without either is not named
    from types import SimpleNamespace

    from scorestd.bayes.comparison import _warn_pareto

    loos = {"hurdle": SimpleNamespace(pareto_k=np.array([0.2, 0.33, 0.9]),
                                      loo_i=np.array([1.0, np.nan, 2.0])),
            "normal": SimpleNamespace(pareto_k=np.array([0.1, 0.2, 0.3]),
                                      loo_i=np.array([1.0, 1.5, 2.0]))}
    with pytest.warns(scorestd.ScorestdWarning) as caught:
        _warn_pareto(loos)
    text = [str(w.message) for w in caught]
    assert any("Pareto k > 0.7: hurdle: 1 of 3 (max k 0.90)" in t for t in text)
    undefined = [t for t in text if "undefined (NaN)" in t]
    assert len(undefined) == 1 and "hurdle: 1 of 3" in undefined[0]
    assert "normal" not in " ".join(text)
