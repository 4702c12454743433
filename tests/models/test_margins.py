"""Every margin family: its routes agree (cdf, quantile, density, draws) and it recovers
known parameters; scipy's truncnorm, beta and betabinom are the references."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

from scorestd.errors import OptionError, ScoreDataError, ScorestdError
from scorestd.models import _grid
from scorestd.models.margins import expand
from scorestd.simulation import (
    Beta1Margin,
    BetaBinomialMargin,
    BetaKernelMargin,
    NormalKernelMargin,
    OrderedKernelMargin,
    TruncNormalMargin,
    get_margin,
    margin_names,
    support_of,
)

P10 = support_of("p10")
RR = support_of("rr")


def _fit(family, x):
    x = np.atleast_2d(np.asarray(x, dtype=float))
    params = family._fit(x, x.min(axis=-1) == x.max(axis=-1))
    return params, expand(params, 2)


def _sample(n=60, seed=0):
    return np.random.default_rng(seed).beta(2.0, 5.0, size=(1, n))


CONTINUOUS = [TruncNormalMargin(), Beta1Margin(), NormalKernelMargin(), BetaKernelMargin()]
DISCRETE = [BetaBinomialMargin(support=P10), OrderedKernelMargin(support=P10),
            OrderedKernelMargin(support=P10, multiplier=2)]


def test_registry_names_and_lookup():
    assert margin_names()[:6] == ["truncnorm", "beta1", "nkde", "bkde", "betabinom", "dkde"]
    assert isinstance(get_margin("nkde"), NormalKernelMargin)
    with pytest.raises(ScorestdError, match="unknown margin family 'nope'"):
        get_margin("nope")
    with pytest.raises(ScorestdError, match="needs support="):
        get_margin("betabinom")


@pytest.mark.parametrize("family", CONTINUOUS, ids=lambda f: f.name)
def test_continuous_cdf_quantile_round_trip_and_density_integrates_to_one(family):
    _, p = _fit(family, _sample())
    q = np.array([[0.01, 0.1, 0.37, 0.5, 0.83, 0.99]])
    x = family._icdf(q, **p)
    np.testing.assert_allclose(family._cdf(x, **p), q, atol=1e-9)
    # density integrates to 1 over [0, 1] (scipy.integrate.quad as the reference)
    dens = lambda v: float(np.exp(family._logpdf(np.array([[v]]), **p))[0, 0])  # noqa: E731
    total, _ = integrate.quad(dens, 0, 1, limit=200)
    assert total == pytest.approx(1.0, abs=2e-4 if family.name == "bkde" else 1e-7)
    # the density is the derivative of the cdf
    for v in (0.1, 0.3, 0.6):
        h = 1e-5
        slope = (family._cdf(np.array([[v + h]]), **p) - family._cdf(np.array([[v - h]]), **p))
        assert slope[0, 0] / (2 * h) == pytest.approx(dens(v), rel=2e-3)


@pytest.mark.parametrize("family", CONTINUOUS, ids=lambda f: f.name)
def test_draws_follow_the_cdf_ks(family):
    _, p = _fit(family, _sample())
    table = family._tabulate(**{k: v[..., 0] if v.ndim == 2 and v.shape[-1] == 1 else v
                                for k, v in p.items()})
    u = np.random.default_rng(3).random((1, 20000))
    draws = _grid.table_inverse(table, u.T).T
    cdf = lambda v: family._cdf(np.atleast_2d(v), **p)[0]  # noqa: E731
    assert stats.kstest(draws[0], cdf).pvalue > 0.01
    # the tabulated quantile matches the exact one
    np.testing.assert_allclose(_grid.table_inverse(table, np.array([[0.2], [0.7]])).ravel(),
                               family._icdf(np.array([[0.2, 0.7]]), **p)[0], atol=2e-6)


def test_truncnorm_agrees_with_scipy_and_recovers_parameters():
    a, b = -0.3 / 0.25, 0.7 / 0.25
    x = stats.truncnorm.rvs(a, b, loc=0.3, scale=0.25, size=(1, 40000), random_state=1)
    raw, p = _fit(TruncNormalMargin(), x)
    assert raw["mu"][0] == pytest.approx(0.3, abs=0.01)
    assert raw["sigma"][0] == pytest.approx(0.25, abs=0.01)
    ref = stats.truncnorm(-raw["mu"][0] / raw["sigma"][0], (1 - raw["mu"][0]) / raw["sigma"][0],
                          loc=raw["mu"][0], scale=raw["sigma"][0])
    v = np.array([[0.05, 0.4, 0.9]])
    np.testing.assert_allclose(TruncNormalMargin()._cdf(v, **p)[0], ref.cdf(v[0]), atol=1e-12)
    np.testing.assert_allclose(TruncNormalMargin()._logpdf(v, **p)[0], ref.logpdf(v[0]),
                               atol=1e-10)
    mean, var = _grid.table_moments(TruncNormalMargin()._tabulate(**raw))
    assert mean[0] == pytest.approx(ref.mean(), abs=1e-7)
    assert var[0] == pytest.approx(ref.var(), abs=1e-7)


def test_beta1_agrees_with_scipy_recovers_shapes_and_keeps_them_at_least_one():
    x = np.random.default_rng(4).beta(2.5, 6.0, size=(1, 40000))
    raw, p = _fit(Beta1Margin(), x)
    assert (raw["a"][0], raw["b"][0]) == pytest.approx((2.5, 6.0), rel=0.03)
    ref = stats.beta(raw["a"][0], raw["b"][0])
    v = np.array([[0.05, 0.4, 0.9]])
    np.testing.assert_allclose(Beta1Margin()._cdf(v, **p)[0], ref.cdf(v[0]), atol=1e-12)
    np.testing.assert_allclose(Beta1Margin()._logpdf(v, **p)[0], ref.logpdf(v[0]), atol=1e-10)
    mean, var = _grid.table_moments(Beta1Margin()._tabulate(**raw))
    assert mean[0] == pytest.approx(ref.mean(), abs=1e-7)
    assert var[0] == pytest.approx(ref.var(), abs=1e-7)
    # shape < 1 in the data: the constrained maximum sits on the edge a = 1, where the
    # likelihood is b's alone (closed form b = −1/mean log(1 − x)); checked by scipy's
    # bounded optimiser on the same clipped scores
    y = np.random.default_rng(5).beta(0.6, 3.0, size=(1, 5000))
    raw, _ = _fit(Beta1Margin(), y)
    yc = np.clip(y[0], 1e-6, 1 - 1e-6)
    from scipy import optimize
    nll = lambda t: -stats.beta.logpdf(yc, t[0], t[1]).sum()  # noqa: E731
    best = optimize.minimize(nll, [1.5, 3.0], bounds=[(1, None), (1, None)]).x
    assert (raw["a"][0], raw["b"][0]) == pytest.approx(tuple(best), rel=1e-3)
    assert raw["a"][0] == 1.0


def test_betabinom_agrees_with_scipy_and_recovers_shapes():
    k = stats.betabinom.rvs(10, 2.0, 3.5, size=(1, 30000), random_state=2)
    raw, p = _fit(BetaBinomialMargin(support=P10), k / 10)
    assert (raw["alpha"][0], raw["beta"][0]) == pytest.approx((2.0, 3.5), rel=0.06)
    ref = stats.betabinom(10, raw["alpha"][0], raw["beta"][0])
    np.testing.assert_allclose(raw["cdf"][0], ref.cdf(np.arange(11)), atol=1e-12)
    fam = BetaBinomialMargin(support=P10)
    np.testing.assert_allclose(fam._logpdf(np.array([[0.0, 0.3, 1.0]]), **p)[0],
                               ref.logpmf([0, 3, 10]), atol=1e-10)
    mean, var = _grid.table_moments(raw["cdf"], P10)
    assert mean[0] == pytest.approx(ref.mean() / 10, abs=1e-12)
    assert var[0] == pytest.approx(ref.var() / 100, abs=1e-12)


@pytest.mark.parametrize("family", DISCRETE, ids=lambda f: f.label)
def test_discrete_routes(family):
    x = np.random.default_rng(6).binomial(10, 0.3, size=(1, 50)) / 10
    raw, p = _fit(family, x)
    pmf = np.exp(family._logpdf(P10[np.newaxis], **p))[0]
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(family._cdf(P10[np.newaxis], **p)[0], np.cumsum(pmf), atol=1e-12)
    # quantile = smallest support value whose cdf reaches p
    q = np.array([[0.05, 0.5, 0.95]])
    expected = [P10[np.argmax(np.cumsum(pmf) >= v - 1e-12)] for v in q[0]]
    np.testing.assert_allclose(family._icdf(q, **p)[0], expected)
    # draws match the pmf (chi-square)
    draws = _grid.table_inverse(raw["cdf"], np.random.default_rng(1).random((20000, 1)),
                                support=P10)[:, 0]
    observed = np.array([(np.isclose(draws, s)).sum() for s in P10])
    keep = pmf * 20000 >= 5
    chi = stats.chisquare(observed[keep], pmf[keep] / pmf[keep].sum() * observed[keep].sum())
    assert chi.pvalue > 0.001


@pytest.mark.parametrize("criterion", ["whole_line", "support"])
def test_ordered_kernel_cv_bandwidth_against_a_plain_loop(criterion):
    x = np.array([[0.0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.5, 0.5, 0.9]])
    raw, _ = _fit(OrderedKernelMargin(support=P10, criterion=criterion), x)
    idx = np.rint(x[0] * 10).astype(int)
    n = len(idx)
    # "whole_line": the squared estimate summed over the integers (np's cv.ls); beyond
    # ±150 of the support its terms are below 0.99^300 / 4 of the largest
    line = range(-150, 161) if criterion == "whole_line" else range(11)

    def kernel(k, j, lam):
        return 1 - lam if k == j else (1 - lam) / 2 * lam ** abs(k - j)

    def cv(lam):
        f = [sum(kernel(k, j, lam) for j in idx) / n for k in line]
        loo = sum((sum(kernel(idx[i], idx[j], lam) for j in range(n) if j != i)) / (n - 1)
                  for i in range(n))
        return sum(v * v for v in f) - 2 / n * loo

    grid = np.linspace(0, 0.99, 991)
    best = grid[np.argmin([cv(v) for v in grid])]
    assert raw["bandwidth"][0] == pytest.approx(best, abs=0.0011)
    lam = raw["bandwidth"][0]
    f = np.array([sum(kernel(k, j, lam) for j in idx) for k in range(11)])
    np.testing.assert_allclose(np.diff(raw["cdf"][0], prepend=0), f / f.sum(), atol=1e-12)


def test_ordered_kernel_criteria_differ_and_bad_criterion_is_refused():
    x = np.array([[0.0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.5, 0.5, 0.9]])
    line = _fit(OrderedKernelMargin(support=P10), x)[0]["bandwidth"][0]
    support = _fit(OrderedKernelMargin(support=P10, criterion="support"), x)[0]["bandwidth"][0]
    assert line < support  # mass beyond the support counts against wide kernels
    with pytest.raises(OptionError, match="criterion must be one of 'whole_line', 'support'; "
                                          "got 'np'"):
        OrderedKernelMargin(support=P10, criterion="np")


@pytest.mark.parametrize(("bad", "shown"), [(0, "0"), (-2.5, "-2.5"), ("2", "'2'"),
                                             (float("nan"), "nan"), (True, "True")])
def test_ordered_kernel_bad_multiplier_is_an_option_error(bad, shown):
    # an OptionError is a ValueError too: callers that caught ValueError still do
    with pytest.raises(OptionError, match=rf"^multiplier must be a (finite )?number.*; got {shown}$"):
        OrderedKernelMargin(support=P10, multiplier=bad)
    assert issubclass(OptionError, ValueError)


def test_effective_df_of_the_smoothers():
    # no smoothing: the ordered kernel's trace is the number of distinct values
    x = np.array([[0.1, 0.1, 0.2, 0.4]])
    fam = OrderedKernelMargin(support=P10)
    cdf = np.cumsum(np.bincount([1, 1, 2, 4], minlength=11) / 4)[np.newaxis]
    df = fam._eff_df(x, bandwidth=np.array([0.0]), cdf=cdf)
    assert df[0] == pytest.approx(3.0)
    # Gaussian kernel: leverage φ_h(0) / (n f̂(x_i)) summed, by a plain loop
    y = _sample(20)
    raw, _ = _fit(NormalKernelMargin(), y)
    h = raw["bandwidth"][0]
    lev = [stats.norm.pdf(0, scale=h) / sum(stats.norm.pdf(v, loc=w, scale=h) for w in y[0])
           for v in y[0]]
    assert NormalKernelMargin()._eff_df(y, **raw)[0] == pytest.approx(sum(lev), rel=1e-10)


def test_scores_off_the_support_are_an_error_naming_the_score():
    with pytest.raises(ScoreDataError, match="0.25 .* not on the support"):
        _fit(BetaBinomialMargin(support=P10), [[0.1, 0.25, 0.3]])


def test_rr_support():
    assert RR[0] == 0 and RR[1] == pytest.approx(1e-3) and RR[-1] == 1 and RR.size == 1001
    assert support_of("P@20").size == 21 and support_of("ndcg20") is None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=8, max_size=30).filter(
    lambda v: max(v) - min(v) > 0.05))
def test_property_tables_are_distribution_functions(values):
    x = np.array([values])
    for family in CONTINUOUS:
        raw, _ = _fit(family, x)
        if not family._fit_ok(raw).all():
            continue
        table = family._tabulate(**raw)
        assert table[0, 0] == 0 and table[0, -1] == 1
        assert np.all(np.diff(table[0]) >= 0)
        mean, var = _grid.table_moments(table)
        assert 0 < mean[0] < 1 and var[0] >= 0
