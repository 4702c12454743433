"""Margin selection per system, the mean transform and the bad inputs of the issue."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats

import scorestd
from scorestd.errors import OptionError, ScoreDataError, ScorestdWarning
from scorestd.models import _grid
from scorestd.simulation import fit_margins, solve_mean_transform, support_of


@pytest.fixture(scope="module")
def adhoc8():
    return scorestd.datasets.load("adhoc8")


@pytest.fixture(scope="module")
def ap_margins(adhoc8):
    return fit_margins(adhoc8, measure="ap")


def test_selection_minimises_aic_and_uses_the_effective_df(ap_margins):
    aic = ap_margins.stats["aic"].values
    chosen = ap_margins.stats["family"].values[ap_margins.choice]
    assert (np.nanargmin(aic, axis=0) == ap_margins.choice).all()
    assert set(chosen) <= {"truncnorm", "beta1", "nkde", "bkde"}
    s = ap_margins.summary()
    np.testing.assert_allclose(s["aic"], -2 * s["loglik"] + 2 * s["df"])
    # the log-likelihood of the table is the sum of the margin's log density at the scores
    np.testing.assert_allclose(ap_margins.loglik(), s["loglik"], rtol=1e-6)


def test_bic_and_loglik_criteria(adhoc8):
    by_ll = fit_margins(adhoc8.isel(system=slice(0, 20)), measure="ap", criterion="loglik")
    ll = by_ll.stats["loglik"].values
    assert (np.nanargmax(ll, axis=0) == by_ll.choice).all()
    by_bic = fit_margins(adhoc8.isel(system=slice(0, 20)), measure="ap", criterion="bic")
    assert (np.nanargmin(by_bic.stats["bic"].values, axis=0) == by_bic.choice).all()
    with pytest.raises(ValueError, match="criterion must be one of"):
        fit_margins(adhoc8, measure="ap", criterion="aicc")


def test_means_and_variances_match_the_distributions(ap_margins):
    # the table moments against numerical integration of the exact cdf (5e-6: run1's
    # plug-in kernel has h = 7e-4, three grid steps, so its trapezoid errs by 2e-6)
    def tail(v, s):
        return 1 - ap_margins.cdf(np.full((1, len(ap_margins.systems)), v))[0, s]

    for s in range(0, len(ap_margins.systems), 40):
        mean = integrate.quad(tail, 0, 1, args=(s,), limit=200)[0]
        assert ap_margins.mean[s] == pytest.approx(mean, abs=5e-6)


def test_discrete_margins_for_p10_and_rr(adhoc8):
    m = fit_margins(adhoc8.isel(system=slice(0, 30)), measure="rr")
    assert m.discrete and m.support.size == 1001
    draws = m.sample(200, rng=1)
    assert np.isin(np.round(draws, 12), np.round(m.support, 12)).all()
    pmf = m.pdf(m.support[:, None].repeat(30, axis=1))
    np.testing.assert_allclose(pmf.sum(axis=0), 1.0, atol=1e-10)


def test_constant_run_is_skipped_with_a_warning_naming_it():
    rng = np.random.default_rng(1)
    x = rng.beta(2, 5, size=(30, 3))
    x[:, 1] = 0.25
    cube = scorestd.cube(x, systems=["a", "flat", "c"])
    with pytest.warns(ScorestdWarning, match=r"could not be fitted to 1 system\(s\).*'flat'"):
        with pytest.raises(ScoreDataError, match=r"no margin family could be fitted.*'flat'"):
            fit_margins(cube, families=["truncnorm", "beta1"])


def test_one_family_failing_is_skipped_with_a_warning():
    from scorestd.simulation import TruncNormalMargin

    class Picky(TruncNormalMargin):  # a family that cannot fit low-scoring runs
        name = "picky"

        def _fit(self, values, degenerate):
            p = super()._fit(values, degenerate)
            low = values.mean(axis=-1) < 0.1
            return {k: np.where(low, np.nan, v) for k, v in p.items()}

    x = np.random.default_rng(2).beta(2, 5, size=(40, 3))
    x[:, 1] /= 10
    cube = scorestd.cube(x, systems=["a", "low", "c"], measures=["score"])
    with pytest.warns(ScorestdWarning, match=r"'picky' could not be fitted to 1 .*\['low'\]"):
        m = fit_margins(cube, families=[Picky(), "beta1"])
    assert m.family[1] == "beta1" and not m.stats["ok"].sel(family="picky", system="low")


def test_bad_inputs_name_the_fault(adhoc8):
    # read as P@10, 0.15 is out of range (a warning) and off the margin's support (an error)
    with (pytest.warns(ScorestdWarning, match="outside multiples of 1/10"),
          pytest.raises(ScoreDataError, match="not on the support")):
        fit_margins(scorestd.cube([[0.1, 0.15], [0.2, 0.3], [0.4, 0.5]], measures=["p10"]))
    with pytest.raises(ScoreDataError, match="several measures"):
        fit_margins(adhoc8)
    with pytest.raises(ScoreDataError, match=r"margins need scores in \[0, 1\].*1.5"):
        fit_margins(scorestd.cube([[0.1, 1.5], [0.2, 0.3]]))
    with pytest.raises(ScoreDataError, match="missing scores"):
        fit_margins(scorestd.cube([[0.1, np.nan], [0.2, 0.3]]))
    with pytest.raises(ScoreDataError, match="is continuous but measure 'p10' is discrete"):
        fit_margins(adhoc8, measure="p10", families=["truncnorm"])


def test_mean_transform_hits_its_target_to_1e6(ap_margins):
    systems = ap_margins.systems
    targets = {str(systems[3]): 0.05, str(systems[10]): 0.6, str(systems[20]): 0.3}
    moved = ap_margins.transform(targets)
    for name, goal in targets.items():
        s = list(systems).index(name)
        def tail(v, s=s):
            one = np.zeros((1, len(systems)))
            one[0, s] = v
            return 1 - moved.cdf(one)[0, s]

        assert integrate.quad(tail, 0, 1, limit=400, epsabs=1e-10)[0] == pytest.approx(
            goal, abs=1e-6)
        assert moved.mean[s] == pytest.approx(goal, abs=1e-9)
        assert (moved.a[s] == 1) != (moved.b[s] == 1) or moved.a[s] == moved.b[s] == 1
    # the transformed draws have the target mean
    draws = moved.sample(40000, rng=3)
    s = list(systems).index(str(systems[10]))
    assert draws[:, s].mean() == pytest.approx(0.6, abs=4 * draws[:, s].std() / 200)


def test_mean_transform_bad_targets(ap_margins, adhoc8):
    s = str(ap_margins.systems[0])
    with pytest.raises(OptionError, match=rf"^target mean must be strictly between 0 and 1; "
                                          rf"got 1.2 for system '{s}'$"):
        ap_margins.transform({s: 1.2})
    with pytest.raises(OptionError, match="^target names an unknown system 'nope'; the "
                                          "systems are"):
        ap_margins.transform({"nope": 0.3})
    with pytest.raises(OptionError, match=r"^target needs one value per system \(\d+\); "
                                          r"got shape \(2,\)$"):
        ap_margins.transform([0.2, 0.3])
    # a P@10 margin of mean 0.025 cannot be moved to 0.9999999 (shown as it was given)
    p10 = fit_margins(adhoc8, measure="p10")
    with pytest.raises(OptionError, match=r"^target mean 0.9999999 cannot be reached from "
                                          r"system 'run1' \(mean 0.0246742\)"):
        p10.transform({"run1": 0.9999999})
    with pytest.raises(OptionError, match=r"^u must be probabilities in \[0, 1\]; got 1.5$"):
        ap_margins.icdf(np.full((1, len(ap_margins.systems)), 1.5))
    # a discrete margin whose support tops at 0.5 cannot reach a mean of 0.7
    table = np.cumsum([[0.5, 0.5, 0.0]], axis=1)
    a, _, ok = solve_mean_transform(table, np.array([0.7]), support=np.array([0.0, 0.5, 1.0]))
    assert not ok[0] and np.isnan(a[0])


@settings(max_examples=30, deadline=None)
@given(st.floats(1.2, 6.0), st.floats(1.2, 6.0), st.floats(0.5, 1.5))
def test_property_transform_reaches_any_target_inside(a, b, where):
    # targets from half the mean up to half-way to 1 (far tails need shapes > 1e7)
    mean0 = a / (a + b)
    target = mean0 * where if where <= 1 else mean0 + (where - 1) * (1 - mean0)
    table = stats.beta(a, b).cdf(_grid.X)[np.newaxis]
    table[0, -1] = 1.0
    sa, sb, ok = solve_mean_transform(table, np.array([target]))
    assert ok[0] and min(sa[0], sb[0]) == 1.0
    moved = np.where(sb == 1.0, table ** sa[:, None], 1 - (1 - table) ** sb[:, None])
    mean, _ = _grid.table_moments(moved)
    assert mean[0] == pytest.approx(target, abs=1e-9)


def test_margins_serve_as_standardizers(adhoc8):
    # a margin family is a Model: fitted per topic across systems it standardizes
    from scorestd.models import get_model

    cube = adhoc8.sel(measure=["ap"]).isel(system=slice(0, 40))
    y = get_model("beta1").fit(cube).cdf(cube)
    assert float(y.min()) >= 0 and float(y.max()) <= 1
    assert scorestd.standardize(cube, "nkde").shape == cube.shape
    assert support_of("p10") is not None
