"""The bounded likelihoods of the crossed model: log densities against scipy, expected scores
against numerical integration, recovery of simulated parameters, LOO choosing the model
that simulated the data, and the normal model's draws unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats

import scorestd
from scorestd.bayes import bounded, gibbs
from scorestd.bayes.likelihoods import (
    QUADRATURE_TOLERANCE,
    hermite_nodes,
    logit_normal_mean,
    pointwise_log_likelihood,
    system_scores,
)
from scorestd.errors import OptionError, ScoreDataError
from scorestd.kernels import bounded_gibbs, normal_stream

RESULTS = Path(__file__).parents[1] / "results" / "bayes"
#: The compiled truncated normals of the bounded samplers, over arrays.
truncated_normal = np.vectorize(bounded_gibbs.truncated_normal, otypes=[float])
upper_truncated_normal = np.vectorize(bounded_gibbs.upper_truncated_normal, otypes=[float])
QUIET = pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")


def _cube(y: np.ndarray, measure: str = "ap") -> xr.DataArray:
    t, s = y.shape
    return xr.DataArray(y[:, :, None], dims=("topic", "system", "measure"),
                        coords={"topic": [f"t{i}" for i in range(t)],
                                "system": [f"s{j}" for j in range(s)],
                                "measure": [measure]})


def _simulate(kind: str, rng: np.random.Generator, n_t: int = 40, n_s: int = 5):
    alpha = np.linspace(-0.1, 0.1, n_s) if kind != "hurdle" else np.linspace(-0.5, 0.5, n_s)
    if kind == "hurdle":
        mu, st_, se = -0.6, 0.6, 0.5
    else:
        mu, st_, se = 0.15, 0.1, 0.12
    beta = rng.normal(0, st_, n_t)
    x = mu + alpha[None, :] + beta[:, None] + rng.normal(0, se, (n_t, n_s))
    truth = {"mu": mu, "alpha": alpha, "sigma_topic": st_, "sigma": se}
    if kind == "censored":
        return np.clip(x, 0.0, 1.0), truth
    y = special.expit(x)
    zeta, gamma = -1.2, np.linspace(0.4, -0.4, n_s)
    eta0 = zeta + gamma[None, :] + rng.normal(0, 0.3, (n_t, 1))
    y = np.where(rng.standard_normal((n_t, n_s)) < eta0, 0.0, y)
    truth.update(zero_mu=zeta, zero_alpha=gamma)
    return y, truth


# -- log densities and expected scores against independent computations ----------------

@QUIET
@pytest.mark.parametrize("likelihood", ["normal", "student_t", "censored", "hurdle"])
def test_pointwise_log_likelihood_matches_scipy(likelihood):
    rng = np.random.default_rng(3)
    y, _ = _simulate("hurdle" if likelihood == "hurdle" else "censored", rng, 12, 4)
    y[0, 0], y[1, 1] = 0.0, 1.0  # a zero and a one in every case
    if likelihood == "normal" or likelihood == "student_t":
        y[1, 1] = 0.97
    opts = {"errors": "student_t", "nu": 5.0} if likelihood == "student_t" else {
        "likelihood": likelihood}
    fit = scorestd.bayes_crossed(_cube(y), chains=1, draws=30, warmup=20, seed=1,
                                 progress=False, **opts)
    ll = fit.log_likelihood()["score"].values[0]  # (draw, T, S)
    post = fit.posterior.isel(chain=0)
    for d in (0, 17, 29):
        for t, s in [(0, 0), (1, 1), (5, 2), (11, 3)]:
            mu = float(post["mu"][d])
            eta = mu + float(post["system_effect"][d, s]) + float(post["topic_effect"][d, t])
            sd = float(post["sigma"][d])
            v = y[t, s]
            if likelihood == "normal":
                ref = stats.norm.logpdf(v, eta, sd)
            elif likelihood == "student_t":
                ref = stats.t.logpdf(v, 5.0, eta, sd)
            elif likelihood == "censored":
                ref = (stats.norm.logcdf(0.0, eta, sd) if v == 0 else
                       stats.norm.logsf(1.0, eta, sd) if v == 1 else
                       stats.norm.logpdf(v, eta, sd))
            else:
                eta0 = (float(post["zero_mu"][d]) + float(post["zero_system_effect"][d, s])
                        + float(post["zero_topic_effect"][d, t]))
                p0, p1 = stats.norm.cdf(eta0), float(post["one_prob"][d])
                # density of y = expit(x), x ~ N(eta, sd): the logit's density / (y (1 - y))
                ref = (np.log(p0) if v == 0 else
                       np.log1p(-p0) + np.log(p1) if v == 1 else
                       np.log1p(-p0) + np.log1p(-p1)
                       + stats.norm.logpdf(special.logit(v), eta, sd) - np.log(v * (1 - v)))
            assert ll[d, t, s] == pytest.approx(ref, rel=1e-9, abs=1e-12)


def test_hurdle_density_integrates_to_one():
    # the score-scale density of one cell: P(0) + P(1) + ∫ density over (0, 1) = 1
    p = {"mu": np.array([-0.3]), "alpha": np.array([[0.2]]), "beta": np.array([[0.1]]),
         "sigma": np.array([0.8]), "sigma_topic": np.array([0.5]),
         "zero_mu": np.array([-1.0]), "zero_alpha": np.array([[0.3]]),
         "zero_beta": np.array([[-0.2]]), "zero_sigma_topic": np.array([0.4]),
         "one_prob": np.array([0.05])}

    def density(v):
        return float(np.exp(pointwise_log_likelihood("hurdle", p, np.array([[v]]))[0, 0, 0]))

    inside = integrate.quad(density, 0.0, 1.0, limit=200)[0]
    assert density(0.0) + density(1.0) + inside == pytest.approx(1.0, abs=1e-8)


def test_system_scores_match_numerical_integration():
    rng = np.random.default_rng(0)
    p = {"mu": np.array([0.2, -0.5]), "alpha": rng.normal(0, 0.3, (2, 3)),
         "sigma": np.array([0.15, 0.6]), "sigma_topic": np.array([0.1, 0.7]),
         "zero_mu": np.array([-1.0, -0.5]), "zero_alpha": rng.normal(0, 0.3, (2, 3)),
         "zero_sigma_topic": np.array([0.5, 0.2]), "one_prob": np.array([0.0, 0.1])}
    cens = system_scores("censored", p)
    hurdle = system_scores("hurdle", p)
    for d in range(2):
        for s in range(3):
            m = p["mu"][d] + p["alpha"][d, s]
            sd = np.hypot(p["sigma_topic"][d], p["sigma"][d])
            ref = integrate.quad(lambda x, m=m, sd=sd: np.clip(x, 0, 1) * stats.norm.pdf(x, m, sd),
                                 m - 12 * sd, m + 12 * sd, points=[0.0, 1.0])[0]
            assert cens[d, s] == pytest.approx(ref, abs=1e-9)
            # hurdle: P(0) over the zero part's topic population by integration over δ
            z = p["zero_mu"][d] + p["zero_alpha"][d, s]
            sz = p["zero_sigma_topic"][d]
            p0 = integrate.quad(lambda b, z=z, sz=sz: stats.norm.cdf(z + b) * stats.norm.pdf(b, 0, sz),
                                -10 * sz, 10 * sz)[0]
            pos = integrate.quad(lambda x, m=m, sd=sd: special.expit(x) * stats.norm.pdf(x, m, sd),
                                 m - 12 * sd, m + 12 * sd)[0]
            one = p["one_prob"][d]
            assert hurdle[d, s] == pytest.approx((1 - p0) * (one + (1 - one) * pos),
                                                 abs=QUADRATURE_TOLERANCE + 1e-9)
    np.testing.assert_allclose(system_scores("normal", p), p["mu"][:, None] + p["alpha"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-6, 6), min_size=1, max_size=4), st.floats(0.01, 3.0))
def test_logit_normal_mean_is_within_the_tolerance_with_fewer_nodes(means, s_max):
    # the nodes are chosen from the largest sd: every (m, s) with s up to it is within the
    # tolerance of the integral (scipy's adaptive quadrature)
    m = np.array(means)
    s = np.linspace(0.01, s_max, m.size)
    got = logit_normal_mean(m, s)
    for k in range(m.size):
        ref = integrate.quad(lambda x, k=k: special.expit(x) * stats.norm.pdf(x, m[k], s[k]),
                             m[k] - 14 * s[k], m[k] + 14 * s[k], epsabs=1e-13,
                             epsrel=1e-13, limit=200)[0]
        assert got[k] == pytest.approx(ref, abs=QUADRATURE_TOLERANCE)
    # fewer nodes than the former fixed 40 where the sds are moderate
    if s_max <= 1.5:
        assert hermite_nodes(m, s) < 40


def test_logit_normal_mean_is_the_plain_rule_from_the_factored_exponentials():
    # e^(−m)·e^(−s·x) for the logistic at each node, one exponential per m and per s: the
    # plain Gauss–Hermite sum of expit written here, also at extremes where that product
    # is ∞·0 (summed directly there), with s shared by a row (a draw's) or per value
    from scorestd.bayes.likelihoods import _hermite_mean

    x, w = np.polynomial.hermite.hermgauss(24)
    m = np.array([[-800.0, 800.0, 0.3, -2.0], [5.0, -np.inf, np.inf, 1.0]])
    for s in (np.array([[90.0], [1.5]]), np.array([[90.0, 90.0, 0.2, 3.0],
                                                    [1e-3, 2.0, 2.0, 0.0]])):
        s_full = np.broadcast_to(s, m.shape)
        with np.errstate(invalid="ignore"):
            want = np.array([[np.sum(w * special.expit(m[i, j] + s_full[i, j] * np.sqrt(2) * x))
                              for j in range(m.shape[1])] for i in range(m.shape[0])])
        got = _hermite_mean(m, s, 24)
        np.testing.assert_allclose(got, want / np.sqrt(np.pi), rtol=1e-13, atol=1e-300)
        assert not np.isnan(got).any()
    assert _hermite_mean(0.0, 1.0, 8).shape == ()


@settings(max_examples=60, deadline=None)
@given(st.floats(-40, 5), st.floats(1e-9, 1 - 1e-9))
def test_upper_truncated_normal_is_the_truncated_quantile(b, u):
    x = float(upper_truncated_normal(np.array(b), np.array(u)))
    assert x <= b
    if b > -30:  # (beyond, the exponential tail approximation)
        assert x == pytest.approx(stats.truncnorm.ppf(u, -np.inf, b), rel=1e-6, abs=1e-6)


@settings(max_examples=100, deadline=None)
@given(st.floats(-40, 40), st.floats(1e-3, 10), st.floats(1e-9, 1 - 1e-9))
def test_truncated_normal_is_the_truncated_quantile(a, width, u):
    b = a + width
    x = float(truncated_normal(np.array(a), np.array(b), np.array(u)))
    assert a <= x <= b
    if max(a, -b) < 30:  # (beyond, the exponential tail approximation)
        ref = stats.truncnorm.ppf(u, a, b)
        assert x == pytest.approx(ref, rel=1e-6, abs=1e-6 * max(1.0, width))
    # monotone in u, and the mirror image of the interval gives the mirror image
    assert float(truncated_normal(np.array(a), np.array(b), np.array(min(u + 0.01, 1.0)))) >= x
    assert float(truncated_normal(np.array(-b), np.array(-a), np.array(1.0 - u))) == \
        pytest.approx(-x, rel=1e-6, abs=1e-6)


def test_truncated_normal_draws_follow_scipy_truncnorm():
    u = np.random.default_rng(3).random(20000)
    for a, b in ((-np.inf, -2.0), (-1.0, 0.5), (2.0, np.inf), (3.0, 3.5), (-0.2, 40.0)):
        x = truncated_normal(np.full(u.size, a), np.full(u.size, b), u)
        assert stats.kstest(x, stats.truncnorm(a, b).cdf).pvalue > 1e-3, (a, b)


@settings(max_examples=60, deadline=None)
@given(st.floats(-6, 6), st.floats(0.01, 3), st.floats(0.01, 2))
@example(2.5, 0.1875, 0.01171875)  # (censored: 1.0 then 0.9999999999999998, by rounding)
def test_expected_scores_are_in_range_and_increase_with_the_mean(m, s, step):
    lo = logit_normal_mean(np.array(m), np.array(s))
    hi = logit_normal_mean(np.array(m + step), np.array(s))
    assert 0 < lo < hi < 1
    p = {"mu": np.array([m, m + step]), "alpha": np.zeros((2, 1)),
         "sigma": np.array([s, s]), "sigma_topic": np.array([0.0, 0.0])}
    c = system_scores("censored", p)[:, 0]
    assert 0 <= c[0] <= c[1] <= 1


# -- the samplers -----------------------------------------------------------------------

@QUIET
@pytest.mark.parametrize("kind", ["censored", "hurdle"])
def test_recovers_the_parameters_of_simulated_data(kind):
    y, truth = _simulate(kind, np.random.default_rng(5), n_t=60, n_s=5)
    assert (y == 0).mean() > 0.05  # the bound matters in these data
    fit = scorestd.bayes_crossed(_cube(y), likelihood=kind, chains=2, draws=800, warmup=300,
                                 seed=2, progress=False)
    post = fit.posterior
    names = ["mu", "sigma_topic", "sigma"] + (["zero_mu"] if kind == "hurdle" else [])
    for name in names:
        draws = post[name].values.ravel()
        lo, hi = np.quantile(draws, [0.005, 0.995])
        assert lo < truth[name] < hi, (name, truth[name], lo, hi)
    for name, true in (("system_effect", truth["alpha"]),
                       ("zero_system_effect", truth.get("zero_alpha"))):
        if true is None:
            continue
        a = post[name].values.reshape(-1, y.shape[1])
        d = a - a[:, [0]]  # differences: free of the intercept
        lo, hi = np.quantile(d, [0.005, 0.995], axis=0)
        assert np.all((lo <= true - true[0]) & (true - true[0] <= hi)), name


@QUIET
def test_hurdle_zero_part_does_not_depend_on_the_block_of_random_numbers(monkeypatch):
    # the latent values of the zero part live between iterations: the block of random
    # numbers is refilled meanwhile, and a latent state that shares its memory would be
    # overwritten by fresh normals at each refill (here every iteration)
    y, _ = _simulate("hurdle", np.random.default_rng(5), n_t=60, n_s=5)
    share = float(np.mean(y == 0))
    means = []
    for block in (1, 250):
        monkeypatch.setattr(bounded, "BLOCK_ITERATIONS", block)
        out = bounded.sample_hurdle(y, bounded.PROBIT_PRIORS, chains=2, draws=600,
                                    warmup=200, seed=3)
        eta = (out["zero_mu"][..., None, None] + out["zero_alpha"][..., None, :]
               + out["zero_beta"][..., :, None])
        means.append(float(special.ndtr(eta).mean()))
    # the posterior mean of P(zero) over the cells is close to the share of zeros
    assert means == [pytest.approx(share, abs=0.03)] * 2, (means, share)


@QUIET
def test_hurdle_logit_part_mixes_where_zeros_are_most_scores():
    # 85% zeros: drawing the logit part's 85% cells without a logit from the model (data
    # augmentation) moves its residual variance by small steps (here lag-1 autocorrelation
    # 0.89, bulk ESS 195 of 4,000 draws); sampled on the observed logits only, 0.46 and
    # 1,270, and its draws are those of the crossed model fitted to the logits alone
    import arviz

    rng = np.random.default_rng(8)
    y = special.expit(-0.8 + rng.normal(0, 0.5, (12, 1)) + rng.normal(0, 0.6, (12, 6)))
    y[rng.random(y.shape) < 0.85] = 0.0
    y[0, :2] = [0.3, 0.6]  # (every topic keeps a score: the logit part has 13+ cells)
    assert float(np.mean(y == 0)) > 0.8
    pri = bounded.CrossedPriors(bounded.VariancePrior(3, 0.5), bounded.VariancePrior(3, 1),
                                bounded.VariancePrior(3, 0.5), mu=(-0.8, 0.5))
    out = bounded.sample_hurdle(y, pri, chains=2, draws=2000, warmup=200, seed=2)
    v = out["var_residual"]
    lag1 = np.mean([np.corrcoef(c[:-1], c[1:])[0, 1] for c in v])
    assert lag1 < 0.6, lag1
    ess = float(arviz.ess(arviz.convert_to_dataset({"v": v}))["v"])
    assert ess > 800, ess
    # the same posterior as the crossed model on the logits (missing elsewhere)
    logit = np.where(y > 0, special.logit(np.where(y > 0, y, 0.5)), np.nan)
    ref = gibbs.sample_crossed(logit, pri, chains=2, draws=2000, warmup=200, seed=9)
    for name in ("var_residual", "mu", "var_topic"):
        a, b = out[name].ravel(), ref[name].ravel()
        assert stats.ks_2samp(a[::4], b[::4]).pvalue > 0.001, name


@QUIET
@pytest.mark.parametrize("kind", ["hurdle"])
def test_hurdle_zero_part_mixes_where_zeros_are_rare(kind):
    # 1% zeros in a 60 × 40 matrix (as on TREC collections): the Albert–Chib moves alone
    # give a bulk ESS of a few dozen for the zero part's effects in 2 × 1,000 draws
    import arviz

    rng = np.random.default_rng(21)
    y = special.expit(-1.0 + rng.normal(0, 0.5, (60, 1)) + rng.normal(0, 0.8, (60, 40)))
    eta0 = -2.6 + rng.normal(0, 0.4, (1, 40)) + rng.normal(0, 0.4, (60, 1))
    y = np.where(rng.standard_normal(y.shape) < eta0, 0.0, y)
    assert 0.003 < float(np.mean(y == 0)) < 0.03
    pri = bounded.CrossedPriors(bounded.VariancePrior(1, 0.1), bounded.VariancePrior(1, 0.1),
                                bounded.VariancePrior(1, 0.1))
    out = bounded.sample_hurdle(y, pri, chains=2, draws=1000, warmup=300, seed=1)
    for name in ("zero_alpha", "zero_beta", "zero_mu"):
        ess = arviz.ess(arviz.convert_to_dataset({name: out[name]}))[name].values
        assert float(np.min(ess)) > 150, (name, float(np.min(ess)))


@QUIET
def test_censored_model_beats_normal_where_the_bound_bites():
    # a normal model fitted to censored data puts the mean of the zeros too high
    y, truth = _simulate("censored", np.random.default_rng(8), n_t=80, n_s=4)
    fit = scorestd.bayes_crossed(_cube(y), likelihood="censored", chains=2, draws=600,
                                 warmup=200, seed=1, progress=False)
    normal = scorestd.bayes_crossed(_cube(y), chains=2, draws=600, warmup=200, seed=1,
                                    progress=False)
    assert abs(float(fit.posterior["mu"].mean()) - truth["mu"]) < abs(
        float(normal.posterior["mu"].mean()) - truth["mu"])
    # the expected scores of both agree with the observed means (the normal's by design)
    np.testing.assert_allclose(fit.summary().sort_index()["score"], y.mean(axis=0),
                               atol=0.02)


@QUIET
@pytest.mark.parametrize("likelihood", ["normal", "hurdle"])
def test_summary_effect_is_the_model_scale_effect_and_diagnostics_match_their_columns(
        likelihood):
    # summary(): ``effect`` is α's posterior mean (logits for the hurdle: not the
    # expected score), with α's R-hat and ESS; system_effects() summarises what the
    # systems are compared by (α, or the expected score), with that variable's diagnostics
    y, _ = _simulate("hurdle", np.random.default_rng(9), n_t=30, n_s=4)
    fit = scorestd.bayes_crossed(_cube(y), likelihood=likelihood, chains=2, draws=300,
                                 warmup=200, seed=2, progress=False)
    table = fit.summary().sort_index()
    alpha = fit.posterior["system_effect"].mean(("chain", "draw"))
    np.testing.assert_allclose(table["effect"], alpha.sortby("system").values, rtol=1e-12)
    d = fit.diagnostics.sortby("system")
    np.testing.assert_array_equal(table["rhat"], d["system_effect_rhat"].values)
    eff = fit.system_effects().sortby("system")
    compared = "system_effect" if likelihood == "normal" else "system_score"
    assert eff.attrs["variable"] == compared
    np.testing.assert_array_equal(eff["rhat"], d[f"{compared}_rhat"].values)
    np.testing.assert_allclose(
        eff["mean"], fit.posterior[compared].mean(("chain", "draw")).sortby("system"),
        rtol=1e-12)
    if likelihood == "hurdle":  # (logits around μ, not the expected scores in (0, 1))
        assert np.any(table["effect"] < 0)
        assert not np.allclose(table["effect"], table["score"])


@QUIET
@pytest.mark.parametrize("kind", ["censored", "hurdle"])
def test_loo_prefers_the_model_that_simulated_the_data(kind):
    y, _ = _simulate(kind, np.random.default_rng(13), n_t=50, n_s=5)
    other = "hurdle" if kind == "censored" else "censored"
    res = scorestd.compare_likelihoods(_cube(y), [kind, other], chains=2, draws=500,
                                       warmup=200, seed=4, progress=False)
    assert res.best == kind
    assert res.table.loc[other, "elpd_diff"] > 2 * res.table.loc[other, "dse"]


def test_normal_model_draws_are_unchanged():
    ref = json.loads((RESULTS / "normal_draws.json").read_text())
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6), topic=slice(0, 25))
    options = {"normal": {}, "student_t": {"errors": "student_t"},
               "heteroscedastic": {"heteroscedastic": True}}
    for name, opts in options.items():
        with pytest.warns(scorestd.ScorestdWarning):  # 50 draws: the gate warns
            fit = scorestd.bayes_crossed(ap, chains=2, draws=50, warmup=20, seed=11,
                                         progress=False, **opts)
        post = fit.posterior
        assert post["mu"].values[:, -5:].tolist() == ref[name]["mu"]
        assert post["system_effect"].values[1, -3:].tolist() == ref[name]["system_effect"]
        assert post["sigma"].values[0, -3:].tolist() == ref[name]["sigma"]
        assert fit.prob_best().values.tolist() == ref[name]["prob_best"]
        np.testing.assert_allclose(post["system_score"], post["mu"] + post["system_effect"])


# -- refusals -----------------------------------------------------------------------------

def test_discrete_and_out_of_range_scores_are_refused_with_what_to_use():
    y = np.random.default_rng(0).integers(0, 11, (10, 3)) / 10
    with pytest.raises(ScoreDataError, match=r"discrete \(multiples of 1/10.*likelihood='normal'"):
        scorestd.bayes_crossed(_cube(y, "P@10"), likelihood="hurdle")
    with pytest.raises(ScoreDataError, match="0 or 1/rank"):
        scorestd.bayes_crossed(_cube(1 / np.arange(1, 31).reshape(10, 3), "recip_rank"),
                               likelihood="censored")
    with pytest.raises(ScoreDataError, match="only 11 distinct values"):
        scorestd.bayes_crossed(_cube(y, "mine"), likelihood="censored")
    z = np.random.default_rng(1).random((10, 3))
    z[4, 2] = 1.3
    with pytest.raises(ScoreDataError, match="topic 't4', system 's2' has 1.3"):
        scorestd.bayes_crossed(_cube(z, "mine"), likelihood="censored")
    with pytest.raises(OptionError, match="errors='student_t' is an option of likelihood="):
        scorestd.bayes_crossed(_cube(z), likelihood="hurdle", errors="student_t")
    with pytest.raises(OptionError, match="heteroscedastic=True"):
        scorestd.bayes_crossed(_cube(z), likelihood="censored", heteroscedastic=True)
    with pytest.raises(OptionError, match="likelihood must be one of"):
        scorestd.bayes_crossed(_cube(z), likelihood="beta")


def _prior_replicate(rng, n_t, n_s):
    """Parameters of the probit part from its prior (PROBIT_PRIORS), latent values given
    them and the zeros they make: one draw of the joint (θ, z, y), with one score missing
    in half of the replicates."""
    pri = bounded.PROBIT_PRIORS
    vs = pri.system.scale / rng.standard_gamma(pri.system.shape)
    vt = pri.topic.scale / rng.standard_gamma(pri.topic.shape)
    alpha, beta = rng.normal(0, np.sqrt(vs), n_s), rng.normal(0, np.sqrt(vt), n_t)
    mu = rng.normal(pri.mu[0], pri.mu[1])
    z = mu + alpha[None, :] + beta[:, None] + rng.standard_normal((n_t, n_s))
    sign = np.where(z > 0, 1, -1)
    if rng.random() < 0.5:
        sign[rng.integers(n_t), rng.integers(n_s)] = 0
    return {"mu": mu, "alpha": alpha, "beta": beta, "vs": vs, "vt": vt}, z, sign


def test_zero_part_moves_keep_the_signs_and_leave_the_posterior_invariant():
    # Transitions of the probit part's moves given ε = z − η (interweaving, the
    # variances with the effects of systems/topics without a zero rescaled, the level
    # moves) applied to exact draws of the joint (θ, z, y) from the model: whatever y,
    # a move that leaves p(θ, z | y) invariant leaves the joint law unchanged, so θ after
    # the move follows the prior (checked by KS against the prior's own cdfs) and keeps
    # its relation to the zeros (checked against fresh draws, by the zeros' count).
    # Every latent value keeps its sign (the data) after the move.
    rng = np.random.default_rng(2026)
    pri = bounded.PROBIT_PRIORS
    n_t, n_s, reps, sweeps = 5, 6, 1500, 6
    after, fresh = [], []
    moved = 0
    own = normal_stream.states_of([np.random.default_rng(2027)])  # (the moves' normals)
    for _ in range(reps):
        theta, z, sign = _prior_replicate(rng, n_t, n_s)
        comp = bounded._Probit(sign, pri, 1)
        eps = z - theta["mu"] - theta["alpha"][None, :] - theta["beta"][:, None]
        state = {"mu": np.array([theta["mu"]]), "alpha": theta["alpha"][None, :],
                 "beta": theta["beta"][None, :], "vs": np.array([theta["vs"]]),
                 "vt": np.array([theta["vt"]])}
        for _ in range(sweeps):  # (each with z = η + ε of the state it starts from)
            flat = (state["mu"][0] + state["alpha"][0][None, :]
                    + state["beta"][0][:, None] + eps).ravel()
            comp.z = np.where(sign.ravel() >= 0, -np.inf, flat)[None, :]
            comp.z_zero = flat[comp.zeros][None, :]  # (interweave finds each system's top)
            comp.interweave(state, own, rng.random((1, comp.interweave_size)))
        new_z = (state["mu"][0] + state["alpha"][0][None, :] + state["beta"][0][:, None]
                 + eps)
        observed = sign != 0
        np.testing.assert_array_equal((new_z > 0)[observed], (sign == 1)[observed])
        moved += float(abs(state["vs"][0] - theta["vs"]) > 1e-12)
        zeros = int(np.sum(sign == 1))
        after.append((state["mu"][0], state["vs"][0], state["vt"][0],
                      state["alpha"][0][0], zeros))
        other, _, other_sign = _prior_replicate(rng, n_t, n_s)
        fresh.append((other["mu"], other["vs"], other["vt"], other["alpha"][0],
                      int(np.sum(other_sign == 1))))
    after, fresh = np.array(after), np.array(fresh)
    assert moved > 0.3 * reps  # (the variance moves do move: not where every system has a zero)
    prior_cdfs = [stats.norm(pri.mu[0], pri.mu[1]).cdf,
                  stats.invgamma(pri.system.shape, scale=pri.system.scale).cdf,
                  stats.invgamma(pri.topic.shape, scale=pri.topic.scale).cdf]
    for k, cdf in enumerate(prior_cdfs):
        assert stats.kstest(after[:, k], cdf).pvalue > 1e-3, k
    # given the data: θ among the replicates with few, middling and many zeros
    for low, high in ((0, 5), (5, 20), (20, n_t * n_s + 1)):
        a = after[(after[:, 4] >= low) & (after[:, 4] < high)]
        f = fresh[(fresh[:, 4] >= low) & (fresh[:, 4] < high)]
        for k in range(4):
            assert stats.ks_2samp(a[:, k], f[:, k]).pvalue > 1e-3, (low, k)
