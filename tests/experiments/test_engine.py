"""The resampling engine: reproducible draws, batch- and cluster-independent results."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorestd.errors import OptionError
from scorestd.experiments import engine
from scorestd.experiments.engine import batch_slices, draw_trials, run_batches
from scorestd.kernels.workspace import workspace


def _sample(rng):
    return rng.choice(20, 5, replace=False)


def _pair(rng):
    perm = rng.permutation(12)
    return perm[:6].reshape(2, 3), perm


def _stats(data, idx):
    """A vectorised statistic with a float reduction, so batching could show in the bits."""
    x = data[idx]  # (batch, 5, 7)
    return {"mean": x.mean(axis=1), "cov": np.einsum("bti,btj->bij", x, x) / x.shape[1]}


def _stats_loop(data, idx):
    return {"mean": np.stack([data[i].mean(axis=0) for i in idx])}


def test_trial_k_depends_only_on_seed_and_k():
    ten = draw_trials(42, 10, _sample)
    three = draw_trials(42, 3, _sample)
    np.testing.assert_array_equal(ten[:3], three)
    # trial k is drawn from the k-th spawned child, independently of the others
    child = np.random.SeedSequence(42).spawn(10)[7]
    np.testing.assert_array_equal(ten[7], _sample(np.random.default_rng(child)))
    assert not np.array_equal(draw_trials(43, 3, _sample), three)


def test_tuple_draws_are_stacked_per_part():
    topics, systems = draw_trials(1, 4, _pair)
    assert topics.shape == (4, 2, 3) and systems.shape == (4, 12)
    for k in range(4):
        assert set(topics[k].ravel()) <= set(range(12))
        np.testing.assert_array_equal(np.sort(systems[k]), np.arange(12))


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_bad_trials(bad):
    with pytest.raises(ValueError, match="trials"):
        draw_trials(1, bad, _sample)


def test_seed_is_required():
    with pytest.raises(ValueError, match="seed"):
        draw_trials(None, 3, _sample)


@given(st.integers(1, 60), st.integers(1, 70))
def test_batch_slices_cover_trials_in_order(trials, size):
    slices = batch_slices(trials, size)
    covered = np.concatenate([np.arange(trials)[s] for s in slices])
    np.testing.assert_array_equal(covered, np.arange(trials))
    assert all(s.stop - s.start <= size for s in slices)


def test_results_do_not_depend_on_batch_size():
    data = np.random.default_rng(0).random((20, 7))
    idx = draw_trials(5, 23, _sample)
    results = [run_batches(_stats, idx, data=data, batch_size=b) for b in (1, 4, 23, 100)]
    for other in results[1:]:
        for name in ("mean", "cov"):
            np.testing.assert_array_equal(other[name], results[0][name])
    # against a per-trial loop written here
    np.testing.assert_allclose(results[0]["mean"], _stats_loop(data, idx)["mean"], rtol=1e-14)


def test_progress_bar_goes_to_stderr(capsys):
    data = np.arange(20.0)
    idx = draw_trials(5, 6, _sample)
    out = run_batches(lambda d, i: {"s": d[i].sum(axis=1)}, idx, data=data, batch_size=2,
                      progress=True, desc="demo")
    assert "demo" in capsys.readouterr().err
    np.testing.assert_array_equal(out["s"], data[idx].sum(axis=1))


def test_mismatched_index_arrays():
    with pytest.raises(ValueError, match="same number of trials"):
        run_batches(_stats, (np.zeros((3, 2), int), np.zeros((4, 2), int)))


def test_dask_cluster_gives_identical_numbers():
    distributed = pytest.importorskip("distributed")
    data = np.random.default_rng(0).random((20, 7))
    idx = draw_trials(5, 30, _sample)
    local = run_batches(_stats, idx, data=data, batch_size=7)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        remote = run_batches(_stats, idx, data=data, batch_size=4, client=client)
    for name in local:
        np.testing.assert_array_equal(remote[name], local[name])


def test_single_threaded_blas_restores_the_thread_count():
    from scorestd.kernels import blas

    controls = blas._controls()
    before = [getter() for _, getter in controls]
    with blas.single_threaded_blas():
        assert all(getter() == 1 for _, getter in controls)
        x = np.random.default_rng(0).random((30, 20))
        np.testing.assert_allclose(x.T @ x, np.einsum("ti,tj->ij", x, x))
    assert [getter() for _, getter in controls] == before


# ---- batches sized in bytes --------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("512MB", 512 * 10**6), ("1.5 GiB", int(1.5 * 2**30)), ("8000k", 8_000_000),
    ("64MiB", 64 * 2**20), (3 * 2**20, 3 * 2**20), ("2097152", 2**21)])
def test_memory_budget_reads_sizes(text, expected):
    assert engine.memory_budget(text) == expected


@pytest.mark.parametrize("bad", ["lots", "12 parsecs", "-5MB", "100", True, 10])
def test_memory_budget_refuses_what_it_cannot_read(bad):
    with pytest.raises(OptionError, match="memory must be"):
        engine.memory_budget(bad)


def test_memory_budget_from_the_environment(monkeypatch):
    monkeypatch.delenv(engine.MEMORY_ENV, raising=False)
    assert engine.memory_budget() == engine.DEFAULT_MEMORY
    monkeypatch.setenv(engine.MEMORY_ENV, "32MiB")
    assert engine.memory_budget() == 32 * 2**20
    assert engine.memory_budget("64MiB") == 64 * 2**20  # the argument wins
    monkeypatch.setenv(engine.MEMORY_ENV, "much")
    with pytest.raises(OptionError, match=engine.MEMORY_ENV):
        engine.memory_budget()


def test_trials_per_batch_follow_the_bytes_of_a_trial():
    assert engine.trials_per_batch(2**20) == engine.BATCH_BYTES // 2**20
    assert engine.trials_per_batch(2**20, "4MiB") == 4  # a budget below the batch size
    with pytest.raises(OptionError, match=r"one trial need 1\.1 GB, over the memory budget "
                                         r"of 4\.2 MB \(memory='4MiB'\)"):
        engine.trials_per_batch(2**30, "4MiB")  # refused before any work, naming the budget
    assert engine.trials_per_batch(10, trials=7) == 7


def test_results_do_not_depend_on_the_memory_budget():
    data = np.random.default_rng(0).random((20, 7))
    idx = draw_trials(5, 23, _sample)
    trial = 5 * 7 * 8 * 2**14  # ~4.6 MB a trial: 3 trials in 16 MiB, 1 in 5 MiB
    runs = [run_batches(_stats, idx, data=data, trial_bytes=trial, memory=m)
            for m in ("5MiB", "256MiB")]
    runs.append(run_batches(_stats, idx, data=data))  # without a size: 50 trials
    for other in runs[1:]:
        for name in ("mean", "cov"):
            np.testing.assert_array_equal(other[name], runs[0][name])


def test_batches_reuse_their_buffers():
    """Every batch of a run gets the same work buffers (no fresh memory per batch)."""
    seen = []

    def compute(data, idx):
        buf = workspace().array("x", (len(idx), 5))
        seen.append(buf.__array_interface__["data"][0])
        return {"n": np.full(len(idx), len(idx))}

    run_batches(compute, draw_trials(1, 10, _sample), batch_size=3)
    assert len(seen) == 4 and len(set(seen)) == 1


def test_lazy_draws_are_the_spawned_children_and_travel_light():
    import pickle

    parent = np.random.SeedSequence(11, spawn_key=(3,))
    parent.spawn(2)  # a root that has given two children already
    want = np.stack([_sample(np.random.default_rng(child))
                     for child in np.random.SeedSequence(
                         11, spawn_key=(3,), n_children_spawned=2).spawn(40)])
    lazy = draw_trials(parent, 40, _sample, lazy=True)
    np.testing.assert_array_equal(lazy.arrays(), want)
    np.testing.assert_array_equal(lazy[25:31].arrays(), want[25:31])
    # what goes to a worker does not grow with the trials it covers
    assert len(pickle.dumps(draw_trials(1, 100_000, _sample, lazy=True))) < 1_000
