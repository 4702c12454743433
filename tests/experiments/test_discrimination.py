"""Discriminative power against scipy's paired t-test and plain counting."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

import scorestd
from scorestd.errors import ScoreDataError, ScorestdError
from scorestd.experiments.discrimination import discriminative_power


@pytest.fixture(scope="module")
def sub(adhoc8_ap):
    return adhoc8_ap.isel(system=slice(0, 12))


def test_paired_t_p_values_equal_scipy_ttest_rel(sub):
    dp = discriminative_power(sub, alphas=[0.05])
    x = sub.sel(measure="ap").values
    expected = [stats.ttest_rel(x[:, i], x[:, j]).pvalue
                for i, j in itertools.combinations(range(x.shape[1]), 2)]
    np.testing.assert_allclose(dp.data["p"].sel(scheme="raw", measure="ap").values, expected,
                               rtol=1e-9)
    assert dp.data["system"].values[0] == "run1" and dp.data["system2"].values[0] == "run2"
    frac = float(np.mean(np.array(expected) < 0.05))
    assert dp.data["fraction"].sel(scheme="raw", measure="ap", alpha=0.05).item() == frac
    assert dp.summary().loc[("ap", "raw"), "alpha=0.05"] == frac


def test_asl_curve_is_the_sorted_p_values(sub):
    dp = discriminative_power(sub, schemes=["raw", "E"])
    for scheme in ("raw", "E"):
        p = dp.data["p"].sel(scheme=scheme, measure="ap").values
        np.testing.assert_array_equal(dp.data["asl"].sel(scheme=scheme, measure="ap").values,
                                      np.sort(p))


def test_schemes_are_standardized_against_all_systems(sub):
    dp = discriminative_power(sub, schemes=["U"])
    x = scorestd.standardize(sub, model="uniform").sel(measure="ap").values
    expected = [stats.ttest_rel(x[:, i], x[:, j]).pvalue
                for i, j in itertools.combinations(range(x.shape[1]), 2)]
    np.testing.assert_allclose(dp.data["p"].sel(scheme="U", measure="ap").values, expected,
                               rtol=1e-9)


def test_randomised_tukey_p_values_follow_the_mean_differences(sub):
    dp = discriminative_power(sub, test="randomised_tukey_hsd", B=500, seed=5)
    p = dp.data["p"].sel(scheme="raw", measure="ap").values
    diff = np.abs(dp.data["mean_diff"].sel(scheme="raw", measure="ap").values)
    # p = (1 + #{permutation ranges ≥ |diff|}) / (B + 1): non-increasing in |diff|
    order = np.argsort(diff)
    assert (np.diff(p[order]) <= 1e-12).all()
    assert p.min() >= 1 / 501 and p.max() <= 1
    again = discriminative_power(sub, test="randomised_tukey_hsd", B=500, seed=5)
    np.testing.assert_array_equal(again.data["p"].values, dp.data["p"].values)
    # family-wise adjustment: never more pairs than the unadjusted paired t-test flags here
    t = discriminative_power(sub)
    assert (dp.data["fraction"] <= t.data["fraction"] + 1e-12).all()


def test_missing_scores(sub):
    x = sub.sel(measure="ap").values.copy()
    x[0, 0] = np.nan
    c = scorestd.cube(x)
    dp = discriminative_power(c)
    expected = stats.ttest_rel(x[1:, 0], x[1:, 1]).pvalue  # pair (0, 1) drops topic 0
    assert dp.data["p"].values[0, 0, 0] == pytest.approx(expected, rel=1e-9)
    with pytest.raises(ScoreDataError, match="complete scores"):
        discriminative_power(c, test="randomised_tukey_hsd", seed=1, B=10)


def test_bad_input(sub):
    with pytest.raises(ScoreDataError, match="two systems"):
        discriminative_power(sub.isel(system=[0]))
    with pytest.raises(ScorestdError, match="seed="):
        discriminative_power(sub, test="randomised_tukey_hsd")
    with pytest.raises(ScorestdError, match="alphas"):
        discriminative_power(sub, alphas=[0.05, 1.0])
    with pytest.raises(ValueError, match="test must be one of 'paired_t', 'wilcoxon'"):
        discriminative_power(sub, test="welch")


def test_any_paired_test_gives_the_p_values_of_compare(sub):
    # the same dispatcher as scorestd.compare: its p-values pair by pair
    for test, extra in (("wilcoxon", {}), ("sign", {}), ("permutation", {"B": 200})):
        dp = discriminative_power(sub, test=test, seed=4, **extra)
        seed = np.random.SeedSequence(4).spawn(1)[0]  # measure 0's child seed
        expected = scorestd.compare(sub, test, seed=seed, **extra).p_value.sel(measure="ap")
        np.testing.assert_allclose(dp.data["p"].sel(scheme="raw", measure="ap").values,
                                   expected.values, rtol=1e-12)


def test_old_test_name_is_read_with_a_deprecation_warning(sub):
    with pytest.warns(DeprecationWarning, match="test='randomised_tukey' is deprecated"):
        old = discriminative_power(sub, test="randomised_tukey", B=50, seed=2)
    new = discriminative_power(sub, test="randomised_tukey_hsd", B=50, seed=2)
    np.testing.assert_array_equal(old.data["p"].values, new.data["p"].values)


def test_plot_one_line_per_scheme(sub):
    fig = discriminative_power(sub, schemes=["raw", "N"]).plot()
    ax = fig.axes[0]
    assert [line.get_label() for line in ax.lines[:2]] == ["raw", "N"]
    plt.close(fig)


@given(arrays(np.int64, (8, 4), elements=st.integers(0, 64)),
       arrays(np.int64, (8, 1), elements=st.integers(-64, 64)))
def test_paired_p_values_ignore_topic_effects(x, topic_effect):
    # scores on a 1/64 grid: differences stay exact when a topic effect is added
    x, topic_effect = x / 64, topic_effect / 64
    base = discriminative_power(scorestd.cube(x)).data["p"].values
    shifted = discriminative_power(scorestd.cube(x + topic_effect)).data["p"].values
    np.testing.assert_allclose(shifted, base, rtol=1e-6, atol=1e-9)
