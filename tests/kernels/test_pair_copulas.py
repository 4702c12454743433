"""Pair copulas in numpy against pyvinecopulib's own h-functions and draws."""

import numpy as np
import pytest
import pyvinecopulib as pv
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from scorestd.kernels import pair_copulas as pc

# (family, parameters) covering every parametric family of pyvinecopulib
CASES = [("indep", []), ("gaussian", [0.6]), ("gaussian", [-0.3]), ("student", [0.6, 4.5]),
         ("clayton", [2.3]), ("gumbel", [2.1]), ("gumbel", [6.0]), ("frank", [5.0]),
         ("frank", [-3.0]), ("joe", [2.5]), ("bb1", [0.8, 1.7]), ("bb6", [1.5, 1.8]),
         ("bb7", [2.2, 1.4]), ("bb8", [3.0, 0.7]), ("tawn", [0.6, 0.9, 2.5])]


def _bicop(name, par, rotation=0):
    kw = {"parameters": np.array(par, float)[:, None]} if par else {}
    return pv.Bicop(family=getattr(pv.BicopFamily, name), rotation=rotation, **kw)


def _params(par):
    p = np.zeros(3)
    p[:len(par)] = par
    return p


@pytest.mark.parametrize(("name", "par"), CASES)
def test_hfunc_and_inverse_equal_pyvinecopulib(name, par):
    rng = np.random.default_rng(1)
    u = np.asfortranarray(rng.uniform(0.001, 0.999, (500, 2)))
    cop = _bicop(name, par)
    code, p = pc.family_code(name), _params(par)[:, None]
    np.testing.assert_allclose(pc.hfunc(code, p, u[:, 0], u[:, 1]), cop.hfunc1(u), atol=1e-12)
    np.testing.assert_allclose(pc.hinv(code, p, u[:, 0], u[:, 1]), cop.hinv1(u), atol=1e-8)


@settings(max_examples=30, deadline=None)
@given(theta=st.floats(1.0, 8.0), delta=st.floats(0.05, 1.0), u=st.floats(0.001, 0.999),
       w=st.floats(0.001, 0.999), family=st.sampled_from(["gumbel", "joe", "bb8", "tawn"]))
def test_inverse_solves_h_for_any_parameters(theta, delta, u, w, family):
    par = {"gumbel": [theta], "joe": [theta], "bb8": [theta, delta],
           "tawn": [delta, 1 - delta / 2, theta]}[family]
    code, p = pc.family_code(family), _params(par)
    v = pc.hinv(code, p, u, w)
    assert 0 <= v <= 1
    assert abs(float(pc.hfunc(code, p, u, v)) - w) < 1e-7


# pyvinecopulib rotates only the families that are not radially symmetric
ROTATED = [(name, par, rot) for name, par in CASES for rot in (0, 90, 180, 270)
           if name != "indep" and (rot == 0 or name not in ("gaussian", "student", "frank"))]


@pytest.mark.parametrize("columns", [2, pc.UNIFORMS])
@pytest.mark.parametrize(("name", "par", "rotation"), ROTATED)
def test_draws_match_pyvinecopulib_by_ks_and_kendall_tau(name, par, rotation, columns):
    # 2 columns: the conditional inverse; UNIFORMS: joint draws (frailty) where there are
    cop = _bicop(name, par, rotation)
    n = 3000
    ref = np.asarray(cop.sample(20_000, seeds=[7, 8]))  # large: the test measures mine
    # ~600 KS tests at 1e-3 over the cases: one seed that all pass (the joint draws'
    # p-values are uniform over seeds at n = 3,000, and agree at n = 300,000)
    rng = np.random.default_rng(3 if columns == 2 else 4)
    mine = pc.sample([pc.family_code(name)], [rotation], [_params(par)],
                     rng.random((1, n, columns)), tau=[abs(cop.tau)])[0]
    # the dependence: a product and a difference statistic, and Kendall's τ
    for stat in (lambda x: x[:, 0] * x[:, 1], lambda x: x[:, 0] - x[:, 1]):
        assert stats.ks_2samp(stat(mine), stat(ref)).pvalue > 1e-3
    tau = stats.kendalltau(mine[:, 0], mine[:, 1]).statistic
    assert abs(tau - cop.tau) < 4 * np.sqrt(2 * (2 * n + 5) / (9 * n * (n - 1))) + 0.01
    assert stats.kstest(mine[:, 0], "uniform").pvalue > 1e-3
    assert stats.kstest(mine[:, 1], "uniform").pvalue > 1e-3


