"""The resampling engine: trial index sets drawn up front, statistics computed in batches.

A resampling experiment repeats one random draw (a topic subset, a split of the topics,
a split of the systems…) many times and computes statistics on each draw. The engine
separates the two steps:

1. :func:`draw_trials` draws the index sets of every trial from
   ``numpy.random.SeedSequence(seed).spawn(trials)``: trial ``k`` uses its own child
   seed, so its index sets depend only on ``(seed, k)``, never on how many trials are
   run or how they are batched.
2. :func:`run_batches` hands consecutive slices of those index sets (batches of trials)
   to a vectorised ``compute`` function and concatenates what it returns, optionally as
   tasks on a ``dask.distributed`` cluster. ``compute`` sees a batch axis first and
   treats every trial independently, so the numbers do not depend on the batch size
   or on the number of workers.

Memory is bounded in bytes: the number of trials per batch follows from the bytes one
trial needs, which the experiment declares, and the memory a batch may take: 16 MiB,
about what the processor's caches hold (larger batches were measured to run slower, as
their arrays no longer stay in cache), and never more than the memory budget
(:func:`memory_budget`: 256 MiB unless the ``memory=`` argument or the
``SCORESTD_MEMORY`` environment variable says otherwise). The kernels work through the
S × S pair statistics of a batch in blocks of fixed size, so no array grows with
trials × S². The temporaries of the kernels are kept and reused from batch to batch
(:mod:`scorestd.kernels.workspace`), and batches run with a single-threaded BLAS
(:mod:`scorestd.kernels.blas`).
"""

from __future__ import annotations

import ctypes
import functools
import math
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._options import (
    DEFAULT_MEMORY,
    MEMORY_ENV,
    check_count,
    check_fits_memory,
    memory_budget,
)
from .._progress import Progress, progress_bar
from ..kernels.blas import single_threaded_blas
from ..kernels.seeds import child_sequence, root_sequence
from ..kernels.workspace import Workspace, reusing_buffers

__all__ = ["DEFAULT_MEMORY", "MEMORY_ENV", "TrialDraws", "batch_slices", "draw_trials",
           "experiment_root", "memory_budget",
           "run_batches", "submit_batches", "trials_per_batch"]

#: Trials per batch when neither the batch size nor the bytes of a trial are known.
DEFAULT_BATCH_SIZE = 50
#: Bytes of the per-trial arrays of a batch, when the budget allows: batches whose
#: arrays stay in the processor's caches run fastest.
BATCH_BYTES = 16 * 2**20
#: Tasks per worker on a cluster: enough to even out uneven workers, few enough that
#: each task is long next to its scheduling cost.
TASKS_PER_WORKER = 2



def draw_trials(
    seed: int | np.random.SeedSequence | None,
    trials: int,
    draw: Callable[[np.random.Generator], Any],
    *,
    lazy: bool = False,
) -> Any:
    """Draw the index sets of every trial, one independent random stream per trial.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        Root seed; ``SeedSequence(seed).spawn(trials)`` gives one child per trial.
    trials : int
        Number of trials (at least 1).
    draw : callable
        ``draw(rng) -> array or tuple of arrays``: the index sets of one trial, drawn
        with the :class:`numpy.random.Generator` of that trial. Every call must return
        arrays of the same shapes.
    lazy : bool
        Return a :class:`TrialDraws` that draws a batch's trials when the batch runs
        (on the worker that runs it, with ``client=``: ``draw`` must then be picklable, a
        module-level function or a :func:`functools.partial` of one). The same draws.

    Returns
    -------
    numpy.ndarray or tuple of numpy.ndarray or TrialDraws
        The draws stacked along a new leading ``trial`` axis (a tuple if ``draw``
        returns a tuple).

    Raises
    ------
    ValueError
        If ``trials`` is not a positive integer or ``seed`` is ``None`` (an experiment
        must be reproducible).

    Examples
    --------
    >>> sample = lambda rng: rng.permutation(5)[:2]
    >>> draw_trials(7, 3, sample).shape
    (3, 2)
    >>> bool((draw_trials(7, 5, sample)[:3] == draw_trials(7, 3, sample)).all())
    True
    >>> bool((draw_trials(7, 5, sample, lazy=True)[1:3].arrays()
    ...       == draw_trials(7, 5, sample)[1:3]).all())
    True
    """
    trials = _check_trials(trials)
    root = experiment_root(seed)
    first = root.n_children_spawned  # the children root.spawn(trials) would give
    draws = TrialDraws(root, draw, range(first, first + trials))
    return draws if lazy else draws.arrays()


