"""The copulas, simulate() and the diagnostics."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import scorestd
from scorestd.errors import OptionError, ScoreDataError
from scorestd.simulation import GaussianCopula, fit_simulator, simulate, simulation_diagnostics


@pytest.fixture(scope="module")
def sim():
    # the Gaussian copula: these tests are about chunking, labels and its own τ
    return fit_simulator(scorestd.datasets.load("adhoc8").isel(system=slice(0, 30)),
                         measure="ap", copula="gaussian")


def test_gaussian_copula_kendall_tau_is_two_over_pi_asin_rho():
    corr = np.array([[1.0, 0.7, -0.3], [0.7, 1.0, 0.1], [-0.3, 0.1, 1.0]])
    u = GaussianCopula(corr).sample(20000, np.random.default_rng(1))
    expected = 2 / np.pi * np.arcsin(corr)
    for i, j in ((0, 1), (0, 2), (1, 2)):
        tau = stats.kendalltau(u[:4000, i], u[:4000, j]).statistic
        assert tau == pytest.approx(expected[i, j], abs=0.03)  # SE of τ here ≈ 0.008
    assert np.allclose(GaussianCopula(corr).kendall_tau, expected)
    # the fit recovers the correlation from the pseudo-observations
    z = np.random.default_rng(2).multivariate_normal(np.zeros(3), corr, size=20000)
    assert np.allclose(GaussianCopula.fit(stats.norm.cdf(z) ** 2).corr, corr, atol=0.02)


def test_singular_correlation_more_systems_than_topics():
    x = np.random.default_rng(3).random((5, 12))
    cop = GaussianCopula.fit(x)
    u = cop.sample(100, np.random.default_rng(0))
    assert u.shape == (100, 12) and np.isfinite(u).all()


def test_same_seed_same_answer_whatever_the_chunking(sim):
    a = simulate(sim, n_topics=20, trials=150, seed=7)
    b = simulate(sim, n_topics=20, trials=150, seed=7, batch_size=1)
    c = simulate(sim, n_topics=20, trials=150, seed=7, dask=True, batch_size=1)
    assert c.chunks is not None and len(c.chunks[0]) > 1
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_array_equal(a.values, c.values)
    np.testing.assert_array_equal(simulate(sim, n_topics=20, trials=70, seed=7).values,
                                  a.values[:70])
    assert not np.array_equal(simulate(sim, n_topics=20, trials=2, seed=8).values, a.values[:2])


def test_simulated_cube_is_labelled_with_true_means(sim):
    cubes = simulate(sim, n_topics=30, trials=400, seed=1)
    assert cubes.dims == ("trial", "topic", "system", "measure")
    assert list(cubes.system.values) == list(sim.systems)
    np.testing.assert_allclose(cubes["true_mean"].values, sim.margins.mean)
    # the simulated means estimate the true means (12,000 topics per system)
    sim_mean = cubes.mean(("trial", "topic")).values[:, 0]
    se = np.sqrt(sim.margins.var / 12000)
    assert np.all(np.abs(sim_mean - sim.margins.mean) < 5 * se + 1e-4)


def test_with_means_imposes_the_expected_score(sim):
    s = str(sim.systems[5])
    moved = sim.with_means({s: 0.4})
    assert float(moved.true_means.sel(system=s)) == pytest.approx(0.4, abs=1e-9)
    cubes = simulate(moved, n_topics=50, trials=400, seed=2)
    assert float(cubes.sel(system=s).mean()) == pytest.approx(0.4, abs=0.01)


def test_diagnostics_compare_simulated_with_observed(sim, tmp_path):
    d = simulation_diagnostics(sim, simulate(sim, trials=20, seed=3))
    table = d.summary()
    assert table.loc["mean", "correlation"] > 0.95
    assert table.loc["kendall_tau", "correlation"] > 0.8
    # the simulated τ between systems is the copula's 2/π asin ρ (within sampling error)
    gap = d.data["simulated_tau"] - d.data["copula_tau"]
    assert float(np.abs(gap).mean()) < 0.03
    fig = d.plot(tmp_path / "diag.png")
    assert (tmp_path / "diag.png").stat().st_size > 0
    import matplotlib.pyplot as plt

    plt.close(fig)


def _plain_pair_stats(trials: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Kendall τ_b and Pearson r of every system pair, pair by pair with scipy, averaged
    over the trials of ``(N, T, S)`` where scipy defines them."""
    n_sys = trials.shape[-1]
    tau, r = [], []
    for i in range(n_sys):
        for j in range(i + 1, n_sys):
            taus, rs = [], []
            for x in trials:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")  # a constant system: NaN, left out
                    taus.append(stats.kendalltau(x[:, i], x[:, j]).statistic)
                    rs.append(stats.pearsonr(x[:, i], x[:, j]).statistic)
            tau.append(np.nanmean(taus) if np.isfinite(taus).any() else np.nan)
            r.append(np.nanmean(rs) if np.isfinite(rs).any() else np.nan)
    return np.array(tau), np.array(r)


