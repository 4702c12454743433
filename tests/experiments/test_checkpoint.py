"""Resumable studies: chunks written as they finish, read back on a rerun, same numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest

import scorestd
from scorestd._progress import progress_bar
from scorestd.errors import OptionError, ScoreDataError
from scorestd.experiments import checkpoint, significance_errors
from scorestd.experiments.checkpoint import Cell, Study
from scorestd.experiments.significance_errors import error_rates


def counting(calls):
    """Counts of each block (first axis): its trials, its index and 1."""
    def compute(blocks, kept):
        calls.append(int(blocks[0]))
        return {"n": np.asarray(kept), "blocks": np.column_stack([blocks, np.ones_like(blocks)])}
    return compute


def test_a_rerun_reads_the_chunks_instead_of_computing_them(tmp_path, monkeypatch):
    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 3)
    monkeypatch.setattr(checkpoint, "CHUNKS_PER_CALL", 1)
    kept = np.array([64] * 9 + [10])
    first, again = [], []
    with Study({"seed": 1}, total=586, folder=tmp_path, progress=False) as study:
        a = study.run("type1 ap n=25", kept, counting(first))
    with Study({"seed": 1}, total=586, folder=tmp_path, progress=False) as study:
        b = study.run("type1 ap n=25", kept, counting(again))
    assert first == [0, 3, 6, 9] and again == []
    assert int(a["n"]) == int(b["n"]) == 586
    np.testing.assert_array_equal(a["blocks"], [45, 10])
    np.testing.assert_array_equal(b["blocks"], a["blocks"])
    files = sorted(p.name for p in (tmp_path / "type1_ap_n=25").iterdir())
    assert files == ["000000.nc", "000001.nc", "000002.nc", "000003.nc"]
    saved = json.loads((tmp_path / "study.json").read_text())
    assert saved == {"seed": 1, "chunk_blocks": 3}


def test_other_arguments_are_refused_naming_the_argument(tmp_path):
    Study({"seed": 1, "B": 2000, "trials": 10}, total=1, folder=tmp_path)
    with pytest.raises(OptionError, match=r"run with B=2000, not B=500"):
        Study({"seed": 1, "B": 500, "trials": 10}, total=1, folder=tmp_path)
    with pytest.raises(OptionError, match=r"run with no trials, not trials=10"):
        Study({"seed": 1, "B": 2000}, total=1, folder=tmp_path / "x").run(
            "c", np.array([1]), counting([]))  # a fresh folder is fine…
        Study({"seed": 1, "B": 2000, "trials": 10}, total=1, folder=tmp_path / "x")
    (tmp_path / "file").write_text("")
    with pytest.raises(OptionError, match="not a folder"):
        Study({"seed": 1}, total=1, folder=tmp_path / "file")


def test_an_argument_older_folders_lack_is_compared_as_its_old_value(tmp_path):
    # a folder written before "pair_families" was recorded holds vinecopulib's study
    Study({"seed": 1}, total=1, folder=tmp_path)
    old = {"pair_families": "vinecopulib"}
    Study({"seed": 1, "pair_families": "vinecopulib"}, total=1, folder=tmp_path, absent=old)
    with pytest.raises(OptionError, match='run with pair_families="vinecopulib", not '
                                          'pair_families="bicopselect"'):
        Study({"seed": 1, "pair_families": "bicopselect"}, total=1, folder=tmp_path,
              absent=old)


def test_a_damaged_chunk_is_an_error_naming_it(tmp_path):
    with Study({"seed": 1}, total=64, folder=tmp_path, progress=False) as study:
        study.run("c", np.array([64]), counting([]))
    chunk = tmp_path / "c" / "000000.nc"
    chunk.write_bytes(chunk.read_bytes()[:50])
    with pytest.raises(ScoreDataError, match="000000.nc: unreadable chunk"):
        Study({"seed": 1}, total=64, folder=tmp_path).run("c", np.array([64]), counting([]))


def test_an_interrupted_write_leaves_no_chunk(tmp_path, monkeypatch):
    def interrupted(self, path, *args, **kwargs):
        path.write_bytes(b"half")
        raise KeyboardInterrupt

    import xarray as xr

    monkeypatch.setattr(xr.Dataset, "to_netcdf", interrupted)
    with pytest.raises(KeyboardInterrupt):
        Study({"seed": 1}, total=64, folder=tmp_path).run("c", np.array([64]), counting([]))
    assert list((tmp_path / "c").iterdir()) == []


@pytest.fixture(scope="module")
def normal_collection():
    rng = np.random.default_rng(0)
    topic = rng.normal(0, 0.04, size=(60, 1))
    # 14 runs: 12 kept, enough for the Type II design (a baseline and 10 others)
    x = 0.5 + topic + rng.normal(0, 0.05, size=(60, 14)) + np.linspace(-0.05, 0.05, 14)
    return {"normal": scorestd.cube(x, measures=["score"], attrs={"collection": "normal"})}


def test_an_interrupted_study_resumes_with_the_same_rates(normal_collection, tmp_path,
                                                          monkeypatch):
    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 2)
    monkeypatch.setattr(checkpoint, "CHUNKS_PER_CALL", 1)
    kw = dict(n_topics=[20, 30], deltas=[0.03], tests=["paired_t", "sign", "permutation"],
              trials=300, trials_type2=200, B=200, seed=11)
    whole = error_rates(normal_collection, **kw)  # no folder: nothing written
    counts = significance_errors._block_counts
    calls = []

    def stop_after_five(*args, **kwargs):
        calls.append(1)
        if len(calls) > 5:
            raise KeyboardInterrupt
        return counts(*args, **kwargs)

    monkeypatch.setattr(significance_errors, "_block_counts", stop_after_five)
    with pytest.raises(KeyboardInterrupt):
        error_rates(normal_collection, results_dir=tmp_path, **kw)
    assert len(list(tmp_path.glob("*/*.nc"))) == 5
    monkeypatch.setattr(significance_errors, "_block_counts", counts)
    resumed = error_rates(normal_collection, results_dir=tmp_path, batch_size=2, **kw)
    for name in ("type1", "power", "type3", "type1_trials", "type2_trials"):
        np.testing.assert_array_equal(resumed.data[name].values, whole.data[name].values)
    # 2 × 5 chunks of Type I (5 blocks of 64 trials, 2 per chunk) and 2 × 2 of Type II
    assert len(list(tmp_path.glob("*/*.nc"))) == 2 * 3 + 2 * 2
    with pytest.raises(OptionError, match=r"run with B=200, not B=300"):
        error_rates(normal_collection, results_dir=tmp_path, **{**kw, "B": 300})


def test_cells_move_the_one_bar_of_the_enclosing_job(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 2)
    kept = np.array([64] * 4)
    with Study({"seed": 1}, total=512, folder=tmp_path, progress=False) as study:
        study.run("a", kept, counting([]))  # half the study done before
    study = Study({"seed": 1}, total=512, folder=tmp_path, progress=True)
    with progress_bar(512, "study", show=True) as job:
        with job.part(256):
            study.run("a", kept, counting([]), desc="type I")  # read back: counts as done
        assert job.done == 256
        with job.part(256):
            study.run("b", kept, counting([]), desc="type II")
        assert job.done == 512
    err = capsys.readouterr().err
    assert "study: 100%" in err and "type II" not in err  # the cells draw no bar of their own


def test_chunks_computed_together_are_the_chunks_computed_one_by_one(tmp_path, monkeypatch):
    """Several chunks per call (the cluster's workers kept busy) write the same files and
    sum to the same counts as one chunk per call; a call covers whole chunks only."""
    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 3)
    kept = np.array([64] * 20 + [7])
    results = {}
    for per_call in (1, 3, 16):
        monkeypatch.setattr(checkpoint, "CHUNKS_PER_CALL", per_call)
        calls, folder = [], tmp_path / str(per_call)
        with Study({"seed": 1}, total=1287, folder=folder, progress=False) as study:
            if per_call == 3:  # two chunks there before: the five others in two calls (3 + 2)
                study.run("c", kept[:6], counting([]))
            results[per_call] = study.run("c", kept, counting(calls))
        assert calls == {1: [0, 3, 6, 9, 12, 15, 18], 3: [6, 15], 16: [0]}[per_call]
        assert int(results[per_call]["n"]) == 64 * 20 + 7
        np.testing.assert_array_equal(results[per_call]["blocks"], [210, 21])
    import xarray as xr
    for chunk in range(7):
        one = xr.load_dataset(tmp_path / "1" / "c" / f"{chunk:06d}.nc")
        for per_call in (3, 16):
            other = xr.load_dataset(tmp_path / str(per_call) / "c" / f"{chunk:06d}.nc")
            xr.testing.assert_identical(one, other)


class Later:
    """A future of counts computed when its result is asked for (as a cluster's would
    be), recording when that was."""

    def __init__(self, compute, blocks, kept, log):
        self.args, self.compute, self.log = (blocks, kept), compute, log

    def result(self):
        self.log.append(("result", int(self.args[0][0])))
        return self.compute(*self.args)


def test_calls_in_flight_span_cells_and_give_the_same_chunks(tmp_path, monkeypatch):
    """With calls kept in flight ``ahead`` at a time, the next cells are prepared and their
    first calls started before the earlier calls' counts are waited for; the chunk files
    and the totals are those of one call at a time, and each cell reports its totals."""
    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 2)
    kept = {"a": np.array([64] * 5 + [3]), "b": np.array([64, 9]), "c": np.array([64] * 3)}
    results, files = {}, {}
    for ahead in (1, 4):
        log, done = [], {}

        def cells(log=log, done=done, ahead=ahead):
            for name, k in kept.items():
                log.append(("prepare", name))
                compute = counting([])
                yield Cell(name, k, compute if ahead == 1 else
                           (lambda blocks, kk, compute=compute: Later(compute, blocks, kk, log)),
                           done=lambda totals, name=name: done.setdefault(name, totals))

        folder = tmp_path / str(ahead)
        with Study({"seed": 1}, total=600, folder=folder, progress=False) as study:
            results[ahead] = study.run_cells(cells(), ahead=ahead, chunks_per_call=1)
        assert done == results[ahead]
        files[ahead] = sorted(p.relative_to(folder) for p in folder.glob("*/*.nc"))
        if ahead == 4:  # cells b and c prepared before a's last chunks were waited for
            assert log.index(("prepare", "b")) < log.index(("result", 2))
            assert log.index(("prepare", "c")) < log.index(("result", 4))
    assert files[1] == files[4] and len(files[1]) == 3 + 1 + 2
    for name, k in kept.items():
        assert int(results[4][name]["n"]) == int(k.sum())
        for key in ("n", "blocks"):
            np.testing.assert_array_equal(results[4][name][key], results[1][name][key])
    import xarray as xr
    for path in files[1]:
        xr.testing.assert_identical(xr.load_dataset(tmp_path / "1" / path),
                                    xr.load_dataset(tmp_path / "4" / path))


def test_a_study_on_a_cluster_resumes_with_the_same_rates(normal_collection, tmp_path,
                                                          monkeypatch):
    """On a cluster, chunks in flight across cells: an interruption keeps the chunks
    finished (each the same file as in an uninterrupted run), the rerun gives the rates
    computed in this process, whatever the workers."""
    distributed = pytest.importorskip("distributed")
    from scorestd.experiments import engine

    monkeypatch.setattr(checkpoint, "CHUNK_BLOCKS", 2)
    kw = dict(n_topics=[20, 30], deltas=[0.03, 0.05], tests=["paired_t", "sign", "bootstrap"],
              trials=300, trials_type2=200, B=200, seed=11)
    whole = error_rates(normal_collection, results_dir=tmp_path / "whole", **kw)
    submit = engine.submit_batches
    submitted = []

    def stop_after_seven(*args, **kwargs):
        submitted.append(1)
        if len(submitted) > 7:
            raise KeyboardInterrupt
        return submit(*args, **kwargs)

    monkeypatch.setattr(significance_errors, "submit_batches", stop_after_seven)
    folder = tmp_path / "cluster"
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        with pytest.raises(KeyboardInterrupt):
            error_rates(normal_collection, results_dir=folder, client=client, **kw)
        written = sorted(p.relative_to(folder) for p in folder.glob("*/*.nc"))
        assert 0 < len(written) <= 7
        monkeypatch.setattr(significance_errors, "submit_batches", submit)
        resumed = error_rates(normal_collection, results_dir=folder, client=client, **kw)
    for name in ("type1", "power", "type3", "type1_trials", "type2_trials"):
        np.testing.assert_array_equal(resumed.data[name].values, whole.data[name].values)
    import xarray as xr
    files = sorted(p.relative_to(folder) for p in folder.glob("*/*.nc"))
    assert files == sorted(p.relative_to(tmp_path / "whole")
                           for p in (tmp_path / "whole").glob("*/*.nc"))
    for path in files:
        xr.testing.assert_identical(xr.load_dataset(folder / path),
                                    xr.load_dataset(tmp_path / "whole" / path))
