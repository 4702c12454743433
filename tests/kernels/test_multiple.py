"""p-value adjustment against statsmodels; Tukey HSD against an ANOVA computed here."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats
from statsmodels.formula.api import ols
from statsmodels.stats.multitest import multipletests

from scorestd.kernels.multiple import studentized_range_sf
from scorestd.kernels.significance import (
    adjust_pvalues,
    pair_indices,
    paired_t_all_pairs,
    randomised_tukey_hsd_all_pairs,
    tukey_hsd_all_pairs,
    two_way_anova_mse,
)

SM_NAMES = {"bonferroni": "bonferroni", "holm": "holm", "bh": "fdr_bh"}


@pytest.mark.parametrize("method", sorted(SM_NAMES))
def test_adjust_matches_statsmodels(method, adhoc8_ap):
    x = adhoc8_ap.isel(measure=0).transpose("topic", "system").values[:, :25]
    _, p, _ = paired_t_all_pairs(x)
    ref = multipletests(p, method=SM_NAMES[method])[1]
    np.testing.assert_allclose(adjust_pvalues(p, method), ref, rtol=1e-12)


@pytest.mark.parametrize("method", sorted(SM_NAMES))
def test_adjust_batched_with_nan(method):
    rng = np.random.default_rng(31)
    p = rng.random((4, 30)) ** 3
    p[1, [3, 17]] = np.nan
    got = adjust_pvalues(p.T, method, axis=0).T  # family on axis 0
    for b in range(4):
        ok = ~np.isnan(p[b])
        np.testing.assert_allclose(got[b, ok], multipletests(p[b, ok], method=SM_NAMES[method])[1],
                                   rtol=1e-12)
        assert np.isnan(got[b, ~ok]).all()
    with pytest.raises(ValueError, match="method must be one of"):
        adjust_pvalues(p, "sidak")


@given(arrays(float, st.integers(1, 20), elements=st.floats(0, 1)),
       st.sampled_from(sorted(SM_NAMES)))
def test_adjusted_at_least_raw_and_monotone(p, method):
    adj = adjust_pvalues(p, method)
    assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adj[order]) >= -1e-12)  # adjustment keeps the order


def anova_reference(x):
    """Residual MS of the two-way ANOVA without replication fitted by OLS (statsmodels)."""
    t, s = x.shape
    frame = pd.DataFrame({"score": x.ravel(), "topic": np.repeat(np.arange(t), s).astype(str),
                          "system": np.tile(np.arange(s), t).astype(str)})
    table = sm.stats.anova_lm(ols("score ~ C(topic) + C(system)", data=frame).fit())
    return table.loc["Residual", "mean_sq"], table.loc["Residual", "df"]


def test_tukey_hsd_matches_anova_computation(adhoc8_ap):
    x = adhoc8_ap.isel(measure=0).transpose("topic", "system").values[:, :8]
    mse_ref, df_ref = anova_reference(x)
    mse, df = two_way_anova_mse(x)
    assert mse == pytest.approx(mse_ref, rel=1e-10) and df == df_ref
    r = tukey_hsd_all_pairs(x)
    i, j = pair_indices(8)
    means = x.mean(axis=0)
    t = x.shape[0]
    for k in range(len(i)):
        q = abs(means[i[k]] - means[j[k]]) / np.sqrt(mse_ref / t)
        assert r.statistic[k] == pytest.approx(q, rel=1e-10)
        assert r.pvalue[k] == pytest.approx(stats.studentized_range.sf(q, 8, df_ref), rel=1e-6,
                                            abs=1e-9)


def test_tukey_hsd_batched_and_pairs():
    x = np.random.default_rng(32).random((3, 12, 5))
    r = tukey_hsd_all_pairs(x)
    sub = tukey_hsd_all_pairs(x[1], pairs=([4, 3], [0, 0]))
    i, j = pair_indices(5)
    k40 = np.flatnonzero((i == 0) & (j == 4))[0]
    assert sub.pvalue[0] == pytest.approx(r.pvalue[1, k40])
    with pytest.raises(ValueError, match="complete data"):
        tukey_hsd_all_pairs(np.where(x > 0.99, np.nan, x))


def loop_randomised_tukey(x, B, seed):
    """Randomised Tukey HSD by a plain loop over trials (same random stream as the kernel
    with one trial per chunk)."""
    rng = np.random.default_rng(seed)
    means = x.mean(axis=0)
    ranges = []
    for _ in range(B):
        shuffled = rng.permuted(x[None], axis=-1)[0]
        m = shuffled.mean(axis=0)
        ranges.append(m.max() - m.min())
    ranges = np.array(ranges)
    i, j = pair_indices(x.shape[1])
    diff = np.abs(means[i] - means[j])
    return np.array([(1 + np.sum(ranges >= d - 1e-12)) / (B + 1) for d in diff])


def test_randomised_tukey_matches_loop(monkeypatch):
    from scorestd.kernels import multiple

    x = np.random.default_rng(33).random((10, 4))
    monkeypatch.setattr(multiple, "_CHUNK_CELLS", x.size)  # one trial per chunk
    got = randomised_tukey_hsd_all_pairs(x, B=200, seed=4)
    np.testing.assert_allclose(got.pvalue, loop_randomised_tukey(x, 200, 4))


def test_randomised_tukey_close_to_tukey_hsd_under_null():
    # topic effects plus exchangeable normal noise: both tests see the same null range
    # distribution of the system means, so their p-values agree up to Monte Carlo error
    rng = np.random.default_rng(34)
    x = rng.normal(0, 1, (40, 1)) + rng.normal(0, 0.1, (40, 6))
    rand = randomised_tukey_hsd_all_pairs(x, B=4000, seed=1)
    tukey = tukey_hsd_all_pairs(x)
    np.testing.assert_allclose(rand.pvalue, tukey.pvalue, atol=0.05)
    again = randomised_tukey_hsd_all_pairs(x, B=4000, seed=1)
    np.testing.assert_array_equal(rand.pvalue, again.pvalue)


@pytest.mark.filterwarnings("ignore:The integral is probably divergent")  # scipy reference
@pytest.mark.parametrize("k,df", [(2, 3), (3, 4), (8, 40), (110, 98 * 109), (129, 49 * 128)])
def test_studentized_range_sf_matches_scipy(k, df):
    q = np.array([0.3, 1.0, 2.5, 4.0, 5.5, 7.0])
    ref = stats.studentized_range.sf(q, k, df)  # scipy's numerical integration
    np.testing.assert_allclose(studentized_range_sf(q, k, df), ref, rtol=1e-6, atol=1e-9)
    assert np.isnan(studentized_range_sf(np.nan, k, df))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), chunk=st.integers(1, 9))
def test_randomised_tukey_batch_elements_are_their_own_test(seed, chunk):
    """The permutations are shared by the batch: an element's p-values are those of the
    element alone with the same seed, whatever the block of permutations per chunk."""
    import scorestd.kernels.multiple as multiple

    x = np.random.default_rng(seed).uniform(size=(3, 2, 8, 4))
    whole = multiple.randomised_tukey_hsd_all_pairs(x, B=150, seed=seed).pvalue
    default, multiple._CHUNK_CELLS = multiple._CHUNK_CELLS, x.size * chunk
    try:
        chunked = multiple.randomised_tukey_hsd_all_pairs(x, B=150, seed=seed).pvalue
    finally:
        multiple._CHUNK_CELLS = default
    np.testing.assert_array_equal(chunked, whole)
    for k in np.ndindex(3, 2):
        alone = multiple.randomised_tukey_hsd_all_pairs(x[k], B=150, seed=seed).pvalue
        np.testing.assert_array_equal(whole[k], alone)
