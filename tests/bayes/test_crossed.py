"""bayes_crossed: arviz output, derived answers against plain loops, gates, bad input, PyMC."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import scorestd
from scorestd.errors import OptionError, ScoreDataError, ScorestdWarning

RESULTS = Path(__file__).parents[1] / "results"


@pytest.fixture(scope="module")
def ap8(adhoc8_ap):
    return adhoc8_ap.isel(system=slice(0, 8), topic=slice(0, 30))


@pytest.fixture(scope="module")
def fit(ap8):
    return scorestd.bayes_crossed(ap8, chains=3, draws=600, warmup=200, seed=4)


def test_groups_dims_and_attrs(fit, ap8):
    post = fit.posterior
    assert post["system_effect"].dims == ("chain", "draw", "system")
    assert post["topic_effect"].dims == ("chain", "draw", "topic")
    assert post.sizes == {"chain": 3, "draw": 600, "system": 8, "topic": 30}
    assert fit.sample_stats["lp"].dims == ("chain", "draw")
    np.testing.assert_array_equal(fit.observed_data["score"].values,
                                  ap8.sel(measure="ap").transpose("topic", "system").values)
    assert post.attrs["prior_system"].startswith("IG(1, ")
    assert post.attrs["seed"] == "4" and post.attrs["measure"] == "ap"


def test_arviz_accepts_the_output(fit, tmp_path):
    import arviz as az
    import matplotlib.pyplot as plt

    data = fit.to_arviz()
    assert {"posterior", "sample_stats", "observed_data"} <= set(data.groups())
    table = az.summary(data, var_names=["system_effect"])
    assert len(table) == 8 and (table["r_hat"] < 1.01).all()
    rhat = az.rhat(data, var_names=["system_effect"])["system_effect"]
    np.testing.assert_allclose(rhat.values, fit.diagnostics["system_effect_rhat"].values)
    ess = az.ess(data, var_names=["mu"])["mu"]
    assert float(ess) == pytest.approx(float(fit.diagnostics["mu_ess_bulk"]))
    axes = az.plot_forest(data, var_names=["system_effect"], combined=True)
    assert np.ravel(axes)[0].has_data()
    plt.close("all")
    path = tmp_path / "post.nc"
    fit.to_datatree().to_netcdf(path)
    back = xr.open_datatree(path)
    xr.testing.assert_allclose(back["posterior"].to_dataset(), fit.posterior)


def _pooled(fit):
    return fit.posterior["system_effect"].values.reshape(-1, 8)


def test_pairs_against_a_loop_over_pairs(fit):
    res = fit.pairs(rope=0.01, ci_prob=0.9)
    a = _pooled(fit)
    k = 0
    for i in range(8):
        for j in range(i + 1, 8):
            d = a[:, i] - a[:, j]
            row = res.isel(pair=k)
            assert str(row.system.item()) == str(fit.systems[i])
            assert row["mean"].item() == pytest.approx(d.mean())
            assert row.prob_greater.item() == pytest.approx(np.mean(d > 0))
            assert [row.ci_low.item(), row.ci_high.item()] == pytest.approx(
                np.quantile(d, [0.05, 0.95]).tolist())
            assert row.prob_in_rope.item() == pytest.approx(np.mean(np.abs(d) <= 0.01))
            k += 1
    base = fit.pairs(baseline="run3", ci_kind="hdi")
    assert set(base.system2.values) == {"run3"} and base.sizes["pair"] == 7


def test_best_ranks_and_effects_against_loops(fit):
    a = _pooled(fit)
    best = np.bincount(a.argmax(axis=1), minlength=8) / a.shape[0]
    np.testing.assert_allclose(fit.prob_best().values, best)
    ranks = fit.rank_probabilities()
    loop = np.zeros((8, 8))
    for draw in a:
        for rank, s in enumerate(np.argsort(-draw)):
            loop[s, rank] += 1
    np.testing.assert_allclose(ranks.values, loop / a.shape[0])
    np.testing.assert_allclose(ranks.sum("rank"), 1.0)
    np.testing.assert_allclose(ranks.sum("system"), 1.0)
    eff = fit.system_effects()
    np.testing.assert_allclose(eff["mean_rank"], (loop / a.shape[0]) @ np.arange(1, 9))
    assert fit.summary().index[0] == fit.systems[np.argmax(a.mean(axis=0))]


def test_variance_components(fit):
    vc = fit.variance_components(ci_prob=0.8)
    post = fit.posterior
    v = np.stack([post["sigma_system"].values.ravel() ** 2,
                  post["sigma_topic"].values.ravel() ** 2, post["sigma"].values.ravel() ** 2])
    np.testing.assert_allclose(vc["mean"], v.mean(axis=1))
    np.testing.assert_allclose(vc["ci_low"], np.quantile(v, 0.1, axis=1))
    np.testing.assert_allclose(vc["share"].sum(), 1.0)
    assert list(vc.component.values) == ["system", "topic", "residual"]


def test_seed_reproduces_and_fresh_entropy_is_recorded(ap8):
    kwargs = {"chains": 2, "draws": 1000, "warmup": 100, "topic_effects": False,
              "priors": {"system": 0.01, "topic": 0.02}}
    first = scorestd.bayes_crossed(ap8, **kwargs)
    assert "topic_effect" not in first.posterior
    again = scorestd.bayes_crossed(ap8, seed=int(first.posterior.attrs["seed"]), **kwargs)
    xr.testing.assert_identical(first.posterior.drop_attrs(), again.posterior.drop_attrs())


def test_heteroscedastic_student_t_with_missing_cells(ap8):
    y = ap8.copy()
    y[3, 2, 0] = np.nan
    fit = scorestd.bayes_crossed(y, chains=2, draws=1000, warmup=200, seed=2,
                                 errors="student_t", nu=5, heteroscedastic=True)
    assert fit.posterior["sigma"].dims == ("chain", "draw", "system")
    assert fit.posterior.attrs["errors"] == "student_t" and fit.posterior.attrs["nu"] == 5
    assert np.isnan(fit.observed_data["score"].values[3, 2])


def test_non_convergence_is_a_warning_naming_the_parameters(ap8):
    with pytest.warns(ScorestdWarning, match=r"not converged .*system_effect\[run\d+\] "
                                             r"\(R-hat"):
        scorestd.bayes_crossed(ap8, chains=2, draws=30, warmup=5, seed=1)


def test_bimodal_student_t_heteroscedastic_fit_says_what_to_do(adhoc8_ap):
    # 25 topics × 8 systems: the chains stay in two modes (σ_topic R-hat ≈ 1.5 at 4 ×
    # (1,000 + 2,000), PyMC's NUTS alike: tests/results/bayes_pymc_crossed.py)
    ap = adhoc8_ap.isel(system=slice(0, 8), topic=slice(0, 25))
    with pytest.warns(ScorestdWarning, match=r"two modes.*fit with one of the two options"):
        fit = scorestd.bayes_crossed(ap, chains=4, draws=500, warmup=200, seed=1,
                                     errors="student_t", heteroscedastic=True)
    assert float(fit.diagnostics["sigma_topic_rhat"]) > 1.1
    with warnings.catch_warnings():  # either option alone: no hint
        warnings.simplefilter("error", ScorestdWarning)
        scorestd.bayes_crossed(ap, chains=4, draws=1000, warmup=300, seed=1,
                               errors="student_t")


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"priors": {"systems": (1, 1)}}, OptionError, "unknown key"),
    ({"priors": {"system": (-1, 1)}}, OptionError, r"priors\['system'\] shape must be"),
    ({"priors": {"residual": 0.1}}, OptionError, r"priors\['residual'\] must be a pair"),
    ({"priors": {"topic": 0.0}}, OptionError, r"priors\['topic'\] must be a finite"),
    ({"priors": {"mu": (0.3, 0)}}, OptionError, r"priors\['mu'\] sd must be"),
    ({"errors": "cauchy"}, OptionError, "errors must be one of"),
    ({"errors": "student_t", "nu": -2}, OptionError, "nu must be a finite number > 0"),
    ({"draws": 0}, OptionError, "draws must be an integer"),
    ({"warmup": -1}, OptionError, "warmup must be an integer"),
    ({"measure": "p10"}, ScoreDataError, r"unknown measure 'p10'; the measures of the "
                                         r"scores: \['ap'\]"),
])
def test_bad_options_are_named(ap8, kwargs, error, message):
    with pytest.raises(error, match=message):
        scorestd.bayes_crossed(ap8, **kwargs)


def test_measure_is_named_regardless_of_case(ap8):
    # as everywhere else in the package (measures.find_measure): "AP" is the cube's "ap"
    small = ap8.isel(topic=slice(0, 10), system=slice(0, 4))
    options = {"chains": 2, "draws": 50, "warmup": 20, "seed": 3}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)  # (too few draws to converge)
        upper = scorestd.bayes_crossed(small, measure="AP", **options)
        lower = scorestd.bayes_crossed(small, measure="ap", **options)
    xr.testing.assert_identical(upper.posterior, lower.posterior)
    assert upper.posterior.attrs["measure"] == "ap"
    twins = xr.concat([small, small.assign_coords(measure=["AP"])], "measure")
    with pytest.raises(ScoreDataError, match="differ only by case"):
        scorestd.bayes_crossed(twins, measure="ap", **options)


def test_bad_scores_are_named(small_cube, ap8):
    with pytest.raises(ScoreDataError, match="several measures"):
        scorestd.bayes_crossed(small_cube)
    with pytest.raises(ScoreDataError, match="system 'run2' has no score"):
        scorestd.bayes_crossed(ap8.where(ap8.system != "run2"))
    with pytest.raises(ScoreDataError, match="at least 2 topics"):
        scorestd.bayes_crossed(ap8.isel(topic=[0]))


def test_agrees_with_pymc_on_the_same_specification(adhoc8_ap):
    # Reference: tests/results/bayes_pymc_crossed.py (PyMC NUTS, same data, model, priors)
    ref = pd.read_csv(RESULTS / "bayes_pymc_crossed.csv")
    data = adhoc8_ap.isel(topic=slice(0, 25), system=slice(0, 8)).copy()
    runs = {"normal": {}, "student_t": {"errors": "student_t", "nu": 4.0}}
    missing = [(0, 1), (3, 2), (5, 5), (7, 0), (10, 7), (12, 3), (15, 4), (18, 6), (20, 1),
               (24, 2)]
    for spec, options in runs.items():
        y = data.copy()
        if spec == "student_t":
            for t, s in missing:
                y[t, s, 0] = np.nan
        fit = scorestd.bayes_crossed(y, chains=4, draws=1500, warmup=300, seed=1, **options)
        a = fit.posterior["system_effect"].values.reshape(-1, 8)
        ours = {f"diff_run{s + 1}": a[:, s] - a[:, 0] for s in range(1, 8)}
        ours["sigma_system"] = fit.posterior["sigma_system"].values.ravel()
        ours["sigma_topic"] = fit.posterior["sigma_topic"].values.ravel()
        ours["sigma"] = fit.posterior["sigma"].values.ravel()
        rows = ref[ref.spec == spec].set_index("parameter")
        assert set(rows.index) == set(ours)
        for name, draws in ours.items():
            r = rows.loc[name]
            # Monte Carlo errors of both means (ESS ≈ draws for ours is generous: use half)
            se = np.sqrt(r["sd"] ** 2 / r["ess_bulk"] + draws.var() / (draws.size / 2))
            assert abs(draws.mean() - r["mean"]) < 5 * se, (spec, name)
            assert draws.std() == pytest.approx(r["sd"], rel=0.12), (spec, name)


def test_progress_bar_counts_every_iteration(ap8, capsys):
    scorestd.bayes_crossed(ap8, chains=2, draws=400, warmup=100, thin=2, seed=3, progress=True,
                           priors={"system": 0.01, "topic": 0.02})
    err = capsys.readouterr().err
    assert "bayes_crossed" in err and "1800/1800" in err  # 2 chains × (100 + 400 × 2)
