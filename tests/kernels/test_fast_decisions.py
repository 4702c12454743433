"""The error-rate study's fast decision kernels against plain loops written here and scipy.

Properties over generated difference vectors (continuous, on a lattice so that resampled
sums tie with the observed one, with zeros, of mixed magnitudes so that float32 sums are
not exact): every decision at every α of the grid, one- and two-tailed, equals the one of
a reference computed one resample (or one topic) at a time.
"""

from __future__ import annotations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from scorestd.experiments.result import ALPHAS
from scorestd.kernels.paired_decisions import (
    _extreme_counts,
    _lattice_steps,
    _resampling_block,
    paired_decisions,
)
from scorestd.kernels.rank_tests import (
    sign_counts,
    sign_pvalues,
    signed_rank_pvalues,
    signed_ranks,
    wilcoxon_all_pairs,
)
from scorestd.kernels.seeds import root_sequence

SEED, BLOCK = 17, 8


@st.composite
def difference_rows(draw, max_rows=4, min_topics=3, max_topics=30):
    """``(N, T)`` differences of one of four kinds."""
    n_rows = draw(st.integers(1, max_rows))
    n_topics = draw(st.integers(min_topics, max_topics))
    kind = draw(st.sampled_from(["continuous", "lattice", "zeros", "magnitudes"]))
    size = n_rows * n_topics
    if kind == "lattice":  # P@10-like: resampled sums equal the observed one
        values = draw(st.lists(st.integers(-10, 10), min_size=size, max_size=size))
        d = np.array(values) / 10
    elif kind == "magnitudes":  # float32 sums are off by more than the tolerance
        values = draw(st.lists(st.floats(-1, 1, allow_nan=False), min_size=size,
                               max_size=size))
        powers = draw(st.lists(st.integers(-12, 12), min_size=size, max_size=size))
        d = np.array(values) * 2.0 ** np.array(powers)
    else:
        values = draw(st.lists(st.floats(-1, 1, allow_nan=False).map(lambda v: round(v, 4)),
                               min_size=size, max_size=size))
        d = np.array(values)
        if kind == "zeros":
            d[: size // 3] = 0.0
    return d.reshape(n_rows, n_topics)


def rounded_decisions(p):
    """The published rule, ``round(p, 6) <= α`` at every α of the grid."""
    return np.round(p, 6) <= ALPHAS


def reference_counts(d, test, resamples, first_trial):
    """Resamples as extreme as observed ``(2, N)``, one-tailed ("greater") and
    two-tailed, from the kernel's resamples, one float64 sum at a time."""
    root = root_sequence(SEED)
    out = np.zeros((2, len(d)), dtype=np.int64)
    for i, row in enumerate(d):
        trial = first_trial + i
        drawn = _resampling_block(root.entropy, tuple(root.spawn_key), root.pool_size,
                                  trial // BLOCK, test, len(row), resamples, BLOCK)
        mine = drawn.per_trial[trial % BLOCK]
        x = row * mine if test == "permutation" else row[mine]
        observed = row.sum()
        centre = observed if test == "bootstrap" else 0.0
        tol = 1e-9 * np.abs(row).sum()
        one = two = 0
        for weights in drawn.matrix:
            s = sum(float(w) * float(v) for w, v in zip(weights, x, strict=True)) - centre
            one += s >= observed - tol
            two += abs(s) >= abs(observed) - tol
        out[:, i] = one, two
    return out


def reference_resampling_decisions(d, test, resamples, first_trial):
    """Decisions ``(2, N, A)``: ``(1 + count) / (resamples + 1)`` rounded, against α."""
    counts = reference_counts(d, test, resamples, first_trial)
    return rounded_decisions(((1 + counts) / (resamples + 1))[..., np.newaxis])


@settings(max_examples=60, deadline=None)
@given(difference_rows(), st.sampled_from(["permutation", "bootstrap"]),
       st.integers(0, 3 * BLOCK))
def test_resampling_decisions_equal_a_plain_loop(d, test, first_trial):
    resamples = 120
    r = paired_decisions(d, ALPHAS, [test], resamples=resamples, seed=SEED,
                         first_trial=first_trial, block=BLOCK)
    expected = reference_resampling_decisions(d, test, resamples, first_trial)
    np.testing.assert_array_equal(r.reject[0], expected)


@settings(max_examples=60, deadline=None)
@given(difference_rows(), st.sampled_from(["permutation", "bootstrap"]))
@example(np.array([[0.0, 0.0, 1.676e-303]]), "bootstrap")  # (beyond float32's range)
@example(np.array([[1e200, -3e199, 2e199]]), "permutation")
def test_resampled_counts_equal_a_plain_loop(d, test):
    # float32 sums, recounted in float64 near a threshold: the counts of float64 sums
    root = root_sequence(SEED)
    drawn = _resampling_block(root.entropy, tuple(root.spawn_key), root.pool_size, 0, test,
                              d.shape[1], 120, BLOCK)
    mine = drawn.per_trial[: len(d)]
    x = d * mine if test == "permutation" else np.take_along_axis(d, mine, axis=1)
    counts = _extreme_counts(drawn, x, d.sum(axis=1), test, stop_above=10**9)
    # |observed| within the tolerance of 0: both tails hold every sum, counted twice
    # (above 120, the same decisions as 120: none)
    np.testing.assert_array_equal(np.minimum(counts, 120), reference_counts(d, test, 120, 0))


def reference_signed_rank(row):
    """W⁺, the number ranked, zeros and Σ (t³ − t), from a plain loop over the topics."""
    kept = [v for v in row if v != 0 and not np.isnan(v)]
    order = sorted(abs(v) for v in kept)
    v_plus = 0.0
    for value in kept:
        below = sum(a < abs(value) for a in order)
        equal = sum(a == abs(value) for a in order)
        if value > 0:
            v_plus += below + (equal + 1) / 2
    groups = [order.count(a) for a in set(order)]
    return v_plus, len(kept), any(v == 0 for v in row), sum(t**3 - t for t in groups)


@settings(max_examples=80, deadline=None)
@given(difference_rows(max_rows=3, min_topics=1, max_topics=40), st.floats(0, 1))
def test_signed_ranks_equal_a_plain_loop_with_nan(d, missing):
    d = d.copy()
    d[:, : int(missing * d.shape[1])] = np.nan  # dropped like zeros
    r = signed_ranks(d)
    for i, row in enumerate(d):
        v, n, zeros, ties = reference_signed_rank(row)
        assert (r.v[i], r.n[i], r.zeros[i], r.ties[i]) == (v, n, zeros, ties)


@settings(max_examples=80, deadline=None)
@given(difference_rows(max_topics=60))
def test_wilcoxon_decisions_equal_scipy_with_r_conventions(d):
    # R's wilcox.test: exact below 50 non-zero differences without ties or zeros, else
    # the normal approximation with tie and continuity corrections (scipy's "approx")
    r = paired_decisions(d, ALPHAS, ["wilcoxon"])
    for i, row in enumerate(d):
        _, n, zeros, ties = reference_signed_rank(row)
        for tail, alternative in enumerate(("greater", "two-sided")):
            if n == 0:  # R: p = 1 one-tailed, NaN two-tailed; never a rejection
                assert not r.reject[0, tail, i].any()
                continue
            exact = n < 50 and not zeros and ties == 0
            p = stats.wilcoxon(row, alternative=alternative,
                               method="exact" if exact else "approx",
                               correction=not exact).pvalue
            np.testing.assert_array_equal(r.reject[0, tail, i], rounded_decisions(p))


@settings(max_examples=80, deadline=None)
@given(difference_rows(max_topics=60), st.sampled_from([0.0, 0.01, 0.1]))
def test_sign_decisions_equal_scipy_binomtest(d, min_diff):
    r = paired_decisions(d, ALPHAS, ["sign"], min_diff=min_diff)
    for i, row in enumerate(d):
        # the published code: |d| <= min_diff is a tie
        wins = sum(v > min_diff for v in row)
        losses = sum(v < -min_diff for v in row)
        assert r.valid[0, i] == (wins + losses > 0)
        for tail, alternative in enumerate(("greater", "two-sided")):
            if wins + losses == 0:
                assert not r.reject[0, tail, i].any()
                continue
            p = stats.binomtest(wins, wins + losses, 0.5, alternative=alternative).pvalue
            np.testing.assert_array_equal(r.reject[0, tail, i], rounded_decisions(p))


@settings(max_examples=60, deadline=None)
@given(difference_rows(max_rows=2, min_topics=2, max_topics=40),
       st.sampled_from(["two-sided", "greater", "less"]))
def test_one_implementation_serves_scipy_conventions(d, alternative):
    # the all-pairs Wilcoxon and the rows' statistics and p-values: scipy.stats.wilcoxon
    x = np.stack([d, np.zeros_like(d)], axis=-1)  # (N, T, 2 systems): one pair
    r = wilcoxon_all_pairs(x, alternative=alternative)
    rows = signed_ranks(d)
    for i, row in enumerate(d):
        if not np.any(row):
            assert r.pvalue[i, 0] == 1.0
            continue
        ref = stats.wilcoxon(row, alternative=alternative)
        assert np.isclose(r.pvalue[i, 0], ref.pvalue, rtol=1e-9, atol=1e-14)
        if len(row) > 13 or not (rows.zeros[i] or rows.ties[i]):  # not the 2ⁿ flips
            p = signed_rank_pvalues(rows.v[i], rows.n[i], rows.zeros[i], rows.ties[i],
                                    alternative)
            assert np.isclose(p, ref.pvalue, rtol=1e-9, atol=1e-14)


@settings(max_examples=60, deadline=None)
@given(difference_rows(), st.sampled_from([0.0, 0.01, 0.1]),
       st.sampled_from(["two-sided", "greater", "less"]))
def test_sign_counts_and_pvalues_equal_scipy(d, min_diff, alternative):
    wins, n = sign_counts(d, min_diff)
    p = sign_pvalues(wins, n, alternative)
    for i, row in enumerate(d):
        decided = [v for v in row if abs(v) >= min_diff and v != 0]
        assert (wins[i], n[i]) == (sum(v > 0 for v in decided), len(decided))
        if decided:
            ref = stats.binomtest(int(wins[i]), int(n[i]), 0.5, alternative=alternative)
            assert np.isclose(p[i], ref.pvalue, rtol=1e-12, atol=0)


@st.composite
def lattice_rows(draw):
    """``(N, T)`` differences ``k / q`` on a lattice of step ``1 / q``, with the ``k``."""
    q = draw(st.sampled_from([2, 5, 10, 20, 30]))
    n_rows = draw(st.integers(1, 4))
    n_topics = draw(st.integers(2, 30))
    steps = draw(st.lists(st.integers(-q, q), min_size=n_rows * n_topics,
                          max_size=n_rows * n_topics))
    k = np.array(steps, dtype=float).reshape(n_rows, n_topics)
    return k / q, k, q


@settings(max_examples=80, deadline=None)
@given(lattice_rows(), st.sampled_from(["permutation", "bootstrap"]),
       st.integers(0, 3 * BLOCK))
def test_lattice_decisions_equal_a_plain_loop(lattice, test, first_trial):
    # decided on the integer steps, exact in float32: the decisions of float64 sums
    d, k, q = lattice
    steps, on_lattice = _lattice_steps(d)
    assert on_lattice.all()
    # the steps of the lattice found: 1 / p for a divisor p of q
    assert any(np.array_equal(steps, k * p / q) for p in range(1, q + 1) if q % p == 0)
    resamples = 120
    r = paired_decisions(d, ALPHAS, [test], resamples=resamples, seed=SEED,
                         first_trial=first_trial, block=BLOCK)
    expected = reference_resampling_decisions(d, test, resamples, first_trial)
    np.testing.assert_array_equal(r.reject[0], expected)
