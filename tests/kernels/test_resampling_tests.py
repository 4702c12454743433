"""Permutation and bootstrap kernels: exact enumeration, convergence, seeds, NaN."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd.kernels.significance import (
    bootstrap_all_pairs,
    pair_indices,
    permutation_all_pairs,
    sign_flips,
)


def enumerate_sign_flip_p(d, alternative="two-sided"):
    """Exact randomisation p-value by enumerating all 2^n sign patterns (plain loop)."""
    obs = d.mean()
    hits = 0
    for signs in itertools.product([1, -1], repeat=len(d)):
        m = np.mean(np.array(signs) * d)
        if alternative == "two-sided":
            hits += abs(m) >= abs(obs) - 1e-12
        elif alternative == "greater":
            hits += m >= obs - 1e-12
        else:
            hits += m <= obs + 1e-12
    return hits / 2 ** len(d)


@pytest.fixture
def small():
    return np.random.default_rng(21).random((9, 4))


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_enumeration_matches_loop(small, alternative):
    r = permutation_all_pairs(small, B="exact", alternative=alternative)
    i, j = pair_indices(4)
    for k in range(len(i)):
        ref = enumerate_sign_flip_p(small[:, i[k]] - small[:, j[k]], alternative)
        assert r.pvalue[k] == pytest.approx(ref, abs=1e-12)


def test_random_flips_converge_to_exact(small):
    i, j = pair_indices(4)
    exact = np.array([enumerate_sign_flip_p(small[:, a] - small[:, b]) for a, b in zip(i, j,
                                                                                        strict=True)])
    r = permutation_all_pairs(small, B=40_000, seed=3)
    # Monte Carlo standard error at B = 40,000 is at most 0.0025
    np.testing.assert_allclose(r.pvalue, exact, atol=0.01)


def test_seed_reproducible_and_batch_consistent(small):
    a = permutation_all_pairs(small, B=500, seed=7)
    b = permutation_all_pairs(small, B=500, seed=7)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    batch = permutation_all_pairs(np.stack([small, small[::-1]]), B=500, seed=7)
    np.testing.assert_array_equal(batch.pvalue[0], a.pvalue)
    c = bootstrap_all_pairs(small, B=500, seed=7)
    np.testing.assert_array_equal(c.pvalue, bootstrap_all_pairs(small, B=500, seed=7).pvalue)


def test_chunking_does_not_change_answers(small, monkeypatch):
    from scorestd.kernels import resampling_tests as rt

    whole = permutation_all_pairs(small, B=300, seed=1).pvalue
    boot = bootstrap_all_pairs(small, B=300, seed=1).pvalue
    monkeypatch.setattr(rt, "_CHUNK_CELLS", 7)
    np.testing.assert_array_equal(permutation_all_pairs(small, B=300, seed=1).pvalue, whole)
    np.testing.assert_array_equal(bootstrap_all_pairs(small, B=300, seed=1).pvalue, boot)


def loop_bootstrap_p(d, weights):
    """Shift-method bootstrap p-value with given resample counts (plain loop)."""
    obs = d.mean()
    hits = 0
    for w in weights:
        hits += abs(np.sum(w * (d - obs)) / w.sum()) >= abs(obs) - 1e-12
    return (1 + hits) / (len(weights) + 1)


def test_bootstrap_matches_loop(small):
    B, seed = 400, 11
    rng = np.random.default_rng(seed)  # the kernel draws topic indices the same way
    draws = rng.integers(0, small.shape[0], size=(B, small.shape[0]))
    weights = np.stack([np.bincount(row, minlength=small.shape[0]) for row in draws])
    r = bootstrap_all_pairs(small, B=B, seed=seed)
    i, j = pair_indices(4)
    for k in range(len(i)):
        d = small[:, i[k]] - small[:, j[k]]
        assert r.pvalue[k] == pytest.approx(loop_bootstrap_p(d, weights))
        assert r.statistic[k] == pytest.approx(d.mean())


def test_bootstrap_with_missing_topics_matches_loop(small):
    x = small.copy()
    x[2, 1] = np.nan
    B, seed = 300, 5
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, x.shape[0], size=(B, x.shape[0]))
    weights = np.stack([np.bincount(row, minlength=x.shape[0]) for row in draws])
    r = bootstrap_all_pairs(x, B=B, seed=seed, pairs=([0], [1]))
    d = x[:, 0] - x[:, 1]
    ok = ~np.isnan(d)
    assert r.n[0] == 8
    assert r.pvalue[0] == pytest.approx(loop_bootstrap_p(d[ok], weights[:, ok]))


def test_permutation_with_missing_topics(small):
    x = small.copy()
    x[0, 0] = np.nan
    r = permutation_all_pairs(x, B="exact", pairs=([0], [1]))
    d = x[1:, 0] - x[1:, 1]
    # the dropped topic's sign is flipped too, which only doubles every count
    assert r.pvalue[0] == pytest.approx(enumerate_sign_flip_p(d))
    with pytest.raises(ValueError, match="NaN"):
        permutation_all_pairs(x, nan_policy="raise")


def test_identical_systems_and_bad_input(small):
    x = np.column_stack([small[:, 0], small[:, 0]])
    assert permutation_all_pairs(x, B=50, seed=0).pvalue[0] == 1.0
    assert bootstrap_all_pairs(x, B=50, seed=0).pvalue[0] == 1.0
    with pytest.raises(ValueError, match="B must be"):
        permutation_all_pairs(small, B=0)
    with pytest.raises(ValueError, match="B must be"):
        bootstrap_all_pairs(small, B=2.5)
    with pytest.raises(ValueError, match="too large"):
        sign_flips(30, "exact")


def test_bootstrap_power_sanity():
    rng = np.random.default_rng(2)
    base = rng.random((40, 1))
    x = np.hstack([base + 0.2 + rng.normal(0, 0.05, (40, 1)), base])
    assert bootstrap_all_pairs(x, B=999, seed=1).pvalue[0] == pytest.approx(1 / 1000)
    same = np.hstack([base + rng.normal(0, 0.05, (40, 1)), base])
    assert bootstrap_all_pairs(same, B=999, seed=1).pvalue[0] > 0.01


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_enumeration_matches_scipy_permutation_test(small, alternative):
    from scipy import stats

    r = permutation_all_pairs(small, B="exact", alternative=alternative, pairs=([0, 3], [2, 1]))
    for k, (a, b) in enumerate([(0, 2), (3, 1)]):
        d = small[:, a] - small[:, b]
        # scipy enumerates all 2^9 sign patterns of the paired differences
        ref = stats.permutation_test((d,), np.mean, permutation_type="samples",
                                     n_resamples=np.inf, alternative=alternative)
        assert r.pvalue[k] == pytest.approx(ref.pvalue, abs=1e-12)



@settings(max_examples=30)
@given(arrays(float, st.tuples(st.integers(2, 10), st.integers(2, 4)),
              elements=st.integers(0, 10).map(lambda v: v / 10)))
def test_resampling_p_values_valid_and_swap_invariant(x):
    """p-values lie in (0, 1]; swapping the systems of a pair gives the same two-sided
    p-value (the flips/resamples are shared), and 'greater' becomes 'less'."""
    i, j = pair_indices(x.shape[1])
    for f in (permutation_all_pairs, bootstrap_all_pairs):
        r = f(x, B=99, seed=5)
        assert np.all((r.pvalue > 0) & (r.pvalue <= 1))
        np.testing.assert_allclose(r.pvalue, f(x, B=99, seed=5, pairs=(j, i)).pvalue)
        greater = f(x, B=99, seed=5, alternative="greater").pvalue
        np.testing.assert_allclose(greater, f(x, B=99, seed=5, alternative="less",
                                              pairs=(j, i)).pvalue)


def test_mean_difference_pvalues_equal_the_all_pairs_tests():
    from scorestd.kernels.resampling_tests import (
        bootstrap_all_pairs,
        mean_difference_pvalues,
        permutation_all_pairs,
    )

    x = np.random.default_rng(4).random((30, 3))
    d = (x[:, [1, 2]] - x[:, [0, 0]]).T  # pairs (1, 0), (2, 0)
    pairs = (np.array([1, 2]), np.array([0, 0]))
    for alternative in ("two-sided", "greater", "less"):
        p = mean_difference_pvalues(d, method="permutation", B=300, seed=2,
                                    alternatives=(alternative, "two-sided"))
        ref = permutation_all_pairs(x, B=300, seed=2, alternative=alternative, pairs=pairs)
        np.testing.assert_array_equal(p[alternative], ref.pvalue)
        p = mean_difference_pvalues(d, method="bootstrap", B=300, seed=2,
                                    alternatives=(alternative,))
        ref = bootstrap_all_pairs(x, B=300, seed=2, alternative=alternative, pairs=pairs)
        np.testing.assert_array_equal(p[alternative], ref.pvalue)
    with pytest.raises(ValueError, match="complete"):
        mean_difference_pvalues(np.array([[np.nan, 1.0]]), method="bootstrap")
