"""Wilcoxon and sign-test kernels against scipy.stats pair by pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from scorestd.kernels.rank_tests import wilcoxon_null_cdf
from scorestd.kernels.significance import pair_indices, sign_test_all_pairs, wilcoxon_all_pairs

ALTS = ["two-sided", "greater", "less"]


@pytest.mark.parametrize("alternative", ALTS)
def test_wilcoxon_exact_matches_scipy(alternative):
    # continuous scores: no ties, no zeros, n <= 50 -> scipy uses the exact distribution
    x = np.random.default_rng(11).random((2, 18, 6))
    r = wilcoxon_all_pairs(x, alternative=alternative)
    i, j = pair_indices(6)
    for b in range(2):
        for k in range(len(i)):
            ref = stats.wilcoxon(x[b, :, i[k]], x[b, :, j[k]], alternative=alternative)
            assert r.statistic[b, k] == ref.statistic
            assert r.pvalue[b, k] == pytest.approx(ref.pvalue, rel=1e-10)
            assert r.n[b, k] == 18


@pytest.mark.parametrize("alternative", ALTS)
def test_wilcoxon_asymptotic_matches_scipy_real(adhoc8_ap, alternative):
    # real AP scores have zeros and ties: the normal approximation with tie correction
    x = adhoc8_ap.isel(measure=0).transpose("topic", "system").values[:, :12]
    r = wilcoxon_all_pairs(x, alternative=alternative, method="asymptotic")
    i, j = pair_indices(12)
    for k in range(len(i)):
        d = x[:, i[k]] - x[:, j[k]]
        ref = stats.wilcoxon(d, alternative=alternative, method="asymptotic")
        assert r.statistic[k] == pytest.approx(ref.statistic, abs=1e-9)
        assert r.pvalue[k] == pytest.approx(ref.pvalue, rel=1e-9)
        assert r.n[k] == np.count_nonzero(d)


def test_wilcoxon_auto_switch_and_exact_forced():
    rng = np.random.default_rng(12)
    x = rng.random((60, 3))  # n > 50: auto is asymptotic
    r = wilcoxon_all_pairs(x)
    ref = stats.wilcoxon(x[:, 0], x[:, 1])
    assert r.pvalue[0] == pytest.approx(ref.pvalue, rel=1e-10)
    r = wilcoxon_all_pairs(x, method="exact")
    ref = stats.wilcoxon(x[:, 0], x[:, 1], method="exact")
    assert r.pvalue[0] == pytest.approx(ref.pvalue, rel=1e-10)


def test_wilcoxon_null_table_against_enumeration():
    import itertools

    n = 6
    counts = np.zeros(n * (n + 1) // 2 + 1)
    for signs in itertools.product([0, 1], repeat=n):  # plain enumeration of sign patterns
        counts[sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)] += 1
    np.testing.assert_allclose(wilcoxon_null_cdf(n)[n], np.cumsum(counts) / 2**n)


def test_wilcoxon_nan_and_zero_differences():
    x = np.random.default_rng(13).random((10, 3))
    x[:, 2] = x[:, 0]  # identical systems 0 and 2
    x[3, 1] = np.nan
    r = wilcoxon_all_pairs(x)
    ref = stats.wilcoxon(x[:, 0], x[:, 1], nan_policy="omit")
    assert r.pvalue[0] == pytest.approx(ref.pvalue) and r.n[0] == 9
    assert r.pvalue[1] == 1.0 and r.n[1] == 0  # all differences zero
    with pytest.raises(ValueError, match="method"):
        wilcoxon_all_pairs(x, method="permutation")


@pytest.mark.parametrize("alternative", ALTS)
def test_sign_test_matches_binomtest(alternative, adhoc8_ap):
    x = adhoc8_ap.isel(measure=0).transpose("topic", "system").values[:, :10]
    r = sign_test_all_pairs(x, alternative=alternative)
    i, j = pair_indices(10)
    for k in range(len(i)):
        d = x[:, i[k]] - x[:, j[k]]
        wins, losses = np.sum(d >= 0.01), np.sum(d <= -0.01)  # ties: |d| < 0.01
        ref = stats.binomtest(int(wins), int(wins + losses), 0.5, alternative=alternative)
        assert r.statistic[k] == wins and r.n[k] == wins + losses
        assert r.pvalue[k] == pytest.approx(ref.pvalue, rel=1e-10)


def test_sign_test_min_diff_and_bad_input():
    x = np.array([[0.5, 0.495], [0.6, 0.5], [0.3, 0.2], [0.3, 0.3]])
    assert sign_test_all_pairs(x).n[0] == 2  # 0.005 and 0 are ties
    assert sign_test_all_pairs(x, min_diff=0).n[0] == 3  # only the exact 0 is a tie
    assert sign_test_all_pairs(x, min_diff=0.5).pvalue[0] == 1.0  # nothing decided
    with pytest.raises(ValueError, match="min_diff"):
        sign_test_all_pairs(x, min_diff=-1)


@given(arrays(float, st.tuples(st.integers(2, 15), st.integers(2, 4)),
              elements=st.integers(0, 10).map(lambda v: v / 10)),
       st.sampled_from(ALTS))
def test_rank_tests_valid_and_antisymmetric(x, alternative):
    i, j = pair_indices(x.shape[1])
    for f in (wilcoxon_all_pairs, sign_test_all_pairs):
        r = f(x, alternative=alternative)
        assert np.all((r.pvalue >= 0) & (r.pvalue <= 1))
        swapped = f(x, alternative=alternative, pairs=(j, i))
        if alternative == "two-sided":
            np.testing.assert_allclose(r.pvalue, swapped.pvalue, rtol=1e-9)
        else:  # greater for (i, j) is less for (j, i)
            flip = "less" if alternative == "greater" else "greater"
            np.testing.assert_allclose(r.pvalue, f(x, alternative=flip, pairs=(j, i)).pvalue,
                                       rtol=1e-9)


def test_batch_chunks_do_not_change_answers(monkeypatch):
    from scorestd.kernels import rank_tests

    x = np.random.default_rng(14).random((3, 2, 12, 5)).round(1)
    whole_w = wilcoxon_all_pairs(x)
    whole_s = sign_test_all_pairs(x)
    monkeypatch.setattr(rank_tests, "_CHUNK_CELLS", 1)  # one batch element per chunk
    for got, ref in ((wilcoxon_all_pairs(x), whole_w), (sign_test_all_pairs(x), whole_s)):
        assert got.pvalue.shape == (3, 2, 10)
        for a, b in zip(got, ref, strict=True):
            np.testing.assert_array_equal(a, b)
    single = wilcoxon_all_pairs(x[2, 1])
    np.testing.assert_array_equal(single.pvalue, whole_w.pvalue[2, 1])


# Differences with ties and zeros and at most 13 topics: scipy's wilcoxon switches to a
# permutation test over all 2^n sign flips; the kernel counts the same flips exactly.
SMALL_TIED = [
    [0.1, -0.1, 0.2, 0.0, 0.3],
    [0.2, 0.2, -0.1, 0.4, 0.0, 0.0, 0.3, -0.2],
    [0.1, 0.3, -0.2, 0.3, 0.5, -0.1, 0.2, 0.2, 0.4, 0.0, -0.3, 0.6, 0.1],
]


@pytest.mark.parametrize(("d", "alternative"),
                         [(d, a) for d in SMALL_TIED[:2] for a in ALTS]
                         + [(SMALL_TIED[2], "two-sided")])  # (scipy takes 2 s for n = 13)
def test_wilcoxon_small_samples_with_ties_match_scipy_permutation(d, alternative):
    d = np.array(d)
    x = np.stack([d, np.zeros(d.size)], axis=1)  # x_i − x_j is d exactly
    r = wilcoxon_all_pairs(x, alternative=alternative)
    ref = stats.wilcoxon(d, alternative=alternative)  # scipy: PermutationMethod here
    assert r.statistic[0] == ref.statistic
    assert r.pvalue[0] == pytest.approx(ref.pvalue, rel=1e-12)


def plain_flip_pvalue(d, alternative):
    """Enumerate every sign pattern of the non-zero differences: the p-value of W⁺."""
    import itertools

    nonzero = d[d != 0]
    ranks = stats.rankdata(np.abs(nonzero))
    observed = ranks[nonzero > 0].sum()
    null = np.array([sum(r for r, s in zip(ranks, signs, strict=True) if s)
                     for signs in itertools.product([0, 1], repeat=nonzero.size)])
    less, greater = np.mean(null <= observed), np.mean(null >= observed)
    return {"less": less, "greater": greater,
            "two-sided": min(1.0, 2 * min(less, greater))}[alternative]


@given(d=arrays(np.float64, st.integers(2, 10),
                elements=st.integers(-3, 3).map(lambda i: i / 10)),
       alternative=st.sampled_from(ALTS))
def test_wilcoxon_small_tied_samples_against_plain_enumeration(d, alternative):
    x = np.stack([d, np.zeros(d.size)], axis=1)  # x_i − x_j is d exactly
    r = wilcoxon_all_pairs(x, alternative=alternative)
    if not np.any(d):
        assert r.pvalue[0] == 1.0
    elif np.unique(np.abs(d[d != 0])).size == np.count_nonzero(d) and np.all(d != 0):
        return  # no ties, no zeros: the exact table (tested above), not the flips
    else:
        assert r.pvalue[0] == pytest.approx(plain_flip_pvalue(d, alternative), rel=1e-12)
