"""Figures of the error-rate study: what each kind draws, and what the default draws."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import xarray as xr

import scorestd
from scorestd.errors import OptionError, ScorestdError
from scorestd.experiments.significance_errors import ErrorRates
from scorestd.mapping import PerSlice

MEASURES, SIZES, TESTS = ["ap", "p10"], [10, 20], ["paired_t", "sign", "bootstrap"]
TYPE1_HEADING = "Type I error rate against α (two-tailed; grey: nominal)"


@pytest.fixture(scope="module")
def study():
    # B = 50: the bootstrap's p ≥ 1/51 never reaches α = .01, a Type I rate of 0 to mark
    return scorestd.error_rates(["adhoc8"], measures=MEASURES, n_topics=SIZES,
                                deltas=[0.02, 0.05, 0.1], alphas=[0.01, 0.05, 0.1],
                                tests=TESTS, trials=128, trials_type2=64, B=50,
                                copula="gaussian", seed=4)


@pytest.fixture(scope="module")
def type1_only(study):
    """The same study as if it had run no Type II trials."""
    data = study.data.drop_vars(["power", "power_se", "type3", "type3_se", "type2_trials",
                                 "delta"])
    return ErrorRates(data)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def lines_by_test(ax):
    return {line.get_label(): line for line in ax.get_lines()
            if line.get_label() in TESTS}


def panels(axes):
    """Panels in reading order: one row per topic set size, one column per measure."""
    return {(m, n): axes[r * len(MEASURES) + c]
            for r, n in enumerate(SIZES) for c, m in enumerate(MEASURES)}


def assert_type1_panels(axes, data):
    for (m, n), ax in panels(axes).items():
        assert ax.get_title() == f"{m}, {n} topics"
        assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
        assert ax.get_xlabel() == "α"
        for test, line in lines_by_test(ax).items():
            rates = data["type1"].sel(measure=m, n_topics=n, test=test, tails=2).values
            np.testing.assert_array_equal(line.get_xdata(), data["alpha"].values)
            np.testing.assert_array_equal(np.asarray(line.get_ydata(), dtype=float),
                                          np.where(rates == 0, np.nan, rates))
        assert sorted(lines_by_test(ax)) == sorted(TESTS)


def assert_power_panels(axes, data, alpha):
    for (m, n), ax in panels(axes).items():
        assert ax.get_title() == f"{m}, {n} topics"
        assert (ax.get_xscale(), ax.get_yscale()) == ("linear", "linear")
        assert ax.get_xlabel() == "δ"
        for test, line in lines_by_test(ax).items():
            np.testing.assert_array_equal(line.get_xdata(), data["delta"].values)
            np.testing.assert_array_equal(
                line.get_ydata(),
                data["power"].sel(measure=m, n_topics=n, test=test, tails=2,
                                  alpha=alpha).values)
            assert line.get_marker() == "o"  # each δ of the design marked
        assert sorted(lines_by_test(ax)) == sorted(TESTS)


def test_the_default_figure_of_a_study_with_type2_trials_shows_type1_and_power(study,
                                                                              tmp_path):
    fig = scorestd.plot_error_rates(study, path=tmp_path / "rates.png")
    assert (tmp_path / "rates.png").stat().st_size > 0
    panel_count = len(MEASURES) * len(SIZES)
    assert len(fig.axes) == 2 * panel_count
    type1_axes, power_axes = fig.axes[:panel_count], fig.axes[panel_count:]
    # two blocks, each headed by what it shows
    assert [sub.get_suptitle() for sub in fig.subfigs] == [
        TYPE1_HEADING, "power against the true difference δ (α = 0.05, two-tailed)"]
    assert [sub.axes for sub in fig.subfigs] == [type1_axes, power_axes]
    assert_type1_panels(type1_axes, study.data)
    assert_power_panels(power_axes, study.data, alpha=0.05)
    # y labels on the first column only, one per block
    assert [ax.get_ylabel() for ax in fig.axes] == (
        ["Type I error rate", ""] * 2 + ["power", ""] * 2)
    # one legend, below both blocks: every test and the marker of a rate of 0
    assert study.data["type1"].sel(test="bootstrap", alpha=0.01).values.max() == 0
    assert all(ax.get_legend() is None for ax in fig.axes)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == [
        *TESTS, "Type I rate 0 (no rejection in 128 trials)"]


def test_the_default_figure_is_the_type1_figure_without_type2_trials(type1_only, study):
    fig = scorestd.plot_error_rates(type1_only)
    assert len(fig.axes) == len(MEASURES) * len(SIZES) and not fig.subfigs
    assert fig.get_suptitle() == TYPE1_HEADING
    assert_type1_panels(fig.axes, study.data)
    assert not fig.legends
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == [
        *TESTS, "rate 0 (no rejection in 128 trials)"]
    explicit = scorestd.plot_error_rates(type1_only, kind="type1")
    for a, b in zip(fig.axes, explicit.axes, strict=True):
        for line_a, line_b in zip(a.get_lines(), b.get_lines(), strict=True):
            np.testing.assert_array_equal(line_a.get_xydata(), line_b.get_xydata())


def test_the_power_panels_follow_the_alpha_asked_for(study):
    fig = scorestd.plot_error_rates(study, alpha=0.01, tails=1)
    assert fig.subfigs[1].get_suptitle() == ("power against the true difference δ "
                                             "(α = 0.01, one-tailed)")
    ax = fig.axes[len(MEASURES) * len(SIZES)]  # ap, 10 topics
    np.testing.assert_array_equal(
        lines_by_test(ax)["sign"].get_ydata(),
        study.data["power"].sel(measure="ap", n_topics=10, test="sign", tails=1,
                                alpha=0.01).values)
    # type1_power asks for both blocks by name
    named = scorestd.plot_error_rates(study, kind="type1_power")
    assert [sub.get_suptitle() for sub in named.subfigs] == [
        sub.get_suptitle() for sub in scorestd.plot_error_rates(study).subfigs]


@pytest.mark.parametrize(("kind", "heading", "ylabel", "xlabel", "variable"), [
    ("type1", TYPE1_HEADING, "Type I error rate", "α", "type1"),
    ("power", "power against the true difference δ (α = 0.05, two-tailed)", "power", "δ",
     "power"),
    ("power_alpha", "power against α (δ = 0.05, two-tailed)", "power", "α", "power"),
    ("type3", "Type III error rate against δ (α = 0.05, two-tailed)", "Type III error rate",
     "δ", "type3"),
])
def test_each_kind_draws_its_rates_in_one_block(study, kind, heading, ylabel, xlabel,
                                                variable):
    fig = study.plot(kind=kind)
    assert fig.get_suptitle() == heading and not fig.subfigs
    assert len(fig.axes) == len(MEASURES) * len(SIZES)
    assert [ax.get_ylabel() for ax in fig.axes] == [ylabel, ""] * 2
    selection = {"type1": {"tails": 2}, "power": {"tails": 2, "alpha": 0.05},
                 "power_alpha": {"tails": 2, "delta": 0.05}, "type3": {"alpha": 0.05}}[kind]
    for (m, n), ax in panels(fig.axes).items():
        assert ax.get_xlabel() == xlabel
        for test, line in lines_by_test(ax).items():
            rates = study.data[variable].sel(measure=m, n_topics=n, test=test,
                                             **selection).values
            drawn = np.asarray(line.get_ydata(), dtype=float)
            np.testing.assert_array_equal(drawn, np.where(rates == 0, np.nan, rates)
                                          if kind == "type1" else rates)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend[:3] == TESTS


def test_the_result_plot_is_the_public_function(study, tmp_path):
    ours = study.plot(tmp_path / "a.png", kind="power_alpha", delta=0.1)
    public = scorestd.plot_error_rates(study.data, kind="power_alpha", delta=0.1)
    for a, b in zip(ours.axes, public.axes, strict=True):
        assert [line.get_label() for line in a.get_lines()] == [
            line.get_label() for line in b.get_lines()]
        for line_a, line_b in zip(a.get_lines(), b.get_lines(), strict=True):
            np.testing.assert_array_equal(line_a.get_xydata(), line_b.get_xydata())


def test_bad_requests_are_named(study, type1_only):
    with pytest.raises(OptionError, match="kind must be one of"):
        study.plot(kind="type2")
    with pytest.raises(OptionError, match="kind='type1_power' needs Type II trials"):
        scorestd.plot_error_rates(type1_only, kind="type1_power")
    with pytest.raises(OptionError, match="kind='power' needs Type II trials"):
        type1_only.plot(kind="power")
    with pytest.raises(OptionError, match=r"alpha must be one of the levels computed, "
                                          r"0.01, 0.05, 0.1; got 0.02; the default figure "
                                          r"draws power at alpha: pass one of the levels "
                                          r"computed, or kind='type1'"):
        scorestd.plot_error_rates(study, alpha=0.02)
    with pytest.raises(OptionError, match="tails must be one of 1, 2; got 3"):
        scorestd.plot_error_rates(study, tails=3)
    with pytest.raises(ScorestdError, match="expected the result of scorestd.error_rates"):
        scorestd.plot_error_rates(xr.Dataset({"x": 1}))
    per_slice = PerSlice(["trial"], {0: study, 1: study})
    with pytest.raises(ScorestdError, match=r"one study per slice of trial: plot the study "
                                            r"of one slice \(rates.sel\(...\)\)"):
        scorestd.plot_error_rates(per_slice)
    # a Type I figure needs no level of the power panels
    scorestd.plot_error_rates(type1_only, alpha=0.02)
