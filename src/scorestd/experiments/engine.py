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
   or on the number of workers; memory is bounded by the batch size. Batches run with a
   single-threaded BLAS (:mod:`scorestd.kernels.blas`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from .._options import check_seed
from ..kernels.blas import single_threaded_blas

__all__ = ["batch_slices", "draw_trials", "run_batches"]

#: Trials per batch when the caller does not say.
DEFAULT_BATCH_SIZE = 50


def draw_trials(
    seed: int | np.random.SeedSequence | None,
    trials: int,
    draw: Callable[[np.random.Generator], Any],
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

    Returns
    -------
    numpy.ndarray or tuple of numpy.ndarray
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
    """
    trials = _check_trials(trials)
    if seed is None:
        raise ValueError("seed= is required: resampling experiments must be reproducible")
    check_seed("seed", seed)
    root = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    draws = [draw(np.random.default_rng(child)) for child in root.spawn(trials)]
    if isinstance(draws[0], tuple):
        return tuple(np.stack(parts) for parts in zip(*draws, strict=True))
    return np.stack(draws)


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
    indices : numpy.ndarray or tuple of numpy.ndarray
        The index sets of every trial (from :func:`draw_trials`), trial axis first.
    data : object, optional
        The arrays ``compute`` reads (e.g. the standardized cubes). With ``client`` it is
        scattered to every worker once rather than shipped with every task.
    batch_size : int, optional
        Trials per batch (default 50); bounds the memory of one ``compute`` call.
    progress : bool, optional
        Show a ``tqdm`` progress bar over the batches. Default: only when standard error
        is a terminal.
    client : distributed.Client, optional
        Run the batches as tasks on this ``dask.distributed`` cluster.
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
    slices = batch_slices(trials, batch_size)
    show = sys.stderr.isatty() if progress is None else bool(progress)
    if client is None:
        results = []
        with single_threaded_blas():
            for sl in _progress(slices, show, desc):
                results.append(compute(data, *(p[sl] for p in parts)))
    else:
        results = _run_on_cluster(compute, parts, slices, data, client, show, desc)
    return {name: np.concatenate([r[name] for r in results]) for name in results[0]}


def _run_on_cluster(compute, parts, slices, data, client, show, desc):
    """Submit one task per batch; the data goes to every worker once."""
    from distributed import as_completed

    # a one-element list, so that a tuple of arrays travels as one object
    shared = client.scatter([data], broadcast=True)[0] if data is not None else None
    futures = [
        client.submit(_single_threaded_call, compute, shared, *(p[sl] for p in parts),
                      pure=False)
        for sl in slices
    ]
    for _ in _progress(as_completed(futures), show, desc, total=len(futures)):
        pass
    return client.gather(futures)


def _single_threaded_call(compute, data, *indices):
    """``compute`` on a worker, with its BLAS single-threaded (see :mod:`.blas`)."""
    with single_threaded_blas():
        return compute(data, *indices)


def _progress(iterable, show: bool, desc: str | None, total: int | None = None):
    if not show:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, unit="batch")


def _check_trials(trials: int) -> int:
    if isinstance(trials, bool) or not isinstance(trials, int | np.integer) or trials < 1:
        raise ValueError(f"trials must be a positive integer, got {trials!r}")
    return int(trials)
