"""solve_power against statsmodels and scipy computed directly."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.power import TTestIndPower, TTestPower

import scorestd
from scorestd.design.power import power_function, solve_power
from scorestd.design.variance import estimate_variance
from scorestd.errors import OptionError, ScoreDataError, UnreachableTargetError


@pytest.mark.parametrize("variance", [0.01, 0.0272, 0.05])
@pytest.mark.parametrize("min_diff", [0.02, 0.05, 0.1])
@pytest.mark.parametrize("alpha,power", [(0.05, 0.8), (0.01, 0.9)])
def test_exact_paired_n_is_statsmodels_rounded_up(variance, min_diff, alpha, power):
    expected = math.ceil(TTestPower().solve_power(effect_size=min_diff / math.sqrt(variance),
                                                  alpha=alpha, power=power))
    got = solve_power(variance=variance, min_diff=min_diff, alpha=alpha, power=power)
    assert got == expected


def test_paired_n_from_scores_uses_twice_the_residual_variance(adhoc8_ap):
    sd = math.sqrt(2 * estimate_variance(adhoc8_ap).item())  # σ_t² = 2 V_E
    expected = math.ceil(TTestPower().solve_power(effect_size=0.05 / sd, alpha=0.05, power=0.8))
    got = solve_power(adhoc8_ap, min_diff=0.05, power=0.8)
    assert got.dims == ("measure",)
    assert got.sel(measure="ap").item() == expected
    assert got.name == "n_topics"


@given(st.floats(0.01, 0.3), st.integers(3, 300), st.sampled_from([0.01, 0.05, 0.1]),
       st.floats(0.005, 0.08))
def test_power_equals_statsmodels_and_solvers_invert_it(min_diff, n, alpha, variance):
    effect = min_diff / math.sqrt(variance)
    crit, nc = stats.t.isf(alpha / 2, n - 1), effect * math.sqrt(n)
    # two tails of the noncentral t, the lower one by symmetry (nct.cdf(-c) is NaN far out)
    direct = stats.nct.sf(crit, n - 1, nc) + stats.nct.sf(crit, n - 1, -nc)
    got = solve_power(variance=variance, min_diff=min_diff, n_topics=n, alpha=alpha, power=None)
    assert got == pytest.approx(direct, abs=1e-9)
    statsmodels_power = TTestPower().power(effect_size=effect, nobs=n, alpha=alpha)
    if not math.isnan(statsmodels_power):
        assert got == statsmodels_power
    if alpha + 1e-6 < got < 1 - 1e-6:
        d = solve_power(variance=variance, n_topics=n, alpha=alpha, power=got)
        assert d == pytest.approx(min_diff, rel=1e-6)
        a = solve_power(variance=variance, min_diff=min_diff, n_topics=n, alpha=None, power=got)
        assert a == pytest.approx(alpha, rel=1e-5)


@pytest.mark.parametrize("m", [2, 5, 20])
@pytest.mark.parametrize("n", [5, 30])
def test_anova_power_equals_scipy_ncf(m, n):
    sigma2, min_diff, alpha = 0.03, 0.1, 0.05
    f = min_diff / (math.sqrt(sigma2) * math.sqrt(2 * m))  # worst case: two systems minD apart
    df1, df2 = m - 1, m * (n - 1)
    expected = stats.ncf.sf(stats.f.isf(alpha, df1, df2), df1, df2, f * f * n * m)
    got = solve_power(test="anova", variance=sigma2, min_diff=min_diff, n_topics=n,
                      alpha=alpha, power=None, n_systems=m)
    assert got == pytest.approx(expected, rel=1e-9)


def test_anova_n_is_smallest_n_by_direct_ncf_loop():
    sigma2, min_diff, alpha, m, target = 0.03, 0.1, 0.05, 10, 0.8
    n = 2
    while True:  # plain search with scipy's noncentral F
        df1, df2 = m - 1, m * (n - 1)
        lam = min_diff**2 / (2 * sigma2) * n
        if stats.ncf.sf(stats.f.isf(alpha, df1, df2), df1, df2, lam) >= target:
            break
        n += 1
    got = solve_power(test="anova", variance=sigma2, min_diff=min_diff, power=target,
                      n_systems=m)
    assert got == n


def test_anova_takes_number_of_systems_from_the_cube(small_cube):
    sigma2 = estimate_variance(small_cube).sel(measure="ap").item()
    got = solve_power(small_cube, test="anova", min_diff=0.2, n_topics=12, power=None)
    expected = power_function("anova", variance=sigma2, n_systems=6)(0.2, 12, 0.05)
    assert got.sel(measure="ap").item() == pytest.approx(expected)


def test_unpaired_power_equals_statsmodels_ind(small_cube):
    sigma2 = estimate_variance(small_cube, kind="within_system").sel(measure="ndcg").item()
    expected = TTestIndPower().power(effect_size=0.1 / math.sqrt(sigma2), nobs1=40, alpha=0.05)
    got = solve_power(small_cube, test="unpaired_t", min_diff=0.1, n_topics=40, power=None)
    assert got.sel(measure="ndcg").item() == pytest.approx(expected, rel=1e-10)


def test_one_sided_matches_statsmodels_larger():
    # statsmodels calls the one-sided test in the direction of the effect "larger"
    expected = TTestPower().power(effect_size=0.5, nobs=20, alpha=0.05, alternative="larger")
    for alternative in ("greater", "less"):  # the design's direction is the difference's
        got = solve_power(variance=1.0, min_diff=0.5, n_topics=20, power=None,
                          alternative=alternative)
        assert got == pytest.approx(expected, rel=1e-12)
    with pytest.warns(DeprecationWarning, match="alternative='larger' is deprecated"):
        old = solve_power(variance=1.0, min_diff=0.5, n_topics=20, power=None,
                          alternative="larger")
    assert old == pytest.approx(expected, rel=1e-12)


def test_scheme_mapping_gives_scheme_dim(small_cube):
    got = solve_power({"raw": small_cube, "half": small_cube / 2}, min_diff=0.1, power=0.8)
    assert got.dims == ("scheme", "measure")
    assert (got.sel(scheme="half") <= got.sel(scheme="raw")).all()


@pytest.mark.parametrize("kwargs,match", [
    ({"alpha": 0.0, "power": 0.8, "min_diff": 0.1}, "alpha must be strictly between 0 and 1"),
    ({"alpha": 1.2, "power": 0.8, "min_diff": 0.1}, "alpha must be strictly between 0 and 1"),
    ({"power": 1.0, "min_diff": 0.1}, "power must be strictly between 0 and 1"),
    ({"power": 0.8, "min_diff": 0.0}, "min_diff must be a finite number > 0"),
    ({"power": 0.8, "min_diff": -1}, "min_diff must be a finite number > 0"),
    ({"power": 0.8}, "exactly one of"),
    ({"power": 0.8, "min_diff": 0.1, "n_topics": 20}, "exactly one of"),
    ({"n_topics": 1, "power": None, "min_diff": 0.1}, "n_topics must be an integer ≥ 2"),
    ({"power": 0.8, "min_diff": 0.1, "test": "wilcoxon"}, "'paired_t', 'unpaired_t', 'anova'"),
])
def test_bad_arguments(kwargs, match):
    # OptionError for values, ValueError for options; OptionError is a ValueError too
    with pytest.raises(ValueError, match=match):
        solve_power(variance=0.04, **kwargs)


def test_unreachable_targets_are_reported_not_returned():
    with pytest.raises(UnreachableTargetError, match="with up to 50 topics"):
        solve_power(variance=0.04, min_diff=0.01, power=0.9, max_topics=50)
    with pytest.raises(UnreachableTargetError, match="already reached"):
        solve_power(variance=0.04, n_topics=20, power=0.01)  # power below alpha
    with pytest.raises(UnreachableTargetError, match="any alpha < 1"):
        solve_power(variance=0.04, min_diff=0.1, n_topics=3, alpha=None, power=1 - 1e-12)
    with pytest.raises(UnreachableTargetError, match="with up to 10 topics"):
        solve_power(test="anova", variance=0.04, min_diff=0.01, power=0.8, n_systems=5,
                    max_topics=10)


def test_scores_or_variance_but_not_both(small_cube):
    with pytest.raises(OptionError, match="not both or neither"):
        solve_power(small_cube, variance=0.1, min_diff=0.1, power=0.8)
    with pytest.raises(OptionError, match="not both or neither"):
        solve_power(min_diff=0.1, power=0.8)


def test_one_system_cube_is_rejected():
    with pytest.raises(ScoreDataError, match="two systems"):
        solve_power(scorestd.cube(np.ones((5, 1))), min_diff=0.1, power=0.8)


def test_design_variance_per_test_and_pooled(robust2004, adhoc8_ap):
    from scorestd.design.power import design_variance

    cubes = [robust2004.sel(measure=["ap"]), adhoc8_ap]
    resid = estimate_variance(cubes)
    assert design_variance(cubes, "paired_t").item() == pytest.approx(2 * resid.item())
    assert design_variance(cubes, "ci").item() == pytest.approx(2 * resid.item())
    assert design_variance(cubes, "anova").item() == pytest.approx(resid.item())
    within = estimate_variance(cubes, kind="within_system").item()
    assert design_variance(cubes, "unpaired_t").item() == pytest.approx(within)
    assert design_variance(cubes, "paired_t").attrs["kind"] == "2 × residual"
    # one complete collection: 2 V_E is the pooled variance of all paired differences
    one = estimate_variance(adhoc8_ap, kind="paired_difference").item()
    assert design_variance(adhoc8_ap, "paired_t").item() == pytest.approx(one, rel=1e-10)


@given(st.floats(1, 500), st.floats(0.05, 0.99), st.floats(-50, 2000))
def test_smallest_n_with_a_start_hint_is_the_same_integer(scale, target, start):
    from scorestd.design.power import smallest_n

    def fn(n):
        return 1 - math.exp(-n / scale)

    plain = smallest_n(fn, target, max_topics=100_000, what="demo")
    hinted = smallest_n(fn, target, max_topics=100_000, what="demo", start=start)
    assert hinted == plain
    assert fn(plain) >= target and (plain == 2 or fn(plain - 1) < target)


def test_schemes_from_scores(adhoc8_ap):
    got = solve_power(adhoc8_ap, schemes=["raw", "E"], min_diff=0.05, n_topics=50, power=None)
    assert got.dims == ("scheme", "measure")
    raw = solve_power(adhoc8_ap, min_diff=0.05, n_topics=50, power=None)
    assert got.sel(scheme="raw", measure="ap").item() == raw.sel(measure="ap").item()
