"""The models on [0, 1] (beta, kde, truncnorm) against scipy and numerical integration."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import integrate, optimize, stats

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.models import get_model
from scorestd.models._bounded import squeeze
from scorestd.models.beta import fit_beta
from scorestd.models.kde import bandwidth
from scorestd.models.truncnorm import fit_truncnorm

BOUNDED = ["beta", "kde", "truncnorm"]
ALL_WITH_DENSITY = ["normal", "uniform", "beta", "kde", "truncnorm"]


def as_cube(values):
    return scorestd.cube(np.asarray(values, dtype=float))


@pytest.fixture(scope="module")
def ap(robust2004):
    return robust2004.sel(measure=["ap"]).isel(topic=slice(0, 12))


def test_beta_matches_scipy_fit_on_real_topics(ap):
    params = get_model("beta").fit(ap).params
    for topic in ["t01", "t05", "t09"]:
        x = squeeze(ap.sel(topic=topic, measure="ap").values[None, :])[0]
        # Reference: scipy's numerical ML with the support fixed to [0, 1].
        a, b, _, _ = stats.beta.fit(x, floc=0, fscale=1)
        got = params.sel(topic=topic, measure="ap")
        assert float(got["a"]) == pytest.approx(a, rel=1e-4)
        assert float(got["b"]) == pytest.approx(b, rel=1e-4)
        assert bool(got["ml"])


@settings(max_examples=15)
@given(a=st.floats(0.4, 6), b=st.floats(0.4, 6), seed=st.integers(0, 2**32 - 1))
def test_beta_recovers_known_parameters(a, b, seed):
    x = np.random.default_rng(seed).beta(a, b, size=(1, 20000))
    x = np.clip(x, 1e-12, 1 - 1e-12)
    fa, fb, ok = fit_beta(x)
    assert ok[0]
    assert fa[0] == pytest.approx(a, rel=0.08) and fb[0] == pytest.approx(b, rel=0.08)


def test_beta_falls_back_to_the_method_of_moments():
    x = np.array([[0.0, 0.2, 0.4, 0.5], [0.1, 0.2, 0.4, 0.5]])  # log(0): no likelihood
    a, b, ok = fit_beta(x)
    m, v = x[0].mean(), x[0].var()
    c = m * (1 - m) / v - 1  # reference: the method-of-moments formulas
    assert ok.tolist() == [False, True]
    assert a[0] == pytest.approx(m * c) and b[0] == pytest.approx((1 - m) * c)


@settings(max_examples=10)
@given(mu=st.floats(0.1, 0.9), sigma=st.floats(0.1, 0.6), seed=st.integers(0, 2**32 - 1))
def test_truncnorm_recovers_known_parameters(mu, sigma, seed):
    x = stats.truncnorm.rvs(-mu / sigma, (1 - mu) / sigma, loc=mu, scale=sigma,
                            size=(1, 20000), random_state=np.random.default_rng(seed))
    fmu, fsigma, ok = fit_truncnorm(x)
    assert ok[0]
    # With σ as wide as the interval the truncated normal is nearly linear on [0, 1] and
    # (μ, σ) are weakly identified (μ = 0.125, σ = 0.5, seed 559 fits μ = 0.063, σ = 0.545
    # at a higher likelihood than the truth): check the fitted distribution and that it is
    # at least as likely as the truth, not the parameters one by one.
    def dist(m, s):
        return stats.truncnorm(-m / s, (1 - m) / s, loc=m, scale=s)

    grid = np.linspace(0, 1, 201)
    assert np.abs(dist(fmu[0], fsigma[0]).cdf(grid) - dist(mu, sigma).cdf(grid)).max() < 0.02
    assert (dist(fmu[0], fsigma[0]).logpdf(x[0]).sum()
            >= dist(mu, sigma).logpdf(x[0]).sum() - 1e-6)


def test_truncnorm_is_the_maximum_likelihood(ap):
    fitted = get_model("truncnorm").fit(ap)
    for topic in ["t01", "t02", "t06"]:
        x = ap.sel(topic=topic, measure="ap").values

        def nll(theta, x=x):
            mu, sigma = theta[0], np.exp(theta[1])
            return -stats.truncnorm.logpdf(x, -mu / sigma, (1 - mu) / sigma, mu, sigma).sum()

        # Reference: a general-purpose optimiser on scipy's truncnorm likelihood.
        best = optimize.minimize(nll, [x.mean(), np.log(x.std())], method="Nelder-Mead",
                                 options={"xatol": 1e-10, "fatol": 1e-12, "maxiter": 5000})
        p = fitted.params.sel(topic=topic, measure="ap")
        ours = nll([float(p["mu"]), np.log(float(p["sigma"]))])
        assert ours <= best.fun + 1e-6
        loglik = fitted.logpdf(ap.sel(topic=[topic])).sum().item()
        assert loglik == pytest.approx(-ours, rel=1e-9)


def test_kde_cdf_equals_integrated_density(ap):
    fitted = get_model("kde").fit(ap)
    x = ap.sel(topic="t03", measure="ap").values
    h = bandwidth(x[None, :])[0]
    assert float(fitted.params["bandwidth"].sel(topic="t03", measure="ap")) == pytest.approx(h)

    def density(t):  # reference: the reflected Gaussian kernel density, integrated by quad
        return np.mean(stats.norm.pdf(t, x, h) + stats.norm.pdf(-t, x, h)
                       + stats.norm.pdf(2 - t, x, h))

    total = integrate.quad(density, 0, 1, limit=200)[0]
    points = np.array([0.0, 0.05, 0.2, 0.5, 0.93, 1.0])
    got = fitted.cdf(scorestd.cube(points[None, :], topics=["t03"], measures=["ap"]))
    want = [integrate.quad(density, 0, p, limit=200)[0] / total for p in points]
    np.testing.assert_allclose(got.values[0, :, 0], want, atol=1e-8)


def test_kde_fixed_and_bad_bandwidth(ap):
    fitted = get_model("kde")(bandwidth=0.05).fit(ap)
    assert (fitted.params["bandwidth"] == 0.05).all()
    with pytest.raises(ValueError, match=r"silverman"):
        get_model("kde")(bandwidth="wide")
    with pytest.raises(ValueError, match=r"positive"):
        get_model("kde")(bandwidth=-1.0)


@pytest.mark.parametrize("model", ALL_WITH_DENSITY)
def test_logpdf_is_the_derivative_of_cdf(ap, model):
    fitted = get_model(model).fit(ap)
    x = np.linspace(0.05, 0.6, 12)
    h = 1e-4  # the exponential-limit truncnorm topics carry cdf rounding of about 1e-8
    cube = scorestd.cube(np.tile(x, (ap.sizes["topic"], 1)), topics=ap.topic.values,
                         measures=["ap"])
    up = fitted.cdf(cube + h).values
    down = fitted.cdf(cube - h).values
    slope = (up - down) / (2 * h)
    dens = np.exp(fitted.logpdf(cube).values)
    mask = slope > 0.05  # the uniform's flat censored parts have no density to compare
    np.testing.assert_allclose(dens[mask], slope[mask], rtol=2e-3)


@settings(max_examples=15)
@given(p=hnp.arrays(np.float64, 6, elements=st.floats(0.01, 0.99)),
       model=st.sampled_from(BOUNDED))
def test_icdf_cdf_round_trip_bounded(p, model):
    ref = scorestd.datasets.load("robust2004").sel(measure=["ap"]).isel(topic=slice(0, 4))
    fitted = get_model(model).fit(ref)
    probs = scorestd.cube(np.tile(p, (4, 1)), topics=ref.topic.values, measures=["ap"])
    np.testing.assert_allclose(fitted.cdf(fitted.icdf(probs)).values, probs.values, atol=1e-8)


topic_scores = hnp.arrays(
    np.float64, st.tuples(st.integers(1, 3), st.integers(4, 15)),
    elements=st.integers(0, 100).map(lambda i: i / 100),
).filter(lambda a: (np.ptp(a, axis=1) > 0).all())


@settings(max_examples=20)
@given(ref=topic_scores, model=st.sampled_from(BOUNDED))
def test_bounded_cdfs_map_into_unit_interval_and_are_monotone(ref, model):
    fitted = get_model(model).fit(as_cube(ref))
    grid = np.linspace(0, 1, 21)
    y = fitted.cdf(as_cube(np.tile(grid, (ref.shape[0], 1)))).values[..., 0]
    assert ((y >= 0) & (y <= 1)).all()
    assert (np.diff(y, axis=1) >= -1e-12).all()
    np.testing.assert_allclose(y[:, [0, -1]], np.tile([0.0, 1.0], (ref.shape[0], 1)), atol=1e-12)


def test_sample_from_bounded_models_stays_in_unit_interval(ap):
    for model in BOUNDED:
        draws = get_model(model).fit(ap).sample(50, rng=3)
        assert ((draws >= 0) & (draws <= 1)).all()


@pytest.mark.parametrize("model", BOUNDED)
def test_scores_outside_unit_interval_are_rejected(small_cube, model):
    bad = small_cube.copy()
    bad[2, 3, 1] = 1.5
    with pytest.raises(ScoreDataError, match=r"1.5 at topic 't3', system 's4', measure 'ndcg'"), \
            pytest.warns(scorestd.ScorestdWarning, match="1 'ndcg' score outside"):
        scorestd.standardize(bad, model)
    fitted = get_model(model).fit(small_cube)
    with pytest.raises(ScoreDataError, match=rf"model '{model}' needs scores in \[0, 1\]"), \
            pytest.warns(scorestd.ScorestdWarning, match="1 'ndcg' score outside"):
        fitted.cdf(bad)


def test_nan_in_bounded_models(small_cube):
    holey = small_cube.copy()
    holey[1, 0, 0] = np.nan
    for model in BOUNDED:
        y = scorestd.standardize(holey, model)
        assert np.isnan(y.values[1, 0, 0])
        assert np.isfinite(y.values).sum() == holey.size - 1


@settings(max_examples=15)
@given(x=hnp.arrays(np.float64, 6, elements=st.floats(0.02, 0.98)),
       model=st.sampled_from(["normal", *BOUNDED]))
def test_cdf_icdf_round_trip_on_scores(x, model):
    ref = scorestd.datasets.load("robust2004").sel(measure=["ap"]).isel(topic=slice(4, 8))
    fitted = get_model(model).fit(ref)
    scores = scorestd.cube(np.tile(x, (4, 1)), topics=ref.topic.values, measures=["ap"])
    y = fitted.cdf(scores)
    # Where the cdf is flat to double precision (a tail with no mass) it cannot be inverted.
    invertible = ((y > 1e-9) & (y < 1 - 1e-9) & (np.exp(fitted.logpdf(scores)) > 0.05)).values
    back = fitted.icdf(y).values
    np.testing.assert_allclose(back[invertible], scores.values[invertible], atol=1e-6)


@pytest.mark.parametrize("model", BOUNDED)
def test_degenerate_topic_keeps_the_raw_score_in_bounded_models(model):
    p10 = scorestd.datasets.load("adhoc5_p10")  # topic t17: every run scores 0
    new = p10.copy()
    new.loc[{"topic": "t17", "system": "run1"}] = 0.3  # a new run that did retrieve something
    with pytest.warns(scorestd.ScorestdWarning, match="'t17'"):
        y = scorestd.standardize(new, model, reference=p10)
    np.testing.assert_array_equal(y.sel(topic="t17").values, new.sel(topic="t17").values)
    assert np.isfinite(y.values).all()


def test_truncnorm_at_the_exponential_boundary(robust2004):
    """AP of topic t05 is more convex than any truncated normal: the supremum of the
    likelihood is the truncated exponential, which the fit must reach."""
    ap = robust2004.sel(measure=["ap"])
    fitted = get_model("truncnorm").fit(ap)
    x = ap.sel(topic="t05", measure="ap").values

    def mean_of(rate):  # mean of the density rate * exp(rate x) / (exp(rate) - 1) on [0, 1]
        return 1 / -np.expm1(-rate) - 1 / rate

    # Reference: the truncated exponential's ML by brentq on its mean equation.
    rate = optimize.brentq(lambda r: mean_of(r) - x.mean(), 1e-9 - 200, -1e-9)
    loglik = np.sum(np.log(rate / np.expm1(rate)) + rate * x)
    ours = fitted.logpdf(ap.sel(topic=["t05"])).sum().item()
    assert ours == pytest.approx(loglik, abs=1e-3)
    assert bool(fitted.params["ml"].sel(topic="t05", measure="ap"))
    grid = np.linspace(0, 1, 11)
    cdf = fitted.cdf(scorestd.cube(grid[None, :], topics=["t05"], measures=["ap"])).values
    np.testing.assert_allclose(cdf[0, :, 0], np.expm1(rate * grid) / np.expm1(rate), atol=1e-4)
