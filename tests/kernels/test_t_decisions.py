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
    count_significant_t,
    fraction_significant_t,
    paired_t_complete,
    paired_t_counts,
    welch_t_all_pairs,
    welch_t_counts,
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


# ---- counts straight from the moment matrices (paired_t_counts, welch_t_counts) --------


def _scores(rng, shape, decimals=None):
    """Scores of systems of different quality, rounded (ties) when asked; with two
    identical systems and one that is another plus a constant."""
    s = shape[-1]
    x = rng.random(shape) * rng.uniform(0.2, 1.0, s) + np.linspace(0, 0.4, s)
    if decimals is not None:
        x = np.round(x, decimals)
    if s >= 4:
        x[..., 1] = x[..., 0]
        x[..., 3] = x[..., 2] + 0.125
    return x


def _loop_paired_counts(x, alphas):
    """Counts of p < α over the pairs i < j, one scipy.stats.ttest_rel per pair."""
    s = x.shape[-1]
    out = np.zeros((*x.shape[:-2], len(alphas)), dtype=np.int64)
    for idx in np.ndindex(*x.shape[:-2]):
        for i in range(s):
            for j in range(i + 1, s):
                p = scipy.stats.ttest_rel(x[idx][:, i], x[idx][:, j]).pvalue
                out[idx] += np.nan_to_num(p, nan=1.0) < np.asarray(alphas)
    return out


@pytest.mark.filterwarnings("ignore:Precision loss:RuntimeWarning")  # identical systems
@pytest.mark.parametrize("decimals", [None, 2])
def test_paired_counts_match_a_scipy_loop(decimals):
    x = _scores(np.random.default_rng(5), (2, 3, 9, 7), decimals)
    np.testing.assert_array_equal(paired_t_counts(x, ALPHAS), _loop_paired_counts(x, ALPHAS))


@given(st.integers(0, 2**32 - 1), st.integers(3, 40), st.integers(2, 30),
       st.sampled_from([None, 1, 3]))
def test_paired_counts_equal_p_value_counts(seed, n, s, decimals):
    x = _scores(np.random.default_rng(seed), (3, n, s), decimals)
    _, p, _ = paired_t_all_pairs(x)
    expected = (np.nan_to_num(p, nan=1.0)[..., None] < ALPHAS).sum(axis=-2)
    np.testing.assert_array_equal(paired_t_counts(x, ALPHAS), expected)


def test_counts_do_not_depend_on_the_block_size(monkeypatch):
    """Many row blocks and unit chunks (150 systems, tiny blocks) against one block."""
    from scorestd.kernels import t_decisions

    rng = np.random.default_rng(9)
    x = _scores(rng, (4, 20, 150), 3)
    x2 = _scores(rng, (4, 25, 150), 3)
    whole = paired_t_counts(x, ALPHAS), welch_t_counts(x, x2, ALPHAS)
    monkeypatch.setattr(t_decisions, "BLOCK_CELLS", 500)
    blocked = paired_t_counts(x, ALPHAS), welch_t_counts(x, x2, ALPHAS)
    np.testing.assert_array_equal(blocked[0], whole[0])
    for a, b in zip(blocked[1], whole[1], strict=True):
        np.testing.assert_array_equal(a, b)
    _, p, _ = paired_t_all_pairs(x)
    np.testing.assert_array_equal(whole[0], (np.nan_to_num(p, nan=1.0)[..., None]
                                             < ALPHAS).sum(axis=-2))


@given(st.integers(0, 2**32 - 1), st.integers(2, 30), st.integers(2, 30),
       st.integers(2, 12))