def experiment_root(seed: Any) -> np.random.SeedSequence:
    """The root ``SeedSequence`` of an experiment's trials; ``seed=None`` is refused.

    Any seed :func:`scorestd.kernels.seeds.root_sequence` reads: an integer, a
    ``SeedSequence`` (copied: the caller's is never advanced) or a ``Generator`` (128 bits
    of entropy drawn from it, recorded in the result's ``attrs["seed"]``).

    Examples
    --------
    >>> experiment_root(7).entropy
    7
    """
    return root_sequence(seed, required=True, why="resampling experiments must be reproducible")


class TrialDraws:
    """The index sets of a range of trials, drawn when asked (:func:`draw_trials`).

    Drawing costs tens of microseconds a trial (a generator per trial): drawn batch by
    batch, on the workers of a cluster, it is no longer a serial step of a study. The
    trials' seeds are made where they are drawn: child ``k`` of the root is
    ``SeedSequence(entropy, spawn_key=(*spawn_key, k))``, what ``root.spawn`` gives, so a
    range of trials travels to a worker as the root and two numbers.
    """

    def __init__(self, root: np.random.SeedSequence,
                 draw: Callable[[np.random.Generator], Any], trials: range) -> None:
        self.root = root
        self.draw = draw
        self.trials = trials

    def __len__(self) -> int:
        return len(self.trials)

    def __getitem__(self, trials: slice) -> TrialDraws:
        return TrialDraws(self.root, self.draw, self.trials[trials])

    def child(self, k: int) -> np.random.SeedSequence:
        """The seed of trial ``k`` (counted from the root's first child)."""
        return child_sequence(self.root, k)

    def arrays(self) -> np.ndarray | tuple[np.ndarray, ...]:
        """The draws of these trials, stacked along a leading ``trial`` axis."""
        draws = [self.draw(np.random.default_rng(self.child(k))) for k in self.trials]
        if isinstance(draws[0], tuple):
            return tuple(np.stack(parts) for parts in zip(*draws, strict=True))
        return np.stack(draws)


