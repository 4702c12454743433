"""Posterior summary kernels against arviz, numpy and plain loops."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd.kernels import posterior as kp


def test_hdi_is_arviz_hdi():
    import arviz as az

    rng = np.random.default_rng(0)
    for draws in (rng.gamma(2.0, size=4001), rng.normal(size=999), rng.beta(0.5, 3, 2000)):
        for prob in (0.5, 0.9, 0.95):
            # arviz 0.x: hdi_prob=; the same shortest-interval rule on the sorted draws
            ref = az.hdi(draws, hdi_prob=prob)
            np.testing.assert_allclose(kp.hdi(draws, prob), ref, rtol=1e-12)


def test_eti_is_numpy_quantiles_and_vectorised():
    x = np.random.default_rng(1).normal(size=(500, 3))
    low, high = kp.eti(x, 0.9, axis=0)
    np.testing.assert_allclose(low, np.quantile(x, 0.05, axis=0))
    np.testing.assert_allclose(high, np.quantile(x, 0.95, axis=0))
    h_low, h_high = kp.hdi(x, 0.9, axis=0)
    for k in range(3):
        np.testing.assert_allclose([h_low[k], h_high[k]], kp.hdi(x[:, k], 0.9))
    with pytest.raises(ValueError, match="needs more than 3 draws"):
        kp.hdi(np.arange(3.0), 0.1)


def test_pair_summaries_in_small_blocks_equal_one_block():
    x = np.random.default_rng(2).normal(size=(300, 6))
    i, j = np.triu_indices(6, 1)
    whole = kp.pair_summaries(x, i, j, prob=0.8, kind="hdi", rope=(-0.1, 0.2))
    tiny = kp.pair_summaries(x, i, j, prob=0.8, kind="hdi", rope=(-0.1, 0.2),
                             block_bytes=1)
    for name, value in whole.items():
        np.testing.assert_array_equal(tiny[name], value, err_msg=name)
    d = x[:, 1] - x[:, 4]
    k = int(np.nonzero((i == 1) & (j == 4))[0][0])
    assert whole["prob_above_rope"][k] == np.mean(d > 0.2)
    assert whole["sd"][k] == pytest.approx(d.std(ddof=1))


draws = arrays(np.float64, st.tuples(st.integers(1, 40), st.integers(2, 6)),
               elements=st.floats(-10, 10, allow_subnormal=False))


@given(draws)
def test_rank_probabilities_and_prob_best_are_distributions(x):
    ranks = kp.rank_probabilities(x)
    np.testing.assert_allclose(ranks.sum(axis=0), 1.0)
    np.testing.assert_allclose(ranks.sum(axis=1), 1.0)
    best = kp.prob_best(x)
    np.testing.assert_allclose(best, ranks[:, 0])
    # a strictly better system in every draw never ranks below it
    y = x.copy()
    y[:, 0] = x.max(axis=1) + 1.0
    assert kp.prob_best(y)[0] == 1.0


@given(st.floats(-3, 3), st.floats(0.01, 3), st.floats(1.5, 200), st.floats(0.05, 0.99))
def test_t_summaries_are_consistent(loc, scale, df, prob):
    low, high = kp.t_interval(loc, scale, df, prob)
    inside = kp.t_prob_greater(loc, scale, df, low) - kp.t_prob_greater(loc, scale, df, high)
    assert inside == pytest.approx(prob, abs=1e-8)
    below, rope, above = kp.t_rope_split(loc, scale, df, low, high)
    assert rope == pytest.approx(prob, abs=1e-8)
    assert below == pytest.approx(above, abs=1e-8)