def test_welch_counts_equal_p_value_counts(seed, n1, n2, s):
    rng = np.random.default_rng(seed)
    x1 = _scores(rng, (2, n1, s), 2)
    x2 = _scores(rng, (2, n2, s), 2)
    x2[..., 0] = 0.5  # a constant system: se² may be 0 for it
    x1[..., 0] = 0.5
    same, other = welch_t_counts(x1, x2, ALPHAS)
    t, p = unpaired_t_all_pairs(x1, x2)
    # two constant samples with different means: t = ±inf, significant (as scipy's
    # ttest_ind: p = 0), where unpaired_t_all_pairs has no df and so no p-value.
    # A p-value equal to an α (scores on a lattice: seed=704, n1=n2=2, s=8 gives
    # p = 0.04 exactly, computed as 0.03999999999999998) may fall either side of it in
    # floating point: the counts must lie between those of p < α(1 − 1e-9) and p < α(1 + 1e-9).
    p = np.nan_to_num(p, nan=1.0)[..., None]
    for scale, check in ((1 - 1e-9, np.greater_equal), (1 + 1e-9, np.less_equal)):
        below = (p < ALPHAS * scale) | np.isinf(t)[..., None]
        diagonal = np.diagonal(below, axis1=1, axis2=2).sum(axis=-1)
        assert check(same, diagonal).all()
        assert check(other, below.sum(axis=(1, 2)) - diagonal).all()


def test_welch_counts_on_a_p_value_equal_to_alpha():
    """Equal variances, n1 = n2 = 2 (df = 2): t = √(2·0.96²/(1 − 0.96²)) has p = 0.04 exactly,
    which is not below α = .04 (the floating-point p-value is 0.03999999999999998)."""
    x1 = np.array([[0.55, 0.5], [0.62, 0.5]])[np.newaxis]
    x2 = np.array([[0.31, 0.5], [0.38, 0.5]])[np.newaxis]
    same, other = welch_t_counts(x1, x2, [0.04, 0.0400001])
    # the diagonal (0, 0) is the pair with p = .04; the others (scipy's ttest_ind, Welch:
    # 0.55/0.62 against 0.5/0.5, p = .249; 0.5/0.5 against 0.31/0.38, p = .141) are not
    # significant
    np.testing.assert_array_equal(same, [[0, 1]])
    np.testing.assert_array_equal(other, [[0, 0]])


def test_welch_counts_of_a_scipy_loop():
    rng = np.random.default_rng(12)
    x1, x2 = _scores(rng, (15, 5)), _scores(rng, (11, 5))
    alphas = [0.01, 0.05, 0.2]
    same, other = welch_t_counts(x1, x2, alphas)
    p = np.array([[scipy.stats.ttest_ind(x1[:, i], x2[:, j], equal_var=False).pvalue
                   for j in range(5)] for i in range(5)])
    below = np.nan_to_num(p, nan=1.0)[..., None] < np.array(alphas)
    np.testing.assert_array_equal(same, np.diagonal(below).T.sum(axis=0))
    np.testing.assert_array_equal(other, below.sum(axis=(0, 1)) - np.diagonal(below).T.sum(0))


@pytest.mark.parametrize("df_range", [(12.0, 12.0), (20.0, 38.0), (49.0, 96.0)])
def test_the_table_decides_like_the_exact_critical_values(df_range):
    """Statistics a hair either side of every critical value of every df of the range:
    the table's decision (with the exact fallback) against the p-value."""
    low, high = df_range
    dfs = np.linspace(low, high, 7)
    crit = scipy.stats.t.isf(ALPHAS[None, :] / 2, dfs[:, None])  # (df, alpha)
    t = np.concatenate([crit * (1 - 1e-9), crit * (1 + 1e-9), crit * (1 + 1e-4),
                        crit * (1 - 1e-4)], axis=1)
    df = np.broadcast_to(dfs[:, None], t.shape)
    t, df = np.tile(t.ravel(), 40), np.tile(df.ravel(), 40)  # enough for the df table
    p = 2 * scipy.stats.t.sf(t, df)
    expected = [(p < a).sum() for a in ALPHAS]
    np.testing.assert_array_equal(count_significant_t(t, df, ALPHAS), expected)
    if low == high:
        np.testing.assert_array_equal(count_significant_t(t, low, ALPHAS), expected)


def test_nan_and_infinite_statistics_in_the_table():
    t = np.array([np.nan, np.inf, -np.inf, 0.0, 1e300, -1e-300])
    np.testing.assert_array_equal(count_significant_t(t, 30.0, [0.05, 0.5]), [3, 3])
    df = np.array([30.0, np.nan, 30.0, 40.0, 35.0, 31.0])
    np.testing.assert_array_equal(count_significant_t(t, df, [0.05, 0.5]), [3, 3])