def test_pairwise_statistics_in_blocks_are_scipy_s_pair_by_pair(sim):
    """Blocks of pairs (a 1 MiB budget: 69 of 435 pairs a block) or all at once, τ_b and
    r are scipy's, pair by pair, averaged over the trials; with ties (scores rounded to
    one decimal) too."""
    from scorestd.simulation.diagnostics import pair_block

    sims = simulate(sim, n_topics=50, trials=3, seed=5)
    n_pairs = 30 * 29 // 2
    assert pair_block(50, 30, "1MiB", held=sims.nbytes) < n_pairs // 4
    for cubes in (sims, sims.round(1)):
        tau, r = _plain_pair_stats(cubes.values[..., 0])
        for memory in ("1MiB", None):
            d = simulation_diagnostics(sim, cubes, memory=memory).data
            np.testing.assert_allclose(d["simulated_tau"], tau, rtol=1e-12, atol=1e-15)
            np.testing.assert_allclose(d["simulated_r"], r, rtol=1e-12, atol=1e-15)
    observed = sim.observed.values[None]
    tau, r = _plain_pair_stats(observed)
    np.testing.assert_allclose(d["observed_tau"], tau, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(d["observed_r"], r, rtol=1e-12, atol=1e-15)


def test_bad_arguments(sim):
    with pytest.raises(ValueError, match="seed= is required"):
        simulate(sim, trials=2)
    with pytest.raises(ValueError, match="n_topics must be an integer"):
        simulate(sim, n_topics=1, seed=1)
    with pytest.raises(TypeError, match="needs a Simulator"):
        simulate("adhoc8", seed=1)
    with pytest.raises(ValueError, match="copula must be one of"):
        fit_simulator(scorestd.datasets.load("adhoc8_ap"), copula="t")
    with pytest.raises(OptionError, match=r"corr must be a square matrix; got shape \(2, 3\)"):
        GaussianCopula(np.zeros((2, 3)))


def test_vine_copula_simulates():
    cube = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    sim = fit_simulator(cube, copula="vine", family_set=["gaussian", "clayton"], trunc_lvl=2)
    a = simulate(sim, n_topics=10, trials=3, seed=1)
    b = simulate(sim, n_topics=10, trials=3, seed=1, batch_size=1)
    np.testing.assert_array_equal(a.values, b.values)
    assert a.attrs["copula"] == "vine"


def test_the_default_is_the_paper_s_vine_with_observed_means():
    cube = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6))
    sim = fit_simulator(cube)
    assert sim.copula.name == "vine"
    def families(vine):
        return {str(vine.get_pair_copula(t, e).family).split(".")[-1]
                for t in range(5) for e in range(5 - t)}

    one_parameter = {"indep", "gaussian", "clayton", "gumbel", "frank", "joe", "student"}
    assert families(sim.copula.vine) <= one_parameter  # inversion of Kendall's τ
    by_likelihood = fit_simulator(cube, vine_method="mle").copula.vine
    assert families(by_likelihood) - one_parameter  # every parametric family a candidate
    observed = cube.mean("topic").values[:, 0]
    np.testing.assert_allclose(sim.true_means.values, observed, atol=1e-8)
    fitted = fit_simulator(cube, means="fitted")
    np.testing.assert_allclose(fitted.true_means.values, sim.fitted_means)
    assert not np.allclose(sim.fitted_means, observed, atol=1e-3)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"family_set": ["foo"]}, "family_set must be one of"),
    ({"trunc_lvl": -1}, "trunc_lvl must be an integer ≥ 1; got -1"),
    ({"trunc_lvl": 1.5}, "trunc_lvl must be an integer"),
    ({"copula": "gaussian", "trunc_lvl": 2}, "are options of copula='vine'"),
    ({"means": "true"}, "means must be one of 'observed', 'fitted'"),
])
def test_vine_options_are_validated(kwargs, match):
    cube = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    with pytest.raises(OptionError, match=match):
        fit_simulator(cube, **kwargs)


