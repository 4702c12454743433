"""Topic set size design: Sakai's approximations against exact noncentral answers."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.power import FTestAnovaPower, TTestPower

from scorestd.design.power import design_variance
from scorestd.design.topic_sets import (
    ci_expected_width,
    sakai_power_anova,
    sakai_power_paired_t,
    topic_set_size,
)
from scorestd.design.variance import estimate_variance
from scorestd.errors import OptionError, UnreachableTargetError
from scorestd.plots import plot_topic_set_size


def _nct_power(n: int, effect: float, alpha: float) -> float:
    crit, nc = stats.t.isf(alpha / 2, n - 1), effect * math.sqrt(n)
    return stats.nct.sf(crit, n - 1, nc) + stats.nct.sf(crit, n - 1, -nc)


@given(st.integers(10, 400), st.floats(0.02, 1.5), st.sampled_from([0.01, 0.05, 0.10]))
def test_approximate_paired_power_within_001_of_noncentral_t(n, effect, alpha):
    assert abs(sakai_power_paired_t(n, effect, alpha) - _nct_power(n, effect, alpha)) < 0.01


@given(st.integers(3, 200), st.integers(2, 30), st.floats(0.01, 2.0))
def test_approximate_anova_power_close_to_noncentral_f(n, m, delta):
    df1, df2 = m - 1, m * (n - 1)
    exact = stats.ncf.sf(stats.f.isf(0.05, df1, df2), df1, df2, n * delta)
    assert abs(sakai_power_anova(n, m, delta, 0.05) - exact) < 0.015


@pytest.mark.parametrize("variance", [0.01, 0.03, 0.08])
@pytest.mark.parametrize("min_diff", [0.02, 0.05, 0.1, 0.2])
@pytest.mark.parametrize("alpha,beta", [(0.05, 0.2), (0.01, 0.1)])
def test_exact_paired_equals_statsmodels_rounded_up(variance, min_diff, alpha, beta):
    expected = math.ceil(TTestPower().solve_power(effect_size=min_diff / math.sqrt(variance),
                                                  alpha=alpha, power=1 - beta))
    got = topic_set_size(variance=variance, min_diff=min_diff, alpha=alpha, beta=beta,
                         method="exact")
    assert got == expected
    approx = topic_set_size(variance=variance, min_diff=min_diff, alpha=alpha, beta=beta)
    if expected >= 10:
        assert abs(approx - expected) <= 1


def test_sakai_paired_matches_a_plain_reimplementation():
    # Plain transcription of the Excel procedure: tentative n, then step until the
    # approximate power reaches 1 - beta (smallest such n).
    variance, min_diff, alpha, beta = 0.0272, 0.03, 0.05, 0.2
    effect = min_diff / math.sqrt(variance)
    za, zb = stats.norm.isf(alpha / 2), stats.norm.isf(beta)
    n = math.ceil(((za + zb) / effect) ** 2 + za**2 / 2)
    while sakai_power_paired_t(n, effect, alpha) < 1 - beta:
        n += 1
    while sakai_power_paired_t(n - 1, effect, alpha) >= 1 - beta:
        n -= 1
    assert topic_set_size(variance=variance, min_diff=min_diff, alpha=alpha, beta=beta) == n


def test_gpower_reference_values(reference):
    gpower = reference("gpower31_sample_sizes")
    # G*Power 3.1, "Means: difference between two dependent means", dz = 0.5, α = .05
    # two-tailed, power .80 → total sample size 34.
    paired = gpower["paired_t"]
    assert (paired["alpha"], paired["tails"], paired["power"]) == (0.05, 2, 0.8)
    assert topic_set_size(variance=1.0, min_diff=paired["dz"],
                          method="exact") == paired["total_sample_size"]
    # Cohen (1988) Table 8.4.4 / G*Power one-way ANOVA, f = 0.25, k = 4, α = .05,
    # power .80 → 45 per group (N = 180). Here f = minD / (σ √(2m)).
    anova = gpower["anova_one_way"]
    assert (anova["alpha"], anova["power"]) == (0.05, 0.8)
    min_range = anova["f"] * math.sqrt(2 * anova["groups"])
    assert topic_set_size(variance=1.0, test="anova", min_diff=min_range,
                          n_systems=anova["groups"], method="exact") == anova["n_per_group"]


@pytest.mark.parametrize("m", [2, 5, 20, 50])
def test_exact_anova_is_smallest_n_with_scipy_ncf(m):
    sigma2, min_range, alpha, beta = 0.03, 0.1, 0.05, 0.2
    n = 2
    while True:
        df1, df2 = m - 1, m * (n - 1)
        lam = min_range**2 / (2 * sigma2) * n  # f² n m with f = minD/(σ√(2m))
        if stats.ncf.sf(stats.f.isf(alpha, df1, df2), df1, df2, lam) >= 1 - beta:
            break
        n += 1
    assert topic_set_size(variance=sigma2, test="anova", min_diff=min_range, n_systems=m,
                          method="exact") == n
    f = min_range / math.sqrt(sigma2 * 2 * m)
    nobs = FTestAnovaPower().solve_power(effect_size=f, alpha=alpha, power=1 - beta, k_groups=m)
    assert n == math.ceil(nobs / m - 1e-9)
    approx = topic_set_size(variance=sigma2, test="anova", min_diff=min_range, n_systems=m)
    assert abs(approx - n) <= max(2, 0.07 * n)


def test_sakai_anova_is_smallest_n_under_its_approximation():
    sigma2, min_range, m = 0.05, 0.1, 10
    delta = min_range**2 / (2 * sigma2)
    n = topic_set_size(variance=sigma2, test="anova", min_diff=min_range, n_systems=m)
    assert sakai_power_anova(n, m, delta, 0.05) >= 0.8 > sakai_power_anova(n - 1, m, delta, 0.05)


def test_ci_width_uses_the_chi_mean_and_is_the_smallest_n():
    sd, alpha = math.sqrt(0.03), 0.05
    for n in (5, 30, 200):
        # E[√V] = σ E[χ_φ] / √φ, the mean of scipy's chi distribution
        expected = 2 * stats.t.isf(alpha / 2, n - 1) * sd * stats.chi.mean(n - 1) / math.sqrt(
            n - 1) / math.sqrt(n)
        assert ci_expected_width(n, sd, alpha) == pytest.approx(expected, rel=1e-10)
    n = topic_set_size(variance=0.03, test="ci", min_diff=0.1)
    assert ci_expected_width(n, sd, alpha) <= 0.1 < ci_expected_width(n - 1, sd, alpha)
    assert topic_set_size(variance=0.03, test="ci", min_diff=0.1, method="exact") == n


def test_grid_matches_scalar_calls():
    var = xr.DataArray([0.02, 0.05], dims="scheme", coords={"scheme": ["a", "b"]})
    grid = topic_set_size(variance=var, test="anova", min_diff=[0.05, 0.1], alpha=[0.01, 0.05],
                          n_systems=[2, 10])
    assert grid.dims == ("scheme", "alpha", "min_diff", "n_systems")
    assert grid.dtype == np.int64
    for scheme, v in zip(["a", "b"], [0.02, 0.05], strict=True):
        for a in (0.01, 0.05):
            for d in (0.05, 0.1):
                for m in (2, 10):
                    one = topic_set_size(variance=v, test="anova", min_diff=d, alpha=a,
                                         n_systems=m)
                    assert grid.sel(scheme=scheme, alpha=a, min_diff=d, n_systems=m) == one


@given(st.floats(0.005, 0.1), st.floats(0.01, 0.3), st.floats(1.01, 3))
def test_n_decreases_with_min_diff_and_grows_with_variance(variance, min_diff, factor):
    n = topic_set_size(variance=variance, min_diff=min_diff)
    assert topic_set_size(variance=variance, min_diff=min_diff * factor) <= n
    assert topic_set_size(variance=variance * factor, min_diff=min_diff) >= n


def test_from_scores_uses_twice_the_residual_and_the_residual(robust2004):
    paired = 2 * estimate_variance(robust2004)  # σ_t² = 2 V_E
    resid = estimate_variance(robust2004)
    got_t = topic_set_size(robust2004, min_diff=0.05)
    got_a = topic_set_size(robust2004, test="anova", min_diff=0.1, n_systems=20)
    for m in ("ap", "ndcg"):
        assert got_t.sel(measure=m) == topic_set_size(variance=paired.sel(measure=m).item(),
                                                      min_diff=0.05)
        assert got_a.sel(measure=m) == topic_set_size(variance=resid.sel(measure=m).item(),
                                                      test="anova", min_diff=0.1, n_systems=20)


@pytest.mark.parametrize("kwargs,match", [
    ({"min_diff": 0.1, "alpha": 1.0}, "alpha must be strictly between 0 and 1"),
    ({"min_diff": 0.1, "beta": 0.0}, "beta must be strictly between 0 and 1"),
    ({"min_diff": [0.1, -0.1]}, "min_diff must be a finite number > 0"),
    ({"min_diff": 0.0}, "min_diff must be a finite number > 0"),
    ({"min_diff": 0.1, "test": "anova", "n_systems": 1}, "n_systems must be an integer ≥ 2"),
    ({"min_diff": 0.1, "method": "nagata"}, "'sakai', 'exact'"),
])
def test_bad_arguments(kwargs, match):
    # OptionError for values, ValueError for options; OptionError is a ValueError too
    with pytest.raises(ValueError, match=match):
        topic_set_size(variance=0.04, **kwargs)


def test_unreachable_says_so():
    with pytest.raises(UnreachableTargetError, match="up to 100 topics"):
        topic_set_size(variance=0.04, min_diff=0.001, max_topics=100)
    with pytest.raises(OptionError, match="variance must be a finite number > 0"):
        topic_set_size(variance=0.0, min_diff=0.1)


def test_plot_draws_one_line_per_scheme():
    var = xr.DataArray([0.02, 0.05], dims="scheme", coords={"scheme": ["a", "b"]})
    sizes = topic_set_size(variance=var, min_diff=[0.05, 0.1, 0.2])
    ax = plot_topic_set_size(sizes)
    assert [line.get_label() for line in ax.lines] == ["a", "b"]
    assert ax.lines[1].get_ydata().tolist() == sizes.sel(scheme="b").values.tolist()
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="no 'alpha' dim"):
        plot_topic_set_size(sizes, x="alpha")


@pytest.mark.parametrize("n,m,delta", [(5, 2, 0.5), (20, 5, 0.5), (200, 10, 0.01)])
def test_anova_approximation_is_patnaik_plus_fisher(n, m, delta):
    # Derivation written out: the F test rejects when χ'²_A ≥ k χ²_E with
    # k = φ_A F / φ_E; Patnaik: χ'²_A ≈ c χ²_ν, c = (φ_A+2λ)/(φ_A+λ),
    # ν = (φ_A+λ)²/(φ_A+2λ); Fisher: √(2χ²_ν) ≈ N(√(2ν−1), 1).
    phi_a, phi_e, lam = m - 1, m * (n - 1), n * delta
    k = phi_a * stats.f.isf(0.05, phi_a, phi_e) / phi_e
    c = (phi_a + 2 * lam) / (phi_a + lam)
    nu = (phi_a + lam) ** 2 / (phi_a + 2 * lam)
    mean = math.sqrt(c) * math.sqrt(2 * nu - 1) - math.sqrt(k) * math.sqrt(2 * phi_e - 1)
    expected = stats.norm.sf(0, loc=mean, scale=math.sqrt(c + k))
    assert sakai_power_anova(n, m, delta, 0.05) == pytest.approx(expected, rel=1e-12)


def test_nan_variance_gives_nan_not_a_number_of_topics():
    var = xr.DataArray([0.04, np.nan], dims="measure", coords={"measure": ["ap", "p10"]})
    got = topic_set_size(variance=var, min_diff=0.1)
    assert got.sel(measure="ap") == 34
    assert np.isnan(got.sel(measure="p10"))


def test_schemes_from_scores(adhoc8_ap):
    got = topic_set_size(adhoc8_ap, schemes=["raw", "U"], min_diff=0.05)
    var = design_variance(adhoc8_ap, "paired_t", schemes=["raw", "U"])
    assert got.dims == ("scheme", "measure")
    for scheme in ("raw", "U"):
        assert got.sel(scheme=scheme, measure="ap") == topic_set_size(
            variance=var.sel(scheme=scheme, measure="ap").item(), min_diff=0.05)
    with pytest.raises(OptionError, match="schemes= needs score data"):
        topic_set_size(variance=0.04, schemes=["U"], min_diff=0.05)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 6])
def test_starting_noncentrality_matches_cohens_table(reference, df):
    from scorestd.design.topic_sets import _lambda_infinity

    # Cohen (1988), Table 9.4.2: λ for power .80 at α = .05 with u = df (the χ² limit
    # that Nagata's table and Sakai's tool start the ANOVA design from)
    expected = reference("cohen1988_table9_4_2").set_index("u").loc[df, "lambda"]
    assert _lambda_infinity(df, 0.05, 0.2) == pytest.approx(expected, abs=0.015)


def test_plot_saved_with_a_title_set_afterwards_keeps_it_whole(tmp_path):
    # as docs/power.rst does it: plot, then set a longer title, then save
    var = xr.DataArray([0.02, 0.05], dims="scheme", coords={"scheme": ["a", "b"]})
    sizes = topic_set_size(variance=var, min_diff=[0.05, 0.1, 0.2], alpha=0.01, beta=0.1)
    ax = plot_topic_set_size(sizes)
    assert ax.get_title() == "topics needed: paired_t (α = 0.01, β = 0.1)"
    ax.set_title("paired t-test, AP: topics needed against minD (α = 0.05, β = 0.2)")
    ax.figure.savefig(tmp_path / "n.png")
    renderer = ax.figure.canvas.get_renderer()
    title = ax.title.get_window_extent(renderer)
    figure = ax.figure.bbox
    assert title.y1 <= figure.y1 and title.x0 >= figure.x0 and title.x1 <= figure.x1
    assert ax.get_window_extent(renderer).y1 < title.y0  # the axes make room for it
    plt.close(ax.figure)
