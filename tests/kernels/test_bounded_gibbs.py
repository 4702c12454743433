"""The compiled steps of the bounded samplers against numpy references on the same random
numbers (``bounded_reference``: the numpy code they replace; the normal model's own step),
the law of the latent values they draw, the scalar quantile functions against scipy's,
randomness from the seed chain by chain, and the cache."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from scorestd.bayes import bounded, gibbs
from scorestd.kernels import bounded_gibbs, compiled, normal_stream

from . import bounded_reference as ref

SYSTEM, TOPIC, MU = (2.0, 0.5), (2.0, 0.5), (0.0, 2.0)  # PROBIT_PRIORS as numbers


def _problem(rng, n_t=7, n_s=5, chains=3, zero_share=0.2, missing=2):
    """A state of the probit part: parameters, the kinds of cells (zeros, other scores, a
    few missing) and latent values of the right signs (z − η standard normal given them)."""
    mu = rng.normal(-1.0, 0.5, chains)
    alpha, beta = rng.normal(0, 0.6, (chains, n_s)), rng.normal(0, 0.6, (chains, n_t))
    kind = np.where(rng.random(n_t * n_s) < zero_share, 1, -1).astype(np.int8)
    kind[rng.choice(kind.size, missing, replace=False)] = 0
    return mu, alpha, beta, kind


def _latent(mu, alpha, beta, kind, rng):
    eps = rng.standard_normal((mu.size, kind.size))
    return ref.latent_step(mu, alpha, beta, eps, kind)


def _candidates(streams, size):
    """The normals ``latent_step`` draws from ``streams`` (a copy: the streams stay)."""
    eps = np.empty((len(streams), size))
    for c, row in enumerate(streams.copy()):
        normal_stream.fill(row, eps[c])
    return eps


def test_latent_step_equals_the_numpy_reference():
    rng = np.random.default_rng(11)
    mu, alpha, beta, kind = _problem(rng)
    mu[1] = -40.0  # (one chain far in the lower tail: the zeros' exponential tail)
    mu[2] = 6.0  # (and one where every other score is redrawn)
    c, n_s, n_t = mu.size, alpha.shape[1], beta.shape[1]
    streams = normal_stream.states_of([np.random.default_rng(k) for k in range(c)])
    eps = _candidates(streams, kind.size)
    want = ref.latent_step(mu, alpha, beta, eps, kind)
    z, z_zero = np.empty_like(eps), np.empty((c, int(np.sum(kind > 0))))
    e_row, e_col, rss, scale = np.empty((c, n_t)), np.empty((c, n_s)), np.empty(c), np.zeros(c)
    top_t = np.empty((c, n_t))
    bounded_gibbs.latent_step(mu, alpha, beta, streams, kind, z, z_zero, e_row, e_col,
                              rss, scale, top_t)
    for got, expected in zip((z, z_zero, e_row, e_col, rss, top_t), want, strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)
    assert np.all(scale == 1.0)
    # the signs are the data's
    assert np.all(z_zero > 0) and np.all(z[:, kind < 0] <= 0)
    # the streams moved on by one normal a cell: the next call draws the next normals
    after = _candidates(streams, 2 * kind.size)
    fresh = _candidates(normal_stream.states_of([np.random.default_rng(k) for k in range(c)]),
                        3 * kind.size)
    np.testing.assert_array_equal(after, fresh[:, kind.size:])


@pytest.mark.parametrize("eta, kind", [(-2.3, -1), (-2.3, 1), (0.4, 1), (1.5, -1),
                                       (-7.0, 1), (0.0, 0)])
def test_latent_step_draws_the_truncated_normal(eta, kind):
    # a cell of each kind many times over (a 1 × 20,000 matrix, one chain): z − η follows
    # N(0, 1) truncated to the side of 0 the score requires (unconstrained where missing)
    n = 20_000
    kinds = np.full(n, kind, dtype=np.int8)
    streams = normal_stream.states_of([np.random.default_rng(5)])
    z, z_zero = np.empty((1, n)), np.empty((1, int(np.sum(kinds > 0))))
    e_row, e_col, rss, scale = np.empty((1, 1)), np.empty((1, n)), np.empty(1), np.empty(1)
    bounded_gibbs.latent_step(np.array([eta]), np.zeros((1, n)), np.zeros((1, 1)), streams,
                              kinds, z, z_zero, e_row, e_col, rss, scale, np.empty((1, 1)))
    if kind < 0:
        x, law = z[0], stats.truncnorm(-np.inf, -eta, loc=eta)
    elif kind > 0:
        x, law = z_zero[0], stats.truncnorm(-eta, np.inf, loc=eta)
    else:
        x, law = eta + e_col[0], stats.norm(eta)
    assert stats.kstest(x, law.cdf).pvalue > 1e-3
    np.testing.assert_allclose(rss[0], np.sum(e_col ** 2), rtol=1e-12)


def _state(rng, chains=3, n_t=7, n_s=5, zero_share=0.15):
    """A full state of the module's steps (z consistent with the signs), with a scale ≠ 1."""
    mu, alpha, beta, kind = _problem(rng, n_t, n_s, chains, zero_share)
    z, z_zero, e_row, e_col, rss, top_t = _latent(mu, alpha, beta, kind, rng)
    scale = rng.uniform(0.7, 1.4, chains)
    return {"mu": mu * scale, "alpha": alpha * scale[:, None], "beta": beta * scale[:, None],
            "vs": rng.uniform(0.1, 1.0, chains), "vt": rng.uniform(0.1, 1.0, chains),
            "z": z, "z_zero": z_zero * scale[:, None], "e_row": e_row * scale[:, None],
            "e_col": e_col * scale[:, None], "rss": rss * scale ** 2, "scale": scale,
            "top_t": top_t}, kind


