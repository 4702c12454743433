"""Every allocation that grows with an option is bounded by ``memory=`` chunking or
checked against the memory budget before it is made (issue: sizes checked before
allocation, with an error that names the budget).

Each entry point is asked for far more than the budget: it either refuses at once with
an :class:`OptionError` naming the budget, or runs with a peak (numpy's allocations, as
tracemalloc sees them) far below what the unchunked arrays would need.
"""

from __future__ import annotations

import time
import tracemalloc
import warnings

import numpy as np
import pytest

import scorestd
from scorestd.errors import OptionError
from scorestd.kernels import resampling_tests as rt


def _budget_error(budget: str = "1.0 MB", source: str = "memory='1MiB'") -> str:
    return rf"over the memory budget of {budget} \({source}\)"


@pytest.fixture(scope="module")
def small():
    """8 systems × 50 topics of AP."""
    return scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 8))


@pytest.fixture(scope="module")
def wide():
    """A synthetic collection whose one trial is over a 1 MiB budget (400 topics ×
    600 systems: 1.9 MB a copy of its scores)."""
    rng = np.random.default_rng(0)
    return scorestd.cube(rng.beta(2, 5, size=(400, 600)), measures=["ap"])


@pytest.fixture(scope="module")
def simulator(small):
    return scorestd.fit_simulator(small, copula="gaussian")


def _peak(fn) -> tuple[int, object]:
    tracemalloc.start()
    try:
        out = fn()
        return tracemalloc.get_traced_memory()[1], out
    finally:
        tracemalloc.stop()


def _refused_quickly(fn, match: str, seconds: float = 20.0) -> None:
    start = time.perf_counter()
    with pytest.raises(OptionError, match=match):
        fn()
    assert time.perf_counter() - start < seconds


# -- bounded by chunking ------------------------------------------------------------------

@pytest.mark.parametrize("test", ["bootstrap", "permutation"])
def test_resampling_tests_peak_does_not_grow_with_B(small, test):
    B = 200_000
    unchunked = B * small.sizes["topic"] * 8 * 3  # int64 draws, counts, their float copy
    peak, res = _peak(lambda: scorestd.compare(small.isel(system=slice(0, 4)), test, B=B,
                                               seed=1))
    assert peak < 48 * 2**20 < unchunked
    assert np.isfinite(res.p_value.values).all()


def test_discriminative_power_peak_does_not_grow_with_B(small):
    B = 200_000
    peak, _ = _peak(lambda: scorestd.discriminative_power(
        small.isel(system=slice(0, 4)), test="bootstrap", B=B, seed=1, schemes=["raw"]))
    assert peak < 48 * 2**20 < B * small.sizes["topic"] * 8 * 3


def test_resamples_drawn_in_blocks_are_those_drawn_at_once():
    for kind, whole in (("flips", rt.sign_flips(37, 1001, seed=3)),
                        ("counts", rt.bootstrap_counts(37, 1001, seed=3))):
        for step in (1, 7, 1000, 5000):
            blocks = np.concatenate(list(rt.resample_blocks(kind, 37, 1001, 3, step)))
            assert np.array_equal(blocks, whole)


def test_randomised_tukey_peak_does_not_grow_with_B(small):
    x = small.isel(system=slice(0, 5))
    B = 100_000
    unchunked = B * x.sizes["topic"] * x.sizes["system"] * 8 * 2  # orders and shuffled
    peak, _ = _peak(lambda: scorestd.randomised_tukey_hsd(x, B=B, seed=1))
    assert peak < 64 * 2**20 < unchunked


def test_simulate_lazily_is_not_refused(simulator):
    cubes = scorestd.simulate(simulator, trials=10**6, seed=1, dask=True, memory="1MiB")
    assert cubes.sizes["trial"] == 10**6  # drawn chunk by chunk when computed


# -- checked before allocation ------------------------------------------------------------

