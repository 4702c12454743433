"""All-pairs t-test kernels against scipy pair by pair, and decision counting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from scorestd.kernels.significance import (
    fraction_significant,
    pair_indices,
    paired_moments,
    paired_t_all_pairs,
    unpaired_t_all_pairs,
)


def test_pair_indices_order():
    i, j = pair_indices(4)
    assert list(zip(i.tolist(), j.tolist(), strict=True)) == [
        (0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    with pytest.raises(ValueError, match="at least 2 systems"):
        pair_indices(1)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_paired_t_matches_scipy_random(alternative):
    x = np.random.default_rng(1).beta(2, 5, size=(3, 25, 7))
    t, p, d = paired_t_all_pairs(x, alternative=alternative)
    i, j = pair_indices(7)
    assert t.shape == (3, 21)
    for b in range(3):
        for k in range(21):
            ref = stats.ttest_rel(x[b, :, i[k]], x[b, :, j[k]], alternative=alternative)
            assert t[b, k] == pytest.approx(ref.statistic, rel=1e-9)
            assert p[b, k] == pytest.approx(ref.pvalue, rel=1e-9)
            assert d[b, k] == pytest.approx(np.mean(x[b, :, i[k]] - x[b, :, j[k]]), abs=1e-14)


def test_paired_t_matches_scipy_real(adhoc8_ap):
    x = adhoc8_ap.isel(measure=0).transpose("topic", "system").values[:, :30]
    t, p, _ = paired_t_all_pairs(x)
    i, j = pair_indices(30)
    ref = stats.ttest_rel(x[:, i], x[:, j], axis=0)  # scipy vectorised over the pairs
    np.testing.assert_allclose(t, ref.statistic, rtol=1e-8)
    np.testing.assert_allclose(p, ref.pvalue, rtol=1e-8, atol=1e-300)


def test_paired_t_nan_dropped_per_pair():
    rng = np.random.default_rng(2)
    x = rng.random((12, 4))
    x[0, 1] = np.nan
    x[5, 2] = np.nan
    t, p, _ = paired_t_all_pairs(x)
    mom = paired_moments(x)
    i, j = pair_indices(4)
    for k in range(6):
        ref = stats.ttest_rel(x[:, i[k]], x[:, j[k]], nan_policy="omit")
        assert t[k] == pytest.approx(ref.statistic, rel=1e-9)
        assert p[k] == pytest.approx(ref.pvalue, rel=1e-9)
        ok = ~np.isnan(x[:, i[k]] - x[:, j[k]])
        assert mom.n[k] == ok.sum()
    with pytest.raises(ValueError, match="NaN"):
        paired_t_all_pairs(x, nan_policy="raise")


def test_paired_t_baseline_pairs_and_axis():
    rng = np.random.default_rng(3)
    x = rng.random((5, 10))  # systems × topics
    t, _, _ = paired_t_all_pairs(x.T[None], pairs=([1, 2, 3, 4], [0, 0, 0, 0]))
    t2, _, _ = paired_t_all_pairs(x[None], axis_topic=-1, pairs=([1, 2, 3, 4], [0, 0, 0, 0]))
    for k in range(4):
        assert t[0, k] == pytest.approx(stats.ttest_rel(x[k + 1], x[0]).statistic)
    np.testing.assert_allclose(t, t2)


def test_paired_t_zero_variance():
    # dyadic scores so that the shift of system 2 is exactly constant
    x = np.array([[0.125, 0.125, 0.375], [0.5, 0.5, 0.75], [0.25, 0.25, 0.5]])
    t, p, d = paired_t_all_pairs(x)
    # identical systems 0 and 1: undefined statistic, p defined as 1
    assert np.isnan(t[0]) and p[0] == 1.0 and d[0] == 0.0
    # constant non-zero shift (0 vs 2): t = -inf, p = 0
    assert t[1] == -np.inf and p[1] == 0.0


def test_paired_t_bad_input():
    with pytest.raises(ValueError, match="at least 2 topics"):
        paired_t_all_pairs(np.ones((1, 3)))
    with pytest.raises(ValueError, match="alternative"):
        paired_t_all_pairs(np.random.default_rng(0).random((4, 3)), alternative="bigger")
    with pytest.raises(ValueError, match="nan_policy"):
        paired_t_all_pairs(np.ones((4, 3)), nan_policy="drop")
    with pytest.raises(ValueError, match="out of range"):
        paired_t_all_pairs(np.ones((4, 3)), pairs=([0], [3]))


@pytest.mark.parametrize("equal_var", [False, True])
def test_unpaired_matches_scipy(equal_var):
    rng = np.random.default_rng(4)
    x1, x2 = rng.random((2, 15, 5)), rng.random((2, 11, 5))
    x2[0, 3, 2] = np.nan
    t, p = unpaired_t_all_pairs(x1, x2, equal_var=equal_var)
    assert t.shape == (2, 5, 5)
    for b in range(2):
        for a in range(5):
            for c in range(5):
                ref = stats.ttest_ind(x1[b, :, a], x2[b, :, c], equal_var=equal_var,
                                      nan_policy="omit")
                assert t[b, a, c] == pytest.approx(ref.statistic, rel=1e-9)
                assert p[b, a, c] == pytest.approx(ref.pvalue, rel=1e-9)


def test_unpaired_bad_shapes():
    with pytest.raises(ValueError, match="same batch shape"):
        unpaired_t_all_pairs(np.ones((4, 3)), np.ones((4, 2)))


def test_fraction_significant():
    p = np.array([[0.001, 0.02, 0.2, np.nan], [0.5, 0.04, 0.06, 0.01]])
    frac, count = fraction_significant(p, [0.01, 0.05], axis=-1, return_count=True)
    # counted by hand: row 0 has 3 valid p-values, row 1 has 4
    np.testing.assert_allclose(frac, [[1 / 3, 2 / 3], [0.0, 2 / 4]])
    np.testing.assert_array_equal(count, [3, 4])
    whole = fraction_significant(p, [0.05], axis=None)
    np.testing.assert_allclose(whole, [4 / 7])
    assert np.isnan(fraction_significant([np.nan], [0.05])).all()


@given(arrays(float, st.tuples(st.integers(2, 8), st.integers(2, 5)),
              elements=st.floats(0, 1)))
def test_paired_t_antisymmetric_and_matches_loop(x):
    """Swapping the two systems flips t and the difference; p is unchanged."""
    t, p, d = paired_t_all_pairs(x)
    i, j = pair_indices(x.shape[1])
    t2, p2, d2 = paired_t_all_pairs(x, pairs=(j, i))
    np.testing.assert_allclose(d, -d2, atol=1e-12)
    np.testing.assert_allclose(t, -t2, rtol=1e-9, atol=1e-9, equal_nan=True)
    np.testing.assert_allclose(p, p2, rtol=1e-6, atol=1e-12, equal_nan=True)
    for k in range(len(i)):
        diff = x[:, i[k]] - x[:, j[k]]
        assert d[k] == pytest.approx(diff.mean(), abs=1e-12)
        if np.all(diff == 0):
            assert p[k] == 1.0
        assert 0.0 <= p[k] <= 1.0 or np.isnan(p[k])


@given(arrays(float, st.integers(1, 30), elements=st.floats(0, 1) | st.just(np.nan)),
       st.lists(st.floats(0, 1), min_size=1, max_size=5))
def test_fraction_significant_monotone(p, alphas):
    alphas = np.sort(alphas)
    frac = fraction_significant(p, alphas)
    if np.isnan(p).all():
        assert np.isnan(frac).all()
    else:
        assert np.all(np.diff(frac) >= 0) and np.all((frac >= 0) & (frac <= 1))