def test_expand_equals_the_numpy_reference():
    rng = np.random.default_rng(12)
    state, _ = _state(rng, chains=6)
    gamma = rng.standard_gamma(17.0, 6)
    uniform = rng.random(6)
    uniform[0] = 1e-300  # (one chain surely accepts)
    want = ref.expand(state, gamma, uniform, (MU[1], SYSTEM[1], TOPIC[1]))
    got = {key: value.copy() for key, value in state.items()}
    bounded_gibbs.expand(got["mu"], got["alpha"], got["beta"], got["vs"], got["vt"],
                        got["z_zero"], got["e_row"], got["e_col"], got["rss"], got["scale"],
                        gamma, uniform, MU[1], SYSTEM[1], TOPIC[1])
    for key in want:
        np.testing.assert_allclose(got[key], want[key], rtol=1e-13, err_msg=key)
    assert got["scale"][0] != state["scale"][0]


@pytest.mark.parametrize("zero_share", [0.03, 0.2, 0.6])
@pytest.mark.parametrize("rounds", [1, 3])
def test_interweave_equals_the_numpy_reference(zero_share, rounds):
    rng = np.random.default_rng(13)
    n_t, n_s = 9, 6
    rejections = 0
    for _ in range(20):
        state, kind = _state(rng, 4, n_t, n_s, zero_share)
        zero_t, zero_s = np.divmod(np.flatnonzero(kind > 0), n_s)
        zero = (kind > 0).reshape(n_t, n_s)
        free_s, free_t = ~zero.any(axis=0), ~zero.any(axis=1)
        uniforms = rng.random((4, rounds * (n_s + n_t + 4) + 1))
        seeds = rng.integers(2**32, size=4)
        streams = normal_stream.states_of([np.random.default_rng(k) for k in seeds])
        rngs = [np.random.default_rng(k) for k in seeds]  # (the same normals, from numpy)
        want = ref.interweave(state, zero_t, zero_s, free_s, free_t, uniforms, rounds,
                              SYSTEM, TOPIC, MU, rngs)
        got = {key: value.copy() for key, value in state.items()}
        ss_a, ss_b = np.empty(4), np.empty(4)
        bounded_gibbs.interweave(got["mu"], got["alpha"], got["beta"], got["vs"], got["vt"],
                                 streams, got["z"], got["z_zero"], got["scale"], got["top_t"],
                                 zero_t, zero_s, free_s, free_t, uniforms, rounds, SYSTEM,
                                 TOPIC, MU, ss_a, ss_b)
        got.update(ss_a=ss_a, ss_b=ss_b)
        for key in ("mu", "alpha", "beta", "vs", "vt", "z_zero", "ss_a", "ss_b"):
            np.testing.assert_allclose(got[key], want[key], rtol=1e-9, atol=1e-12,
                                       err_msg=key)
        # each chain's stream moved on by exactly the normals the reference drew
        np.testing.assert_array_equal(streams, normal_stream.states_of(rngs))
        rejections += int(np.any(streams != normal_stream.states_of(
            [np.random.default_rng(k) for k in seeds])))
        # every latent value keeps its sign
        eta = (got["mu"][:, None, None] + got["alpha"][:, None, :]
               + got["beta"][:, :, None]).reshape(4, -1)
        moved = state["z"] * state["scale"][:, None] + eta - (
            state["mu"][:, None, None] + state["alpha"][:, None, :]
            + state["beta"][:, :, None]).reshape(4, -1)
        assert np.all(moved[:, kind < 0] <= 1e-12)
        assert np.all(got["z_zero"] > -1e-12)
    assert rejections > 0  # (the rejection draws were exercised, not only the quantiles)


