"""The numpy vine sampler against pyvinecopulib: the same inverse Rosenblatt transform on
the same uniforms, the same law as its own draws (KS on margins, Kendall's τ of every
pair), any split of the rows."""

import numpy as np
import pytest
import pyvinecopulib as pv
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from scorestd.kernels.vine import inverse_rosenblatt
from scorestd.simulation.copula import VineCopula, _plan_of

# one pair copula of every parametric family, each rotation the family has
PAIRS = [("gaussian", [0.6], 0), ("student", [-0.4, 5.0], 0), ("clayton", [2.3], 90),
         ("gumbel", [2.1], 180), ("frank", [-4.0], 0), ("joe", [2.5], 270),
         ("bb1", [0.8, 1.7], 0), ("bb6", [1.5, 1.8], 90), ("bb7", [2.2, 1.4], 180),
         ("bb8", [3.0, 0.7], 270), ("tawn", [0.6, 0.9, 2.5], 90), ("tawn", [0.3, 0.8, 3.0], 0),
         ("clayton", [1.2], 270), ("gumbel", [1.6], 90), ("joe", [1.8], 0), ("indep", [], 0)]


def _bicop(name, par, rotation):
    kw = {"parameters": np.array(par, float)[:, None]} if par else {}
    return pv.Bicop(family=getattr(pv.BicopFamily, name), rotation=rotation, **kw)


def _vine(d, seed, trunc=None, pairs=PAIRS):
    """A vine on a random R-vine structure with the pair copulas above in turn."""
    structure = pv.RVineStructure.sample(d, seeds=[seed])
    if trunc is not None:
        structure.truncate(trunc)
    levels = min(d - 1, structure.trunc_lvl)
    k = iter(range(10**6))
    cops = [[_bicop(*pairs[(next(k) + seed) % len(pairs)]) for _ in range(d - 1 - t)]
            for t in range(levels)]
    return pv.Vinecop.from_structure(structure=structure, pair_copulas=cops)


@pytest.mark.parametrize(("d", "seed", "trunc"), [(2, 0, None), (3, 1, None), (6, 2, None),
                                                  (8, 3, None), (9, 4, 3), (12, 5, 2)])
def test_equals_pyvinecopulib_inverse_rosenblatt_on_the_same_uniforms(d, seed, trunc):
    vine = _vine(d, seed, trunc)
    u = np.random.default_rng(seed).uniform(1e-6, 1 - 1e-6, (2000, d))
    mine = inverse_rosenblatt(_plan_of(vine), u)
    # pyvinecopulib inverts the h-functions of BB, Gumbel, Joe and Tawn numerically, less
    # closely (its own Rosenblatt transform of its draws is up to 1e-5 off u)
    np.testing.assert_allclose(mine, vine.inverse_rosenblatt(u), atol=2e-5)
    # its Rosenblatt transform (closed-form h-functions) takes mine back to u
    np.testing.assert_allclose(vine.rosenblatt(mine), u, atol=1e-8)


def test_a_fitted_vine_of_every_family_equals_pyvinecopulib():
    rng = np.random.default_rng(11)
    z = rng.standard_normal((400, 7))
    x = np.column_stack([z[:, 0], z[:, 0] + z[:, 1], np.exp(z[:, 2] + z[:, 1]),
                         z[:, 3] + np.abs(z[:, 0]), z[:, 4] * z[:, 1], z[:, 5] - z[:, 3] ** 2,
                         z[:, 6] + z[:, 5]])
    controls = pv.FitControlsVinecop(family_set=list(pv.families.parametric),
                                     parametric_method="mle")
    vine = pv.Vinecop.from_data(pv.to_pseudo_obs(x), controls=controls)
    u = rng.random((3000, 7))
    mine = inverse_rosenblatt(_plan_of(vine), u)
    np.testing.assert_allclose(mine, vine.inverse_rosenblatt(u), atol=2e-5)
    np.testing.assert_allclose(vine.rosenblatt(mine), u, atol=1e-8)


def test_same_law_as_pyvinecopulib_draws_ks_on_margins_and_tau_of_every_pair():
    d, n = 7, 4000
    vine = _vine(d, 8)
    mine = VineCopula(vine).sample(n, np.random.default_rng(2))
    theirs = np.asarray(vine.sample(40_000, seeds=[5, 6]))
    for k in range(d):  # uniform margins
        assert stats.kstest(mine[:, k], "uniform").pvalue > 1e-3
    se = np.sqrt(2 * (2 * n + 5) / (9 * n * (n - 1)))  # τ's SE under independence (larger)
    for i in range(d):
        for j in range(i + 1, d):
            tau_mine = stats.kendalltau(mine[:, i], mine[:, j]).statistic
            tau_theirs = stats.kendalltau(theirs[:8000, i], theirs[:8000, j]).statistic
            assert abs(tau_mine - tau_theirs) < 4 * se * np.sqrt(1 + n / 8000)
            # and a KS test of the pair's dependence through a product statistic
            assert stats.ks_2samp(mine[:, i] * mine[:, j],
                                  theirs[:, i] * theirs[:, j]).pvalue > 1e-4


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), cut=st.integers(1, 59))
def test_any_split_of_the_rows_gives_the_same_draws(seed, cut):
    vine = _vine(5, seed % 7)
    plan = _plan_of(vine)
    u = np.random.default_rng(seed).random((60, 5))
    whole = inverse_rosenblatt(plan, u)
    parts = np.vstack([inverse_rosenblatt(plan, u[:cut]), inverse_rosenblatt(plan, u[cut:])])
    np.testing.assert_array_equal(whole, parts)


def test_a_family_numpy_lacks_is_drawn_by_pyvinecopulib_and_counted():
    x = np.random.default_rng(4).standard_normal((300, 4)).cumsum(axis=1)
    controls = pv.FitControlsVinecop(family_set=[pv.BicopFamily.tll])
    vine = pv.Vinecop.from_data(pv.to_pseudo_obs(x), controls=controls)
    cop = VineCopula(vine)
    tll = sum(str(c.family).endswith("tll") for tree in vine.pair_copulas for c in tree)
    assert tll > 0 and cop.fallback_edges == tll
    u = np.random.default_rng(1).random((500, 4))
    np.testing.assert_allclose(inverse_rosenblatt(cop.plan, u, cop._edge_by_pyvinecopulib),
                               vine.inverse_rosenblatt(u), atol=1e-9)
    with pytest.raises(ValueError, match="need the fallback function"):
        inverse_rosenblatt(cop.plan, u)


def test_working_memory_is_bounded_by_the_plan():
    import tracemalloc

    vine = _vine(20, 3)
    plan = _plan_of(vine)
    u = np.random.default_rng(0).random((4000, 20))
    tracemalloc.start()
    inverse_rosenblatt(plan, u)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak <= plan.bytes_per_point() * len(u)
    assert plan.peak < 20 * 19 / 2  # working arrays are dropped after their last use