def trials_per_batch(trial_bytes: int, memory: int | str | None = None,
                     trials: int | None = None) -> int:
    """How many trials of ``trial_bytes`` each a batch holds.

    As many as fit in :data:`BATCH_BYTES` (16 MiB) or in the memory budget if that is
    smaller; at least 1, at most ``trials``. A single trial over the budget is refused
    (:class:`~scorestd.errors.OptionError` naming the budget) before any work.

    Examples
    --------
    >>> trials_per_batch(2**20, "256MiB")
    16
    >>> trials_per_batch(2**20, "4MiB")
    4
    >>> trials_per_batch(2**20, trials=7)
    7
    >>> trials_per_batch(2**30, "64MB")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: the working arrays of one trial need 1.1 GB, over the memory budget of 64.0 MB (memory='64MB'); ask for less or raise memory=
    """
    check_fits_memory(int(trial_bytes), memory, "the working arrays of one trial")
    size = max(1, min(BATCH_BYTES, memory_budget(memory)) // max(1, int(trial_bytes)))
    return size if trials is None else max(1, min(size, int(trials)))


def batch_slices(trials: int, batch_size: int | None) -> list[slice]:
    """Consecutive slices of ``range(trials)`` of at most ``batch_size`` trials.

    Examples
    --------
    >>> batch_slices(5, 2)
    [slice(0, 2, None), slice(2, 4, None), slice(4, 5, None)]
    """
    trials = _check_trials(trials)
    size = DEFAULT_BATCH_SIZE if batch_size is None else int(batch_size)
    if size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    return [slice(start, min(start + size, trials)) for start in range(0, trials, size)]


def run_batches(
    compute: Callable[..., Mapping[str, np.ndarray]],
    indices: np.ndarray | tuple[np.ndarray, ...],
    *,
    data: Any = None,
    batch_size: int | None = None,
    trial_bytes: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
    desc: str | None = None,
) -> dict[str, np.ndarray]:
    """Compute statistics for batches of trials and concatenate them along the trial axis.

    Parameters
    ----------
    compute : callable
        ``compute(data, *batch_indices) -> {name: array}``: the statistics of a batch of
        trials, each array with the batch axis first. It must treat trials independently
        (vectorised kernels over the leading axis) and be picklable (a module-level
        function) when ``client`` runs worker processes.
    indices : numpy.ndarray, TrialDraws or tuple of them
        The index sets of every trial (from :func:`draw_trials`), trial axis first; a
        :class:`TrialDraws` is drawn batch by batch (on the workers with ``client=``).
    data : object, optional
        The arrays ``compute`` reads (e.g. the standardized cubes). With ``client`` it is
        scattered to every worker once rather than shipped with every task.
    batch_size : int, optional
        Trials per batch; by default as many as fit in ``memory`` at ``trial_bytes``
        each (:func:`trials_per_batch`), or 50 when ``trial_bytes`` is not given.
    trial_bytes : int, optional
        Bytes one trial of ``compute`` needs (its arrays that grow with the batch).
    memory : int or str, optional
        Memory budget of one batch (:func:`memory_budget`; default 256 MiB or
        ``$SCORESTD_MEMORY``).
    progress : bool, optional
        Show a progress bar over the trials. Default: only when standard error is a
        terminal. Inside a larger job (a study of many runs) that job's one bar moves
        instead.
    client : distributed.Client, optional
        Run the batches as tasks on this ``dask.distributed`` cluster: the trials are
        cut into about two tasks per worker, each worker runs the batches of its tasks
        with a single-threaded BLAS and the same memory bound per batch. The results
        the client gathers back are checked against ``memory`` before anything is
        submitted (from one trial computed in this process), as in this process after
        the first batch.
    desc : str, optional
        Label of the progress bar.

    Returns
    -------
    dict of str to numpy.ndarray
        Every statistic for all trials, in trial order. The values do not depend on
        ``batch_size`` or on the cluster.

    Examples
    --------
    >>> idx = draw_trials(1, 4, lambda rng: rng.permutation(3)[:2])
    >>> data = np.array([1.0, 10.0, 100.0])
    >>> total = lambda d, i: {"sum": d[i].sum(axis=-1)}
    >>> out = run_batches(total, idx, data=data, batch_size=3)
    >>> out["sum"].shape
    (4,)
    >>> bool((out["sum"] == data[idx].sum(axis=1)).all())
    True
    """
    parts = indices if isinstance(indices, tuple) else (indices,)
    trials = len(parts[0])
    if any(len(p) != trials for p in parts):
        raise ValueError("every index array must have the same number of trials")
    if batch_size is None:
        batch_size = (DEFAULT_BATCH_SIZE if trial_bytes is None
                      else trials_per_batch(trial_bytes, memory, trials))
    else:
        batch_size = check_count("batch_size", batch_size)
    with progress_bar(trials, desc or "trials", show=progress, unit="trial") as job:
        if client is None:
            with reusing_buffers(Workspace()):
                results = _run_local(compute, data, parts, batch_slices(trials, batch_size),
                                     job, memory)
        else:
            results = _run_on_cluster(compute, parts, trials, batch_size, data, client, job,
                                      memory)
    return _concatenate(results)


def _run_local(compute, data, parts, slices, job: Progress | None = None,
               memory: int | str | None = None) -> list[dict[str, np.ndarray]]:
    """``compute`` on every batch, in this process, with a single-threaded BLAS."""
    results = []
    trials = slices[-1].stop if slices else 0
    with single_threaded_blas():
        for sl in slices:
            results.append(compute(data, *_batch_arrays(parts, sl)))
            if len(results) == 1:
                check_results_fit(results[0], sl.stop - sl.start, trials, memory)
            if job is not None:
                job.advance(sl.stop - sl.start)
    return results


def _batch_arrays(parts, trials: slice) -> list[np.ndarray]:
    """The index arrays of a batch: slices of the arrays, draws of the lazy parts."""
    out = []
    for part in parts:
        piece = part[trials]
        if isinstance(piece, TrialDraws):
            drawn = piece.arrays()
            out.extend(drawn if isinstance(drawn, tuple) else (drawn,))
        else:
            out.append(piece)
    return out


def check_results_fit(first: Mapping[str, np.ndarray], first_trials: int, trials: int,
                      memory: int | str | None) -> None:
    """Refuse, after the first batch, a study whose results for all ``trials`` (twice:
    the batches and their concatenation) would not fit in the memory budget.

    Examples
    --------
    >>> check_results_fit({"p": np.zeros((10, 1000))}, 10, 10**6, "64MB")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: the results of 1000000 trials need 16.0 GB, over the memory budget of 64.0 MB (memory='64MB'); ask for less or raise memory=
    """
    per_trial = sum(np.asarray(a).nbytes for a in first.values()) / max(1, first_trials)
    check_fits_memory(int(2 * per_trial * trials), memory, f"the results of {trials} trials")


def _concatenate(results: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    return {name: np.concatenate([r[name] for r in results]) for name in results[0]}


def _run_on_cluster(compute, parts, trials, batch_size, data, client, job: Progress,
                    memory: int | str | None = None):
    """Submit about :data:`TASKS_PER_WORKER` tasks per worker, each a run of batches;
    the data goes to every worker once. What the client gathers back (every trial's
    results) is checked against the memory budget first, from one trial computed here."""
    from distributed import as_completed

    if trials:
        with single_threaded_blas():
            probe = compute(data, *_batch_arrays(parts, slice(0, 1)))
        check_results_fit(probe, 1, trials, memory)

    workers = max(1, len(client.scheduler_info().get("workers", {})))
    per_task = max(batch_size, math.ceil(trials / (TASKS_PER_WORKER * workers)))
    tasks = batch_slices(trials, per_task)
    # a one-element list, so that a tuple of arrays travels as one object
    shared = client.scatter([data], broadcast=True)[0] if data is not None else None
    futures = {
        client.submit(_worker_task, compute, shared, batch_size, *(p[sl] for p in parts),
                      pure=False): sl.stop - sl.start
        for sl in tasks
    }
    for future in as_completed(futures):
        job.advance(futures[future])
    return client.gather(list(futures))


_WORKER = threading.local()
# glibc's mallopt parameters: the size from which an allocation gets its own pages, and
# the free memory at the top of the heap kept rather than returned
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_WORKER_MMAP_THRESHOLD = 32 * 2**20  # glibc's own ceiling for its adaptive threshold
_WORKER_TRIM_THRESHOLD = 64 * 2**20


@functools.cache
def _keep_freed_memory() -> bool:
    """Let this worker process reuse the memory of freed temporaries, as a plain one does.

    ``dask`` starts its workers with ``MALLOC_TRIM_THRESHOLD_`` set, which turns off
    glibc's adaptive thresholds: every temporary array above 128 KiB then comes from new
    pages (zeroed and faulted in one by one) and goes back when freed. Measured on the
    Urbano study, that made a worker 30–45% slower than the same work in one process
    (system time a third of the CPU time). The thresholds glibc would have adapted to
    are set once per worker process (glibc only; elsewhere nothing changes).
    """
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return bool(mallopt(_M_MMAP_THRESHOLD, _WORKER_MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, _WORKER_TRIM_THRESHOLD))


def submit_batches(client: Any, compute: Callable[..., Mapping[str, np.ndarray]], data: Any,
                   batch_size: int, *indices: np.ndarray) -> Any:
    """One task on ``client`` that runs ``compute(data, *batch_indices)`` on the batches
    of ``indices`` (as :func:`run_batches` does on a cluster) and concatenates them: its
    future. ``data`` may hold futures (e.g. arrays scattered once to every worker).

    For jobs that keep a cluster fed with tasks of their own (a study's chunks,
    submitted ahead of the ones finishing: :meth:`~scorestd.experiments.checkpoint.Study.run_cells`).
    """
    return client.submit(_worker_task, compute, data, int(batch_size), *indices, pure=False)


def _worker_task(compute, data, batch_size, *indices) -> dict[str, np.ndarray]:
    """The batches of one task on a worker: single-threaded BLAS, the worker thread's
    buffers reused from task to task, freed memory kept for the next temporaries."""
    _keep_freed_memory()
    ws = getattr(_WORKER, "workspace", None)
    if ws is None:
        ws = _WORKER.workspace = Workspace()
    with reusing_buffers(ws):
        results = _run_local(compute, data, indices, batch_slices(len(indices[0]), batch_size))
    return _concatenate(results)


def _check_trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 1:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    return int(trials)