def test_with_means_chains(sim):
    mid = np.flatnonzero((sim.true_means.values > 0.15) & (sim.true_means.values < 0.45))
    a, b = (str(sim.systems[i]) for i in mid[:2])
    both = sim.with_means({a: 0.5}).with_means({b: 0.4})
    assert float(both.true_means.sel(system=a)) == pytest.approx(0.5, abs=1e-9)
    assert float(both.true_means.sel(system=b)) == pytest.approx(0.4, abs=1e-9)
    # the other systems keep the margins they had
    rest = np.setdiff1d(np.arange(len(sim.systems)), mid[:2])
    np.testing.assert_allclose(both.true_means.values[rest], sim.true_means.values[rest])


def test_one_trial_stays_within_the_memory_budget(sim):
    import tracemalloc

    kw = dict(n_topics=4000, trials=1, seed=3)
    tracemalloc.start()
    small = simulate(sim, memory="8MB", **kw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the result (1 MB) and working arrays of a few trials; a 64-trial block is 60 MB
    assert peak < 24e6
    np.testing.assert_array_equal(small.values, simulate(sim, **kw).values)
    with pytest.raises(OptionError, match=r"over the memory budget of 1\.0 MB "
                                         r"\(memory='1MiB'\); lower n_topics"):
        simulate(sim, n_topics=20000, trials=1, seed=1, memory="1MiB")


def test_diagnostics_of_one_collection_without_trial(sim):
    one = simulate(sim, n_topics=40, trials=1, seed=2).isel(trial=0)
    d = simulation_diagnostics(sim, one)
    assert d.data.attrs["trials"] == 1
    np.testing.assert_allclose(d.data["fitted_mean"], sim.fitted_means)
    with pytest.raises(ScoreDataError, match="dims including 'topic' and 'system'"):
        simulation_diagnostics(sim, one.rename(topic="query"))


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 200), st.integers(1, 150))
def test_property_chunking_never_changes_the_collections(batch_size, trials):
    cube = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5))
    sim = _small_simulator(cube)
    whole = simulate(sim, n_topics=4, trials=trials, seed=11)
    np.testing.assert_array_equal(
        simulate(sim, n_topics=4, trials=trials, seed=11, batch_size=batch_size).values,
        whole.values)


_CACHE: dict = {}


def _small_simulator(cube):
    if "sim" not in _CACHE:
        _CACHE["sim"] = fit_simulator(cube)
    return _CACHE["sim"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=2, max_size=30), st.integers(0, 2**32 - 1))
