"""paired_decisions: R's tests of the published study, scipy, plain loops, invariants."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from scorestd.experiments.result import ALPHAS
from scorestd.kernels import paired_decisions as paired_module
from scorestd.kernels.paired_decisions import (
    PAIRED_TESTS,
    _extreme_counts,
    _lattice_steps,
    _resampling_block,
    paired_decisions,
)
from scorestd.kernels.rank_tests import sign_pvalues, signed_ranks
from scorestd.kernels.resampling_tests import permutation_all_pairs

RESULTS = Path(__file__).parents[1] / "results" / "urbano2019_paired_tests"


def _cases():
    cases: dict[str, list[float]] = {}
    with open(RESULTS / "cases.csv") as f:
        for row in csv.DictReader(f):
            cases.setdefault(row["case"], []).append(float(row["d"]))
    return {k: np.array(v) for k, v in cases.items()}


def _r_pvalues():
    # paired_tests_R.csv: R 4.2.2, t.test / wilcox.test / binom.test as in the published
    # R/ir_tests.R (script paired_tests.R beside it)
    with open(RESULTS / "paired_tests_R.csv") as f:
        rows = [line for line in f if not line.startswith("#")]
    out = {}
    for row in csv.DictReader(rows):
        out[row["case"], row["test"]] = tuple(np.nan if row[k] == "NA" else float(row[k])
                                              for k in ("one_tailed", "two_tailed"))
    return out


CASES = _cases()
R_PVALUES = _r_pvalues()


def rounded_decisions(p):
    """The published rule: round(p, 6) <= α (NaN: no p-value)."""
    return np.round(p, 6) <= ALPHAS


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("test", ["paired_t", "wilcoxon", "sign"])
def test_decisions_equal_those_of_r(case, test):
    d = CASES[case]
    r = paired_decisions(d[None], ALPHAS, [test])
    p_one, p_two = R_PVALUES[case, test]
    if np.isnan(p_one):  # R: every difference a tie of the sign test
        assert not r.valid[0, 0]
        assert not r.reject.any()
        return
    assert r.valid[0, 0]
    np.testing.assert_array_equal(r.reject[0, 0, 0], rounded_decisions(p_one))
    np.testing.assert_array_equal(r.reject[0, 1, 0], rounded_decisions(p_two))


def test_r_reference_covers_every_path():
    # exact and normal Wilcoxon, ties, zeros, sign-test ties, an all-tie sign test
    ranks = {c: signed_ranks(CASES[c][None]) for c in ("normal_n25", "discrete_n50",
                                                        "one_zero_n25", "normal_n60")}
    assert ranks["normal_n25"][1][0] == 25 and ranks["normal_n25"][3][0] == 0  # exact
    assert ranks["normal_n60"][1][0] == 60  # normal approximation, no ties
    assert ranks["discrete_n50"][3][0] > 0 and ranks["one_zero_n25"][2][0]
    assert np.isnan(R_PVALUES["all_sign_ties_n25", "sign"][0])
    assert any(0.001 < R_PVALUES[c, "wilcoxon"][1] < 0.1 for c in CASES)


def test_binomial_pvalues_equal_scipy():
    for m in (1, 2, 7, 24, 25, 100):
        greater = sign_pvalues(np.arange(m + 1), m, "greater")
        two = sign_pvalues(np.arange(m + 1), m, "two-sided")
        for x in range(m + 1):
            assert greater[x] == pytest.approx(
                stats.binomtest(x, m, 0.5, alternative="greater").pvalue, rel=1e-12)
            assert two[x] == pytest.approx(stats.binomtest(x, m, 0.5).pvalue, rel=1e-12)


def test_wilcoxon_and_t_decisions_equal_scipy_on_random_vectors():
    rng = np.random.default_rng(7)
    for n, rounding in ((20, None), (40, None), (60, None), (30, 1), (80, 2)):
        d = rng.normal(0.02, 0.1, size=(200, n))
        if rounding is not None:
            d = np.round(d, rounding)
        r = paired_decisions(d, ALPHAS, ["paired_t", "wilcoxon"])
        for i, row in enumerate(d):
            nz = row[row != 0]
            exact = len(nz) < 50 and len(nz) == n and len(np.unique(np.abs(nz))) == len(nz)
            method = "exact" if exact else "approx"
            for tail, alt in enumerate(("greater", "two-sided")):
                p_w = stats.wilcoxon(row, alternative=alt, method=method,
                                     correction=not exact).pvalue
                np.testing.assert_array_equal(r.reject[1, tail, i], rounded_decisions(p_w))
                p_t = stats.ttest_1samp(row, 0.0, alternative=alt).pvalue
                np.testing.assert_array_equal(r.reject[0, tail, i], rounded_decisions(p_t))


def test_signed_ranks_equal_a_plain_loop():
    rng = np.random.default_rng(3)
    d = np.round(rng.normal(0, 1.5, size=(300, 30)), 1)  # |d| > 2 too: uint64 keys
    v, n, zeros, ties, _ = signed_ranks(d)
    for i, row in enumerate(d):
        nz = row[row != 0]
        ranks = stats.rankdata(np.abs(nz))
        assert v[i] == ranks[nz > 0].sum()
        assert n[i] == len(nz) and zeros[i] == (len(nz) < 30)
        _, t = np.unique(np.abs(nz), return_counts=True)
        assert ties[i] == (t**3 - t).sum()


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_resampling_counts_equal_a_plain_loop(test):
    rng = np.random.default_rng(11)
    d = np.round(rng.normal(0.01, 0.1, size=(40, 12)), 2)  # ties in the resampled sums
    drawn = _resampling_block(5, (), 4, 0, test, 12, 300, 512)
    matrix, per_trial = drawn.matrix, drawn.per_trial
    x = d * per_trial[:40] if test == "permutation" else np.take_along_axis(
        d, per_trial[:40], axis=1)
    counts = _extreme_counts(drawn, x, d.sum(axis=1), test, stop_above=10**9)
    for i in range(40):
        sums = [float(np.dot(w, x[i])) for w in matrix]  # one resample at a time
        obs = d[i].sum()
        tol = 1e-9 * np.abs(d[i]).sum()
        centre = obs if test == "bootstrap" else 0.0
        assert counts[0, i] == sum(s - centre >= obs - tol for s in sums)
        assert counts[1, i] == sum(abs(s - centre) >= abs(obs) - tol for s in sums)


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
def test_early_stopping_changes_no_decision(test):
    rng = np.random.default_rng(12)
    d = rng.normal(0.005, 0.1, size=(300, 25))
    drawn = _resampling_block(9, (), 4, 0, test, 25, 1000, 512)
    per_trial = drawn.per_trial
    x = d * per_trial[:300] if test == "permutation" else np.take_along_axis(
        d, per_trial[:300], axis=1)
    full = _extreme_counts(drawn, x, d.sum(axis=1), test, stop_above=10**9)
    stopped = _extreme_counts(drawn, x, d.sum(axis=1), test, stop_above=100)
    decided = full <= 100
    np.testing.assert_array_equal(stopped[decided], full[decided])
    assert (stopped[~decided] > 100).all()


def test_permutation_decisions_follow_the_exact_pvalue():
    # 10 topics: all 1024 sign flips give the exact p-value; with 20,000 random ones the
    # decision differs only where p is within Monte Carlo error of α.
    rng = np.random.default_rng(4)
    d = rng.normal(0.05, 0.1, size=(60, 10))
    r = paired_decisions(d, ALPHAS, ["permutation"], resamples=20_000, seed=2)
    x = np.stack([d, np.zeros_like(d)], axis=-1)
    for tail, alt in enumerate(("greater", "two-sided")):
        p = permutation_all_pairs(x, B="exact", alternative=alt).pvalue[:, 0]
        clear = np.abs(p[:, None] - ALPHAS) > 5 * np.sqrt(ALPHAS * (1 - ALPHAS) / 20_000)
        np.testing.assert_array_equal(r.reject[0, tail][clear], (p[:, None] <= ALPHAS)[clear])


def test_resampling_rejection_rate_under_the_null_is_alpha():
    rng = np.random.default_rng(6)
    d = rng.normal(0, 0.1, size=(4000, 25))
    r = paired_decisions(d, ALPHAS, ["permutation", "bootstrap"], resamples=1000, seed=8)
    for k in range(2):
        for tail in range(2):
            rate = r.reject[k, tail].mean(axis=0)
            # The permutation test is exact. The bootstrap's null distribution is too
            # narrow by sqrt((n − 1) / n): it rejects about when t > z_α sqrt(24 / 25)
            # (t with 24 df), a little liberal at n = 25.
            level = ALPHAS if tail == 0 else ALPHAS / 2
            expected = ALPHAS if k == 0 else (1 + tail) * stats.t.sf(
                stats.norm.isf(level) * np.sqrt(24 / 25), 24)
            se = np.sqrt(expected * (1 - expected) / 4000)
            at = ALPHAS >= 0.01
            slack = 0 if k == 0 else 0.25 * ALPHAS
            assert np.all(np.abs(rate - expected)[at] < (4 * se + slack)[at]), (k, tail, rate)


def test_same_decisions_whatever_the_split():
    rng = np.random.default_rng(1)
    d = rng.normal(0.02, 0.1, size=(700, 20))
    whole = paired_decisions(d, ALPHAS, resamples=300, seed=3, block=256)
    parts = [paired_decisions(d[a:b], ALPHAS, resamples=300, seed=3, block=256,
                              first_trial=a) for a, b in ((0, 100), (100, 513), (513, 700))]
    np.testing.assert_array_equal(whole.reject, np.concatenate([p.reject for p in parts],
                                                               axis=2))
    other = paired_decisions(d, ALPHAS, resamples=300, seed=4, block=256)
    assert (other.reject != whole.reject).any()  # the seed matters


def test_trials_of_a_block_have_their_own_resamples():
    # Two identical rows of one block get different permutation counts.
    d = np.tile(np.random.default_rng(2).normal(0.03, 0.1, 25), (2, 1))
    drawn = _resampling_block(1, (), 4, 0, "permutation", 25, 2000, 512)
    per_trial = drawn.per_trial
    x = d * per_trial[:2]
    counts = _extreme_counts(drawn, x, d.sum(axis=1), "permutation", stop_above=10**9)
    assert counts[1, 0] != counts[1, 1]


differences = arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(5, 40)),
                     elements=st.floats(-1, 1, allow_nan=False).map(lambda v: round(v, 3)))


@settings(max_examples=40, deadline=None)
@given(differences)
def test_sign_flip_keeps_two_tailed_and_excludes_both_one_tailed(d):
    a = paired_decisions(d, ALPHAS, resamples=200, seed=5)
    b = paired_decisions(-d, ALPHAS, resamples=200, seed=5)
    np.testing.assert_array_equal(a.reject[:, 1], b.reject[:, 1])
    np.testing.assert_array_equal(a.valid, b.valid)
    # at α < 0.5 a trial cannot be significant in both directions
    assert not (a.reject[:, 0] & b.reject[:, 0]).any()


@settings(max_examples=40, deadline=None)
@given(differences, st.integers(-6, 6))
def test_decisions_invariant_to_scale(d, power):
    c = 2.0**power  # exact in floating point: every test is scale-free
    a = paired_decisions(d, ALPHAS, resamples=200, seed=5, min_diff=0.01)
    b = paired_decisions(d * c, ALPHAS, resamples=200, seed=5, min_diff=0.01 * c)
    np.testing.assert_array_equal(a.reject, b.reject)


@settings(max_examples=40, deadline=None)
@given(differences)
def test_rank_tests_invariant_to_monotone_transforms(d):
    # Wilcoxon and sign (with min_diff = 0) see only signs and the order of |d|.
    t = np.sign(d) * np.abs(d) ** 0.5
    a = paired_decisions(d, ALPHAS, ["wilcoxon", "sign"], min_diff=0)
    b = paired_decisions(t, ALPHAS, ["wilcoxon", "sign"], min_diff=0)
    np.testing.assert_array_equal(a.reject, b.reject)


@settings(max_examples=40, deadline=None)
@given(differences)
def test_decisions_monotone_in_alpha(d):
    r = paired_decisions(d, ALPHAS, resamples=200, seed=5)
    assert np.all(np.diff(r.reject.astype(int), axis=-1) >= 0)


def test_bad_input():
    with pytest.raises(ValueError, match="at least 2 topics"):
        paired_decisions(np.zeros(5), ALPHAS)
    with pytest.raises(ValueError, match="NaN"):
        paired_decisions(np.array([[0.1, np.nan, 0.2]]), ALPHAS)
    with pytest.raises(ValueError, match="alphas"):
        paired_decisions(np.ones((1, 3)), [0.05, 1.5])
    with pytest.raises(ValueError, match="test must be one of"):
        paired_decisions(np.ones((1, 3)), ALPHAS, ["t"])
    with pytest.raises(ValueError, match="seed= is required by the permutation test"):
        paired_decisions(np.ones((1, 3)), ALPHAS, ["permutation"])
    assert PAIRED_TESTS == ("paired_t", "wilcoxon", "sign", "permutation", "bootstrap")


def test_permutation_rate_under_the_null_is_alpha_at_any_number_of_resamples():
    # p = (1 + #)/(B + 1): P(p <= α) = α when α(B + 1) is a whole number, here at B = 199
    # for every α of 0.005, 0.01, ..., 0.1 (#/B would give (⌊αB⌋ + 1)/(B + 1), e.g. 0.015
    # at α = 0.01).
    rng = np.random.default_rng(21)
    d = rng.normal(0, 0.1, size=(40_000, 20))
    r = paired_decisions(d, ALPHAS, ["permutation"], resamples=199, seed=4)
    at = np.isclose(ALPHAS * 200, np.round(ALPHAS * 200))
    for tail in range(2):
        rate = r.reject[0, tail].mean(axis=0)
        se = np.sqrt(ALPHAS * (1 - ALPHAS) / 40_000)
        assert np.all(np.abs(rate - ALPHAS)[at] < 4 * se[at]), (tail, rate)


def _p10_like(n_trials, n, seed):
    """Differences of two correlated P@10-like runs (multiples of 0.1), small effects."""
    rng = np.random.default_rng(seed)
    base = rng.binomial(10, rng.beta(1, 2.5, size=(n_trials, 1, n)), size=(n_trials, 2, n))
    return (base[:, 1] - base[:, 0]) / 10 + 0.0


@pytest.mark.parametrize("test", ["permutation", "bootstrap"])
@pytest.mark.parametrize("n", [25, 50])
def test_lattice_decisions_equal_those_of_the_float32_band_path(test, n, monkeypatch):
    # P@10-like differences decided on the integers k = 10 d: the decisions (both tails,
    # every α) of the path that recounts the sums near a threshold in float64
    d = _p10_like(3000, n, seed=n)
    steps, on_lattice = _lattice_steps(d)
    assert on_lattice.all()
    np.testing.assert_array_equal(steps, np.rint(d * 10))
    lattice = paired_decisions(d, ALPHAS, [test], resamples=2000, seed=5, first_trial=300)

    def off_lattice(d, max_q=None):
        return d, np.zeros(len(d), dtype=bool)

    monkeypatch.setattr(paired_module, "_lattice_steps", off_lattice)
    band = paired_decisions(d, ALPHAS, [test], resamples=2000, seed=5, first_trial=300)
    np.testing.assert_array_equal(lattice.reject, band.reject)
    assert band.reject[0, 0].any() and band.reject[0, 1].any()  # rejections in both tails
    assert not band.reject[0, 0].all()


def test_lattice_steps_detect_only_exact_lattices():
    d = np.array([[0.1, -0.3, 0.25, 0.0], [0.5, 0.75, -1.0, 0.05]])
    steps, on_lattice = _lattice_steps(d)  # q = lcm(10, 4, 20) = 20
    assert on_lattice.all()
    np.testing.assert_array_equal(steps, d * 20)
    # a difference off the lattice by far more than the tolerance: that row only
    off = d.copy()
    off[1, 0] += 1e-6
    _, on_lattice = _lattice_steps(off)
    assert on_lattice.tolist() == [True, False]
    # off by less than float64 sums can tell from the tolerance (1e-9 Σ|d|): on it
    for shift, expected in ((1e-12, True), (1e-7, False)):
        near = np.vstack([d, [0.1 + shift, 0.2, 0.3, 0.4]])
        _, on_lattice = _lattice_steps(near)
        assert on_lattice.tolist() == [True, True, expected]
    # a common denominator beyond the limit (1000): no lattice for the batch
    assert not _lattice_steps(np.vstack([d, [1 / 997, 1 / 991, 0.0, 0.0]]))[1].any()
    # a denominator beyond it, approximated by a smaller one: that row is off its lattice
    assert _lattice_steps(np.vstack([d, [1 / 1009, 0.0, 0.0, 0.0]]))[1].tolist() == [
        True, True, False]
    # continuous differences, or sums that float32 could not hold exactly: no lattice
    rng = np.random.default_rng(0)
    assert not _lattice_steps(rng.normal(size=(40, 30)))[1].any()
    big = np.array([[2.0**22, 1.0, -3.0], [1.0, 2.0, 3.0]])
    assert _lattice_steps(big)[1].tolist() == [False, True]
    zeros = np.zeros((2, 5))
    assert _lattice_steps(zeros)[1].all()
