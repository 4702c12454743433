"""Decisions from t statistics equal decisions from p-values (issue-5 kernels, scipy)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
from hypothesis import given
from hypothesis import strategies as st

from scorestd.experiments import ALPHAS
from scorestd.kernels.significance import (
    fraction_significant,
    paired_t_all_pairs,
    unpaired_t_all_pairs,
)
from scorestd.kernels.t_decisions import (
    fraction_significant_t,
    paired_t_complete,
    welch_t_all_pairs,
)


def test_paired_t_matches_scipy():
    x = np.random.default_rng(1).random((3, 12, 6))
    t, df = paired_t_complete(x)
    i, j = np.triu_indices(6, k=1)
    for b in range(3):
        expected = scipy.stats.ttest_rel(x[b][:, i], x[b][:, j]).statistic
        np.testing.assert_allclose(t[b], expected, rtol=1e-10)
    assert df == 11


def test_welch_matches_the_p_value_kernel():
    rng = np.random.default_rng(2)
    x1, x2 = rng.random((2, 9, 5)), rng.random((2, 14, 5))
    t, df = welch_t_all_pairs(x1, x2)
    t_ref, _, df_ref = unpaired_t_all_pairs(x1, x2, return_df=True)
    np.testing.assert_allclose(t, t_ref, rtol=1e-12)
    np.testing.assert_allclose(df, df_ref, rtol=1e-12)


@given(st.integers(0, 2**32 - 1), st.integers(3, 30))
def test_paired_decisions_equal_p_value_decisions(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.random((4, n, 7)) + rng.normal(0, 0.3, 7)
    t, df = paired_t_complete(x)
    _, p, _ = paired_t_all_pairs(x)
    np.testing.assert_array_equal(fraction_significant_t(t, df, ALPHAS),
                                  fraction_significant(p, ALPHAS, axis=-1))


@given(st.integers(0, 2**32 - 1), st.integers(3, 40), st.integers(3, 40))
def test_welch_decisions_equal_p_value_decisions(seed, n1, n2):
    rng = np.random.default_rng(seed)
    x1 = rng.random((3, n1, 6)) * rng.uniform(0.2, 2, 6)
    x2 = rng.random((3, n2, 6)) + rng.normal(0, 0.2, 6)
    t, df = welch_t_all_pairs(x1, x2)
    _, p = unpaired_t_all_pairs(x1, x2)
    np.testing.assert_array_equal(fraction_significant_t(t, df, ALPHAS, axis=-1)[..., 0, :],
                                  fraction_significant(p, ALPHAS, axis=-1)[..., 0, :])
    np.testing.assert_array_equal(
        fraction_significant_t(t.reshape(3, -1), df.reshape(3, -1), ALPHAS),
        fraction_significant(p.reshape(3, -1), ALPHAS, axis=-1))


@pytest.mark.parametrize("df", [12.0, 37.5, 98.0, 250.0])
def test_statistics_at_the_critical_values(df):
    """|t| a hair either side of every critical value, where an approximation would
    flip decisions."""
    crit = scipy.stats.t.isf(ALPHAS / 2, df)
    t = np.concatenate([crit * (1 - 1e-9), crit * (1 + 1e-9), -crit * (1 + 1e-9)])
    dfs = np.full(t.shape, df)
    p = 2 * scipy.stats.t.sf(np.abs(t), df)
    expected = [np.mean(p < a) for a in ALPHAS]
    np.testing.assert_allclose(fraction_significant_t(t, dfs, ALPHAS), expected, atol=1e-15)
    np.testing.assert_allclose(fraction_significant_t(t, df, ALPHAS), expected, atol=1e-15)


def test_identical_systems_are_not_significant():
    x = np.random.default_rng(0).random((10, 3))
    x[:, 1] = x[:, 0]
    t, df = paired_t_complete(x)
    assert fraction_significant_t(t[:1], df, [0.5]).tolist() == [0.0]
    assert fraction_significant_t([np.inf, np.nan], [20.0, 20.0], [0.05]).tolist() == [0.5]
