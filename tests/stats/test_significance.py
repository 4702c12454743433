"""Labelled significance tests: scipy pair by pair on real data, labels, NaN, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import scorestd
from scorestd import ScoreDataError


@pytest.fixture(scope="module")
def ap8():
    """10 systems × 50 topics of TREC-8 ad hoc AP."""
    return scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 10))


def scores_of(cube, system):
    return cube.sel(system=system).squeeze("measure", drop=True).values


@pytest.mark.parametrize("test,reference", [
    ("paired_t", lambda a, b: stats.ttest_rel(a, b)),
    ("wilcoxon", lambda a, b: stats.wilcoxon(a, b, method="exact")
        if np.unique(np.abs(a - b)).size == a.size and np.all(a != b)  # scipy's auto rule
        else stats.wilcoxon(a, b, method="asymptotic")),
])
def test_compare_matches_scipy_real(ap8, test, reference):
    res = scorestd.compare(ap8, test, correction="holm").sel(measure="ap")
    for k in range(res.sizes["pair"]):
        row = res.isel(pair=k)
        a, b = scores_of(ap8, str(row.system.item())), scores_of(ap8, str(row.system2.item()))
        ref = reference(a, b)
        assert row.p_value.item() == pytest.approx(ref.pvalue, rel=1e-8)
        assert row.mean_diff.item() == pytest.approx(np.mean(a - b), abs=1e-14)
        d = a - b
        assert row.effect_size.item() == pytest.approx(d.mean() / d.std(ddof=1))
        assert row.glass_delta.item() == pytest.approx(d.mean() / b.std(ddof=1))
        ci = stats.ttest_rel(a, b).confidence_interval(0.95)  # scipy's t-based CI
        assert row.ci_low.item() == pytest.approx(ci.low)
        assert row.ci_high.item() == pytest.approx(ci.high)
    ref_adj = multipletests(res.p_value.values, method="holm")[1]
    np.testing.assert_allclose(res.p_adjusted.values, ref_adj, rtol=1e-12)


def test_compare_sign_test_vs_binomtest(ap8):
    res = scorestd.compare(ap8, "sign", baseline="run3", alternative="greater")
    assert res.system2.values.tolist() == ["run3"] * 9
    for k in range(9):
        row = res.isel(measure=0, pair=k)
        d = scores_of(ap8, str(row.system.item())) - scores_of(ap8, "run3")
        wins, losses = int(np.sum(d >= 0.01)), int(np.sum(d <= -0.01))
        ref = stats.binomtest(wins, wins + losses, alternative="greater").pvalue
        assert row.p_value.item() == pytest.approx(ref, rel=1e-10)


def test_two_d_input_and_labels():
    rng = np.random.default_rng(41)
    da = xr.DataArray(rng.random((8, 3)), dims=("topic", "system"),
                      coords={"topic": [f"q{k}" for k in range(8)], "system": ["a", "b", "c"]})
    res = scorestd.compare(da, "paired_t")
    assert "measure" not in res.dims
    assert res.pair.values.tolist() == ["a vs b", "a vs c", "b vs c"]
    assert res.sel(pair="b vs c").system2.item() == "c"
    ref = stats.ttest_rel(da.sel(system="b"), da.sel(system="c"))
    assert res.sel(pair="b vs c").statistic.item() == pytest.approx(ref.statistic)


def test_nan_dropped_per_pair_or_raised():
    rng = np.random.default_rng(42)
    c = scorestd.cube(rng.random((10, 3)), systems=["a", "b", "c"])
    c[4, 1, 0] = np.nan
    with pytest.warns(scorestd.ScorestdWarning, match=r"n from 9 to 10 of 10; fewest: a vs b"):
        res = scorestd.compare(c, "paired_t")
    assert res.n.values.ravel().tolist() == [9, 10, 9] and res.n.dtype == np.int64
    ab = stats.ttest_rel(c.values[:, 0, 0], c.values[:, 1, 0], nan_policy="omit")
    assert res.p_value.sel(pair="a vs b").item() == pytest.approx(ab.pvalue)
    with pytest.raises(ScoreDataError, match="topic 't5', system 'b'"):
        scorestd.compare(c, "paired_t", nan_policy="raise")
    with pytest.raises(ScoreDataError, match="missing score"):
        scorestd.compare(c, "tukey_hsd")


def test_zero_variance_pair_p_is_one():
    x = np.random.default_rng(43).random((6, 2))
    c = scorestd.cube(np.column_stack([x, x[:, 0]]), systems=["a", "b", "a_copy"])
    for test in ("paired_t", "wilcoxon", "sign", "permutation", "bootstrap"):
        res = scorestd.compare(c, test, B=99, seed=1)
        assert res.p_value.sel(pair="a vs a_copy").item() == 1.0, test


def test_bad_input():
    c = scorestd.cube(np.random.default_rng(44).random((5, 3)))
    with pytest.raises(ScoreDataError, match="not a system"):
        scorestd.compare(c, baseline="nope")
    with pytest.raises(ScoreDataError, match="at least 2 topics"):
        scorestd.compare(c.isel(topic=slice(0, 1)))
    with pytest.raises(ScoreDataError, match="at least 2 systems"):
        scorestd.compare(c.isel(system=slice(0, 1)))
    with pytest.raises(ValueError, match="test must be one of"):
        scorestd.compare(c, "anova")
    with pytest.raises(ValueError, match="correction must be one of"):
        scorestd.compare(c, correction="fdr")
    with pytest.raises(ValueError, match="already adjusted"):
        scorestd.compare(c, "tukey_hsd", correction="holm")
    with pytest.raises(ValueError, match="two-sided only"):
        scorestd.compare(c, "tukey_hsd", alternative="greater")
    with pytest.raises(ValueError, match="conf_level"):
        scorestd.compare(c, conf_level=95)


def test_random_tests_reproducible(ap8):
    a = scorestd.compare(ap8, "permutation", B=500, seed=3)
    b = scorestd.compare(ap8, "permutation", B=500, seed=3)
    xr.testing.assert_identical(a, b)
    assert a.attrs["B"] == 500 and a.attrs["seed"] == "3"


def test_dask_backed_cube_gives_same_answer(ap8):
    lazy = scorestd.compare(ap8.chunk({"measure": 1}), "paired_t")
    assert lazy.p_value.chunks is not None
    xr.testing.assert_allclose(lazy.compute(), scorestd.compare(ap8, "paired_t"))


@pytest.mark.parametrize("equal_var", [False, True])
def test_compare_unpaired_matches_scipy(ap8, equal_var):
    first, second = ap8.isel(topic=slice(0, 20)), ap8.isel(topic=slice(20, 50))
    res = scorestd.compare_unpaired(first, second, equal_var=equal_var).sel(measure="ap")
    for s1, s2 in [("run1", "run2"), ("run4", "run4"), ("run7", "run3")]:
        a, b = scores_of(first, s1), scores_of(second, s2)
        ref = stats.ttest_ind(a, b, equal_var=equal_var)
        row = res.sel(system=s1, system2=s2)
        assert row.statistic.item() == pytest.approx(ref.statistic, rel=1e-10)
        assert row.p_value.item() == pytest.approx(ref.pvalue, rel=1e-10)
        ci = ref.confidence_interval(0.95)
        assert row.ci_low.item() == pytest.approx(ci.low)
        assert row.ci_high.item() == pytest.approx(ci.high)
        assert row.glass_delta.item() == pytest.approx((a.mean() - b.mean()) / b.std(ddof=1))
    base = scorestd.compare_unpaired(first, second, baseline="run2")
    assert base.system2.values.tolist() == ["run2"]
    with pytest.raises(ScoreDataError, match="differ in systems"):
        scorestd.compare_unpaired(first, second.isel(system=slice(0, 5)))
    with pytest.raises(ScoreDataError, match="at least 2 topics"):
        scorestd.compare_unpaired(first, second.isel(topic=slice(0, 1)))


def test_tukey_functions_match_compare(ap8):
    a = scorestd.tukey_hsd(ap8)
    b = scorestd.compare(ap8, "tukey_hsd")
    xr.testing.assert_identical(a, b)
    r = scorestd.randomised_tukey_hsd(ap8, B=300, seed=2, baseline="run1")
    assert r.sizes["pair"] == 9 and (r.p_value > 0).all()


def test_adjust_pvalues_labelled(ap8):
    p = scorestd.compare(ap8, "paired_t").p_value
    for method, sm in [("holm", "holm"), ("bh", "fdr_bh"), ("bonferroni", "bonferroni")]:
        adj = scorestd.adjust_pvalues(p, method)
        assert adj.dims == p.dims
        np.testing.assert_allclose(adj.sel(measure="ap"), multipletests(p.sel(measure="ap"),
                                                                        method=sm)[1])
    with pytest.raises(ValueError, match="no dim"):
        scorestd.adjust_pvalues(p, dim="trial")


def test_fraction_significant_labelled(ap8):
    p = scorestd.compare(ap8, "paired_t").p_value
    frac = scorestd.fraction_significant(p, [0.01, 0.05, 0.1])
    assert frac.dims == ("measure", "alpha")
    expected = [(p.values < a).mean() for a in (0.01, 0.05, 0.1)]  # counted directly
    np.testing.assert_allclose(frac.sel(measure="ap"), expected)
    with pytest.raises(ValueError, match="no dim"):
        scorestd.fraction_significant(p, [0.05], dim="trial")



@settings(max_examples=25)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["paired_t", "wilcoxon", "sign", "permutation"]))
def test_pair_result_independent_of_other_systems_and_order(seed, test):
    """A pair's test depends only on its two systems: reordering or dropping the others
    changes nothing (all-pairs kernels must not mix pairs up)."""
    rng = np.random.default_rng(seed)
    c = scorestd.cube(rng.beta(2, 5, (12, 5)).round(2), systems=list("abcde"))
    full = scorestd.compare(c, test, B=200, seed=1).squeeze("measure")
    order = rng.permutation(5)
    shuffled = scorestd.compare(c.isel(system=order), test, B=200, seed=1).squeeze("measure")
    two = scorestd.compare(c.sel(system=["b", "d"]), test, B=200, seed=1).squeeze("measure")
    row = full.sel(pair="b vs d")
    assert two.p_value.item() == pytest.approx(row.p_value.item(), rel=1e-9)
    assert two.mean_diff.item() == pytest.approx(row.mean_diff.item(), abs=1e-12)
    label = "b vs d" if "b vs d" in shuffled.pair.values else "d vs b"
    other = shuffled.sel(pair=label)
    assert other.p_value.item() == pytest.approx(row.p_value.item(), rel=1e-9)
    sign = 1 if label == "b vs d" else -1
    assert other.mean_diff.item() == pytest.approx(sign * row.mean_diff.item(), abs=1e-12)


def test_the_old_name_t_is_the_paired_t_test_with_a_deprecation_warning(small_cube):
    with pytest.warns(DeprecationWarning, match="test='t' is deprecated.*test='paired_t'"):
        old = scorestd.compare(small_cube, "t")
    xr.testing.assert_identical(old, scorestd.compare(small_cube, "paired_t"))