def test_one_pass_over_mixed_copulas_equals_one_copula_at_a_time():
    rng = np.random.default_rng(5)
    codes = [pc.family_code(n) for n, _ in CASES]
    params = [_params(p) for _, p in CASES]
    rot = [0] * len(CASES)
    uw = rng.random((len(CASES), 50, 2))
    together = pc.sample(codes, rot, params, uw)
    for k in range(len(CASES)):
        alone = pc.sample(codes[k:k + 1], rot[k:k + 1], params[k:k + 1], uw[k:k + 1])
        np.testing.assert_allclose(together[k], alone[0], atol=1e-8)


@pytest.mark.parametrize("alpha", [0.95, 0.6, 0.3, 0.1, 0.03])
def test_sibuya_frailty_is_the_least_k_of_its_cumulative_pmf(alpha):
    # plain loop over the pmf P(V = 1) = α, P(V = k + 1) = P(V = k) (k − α) / (k + 1)
    w = np.random.default_rng(2).random(400)
    got = pc._sibuya(np.full(w.shape, alpha), w)
    for wi, k in zip(w, got, strict=True):
        if k >= 1e6:  # beyond the loop's reach here: the tail P(V > k) ≈ k^−α / Γ(1 − α)
            assert abs(np.log1p(-wi) + alpha * np.log(k) + special.gammaln(1 - alpha)) < 1e-3
            continue
        p, cdf, j = alpha, alpha, 1
        while cdf < wi:
            p *= (j - alpha) / (j + 1)
            cdf += p
            j += 1
        assert k == j


@settings(max_examples=25, deadline=None)
@given(theta=st.floats(1.0, 12.0), psi1=st.floats(0.02, 1.0), psi2=st.floats(0.02, 1.0),
       delta=st.floats(0.05, 6.0), seed=st.integers(0, 2**32 - 1),
       family=st.sampled_from(["gumbel", "joe", "tawn", "bb7", "student"]))
def test_joint_draws_follow_the_conditional_inverse_for_any_parameters(theta, psi1, psi2,
                                                                       delta, family, seed):
    # the joint (frailty) draws against the conditional inverse, equal to pyvinecopulib's
    # h⁻¹ above: the same law (KS on both margins and on two statistics of the pair),
    # Kendall's τ as pyvinecopulib's
    par = {"gumbel": [theta], "joe": [theta], "tawn": [psi1, psi2, theta],
           "bb7": [min(theta, 6.0), delta], "student": [0.95 * (2 * psi1 - 1), 2 + 3 * theta]
           }[family]
    n, rng = 4000, np.random.default_rng(seed)
    code = pc.family_code(family)
    joint = pc.sample([code], [0], [_params(par)], rng.random((1, n, pc.UNIFORMS)))[0]
    inverse = pc.sample([code], [0], [_params(par)], rng.random((1, n, 2)))[0]
    assert np.all((joint > 0) & (joint < 1))
    for stat in (lambda x: x[:, 0], lambda x: x[:, 1], lambda x: x[:, 0] * x[:, 1],
                 lambda x: x[:, 0] - x[:, 1]):
        assert stats.ks_2samp(stat(joint), stat(inverse)).pvalue > 1e-4
    tau = stats.kendalltau(joint[:, 0], joint[:, 1]).statistic
    assert abs(tau - _bicop(family, par).tau) < 5 * np.sqrt(2 * (2 * n + 5) / (9 * n * (n - 1)))


@pytest.mark.parametrize("shape", [0.04, 0.5, 1.0, 3.7, 250.0, 1e7])
def test_gamma_frailty_follows_scipy_gamma(shape):
    x = np.random.default_rng(6).random((20_000, pc.UNIFORMS))
    with np.errstate(invalid="ignore"):
        g = pc._gamma(np.array(shape), x)
    assert stats.kstest(g, stats.gamma(shape).cdf).pvalue > 1e-3