@pytest.mark.parametrize("a, b", [(-np.inf, -0.4), (-np.inf, 2.0), (0.3, np.inf),
                                  (-0.2, 0.9), (-3.0, -1.0), (-np.inf, -2.5), (1.2, 1.3),
                                  (0.7, 1.1), (-0.6, 0.3), (2.0, 2.4), (-1.6, -1.1)])
def test_truncated_standard_draws_the_truncated_law(a, b):
    # plain normals where the interval holds ≥ 30% of the mass, uniform points kept with
    # the density's ratio to its peak where that stays above 1/e, the quantile at u
    # elsewhere: each follows scipy's truncnorm(a, b) (KS at a fixed seed)
    rng = np.random.default_rng(21)
    st = normal_stream.states_of([np.random.default_rng(22)])[0]
    x = np.empty(20_000)
    for k, u in enumerate(rng.random(x.size)):
        x[k], st[0], st[1] = bounded_gibbs.truncated_standard(a, b, u, *st)
    assert np.all((x >= a) & (x <= b))
    assert stats.kstest(x, stats.truncnorm(a, b).cdf).pvalue > 1e-3
    # a NaN bound takes the quantile's path (NaN), never an endless rejection loop
    assert np.isnan(bounded_gibbs.truncated_standard(a, np.nan, 0.5, *st)[0])


@pytest.mark.parametrize("shape", [1.5, 3.0, 27.0, 140.0])
def test_gamma_draws_are_numpys(shape):
    # Marsaglia–Tsang from the stream's normals and uniforms: numpy's standard_gamma from
    # the same generator, draw for draw, and the streams end in the same state
    st = normal_stream.states_of([np.random.default_rng(31)])[0]
    rng = np.random.default_rng(31)
    got = np.empty(5000)
    for k in range(got.size):
        got[k], st[0], st[1] = normal_stream.gamma_draw(shape, *st)
    np.testing.assert_allclose(got, rng.standard_gamma(shape, got.size), rtol=1e-12)
    np.testing.assert_array_equal(st, normal_stream.states_of([rng])[0])


