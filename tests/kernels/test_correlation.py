"""Correlation kernels against scipy and plain double loops of the published definitions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from scorestd.kernels import correlation as kc

# Test data of the R package ircor (tests/testthat/helper_data.R), with the
# coefficients its tests expect (tests/testthat/test_tauAP.R), in
# tests/results/ircor_tauap.json. ircor names the true scores first: ircor tauAP(x, y) is
# our tau_ap(y, x).
IRCOR_SETS = ["set1", "set2", "set3"]


# ---- plain double-loop references of the published definitions -------------------


def loop_tau_a(x, y):
    n = len(x)
    s = 0
    for i in range(n):
        for j in range(i + 1, n):
            s += np.sign(x[i] - x[j]) * np.sign(y[i] - y[j])
    return s / (n * (n - 1) / 2)


def loop_tau_ap(est, truth):
    """Yilmaz et al. (2008): walk down the estimated ranking (highest first)."""
    order = sorted(range(len(est)), key=lambda k: -est[k])
    n = len(est)
    total = 0.0
    for pos in range(1, n):
        item = order[pos]
        c = sum(1 for above in order[:pos] if truth[above] > truth[item])
        total += c / pos
    return 2 * total / (n - 1) - 1


def loop_tau_ap_a(est, truth):
    """Urbano & Marrero (2017) τ_AP,a by brute force: the mean of τ_AP over all
    orderings of the estimate's tie groups (small n only)."""
    import itertools

    values = sorted(set(est), reverse=True)
    groups = [[k for k in range(len(est)) if est[k] == v] for v in values]
    taus = []
    for perms in itertools.product(*(itertools.permutations(g) for g in groups)):
        order = [k for g in perms for k in g]
        broken = np.empty(len(est))
        broken[order] = -np.arange(len(est))  # strict order consistent with the ties
        taus.append(loop_tau_ap(broken, truth))
    return float(np.mean(taus))


def loop_tau_ap_b_oneway(x, y):
    """One direction of τ_AP,b: positions (tie-group starts) by y; an item scores the
    fraction of items strictly above its group in y that are strictly above it in x."""
    n = len(x)
    total, counted = 0.0, 0
    for i in range(n):
        above = [j for j in range(n) if y[j] > y[i]]
        if not above:
            continue
        counted += 1
        total += sum(1 for j in above if x[j] > x[i]) / len(above)
    return 2 * total / counted - 1


def loop_tau_ap_b(x, y):
    return (loop_tau_ap_b_oneway(x, y) + loop_tau_ap_b_oneway(y, x)) / 2


# ---- published values ----------------------------------------------------------------


@pytest.mark.parametrize("name", IRCOR_SETS)
def test_tau_ap_family_matches_ircor(reference, name):
    d = reference("ircor_tauap")[name]
    # tolerance 5e-5 as in ircor's own tests
    assert kc.tau_ap(d["y"], d["x"]) == pytest.approx(d["tau_ap"], abs=5e-5)
    assert kc.tau_ap_a(d["y"], d["x"]) == pytest.approx(d["tau_ap"], abs=5e-5)
    assert kc.tau_ap_a(d["y_ties"], d["x"]) == pytest.approx(d["tau_ap_a_ties"], abs=5e-5)
    assert kc.tau_ap_b(d["x"], d["y"]) == pytest.approx(d["tau_ap_b"], abs=5e-5)
    assert kc.tau_ap_b(d["x_ties"], d["y_ties"]) == pytest.approx(d["tau_ap_b_ties"], abs=5e-5)
    assert kc.tau_ap_b(d["y_ties"], d["x_ties"]) == pytest.approx(d["tau_ap_b_ties"], abs=5e-5)


# ---- batched kernels against loops and scipy ------------------------------------------


@pytest.fixture
def tied_batch():
    rng = np.random.default_rng(5)
    return rng.random((40, 9)).round(1), rng.random((40, 9)).round(1)


def test_kendall_against_scipy_and_loop(tied_batch):
    x, y = tied_batch
    tb = kc.kendall_tau_b(x, y)
    ta = kc.kendall_tau_a(x, y)
    for k in range(len(x)):
        assert tb[k] == stats.kendalltau(x[k], y[k]).statistic  # bit for bit
        assert ta[k] == pytest.approx(loop_tau_a(x[k], y[k]), abs=1e-12)
    np.testing.assert_array_equal(kc.kendall_tau(x, y), tb)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rows=st.integers(1, 5), s=st.integers(2, 70),
       levels=st.integers(1, 300))