@pytest.mark.parametrize("run", [
    lambda c: scorestd.within_collection(c, n_topics=200, trials=5, seed=1,
                                         schemes=["raw"], memory="1MiB"),
    lambda c: scorestd.between_collection(c, n_topics=150, trials=5, seed=1,
                                          schemes=["raw"], memory="1MiB"),
    lambda c: scorestd.split_half(c, trials=5, seed=1, schemes=["raw"], memory="1MiB"),
    lambda c: scorestd.swap_rate(c, sizes=[100], trials=5, seed=1, schemes=["raw"],
                                 memory="1MiB"),
    lambda c: scorestd.smoothing_experiment(c, n_topics=100, trials=5, seed=1,
                                            schemes=["raw"], memory="1MiB"),
], ids=["within", "between", "split_half", "swap_rate", "smoothing"])
def test_experiments_refuse_a_trial_over_the_budget(wide, run):
    _refused_quickly(lambda: run(wide), "one trial need .*" + _budget_error())


@pytest.mark.parametrize("run", [
    lambda c: scorestd.within_collection(c, n_topics=10, trials=10**8, seed=1,
                                         schemes=["raw"], memory="8MiB"),
    lambda c: scorestd.swap_rate(c, sizes=[10], trials=10**8, seed=1, schemes=["raw"],
                                 memory="8MiB"),
], ids=["within", "swap_rate"])
def test_experiments_refuse_results_over_the_budget(small, run):
    _refused_quickly(lambda: run(small), r"the results of 100000000 trials need .*"
                     + _budget_error("8.4 MB", "memory='8MiB'"))


def test_error_rates_refuse_a_block_over_the_budget(small):
    _refused_quickly(
        lambda: scorestd.error_rates({"c": small}, n_topics=[50], B=10**8, seed=1,
                                     tests=["permutation"], memory="1GB"),
        r"one block of 64 trials \(B = 100000000, 50 topics\) need .*"
        + _budget_error("1.0 GB", "memory='1GB'"))


def test_simulate_refuses_a_result_over_the_budget(simulator):
    _refused_quickly(lambda: scorestd.simulate(simulator, trials=10**6, seed=1, memory="1GB"),
                     r"the simulated scores \(1000000 trials × 50 topics × 8 systems, "
                     r"float64\) need 3\.2 GB, " + _budget_error("1.0 GB", "memory='1GB'")
                     + r"; ask for fewer trials \(or simulate\(dask=True\)")


def test_simulation_studies_pass_the_budget_on(simulator):
    _refused_quickly(lambda: scorestd.estd_stability(simulator, system="run1", trials=10**6,
                                                     pool_sizes=[5], seed=1, memory="1GB"),
                     "the simulated scores .*" + _budget_error("1.0 GB", "memory='1GB'"))
    _refused_quickly(lambda: scorestd.topic_set_validation(
        simulator, schemes=["raw"], trials=10, truth_topics=10**7, seed=1, memory="1GB"),
        r"one simulated trial \(10000000 topics × 8 systems\) need .*" + _budget_error(
            "1.0 GB", "memory='1GB'"))


def test_bayes_crossed_refuses_draws_over_the_budget(small, monkeypatch):
    monkeypatch.setenv("SCORESTD_MEMORY", "64MB")
    _refused_quickly(lambda: scorestd.bayes_crossed(small, draws=10**6, seed=1),
                     r"the draws of 4 chains × 1000000 draws \(50 topics × 8 systems, normal "
                     r"likelihood\) need .*over the memory budget of 64\.0 MB "
                     r"\(\$SCORESTD_MEMORY or the default\)")
    _refused_quickly(lambda: scorestd.bayes_crossed(small, draws=10**5, seed=1,
                                                    likelihood="censored", memory="1MiB"),
                     _budget_error())


def test_fit_bytes_counts_the_draws_kept(small):
    from scorestd.bayes.crossed import fit_bytes

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", scorestd.ScorestdWarning)  # a short run
        fit = scorestd.bayes_crossed(small, chains=2, draws=300, warmup=100, seed=1,
                                     progress=False)
    kept = sum(v.nbytes for v in fit.posterior.data_vars.values())
    need = fit_bytes(2, 300, 50, 8)
    assert kept <= need <= 4 * kept + 8 * 2 * 50 * 8 * 4