@pytest.mark.parametrize("lo, hi", [(20.0, np.inf), (0.0, 24.0), (26.5, 27.5), (40.0, 45.0)])
def test_truncated_gamma_draw_draws_the_truncated_law(lo, hi):
    # plain gamma draws kept when inside (two tries), else the quantile at u: scipy's
    # gamma(27) truncated to [lo, hi] (KS at a fixed seed); [40, 45] holds 0.2% of the mass
    law = stats.gamma(27.0)
    p_lo, p_hi = law.cdf(lo), law.cdf(hi)
    stream = normal_stream.states_of([np.random.default_rng(32)])[0]
    x = np.array([bounded_gibbs.truncated_gamma_draw(27.0, lo, hi, u, stream)
                  for u in np.random.default_rng(33).random(20_000)])
    assert np.all((x >= lo) & (x <= hi))
    assert stats.kstest(x, lambda v: (law.cdf(v) - p_lo) / (p_hi - p_lo)).pvalue > 1e-3


def test_component_latent_equals_the_numpy_reference_and_draws_the_truncated_law():
    rng = np.random.default_rng(14)
    c, n_t, n_s, k = 3, 6, 4, 400
    mu, alpha, beta = rng.normal(0.2, 0.3, c), rng.normal(0, 0.2, (c, n_s)), rng.normal(
        0, 0.2, (c, n_t))
    ve = rng.uniform(0.01, 0.05, c)
    sign = rng.choice([-1.0, 0.0, 1.0], k)
    bound = np.where(sign > 0, 1.0, 0.0)
    t_idx, s_idx = rng.integers(0, n_t, k), rng.integers(0, n_s, k)
    normals = rng.standard_normal((c, k))
    want = ref.component_latent(mu, alpha, beta, ve, normals, sign, bound, t_idx, s_idx)
    got = np.empty((c, k))
    bounded_gibbs.component_latent(mu, alpha, beta, ve, normals, sign, bound, t_idx, s_idx,
                                   got)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
    assert np.all(got[:, sign < 0] <= 0.0) and np.all(got[:, sign > 0] >= 1.0)
    # one cell censored at 0 many times: N(η, σ²) truncated to (−∞, 0]
    n = 20_000
    x = np.empty((1, n))
    draws = np.random.default_rng(6).standard_normal((1, n))
    bounded_gibbs.component_latent(np.array([0.05]), np.zeros((1, 1)), np.zeros((1, 1)),
                                   np.array([0.01]), draws, np.full(n, -1.0), np.zeros(n),
                                   np.zeros(n, np.intp), np.zeros(n, np.intp), x)
    law = stats.truncnorm(-np.inf, -0.05 / 0.1, loc=0.05, scale=0.1)
    assert stats.kstest(x[0], law.cdf).pvalue > 1e-3