@pytest.mark.parametrize(("name", "par", "rotation"), [*ROTATED, ("indep", [], 0)])
def test_rotated_hfunc1_and_hinv2_equal_pyvinecopulib(name, par, rotation):
    # the conditional functions a vine's inverse Rosenblatt transform uses, edge by edge
    u = np.asfortranarray(np.random.default_rng(6).uniform(0.001, 0.999, (500, 2)))
    cop = _bicop(name, par, rotation)
    # (1e-9: the two clip h into [1e-10, 1 − 1e-10] at different steps)
    np.testing.assert_allclose(pc.rotated_hfunc1(name, rotation, par, u[:, 0], u[:, 1]),
                               cop.hfunc1(u), atol=1e-9)
    np.testing.assert_allclose(pc.rotated_hinv2(name, rotation, par, u[:, 1], u[:, 0],
                                                tau=cop.tau), cop.hinv2(u), atol=1e-8)


@settings(max_examples=40, deadline=None)
@given(theta=st.floats(1.05, 6.0), delta=st.floats(0.05, 0.95), u2=st.floats(0.001, 0.999),
       w=st.floats(0.001, 0.999), rotation=st.sampled_from([0, 90, 180, 270]),
       family=st.sampled_from(["gumbel", "joe", "clayton", "bb1", "bb7", "tawn"]))
def test_rotated_hinv2_inverts_pyvinecopulib_hfunc2(theta, delta, u2, w, rotation, family):
    par = {"gumbel": [theta], "joe": [theta], "clayton": [theta - 1], "bb1": [delta, theta],
           "bb7": [theta, delta], "tawn": [delta, 1 - delta / 2, theta]}[family]
    u1 = pc.rotated_hinv2(family, rotation, par, np.array([u2]), np.array([w]))
    bicop = _bicop(family, par, rotation)
    back = bicop.hfunc2(np.array([[u1[0], u2]]))
    miss = abs(float(back[0]) - w)
    if miss >= 1e-7:
        # Near a corner the families' formulas lose digits in double precision (BB7 at
        # 1 − u ≈ 4e-4, θ = 4: 1 − (1 − u)^θ with (1 − u)^θ ≈ 3e-14), pyvinecopulib's h
        # as much as ours: at θ = 4, δ = 0.5, rotation 180, u2 = 0.001, w = 0.015625 the
        # root (mpmath, 50 digits) is 0.00038167, ours 0.00038135, pyvinecopulib's own
        # hinv2 0.00038085, which its hfunc2 maps 1.9e-4 away from w. There ours must
        # come as close to w, by pyvinecopulib's h, as pyvinecopulib's own inverse does.
        theirs = bicop.hinv2(np.array([[w, u2]]))
        their_miss = abs(float(bicop.hfunc2(np.array([[theirs[0], u2]]))[0]) - w)
        assert miss <= max(2 * their_miss, 1e-7), (u1[0], theirs[0], miss, their_miss)


@settings(max_examples=40, deadline=None)
@given(theta=st.floats(1.0, 30.0), u=st.floats(1e-9, 1 - 1e-9), w=st.floats(1e-9, 1 - 1e-9),
       family=st.sampled_from(["gumbel", "joe"]))
def test_gumbel_and_joe_inverses_solve_h_at_extreme_points(theta, u, w, family):
    # solved for C(u, v) by Newton's steps (not the generic search): h(v | u) = w
    code = pc.family_code(family)
    v = pc.hinv(code, [theta, 0, 0], u, w)
    assert 0 <= v <= 1
    back = float(pc.hfunc(code, [theta, 0, 0], u, v))
    # h(v | u) is C's derivative in u: computed where u or 1 - u is tiny, it carries an
    # error of a few eps / min(u, 1 - u) (u = 1e-9: a few 1e-7), which bounds how close
    # any v can bring it to w
    tolerance = 1e-7 + 8 * np.finfo(float).eps / min(u, 1 - u)
    assert abs(back - w) < tolerance or v in (0.0, 1.0), (v, back - w)