def test_property_random_ties_are_ranks_that_keep_the_order(values, seed):
    from scorestd.simulation.copula import pseudo_observations_random_ties

    x = np.array(values, dtype=float)[:, None]
    u = pseudo_observations_random_ties(x, np.random.default_rng(seed))[:, 0]
    n = len(values)
    np.testing.assert_allclose(np.sort(u), np.arange(1, n + 1) / (n + 1))
    # a larger score always gets a larger pseudo-observation; ties in any order
    i, j = np.nonzero(x[:, 0][:, None] < x[:, 0][None, :])
    assert np.all(u[i] < u[j])
    # their average over the tie-breaks is the average rank of the classic definition
    from scorestd.simulation.copula import pseudo_observations

    assert u.sum() == pytest.approx(pseudo_observations(x)[:, 0].sum())


def test_output_file_is_the_same_whatever_the_chunks_and_memory_stays_bounded(sim, tmp_path):
    import tracemalloc

    import xarray as xr

    kw = dict(n_topics=30, trials=600, seed=9)
    # the modules writing a file are imported first (run alone, their import is 12 MB)
    simulate(sim, output=tmp_path / "warm.nc", n_topics=2, trials=1, seed=9).close()
    tracemalloc.start()
    lazy = simulate(sim, output=tmp_path / "a.nc", memory="2MB", **kw)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 8e6  # the scores are 4.3 MB; a chunk within the 2 MB budget
    whole = simulate(sim, **kw)
    with lazy:
        assert lazy.identical(whole)
    # the same contents to the last bit (HDF5 may lay the chunks out in another order)
    for name, kwargs in (("b.nc", {"batch_size": 7}), ("c.nc", {"memory": "64MB"})):
        simulate(sim, output=tmp_path / name, **kwargs, **kw).close()
        with xr.open_dataset(tmp_path / "a.nc") as a, xr.open_dataset(tmp_path / name) as b:
            assert a.identical(b)
    # the diagnostics read the file block by block and agree with the cube in memory
    with simulate(sim, output=tmp_path / "d.nc", **kw) as read_back:
        from_file = simulation_diagnostics(sim, read_back).data
    in_memory = simulation_diagnostics(sim, whole).data
    for name in ("simulated_mean", "simulated_var", "simulated_tau"):
        np.testing.assert_allclose(from_file[name], in_memory[name], rtol=1e-12)


def test_an_error_while_writing_leaves_the_old_file(sim, tmp_path, monkeypatch):
    from scorestd.simulation.simulator import Simulator

    target = tmp_path / "sims.nc"
    target.write_bytes(b"old")
    real, calls = Simulator._draw, []

    def failing(self, *args, **kw):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(self, *args, **kw)

    monkeypatch.setattr(Simulator, "_draw", failing)
    with pytest.raises(KeyboardInterrupt):
        simulate(sim, n_topics=30, trials=100, seed=1, batch_size=10, output=target)
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["sims.nc"]
    with pytest.raises(OptionError, match="does not take dask=True"):
        simulate(sim, trials=2, seed=1, output=target, dask=True)
    with pytest.raises(OptionError, match="needs the suffix .nc"):
        simulate(sim, trials=2, seed=1, output=tmp_path / "x.csv")


def test_diagnostics_of_a_file_read_it_block_by_block(sim, tmp_path, monkeypatch):
    import tracemalloc

    import xarray as xr

    simulate(sim, n_topics=30, trials=800, seed=2, output=tmp_path / "s.nc").close()
    monkeypatch.setenv("SCORESTD_MEMORY", "2MB")
    with xr.open_dataarray(tmp_path / "s.nc") as lazy:
        tracemalloc.start()
        d = simulation_diagnostics(sim, lazy, max_trials=5)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < lazy.nbytes / 3  # 5.8 MB of scores, read 500 kB at a time
        whole = lazy.values[..., 0]
    np.testing.assert_allclose(d.data["simulated_mean"], whole.mean(axis=(0, 1)), rtol=1e-12)
    np.testing.assert_allclose(d.data["simulated_var"], whole.var(axis=(0, 1)), rtol=1e-10)