@pytest.mark.parametrize("mu_prior", [None, (0.3, 0.5)])
def test_balanced_step_equals_the_normal_models_step(mu_prior):
    # the compiled step on the statistics of completed matrices, against
    # scorestd.bayes.gibbs._FastStep (numpy) on each chain's matrix, same random numbers
    rng = np.random.default_rng(15)
    c, n_t, n_s = 3, 8, 5
    pri = gibbs.CrossedPriors(gibbs.VariancePrior(2, 0.3), gibbs.VariancePrior(3, 0.2),
                              gibbs.VariancePrior(1.5, 0.1), mu=mu_prior)
    y = rng.normal(0.4, 0.2, (c, n_t, n_s))
    z, g = rng.standard_normal((c, n_s + n_t + 4)), rng.standard_gamma(4.0, (c, 3))
    vs, vt, ve = rng.uniform(0.01, 0.1, (3, c))
    sums = (np.empty((c, n_t)), np.empty((c, n_s)), np.empty(c))
    flat = y.reshape(c, -1)
    cells = np.arange(n_t * n_s)
    bounded_gibbs.component_statistics(np.zeros(n_t), np.zeros(n_s), 0.0, flat,
                                       cells // n_s, cells % n_s, *sums)
    stat = (np.empty(c), np.empty((c, n_s)), np.empty((c, n_t)), np.empty(c))
    bounded_gibbs.centred(*sums, *stat)
    got = bounded_gibbs.step(*stat, z, g, vs, vt, ve, bounded_gibbs.pack_priors(pri))
    keys = ("mu", "alpha", "beta", "vs", "vt", "ve", "ssr", "ss_a", "ss_b")
    for k in range(c):
        step = gibbs._FastStep(y[k], pri)
        want = step.update({"vs": vs[k:k + 1], "vt": vt[k:k + 1], "ve": ve[k:k + 1]},
                           z[k:k + 1], g[k:k + 1], None)
        for key, value in zip(keys, got, strict=True):
            np.testing.assert_allclose(value[k], want[key][0], rtol=1e-10, atol=1e-12,
                                       err_msg=key)


@settings(max_examples=80, deadline=None)
@given(st.floats(-40, 40), st.floats(1e-3, 10), st.floats(1e-9, 1 - 1e-9))
def test_compiled_truncated_normal_is_the_reference(a, width, u):
    b = a + width
    for lo, hi in ((a, b), (-np.inf, b), (a, np.inf)):
        got = bounded_gibbs.truncated_normal(lo, hi, u)
        assert got == pytest.approx(float(ref.truncated_normal(lo, hi, u)), rel=1e-14,
                                    abs=1e-300)
    assert bounded_gibbs.upper_truncated_normal(a, u) == pytest.approx(
        float(ref.truncated_normal(-np.inf, a, u)), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(st.floats(0.5, 500), st.floats(0, 600), st.floats(0, 50), st.floats(1e-9, 1 - 1e-9))
def test_compiled_truncated_gamma_is_the_reference_and_in_its_interval(shape, lo, width, u):
    for hi in (lo + width, np.inf):
        got = bounded_gibbs.truncated_gamma(shape, lo, hi, u)
        assert lo <= got <= hi
        want = float(ref.truncated_gamma(shape, lo, hi, u))
        assert got == pytest.approx(want, rel=1e-14) or (np.isnan(got) and np.isnan(want))


def test_the_hurdle_sampler_draws_from_its_seed_chain_by_chain():
    # same seed, same draws; a chain's draws do not depend on how many chains run
    rng = np.random.default_rng(3)
    y = 1 / (1 + np.exp(-(-1 + rng.normal(0, 0.5, (15, 4)))))
    y[rng.random(y.shape) < 0.1] = 0.0
    y[2, 1] = np.nan
    pri = bounded.CrossedPriors(bounded.VariancePrior(1, 0.1), bounded.VariancePrior(1, 0.1),
                                bounded.VariancePrior(1, 0.1))
    run = dict(draws=50, warmup=20, seed=7)
    two = bounded.sample_hurdle(y, pri, chains=2, **run)
    again = bounded.sample_hurdle(y, pri, chains=2, **run)
    three = bounded.sample_hurdle(y, pri, chains=3, **run)
    other = bounded.sample_hurdle(y, pri, chains=2, draws=50, warmup=20, seed=8)
    for key in two:
        np.testing.assert_array_equal(two[key], again[key], err_msg=key)
        np.testing.assert_array_equal(two[key], three[key][:2], err_msg=key)
    assert not np.array_equal(two["zero_alpha"], other["zero_alpha"])


def test_jit_compiles_without_a_writable_cache(monkeypatch):
    # where numba finds no writable cache location, the function is compiled in the
    # process instead (the same numbers)
    from numba.core import caching

    def unwritable(self):
        raise OSError("read-only")

    monkeypatch.setattr(caching._CacheLocator, "ensure_cache_path", unwritable)
    with pytest.raises(RuntimeError, match="cannot cache"):
        import numba

        numba.njit(cache=True)(_cubic)
    assert compiled.jit(_cubic)(2.0) == 8.0


def _cubic(x):
    return x * x * x