def test_student_edge_shares_its_quantiles_with_the_same_result():
    rng = np.random.default_rng(8)
    u2, w = rng.uniform(1e-6, 1 - 1e-6, (2, 2000))
    v, h = pc.rotated_hinv2_hfunc1("student", 0, [-0.6, 3.5], u2, w)
    np.testing.assert_allclose(v, pc.rotated_hinv2("student", 0, [-0.6, 3.5], u2, w),
                               atol=1e-14)
    np.testing.assert_allclose(h, pc.rotated_hfunc1("student", 0, [-0.6, 3.5], v, u2),
                               atol=1e-10)


def _joe_inverse_all_points(u, w, theta):
    """Joe's h-inverse stepping every point at every step (the converged ones kept): the
    reference the active-point steps of ``pc._hinv_joe`` must equal bit for bit."""
    qu = theta * np.log1p(-u)
    k = (theta - 1) / theta
    const = k * qu - np.log(-np.expm1(qu)) - np.log(w)
    lo, hi = k * qu - const, np.log(-qu)
    y = lo.copy()
    active = np.ones(y.shape, dtype=bool)
    for _ in range(60):
        q = -np.exp(y)
        em1 = -np.expm1(q)
        f = k * q - np.log(em1) - const
        lo = np.where(f > 0, y, lo)
        hi = np.where(f < 0, y, hi)
        nxt = y - f / (q * (k + (1 - em1) / em1))
        nxt = np.where((nxt >= lo) & (nxt <= hi), nxt, (lo + hi) / 2)
        moved = np.abs(nxt - y) > 1e-14 * np.maximum(1.0, np.abs(y))
        y = np.where(active, nxt, y)
        active &= moved
        if not active.any():
            break
    ratio = np.clip((np.exp(-np.exp(y)) - np.exp(qu)) / -np.expm1(qu), 0.0, 1.0)
    return 1 - ratio ** (1 / theta)


@settings(max_examples=25, deadline=None)
@given(theta=st.floats(1.0, 40.0), seed=st.integers(0, 2**32 - 1))
def test_joe_inverse_steps_only_unconverged_points_with_the_same_result(theta, seed):
    rng = np.random.default_rng(seed)
    u, w = rng.random((2, 3000))
    u[:5], w[5:10], u[10:15], w[15:20] = 1e-12, 1 - 1e-12, 1 - 1e-12, 1e-12
    thetas = np.full(3000, theta)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(pc._hinv_joe(u, w, thetas),
                                      _joe_inverse_all_points(u, w, thetas))
        # per-point parameters, as a batch of mixed copulas has them
        mixed = rng.uniform(1, theta + 1, 3000)
        np.testing.assert_array_equal(pc._hinv_joe(u, w, mixed),
                                      _joe_inverse_all_points(u, w, mixed))


def test_student_edge_recomputes_a_quantile_only_where_the_clip_moved_it():
    from scipy import special

    rng = np.random.default_rng(9)
    u2, w = rng.uniform(1e-6, 1 - 1e-6, (2, 4000))
    u2[:10], w[10:20], w[20:30] = 1e-13, 1 - 1e-13, 1e-13  # clipped draws
    for rho, nu in [(-0.6, 3.5), (0.95, 2.1), (0.3, 40.0)]:
        v, h = pc.rotated_hinv2_hfunc1("student", 0, [rho, nu], u2, w)
        # the reference: the quantile of every clipped draw recomputed, point by point
        x = special.stdtrit(nu, u2)
        y = special.stdtrit(nu + 1, w) * np.sqrt((nu + x * x) * (1 - rho * rho) / (nu + 1)) \
            + rho * x
        ref_v = np.clip(special.stdtr(nu, y), 1e-10, 1 - 1e-10)
        ref_y = np.where(ref_v == special.stdtr(nu, y), y, special.stdtrit(nu, ref_v))
        ref_h = np.clip(special.stdtr(nu + 1, (x - rho * ref_y) / np.sqrt(
            (nu + ref_y * ref_y) * (1 - rho * rho) / (nu + 1))), 1e-10, 1 - 1e-10)
        assert (ref_v != special.stdtr(nu, y)).any()
        np.testing.assert_array_equal(v, ref_v)
        np.testing.assert_array_equal(h, ref_h)