def test_tau_b_is_scipys_number_bit_for_bit(seed, rows, s, levels):
    # few levels: ties and constant rows (NaN); many: tie-free rows, where the two
    # square roots and the clip of scipy's formula decide the last bit
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, levels, (2, rows, s)) / levels
    got = kc.kendall_tau_b(x, y)
    for k in range(rows):
        expected = stats.kendalltau(x[k], y[k]).statistic
        assert np.array_equal(got[k], expected, equal_nan=True), (x[k], y[k])


def test_tau_ap_against_loop():
    rng = np.random.default_rng(6)
    x, y = rng.random((30, 12)), rng.random((30, 12))
    got = kc.tau_ap(x, y)
    got_a = kc.tau_ap_a(x, y)
    for k in range(len(x)):
        assert got[k] == pytest.approx(loop_tau_ap(x[k], y[k]), abs=1e-12)
        assert got_a[k] == pytest.approx(got[k], abs=1e-12)  # no ties: τ_AP,a = τ_AP


def test_tau_ap_a_is_mean_over_tie_orderings():
    rng = np.random.default_rng(7)
    for _ in range(15):
        est = rng.integers(0, 4, 7) / 4.0  # ties in the estimate
        truth = rng.permutation(7).astype(float)
        assert kc.tau_ap_a(est, truth) == pytest.approx(loop_tau_ap_a(est, truth), abs=1e-12)


def test_tau_ap_b_against_loop(tied_batch):
    x, y = tied_batch
    got = kc.tau_ap_b(x, y)
    for k in range(len(x)):
        assert got[k] == pytest.approx(loop_tau_ap_b(x[k], y[k]), abs=1e-12)


def test_pearson_spearman_against_scipy(tied_batch):
    x, y = tied_batch
    r = kc.pearson(x, y)
    rho = kc.spearman(x, y)
    for k in range(len(x)):
        assert r[k] == pytest.approx(stats.pearsonr(x[k], y[k]).statistic, abs=1e-12)
        assert rho[k] == pytest.approx(stats.spearmanr(x[k], y[k]).statistic, abs=1e-12)


def test_axis_and_batch_shape():
    rng = np.random.default_rng(8)
    x, y = rng.random((3, 10, 4)), rng.random((3, 10, 4))
    got = kc.tau_ap_b(x, y, axis=1)
    assert got.shape == (3, 4)
    assert got[2, 1] == pytest.approx(loop_tau_ap_b(x[2, :, 1], y[2, :, 1]))


def test_chunking_gives_same_answer(monkeypatch):
    rng = np.random.default_rng(9)
    x, y = rng.random((50, 20)), rng.random((50, 20))
    whole = kc.tau_ap_b(x, y)
    monkeypatch.setattr(kc, "_CHUNK_CELLS", 20 * 20 * 3)
    np.testing.assert_array_equal(kc.tau_ap_b(x, y), whole)


# ---- NaN, ties and bad input ----------------------------------------------------------


def test_nan_and_ties_give_nan():
    x = np.array([[0.1, 0.2, np.nan, 0.4], [0.1, 0.2, 0.3, 0.4]])
    y = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.2, 0.4]])
    for f in (kc.kendall_tau_b, kc.tau_ap_b, kc.pearson, kc.spearman):
        out = f(x, y)
        assert np.isnan(out[0]) and np.isfinite(out[1])
    assert np.isnan(kc.tau_ap(x, y)[1])  # tie in y: τ_AP undefined
    assert np.isnan(kc.tau_ap_a(x, y)[1])  # tie in the reference
    assert np.isfinite(kc.tau_ap_a(y, x)[1])  # tie in the estimate is fine
    assert np.isnan(kc.kendall_tau_b([1, 1, 1], [1, 2, 3]))  # constant vector


def test_bad_input():
    with pytest.raises(ValueError, match="same shape"):
        kc.kendall_tau_b([1, 2, 3], [1, 2])
    with pytest.raises(ValueError, match="at least 2"):
        kc.tau_ap_b([1.0], [1.0])


# ---- invariants -----------------------------------------------------------------------

vectors = st.integers(2, 12).flatmap(
    lambda n: st.tuples(
        arrays(float, n, elements=st.integers(0, 6).map(lambda v: v / 6)),
        arrays(float, n, elements=st.integers(0, 6).map(lambda v: v / 6)),
    )
)