def test_calibration_refuses_draws_over_the_budget():
    _refused_quickly(lambda: scorestd.simulation_based_calibration(
        draws=10**7 - 1, seed=1, memory="1GB"), "the draws of one fit .*"
        + _budget_error("1.0 GB", "memory='1GB'"))


def test_bayes_standardize_refuses_one_topics_draws_over_the_budget(small):
    _refused_quickly(lambda: scorestd.bayes_standardize(small, draws=10**6, seed=1,
                                                        memory="1MiB"),
                     r"the 1000000 draws of one topic and measure .*" + _budget_error())


def test_topic_set_size_refuses_a_grid_over_the_budget():
    grid = np.linspace(0.01, 0.5, 2000)
    _refused_quickly(lambda: scorestd.topic_set_size(variance=0.04, min_diff=grid,
                                                     alpha=np.linspace(0.01, 0.1, 2000),
                                                     memory="1MiB"),
                     r"a grid of 4000000 designs \(2000 × 2000\) need .*" + _budget_error())
    assert scorestd.topic_set_size(variance=0.04, min_diff=[0.1, 0.2],
                                   memory="1MiB").values.tolist() == [34, 10]


def test_randomised_tukey_blocks_do_not_change_the_p_values(monkeypatch):
    from scorestd.kernels import multiple

    x = np.random.default_rng(0).random((3, 50, 7))
    whole = multiple.randomised_tukey_hsd_all_pairs(x, B=3000, seed=4).pvalue
    monkeypatch.setattr(multiple, "_CHUNK_CELLS", 2**12)  # many small blocks
    assert np.array_equal(multiple.randomised_tukey_hsd_all_pairs(x, B=3000, seed=4).pvalue,
                          whole)


def test_diagnostics_of_lazy_collections_are_computed_chunk_by_chunk(simulator):
    lazy = scorestd.simulate(simulator, trials=30_000, seed=1, dask=True, memory="8MB")
    peak, diag = _peak(lambda: scorestd.simulation_diagnostics(simulator, lazy))
    assert peak < 48 * 2**20 < lazy.nbytes  # 96 MB of scores, never all in memory
    first = scorestd.simulate(simulator, trials=50, seed=1)  # the same first trials
    eager = scorestd.simulation_diagnostics(simulator, first).data
    np.testing.assert_array_equal(diag.data["simulated_tau"], eager["simulated_tau"])
    assert diag.data.attrs["trials"] == 30_000


def test_results_gathered_from_a_dask_cluster_are_checked_before_submitting(small):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        _refused_quickly(
            lambda: scorestd.within_collection(small, n_topics=10, trials=10**8, seed=1,
                                               schemes=["raw"], memory="8MiB", client=client),
            r"the results of 100000000 trials need .*" + _budget_error("8.4 MB",
                                                                         "memory='8MiB'"))
        # nothing was submitted: no task ran on the cluster
        assert not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        # within the budget it runs, as before
        out = scorestd.within_collection(small, n_topics=10, trials=20, seed=1,
                                         schemes=["raw"], memory="8MiB", client=client)
        local = scorestd.within_collection(small, n_topics=10, trials=20, seed=1,
                                           schemes=["raw"], memory="8MiB")
        assert out.data.identical(local.data)


def test_diagnostics_read_a_file_in_blocks_of_the_budget_given(simulator, tmp_path):
    # 4,000 trials of 50 topics × 8 systems: 12.8 MB in the file, 3.2 kB a trial
    with scorestd.simulate(simulator, trials=4000, seed=1, output=tmp_path / "s.nc") as sims:
        peak, small_blocks = _peak(lambda: scorestd.simulation_diagnostics(
            simulator, sims, memory="1MiB"))
        assert peak < 3 * 2**20 < sims.nbytes  # blocks of a quarter MiB, not the file
        whole = scorestd.simulation_diagnostics(simulator, sims, memory="1GB")
    for name in ("simulated_mean", "simulated_var", "simulated_tau"):
        np.testing.assert_allclose(small_blocks.data[name], whole.data[name], rtol=1e-12)


