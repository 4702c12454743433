"""Closed-form Bayesian paired comparison: against scipy's paired t-test, and its invariants."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

import scorestd
from scorestd.errors import OptionError, ScoreDataError
from scorestd.kernels.paired_posterior import paired_posterior_all_pairs


def test_prob_not_greater_is_scipys_one_sided_pvalue(robust2004):
    ap = robust2004.sel(measure="ap").isel(system=slice(0, 30))
    post = scorestd.bayes_compare(ap)
    x = ap.transpose("topic", "system").values
    # reference: scipy.stats.ttest_rel(alternative="greater"), pair by pair
    for k, (a, b) in enumerate(zip(post.system.values, post.system2.values, strict=True)):
        i, j = int(a[3:]) - 1, int(b[3:]) - 1
        p = stats.ttest_rel(x[:, i], x[:, j], alternative="greater").pvalue
        assert abs((1.0 - post.prob_greater.values[k]) - p) <= 1e-12


def test_missing_scores_match_scipy_with_omit():
    rng = np.random.default_rng(3)
    x = rng.beta(2, 5, (15, 4))
    x[[0, 3, 7], [1, 2, 1]] = np.nan
    post = paired_posterior_all_pairs(x)
    i, j = np.triu_indices(4, 1)
    for k in range(i.size):
        res = stats.ttest_rel(x[:, i[k]], x[:, j[k]], alternative="greater", nan_policy="omit")
        assert abs((1.0 - post.prob_greater[k]) - res.pvalue) <= 1e-12
        keep = ~np.isnan(x[:, i[k]] - x[:, j[k]])
        assert post.n[k] == keep.sum()


def test_interval_is_the_t_interval_and_rope_the_t_masses():
    rng = np.random.default_rng(5)
    x = rng.normal(0.3, 0.1, (20, 3))
    post = paired_posterior_all_pairs(x, prob=0.9, rope=(-0.02, 0.03))
    d = x[:, 0] - x[:, 1]
    # reference: scipy's t distribution with loc = mean, scale = sd / sqrt(n), df = n - 1
    dist = stats.t(19, loc=d.mean(), scale=d.std(ddof=1) / np.sqrt(20))
    np.testing.assert_allclose([post.ci_low[0], post.ci_high[0]], dist.interval(0.9),
                               rtol=1e-12)
    np.testing.assert_allclose(
        [post.prob_below[0], post.prob_rope[0], post.prob_above[0]],
        [dist.cdf(-0.02), dist.cdf(0.03) - dist.cdf(-0.02), dist.sf(0.03)], rtol=1e-10)
    np.testing.assert_allclose(post.sd[0], dist.std(), rtol=1e-12)


def test_identical_and_constant_differences_are_point_masses():
    x = np.array([[0.125, 0.125, 0.375], [0.5, 0.5, 0.75], [0.25, 0.25, 0.5]])
    post = paired_posterior_all_pairs(x, rope=(-0.1, 0.1))
    # pairs: (0,1) identical, (0,2) constant -0.25, (1,2) constant -0.25
    assert post.prob_greater.tolist() == [0.0, 0.0, 0.0]
    assert post.prob_less.tolist() == [0.0, 1.0, 1.0]
    assert post.prob_rope.tolist() == [1.0, 0.0, 0.0]
    assert post.prob_below.tolist() == [0.0, 1.0, 1.0]
    np.testing.assert_allclose(post.ci_low, post.ci_high)


def test_labelled_result_baseline_and_measures(small_cube):
    res = scorestd.bayes_compare(small_cube, baseline="s3", rope=0.05, ci_prob=0.8)
    assert res.sizes == {"measure": 2, "pair": 5}
    assert set(res.system2.values) == {"s3"}
    assert res.attrs["ci_prob"] == 0.8 and res.attrs["rope"] == [-0.05, 0.05]
    total = res.prob_below_rope + res.prob_in_rope + res.prob_above_rope
    np.testing.assert_allclose(total, 1.0)
    freq = scorestd.compare(small_cube, baseline="s3", alternative="greater")
    np.testing.assert_allclose(1 - res.prob_greater, freq.p_value, atol=1e-12, rtol=0)
    np.testing.assert_allclose(res["mean"], freq.mean_diff, atol=1e-12)
    two_d = scorestd.bayes_compare(small_cube.sel(measure="ap"))
    assert "measure" not in two_d.dims and "prob_in_rope" not in two_d


def test_dask_backed_cube_gives_the_same(small_cube):
    pytest.importorskip("dask")
    lazy = scorestd.bayes_compare(small_cube.chunk({"measure": 1}), rope=0.02)
    xr.testing.assert_allclose(lazy.compute(), scorestd.bayes_compare(small_cube, rope=0.02))


@pytest.mark.parametrize(("change", "message"), [
    (lambda c: c.isel(topic=[0]), "at least 2 topics"),
    (lambda c: c.isel(system=[0]), "at least 2 systems"),
    (lambda c: c.where(c.system != "s2"), "system 's2' has no score"),
    (lambda c: c.where(c.topic != "t4"), "topic 't4' has no score"),
])
def test_bad_scores_are_named(small_cube, change, message):
    with pytest.raises(ScoreDataError, match=message):
        scorestd.bayes_compare(change(small_cube))


def test_non_finite_scores_are_refused(small_cube):
    bad = small_cube.copy()
    bad[2, 1, 0] = np.inf
    with pytest.raises(ScoreDataError, match="infinite score"):
        scorestd.bayes_compare(bad)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rope": -0.1}, "rope must be"),
    ({"rope": (0.2, 0.1)}, "rope must be"),
    ({"rope": (0.0, float("nan"))}, "rope must be"),
    ({"rope": "wide"}, "rope must be"),
    ({"ci_prob": 1.0}, "ci_prob must be strictly between 0 and 1"),
    ({"ci_kind": "central"}, "ci_kind must be one of"),
    ({"nan_policy": "drop"}, "nan_policy must be one of"),
])
def test_bad_options_are_named(small_cube, kwargs, message):
    with pytest.raises(OptionError, match=message):
        scorestd.bayes_compare(small_cube, **kwargs)


scores = arrays(np.float64, st.tuples(st.integers(3, 8), st.integers(2, 5)),
                elements=st.floats(0, 1, allow_subnormal=False))


@given(scores, st.floats(-5, 5), st.floats(0.1, 10))
def test_invariants_under_shift_scale_and_swap(x, shift, scale):
    base = paired_posterior_all_pairs(x, rope=(-0.05, 0.05))
    moved = paired_posterior_all_pairs(scale * x + shift, rope=(-0.05 * scale, 0.05 * scale))
    spread = np.isfinite(base.scale) & (base.scale > 1e-6 * np.abs(base.loc).clip(1e-3))
    for name in ("prob_greater", "prob_below", "prob_rope", "prob_above"):
        np.testing.assert_allclose(getattr(moved, name)[spread], getattr(base, name)[spread],
                                   atol=1e-6)
    np.testing.assert_allclose(moved.ci_high[spread], scale * base.ci_high[spread],
                               rtol=1e-6, atol=1e-9)
    # swapping the two systems of a pair mirrors the posterior
    i, j = np.triu_indices(x.shape[1], 1)
    swapped = paired_posterior_all_pairs(x, pairs=(j, i), rope=(-0.05, 0.05))
    np.testing.assert_allclose(swapped.loc, -base.loc, atol=1e-12)
    np.testing.assert_allclose(swapped.prob_below, base.prob_above, atol=1e-12)
    total = base.prob_below + base.prob_rope + base.prob_above
    np.testing.assert_allclose(total[np.isfinite(total)], 1.0)