@given(vectors)
def test_symmetric_coefficients(xy):
    x, y = xy
    for f in (kc.kendall_tau_a, kc.kendall_tau_b, kc.tau_ap_b, kc.pearson, kc.spearman):
        np.testing.assert_allclose(f(x, y), f(y, x), atol=1e-12, equal_nan=True)


@given(vectors)
def test_bounds_and_self_correlation(xy):
    x, _ = xy
    for f in (kc.kendall_tau_b, kc.tau_ap_b, kc.tau_ap_a):
        v = f(x, x) if f is not kc.tau_ap_a else f(x, np.arange(len(x), dtype=float))
        assert np.isnan(v) or -1 - 1e-12 <= v <= 1 + 1e-12
    if len(set(x)) > 1:
        assert kc.kendall_tau_b(x, x) == pytest.approx(1.0)
        assert kc.kendall_tau_b(x, -x) == pytest.approx(-1.0)
        assert kc.tau_ap_b(x, x) == pytest.approx(1.0)
        assert kc.tau_ap_b(x, -x) == pytest.approx(-1.0)
    if len(set(x)) == len(x):
        assert kc.tau_ap(x, x) == pytest.approx(1.0)
        assert kc.tau_ap(x, -x) == pytest.approx(-1.0)


@given(vectors)
def test_rank_coefficients_invariant_to_monotone_maps(xy):
    x, y = xy
    for f in (kc.kendall_tau_b, kc.tau_ap_b, kc.spearman):
        np.testing.assert_allclose(f(x, y), f(np.exp(3 * x), y**3 + 1), atol=1e-12,
                                   equal_nan=True)


# ---- τ_b and τ_AP,b from one set of comparison matrices -------------------------------


@given(st.integers(0, 2**32 - 1), st.integers(2, 40), st.integers(1, 6),
       st.sampled_from([None, 1, 2]))
def test_rank_agreement_equals_the_separate_kernels(seed, s, b, decimals):
    rng = np.random.default_rng(seed)
    x, y = rng.random((b, 3, s)), rng.random((b, 1, s))
    if decimals is not None:
        x, y = x.round(decimals), y.round(decimals)
    got = kc.rank_agreement(x, y)  # y shared by the three rows of each b
    y_full = np.broadcast_to(y, x.shape)
    np.testing.assert_array_equal(got.tau_b, kc.kendall_tau_b(x, y_full))
    np.testing.assert_array_equal(got.tau_ap_b, kc.tau_ap_b(x, y_full))


def test_rank_agreement_against_scipy_and_loops(tied_batch):
    x, y = tied_batch
    got = kc.rank_agreement(x, y)
    for k in range(len(x)):
        assert got.tau_b[k] == pytest.approx(stats.kendalltau(x[k], y[k]).statistic,
                                             abs=1e-12)
        assert got.tau_ap_b[k] == pytest.approx(loop_tau_ap_b(x[k], y[k]), abs=1e-12)


def test_rank_agreement_nan_constant_and_one_reference_for_all():
    x = np.array([[0.3, 0.1, 0.2], [0.5, 0.5, 0.5], [0.1, np.nan, 0.2]])
    got = kc.rank_agreement(x, [0.3, 0.2, 0.1])  # a 1-D y: the reference of every row
    assert got.tau_b[0] == pytest.approx(stats.kendalltau(x[0], [0.3, 0.2, 0.1]).statistic)
    assert np.isnan(got.tau_b[1:]).all() and np.isnan(got.tau_ap_b[1:]).all()
    with pytest.raises(ValueError, match="at least 2 items"):
        kc.rank_agreement([1.0], [2.0])


def test_rank_agreement_in_chunks(monkeypatch):
    """More rows than one chunk of comparison matrices holds."""
    rng = np.random.default_rng(8)
    x, y = rng.random((23, 4, 30)).round(2), rng.random((23, 1, 30)).round(2)
    whole = kc.rank_agreement(x, y)
    monkeypatch.setattr(kc, "AGREEMENT_CELLS", 2000)
    chunked = kc.rank_agreement(x, y)
    np.testing.assert_array_equal(chunked.tau_b, whole.tau_b)
    np.testing.assert_array_equal(chunked.tau_ap_b, whole.tau_ap_b)