def test_diagnostics_refuse_pairwise_statistics_whose_one_pair_is_over_the_budget(wide):
    sim = scorestd.fit_simulator(wide.isel(system=slice(0, 4)), copula="gaussian")
    cubes = scorestd.simulate(sim, n_topics=8000, trials=20, seed=1, memory="64MB")
    # Kendall's τ of one pair over 8000 topics compares 8000 × 8000 topic pairs
    _refused_quickly(lambda: scorestd.simulation_diagnostics(sim, cubes, memory="1MiB"),
                     r"the pairwise statistics of 4 systems \(6 pairs\) over 8000 topics "
                     r"need 256\.\d MB, .*select fewer systems or topics")


def test_diagnostics_compute_the_pairs_of_many_systems_within_the_budget(wide):
    """130 systems (8,385 pairs) over 60 topics: 24 MB of temporaries for all the pairs
    at once; blocks of pairs within a 4 MB budget, the same statistics."""
    sim = scorestd.fit_simulator(wide.isel(system=slice(0, 130)), copula="gaussian",
                                 families=["beta1"])
    cubes = scorestd.simulate(sim, n_topics=60, trials=2, seed=1)
    peak, blocks = _peak(lambda: scorestd.simulation_diagnostics(sim, cubes, memory="4MB"))
    assert peak < 4e6
    whole = scorestd.simulation_diagnostics(sim, cubes, memory="1GB")
    for name in ("observed_tau", "simulated_tau", "observed_r", "simulated_r"):
        np.testing.assert_allclose(blocks.data[name], whole.data[name], rtol=1e-12)


def test_simulate_command_gives_its_memory_budget_to_the_diagnostics(monkeypatch, tmp_path,
                                                                      capsys):
    from scorestd import simulation
    from scorestd.cli import main

    budgets = []
    real = simulation.simulation_diagnostics
    monkeypatch.setattr(simulation, "simulation_diagnostics",
                        lambda *a, **k: budgets.append(k.get("memory")) or real(*a, **k))
    assert main(["simulate", "adhoc8_ap", "--systems", "top:4", "--copula", "gaussian",
                 "--trials", "3", "--memory", "3MB", "-o", str(tmp_path / "s.nc")]) == 0
    assert budgets == ["3MB"]


def test_pool_fits_gathered_from_a_cluster_are_checked_before_submitting(small):
    distributed = pytest.importorskip("distributed")
    from scorestd.experiments.error_rate_pool import ErrorRatePool

    pool = ErrorRatePool({"adhoc8": scorestd.datasets.load("adhoc8"),
                          "robust2004": scorestd.datasets.load("robust2004")})["ap"]
    keys = np.array([(c, i, j) for c, size in enumerate(pool.sizes)
                     for i in range(size) for j in range(i + 1, size)])
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        _refused_quickly(lambda: pool.pair_copulas(keys, client, memory="1MiB"),
                         rf"the copulas of {len(keys)} pairs gathered from the cluster "
                         r"need .*" + _budget_error())
        # nothing was submitted: no task ran on the cluster, no copula was fitted
        assert not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
        assert not pool.fitted


def test_error_rates_gives_its_memory_budget_to_the_pair_fits_on_a_cluster():
    """A study's pair copulas gathered from the cluster are checked against the study's
    ``memory=``, not the default budget: 19,200 trials draw about 9,000 pairs of the kept
    AP runs of adhoc8 and robust2004 (≈ 1.4 MB gathered), one block needs ≈ 70 kB."""
    distributed = pytest.importorskip("distributed")

    cubes = {"adhoc8": scorestd.datasets.load("adhoc8"),
             "robust2004": scorestd.datasets.load("robust2004")}
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        _refused_quickly(
            lambda: scorestd.error_rates(cubes, measures=["ap"], n_topics=[3], deltas=None,
                                         tests=["paired_t"], trials=19_200, B=10,
                                         copula="vine", seed=1, memory="1MiB",
                                         client=client, progress=False),
            r"the copulas of \d+ pairs gathered from the cluster need .*" + _budget_error(),
            seconds=60)
        # nothing was submitted: no task ran on the cluster
        assert not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
