"""Long studies that write their finished chunks as they go and resume where they stopped.

A study is a set of *cells* (e.g. one per measure, topic set size and effect), each a
range of fixed blocks of trials whose results are counts that add up. :class:`Study`
runs the cells chunk by chunk (:data:`CHUNK_BLOCKS` consecutive blocks, computed
:data:`CHUNKS_PER_CALL` at a time) with one progress
bar over the whole study, and, given a folder, writes every finished chunk there as
``<cell>/<chunk>.nc`` (netCDF, written whole or not at all by
:func:`scorestd.io.atomic.atomic_output`), with the study's arguments (seed included) in
its attrs. Run again with the same arguments and folder, a study reads the chunks that
are there instead of computing them; as the counts of a chunk depend only on the seed and
the chunk's blocks, the result equals that of an uninterrupted run. The folder's
``study.json`` holds the arguments: a study with other arguments is refused, with an
error naming the first argument that differs.
"""

from __future__ import annotations

import json
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from .._progress import Progress, progress_bar
from ..errors import OptionError, ScoreDataError
from ..io.atomic import atomic_netcdf, atomic_output

__all__ = ["CHUNKS_PER_CALL", "CHUNK_BLOCKS", "Cell", "Study"]

#: Blocks of trials per chunk written (with 64-trial blocks: 16,384 trials, seconds of work).
CHUNK_BLOCKS = 256
#: Chunks computed in one call at most, in this process (fewer, longer calls); an
#: interruption loses at most this many chunks. On a cluster each chunk is a call of its
#: own, several kept in flight (:meth:`Study.run_cells`), so that the workers never wait
#: for chunks to be gathered and written.
CHUNKS_PER_CALL = 16
_MANIFEST = "study.json"
_ABSENT = object()


class Study:
    """Cells of counts computed chunk by chunk, saved to ``folder`` if given.

    Parameters
    ----------
    arguments : mapping
        Everything the numbers depend on (seed included), JSON-serialisable.
    total : int
        Trials of the whole study.
    folder : path, optional
        Where finished chunks are written and read back; ``None``: nothing is written.
    progress : bool, optional
        A progress bar per cell (default: when standard error is a terminal); run
        inside a job's bar (:func:`scorestd._progress.progress_bar`, as
        :func:`~scorestd.error_rates` does) each cell moves its share of that one bar.
        Chunks read back count as done.
    absent : mapping, optional
        The value an argument had in folders written before it was recorded (an
        argument missing from ``study.json`` is compared as this value).

    Raises
    ------
    OptionError
        ``folder`` holds a study run with other arguments (the message names the first
        argument that differs), or is not a folder.

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> count = lambda blocks, kept: {"n": kept}  # the counts of each block
    >>> with Study({"seed": 1}, total=1000, folder=folder, progress=False) as study:
    ...     int(study.run("cell", np.full(10, 100), count)["n"])
    1000
    >>> with Study({"seed": 2}, total=1000, folder=folder, progress=False) as study:
    ...     pass
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: ... was run with seed=1, not seed=2; ...
    """

    def __init__(self, arguments: Mapping[str, Any], total: int, *,
                 folder: str | os.PathLike | None = None, progress: bool | None = None,
                 absent: Mapping[str, Any] | None = None) -> None:
        self.arguments = json.loads(json.dumps(dict(arguments), default=_plain))
        self.arguments["chunk_blocks"] = CHUNK_BLOCKS
        self.folder = None if folder is None else Path(folder)
        self.show = progress
        self.total = int(total)
        self.absent = dict(absent or {})
        if self.folder is not None:
            self._open_folder()

    def _open_folder(self) -> None:
        if self.folder.exists() and not self.folder.is_dir():
            raise OptionError(f"{self.folder}: not a folder (the study's results go there)")
        self.folder.mkdir(parents=True, exist_ok=True)
        manifest = self.folder / _MANIFEST
        if manifest.exists():
            try:
                saved = json.loads(manifest.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise ScoreDataError(f"{manifest}: unreadable study arguments ({exc})") from exc
            self._check({**self.absent, **saved}, str(manifest))
        else:
            with atomic_output(manifest) as tmp:
                tmp.write_text(json.dumps(self.arguments, indent=1), encoding="utf-8")

    def _check(self, saved: Mapping[str, Any], where: str) -> None:
        for key in sorted(set(saved) | set(self.arguments)):
            if saved.get(key, _ABSENT) != self.arguments.get(key, _ABSENT):
                raise OptionError(
                    f"{where}: the study in this folder was run with "
                    f"{_show(key, saved)}, not {_show(key, self.arguments)}; run it with the "
                    f"same arguments to resume it, or give another folder")

    def __enter__(self) -> Study:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release: each cell's bar closes with the cell (the study may be
        resumed from its folder at any time)."""

    def run(self, cell: str, kept: np.ndarray,
            compute: Callable[[np.ndarray, np.ndarray], Mapping[str, np.ndarray]],
            desc: str | None = None) -> dict[str, np.ndarray]:
        """Sum of the counts ``compute(blocks, kept)`` of every block of one cell.

        ``kept[b]`` is the number of trials of block ``b`` used; ``compute`` returns the
        counts of each of the given blocks (arrays whose first axis is the blocks, that
        add up), the same for the same blocks. The chunks not read back are computed up
        to :data:`CHUNKS_PER_CALL` in one call.
        """
        kept = np.asarray(kept)
        # a bar per cell: inside an enclosing job (error_rates) it moves that job's share
        with progress_bar(int(kept.sum()), desc or cell, show=self.show, unit="trial") as bar:
            return self.run_cells([Cell(cell, kept, compute)], bar=bar)[cell]

    def run_cells(self, cells: Iterable[Cell], *, ahead: int = 1,
                  chunks_per_call: int | None = None, bar: Progress | None = None
                  ) -> dict[str, dict[str, np.ndarray]]:
        """The summed counts of every cell of ``cells``, by name, the cells' chunks kept
        in flight ``ahead`` at a time.

        ``cells`` may be a generator that prepares each cell when it is asked for the
        next one. A cell's ``compute`` returns the counts of its blocks, or a future of
        them (its ``result()``, e.g. a task submitted to a cluster): up to ``ahead`` calls
        are started before the oldest one's counts are waited for, written and added,
        so that the workers of a cluster compute while this process writes the chunks
        of the finished calls and prepares the next cells, and the workers never wait
        between cells. The counts of a chunk depend only on its blocks, so the totals
        do not depend on ``ahead`` or on the order the calls finish. ``bar`` moves by the
        trials of every chunk read back or finished.
        """
        per_call = CHUNKS_PER_CALL if chunks_per_call is None else int(chunks_per_call)
        totals: dict[str, dict[str, np.ndarray]] = {}
        waiting: deque[tuple[Cell, list[int], list[np.ndarray], Any]] = deque()
        left: dict[str, int] = {}  # calls of each cell still to add up
        queue = iter(cells)
        calls: deque[tuple[Cell, list[int], list[np.ndarray]]] = deque()

        def add(name: str, counts: Mapping[str, np.ndarray]) -> None:
            old = totals.get(name)
            totals[name] = (dict(counts) if old is None
                            else {k: old[k] + v for k, v in counts.items()})

        def next_cell() -> bool:
            cell = next(queue, None)
            if cell is None:
                return False
            kept = np.asarray(cell.kept)
            chunks = [np.arange(start, min(start + CHUNK_BLOCKS, len(kept)))
                      for start in range(0, len(kept), CHUNK_BLOCKS)]
            missing = []
            for chunk, blocks in enumerate(chunks):
                counts = self._read(cell.name, chunk, blocks, kept)
                if counts is None:
                    missing.append(chunk)
                    continue
                _advance(bar, int(kept[blocks].sum()))  # a chunk done before counts as done
                add(cell.name, counts)
            # the missing chunks in calls of about equal size, none over per_call
            groups = [g for g in np.array_split(np.asarray(missing, dtype=int),
                                                max(-(-len(missing) // per_call), 1)) if len(g)]
            left[cell.name] = len(groups)
            for group in groups:
                calls.append((cell, [int(c) for c in group], chunks))
            if not groups:
                cell.done(totals.get(cell.name))
            return True

        def start() -> None:
            while len(waiting) < max(1, ahead):
                if not calls and not next_cell():
                    return
                if calls:
                    cell, group, chunks = calls.popleft()
                    blocks = np.concatenate([chunks[c] for c in group])
                    kept = np.asarray(cell.kept)
                    waiting.append((cell, group, chunks, cell.compute(blocks, kept[blocks])))

        start()
        while waiting:
            cell, group, chunks, pending = waiting.popleft()
            running = hasattr(pending, "result")  # a future: computed elsewhere
            per_block = {k: np.asarray(v) for k, v in
                         (pending.result() if running else pending).items()}
            if running:
                start()  # the next calls run while this one's chunks are written
            kept, first = np.asarray(cell.kept), 0
            for chunk in group:
                rows = slice(first, first + len(chunks[chunk]))
                first = rows.stop
                counts = {k: v[rows].sum(axis=0) for k, v in per_block.items()}
                self._write(cell.name, chunk, chunks[chunk], kept, counts)
                _advance(bar, int(kept[chunks[chunk]].sum()))
                add(cell.name, counts)
            left[cell.name] -= 1
            if not left[cell.name]:
                cell.done(totals[cell.name])
            start()
        return totals

    def _path(self, cell: str, chunk: int) -> Path:
        return self.folder / re.sub(r"[^\w.=-]+", "_", cell) / f"{chunk:06d}.nc"

    def _read(self, cell, chunk, blocks, kept) -> dict[str, np.ndarray] | None:
        if self.folder is None:
            return None
        path = self._path(cell, chunk)
        if not path.exists():
            return None
        try:
            with xr.open_dataset(path) as ds:
                ds = ds.load()
        except (OSError, ValueError) as exc:
            raise ScoreDataError(f"{path}: unreadable chunk of the study ({exc}); remove it "
                                 f"to compute it again") from exc
        self._check(json.loads(ds.attrs.get("arguments", "{}")), str(path))
        if ds.attrs.get("cell") != cell or int(ds.attrs.get("trials", -1)) != int(
                kept[blocks].sum()):
            raise ScoreDataError(f"{path}: a chunk of another cell or size ({ds.attrs}); "
                                 f"remove it to compute it again")
        return {name: ds[name].values for name in ds.data_vars}

    def _write(self, cell, chunk, blocks, kept, counts) -> None:
        if self.folder is None:
            return
        path = self._path(cell, chunk)
        path.parent.mkdir(exist_ok=True)
        data = {k: ([f"{k}_{i}" for i in range(v.ndim)], v) for k, v in counts.items()}
        attrs = {"arguments": json.dumps(self.arguments), "cell": cell,
                 "first_block": int(blocks[0]), "blocks": len(blocks),
                 "trials": int(kept[blocks].sum())}
        atomic_netcdf(xr.Dataset(data, attrs=attrs), path)  # Ctrl-C held over HDF5


@dataclass
class Cell:
    """One cell of a :class:`Study`: its name, the trials kept of each of its blocks, and
    ``compute(blocks, kept)``: the counts of each of the given blocks, or a future of
    them. ``done(totals)`` is called with the cell's summed counts once they are all in."""

    name: str
    kept: np.ndarray
    compute: Callable[[np.ndarray, np.ndarray], Any]
    done: Callable[[Mapping[str, np.ndarray] | None], None] = lambda totals: None


def _advance(bar: Progress | None, trials: int) -> None:
    if bar is not None:
        bar.advance(trials)


def _plain(value: Any) -> Any:
    """JSON form of numpy values and sequences."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    return str(value)


def _show(key: str, arguments: Mapping[str, Any]) -> str:
    if key not in arguments:
        return f"no {key}"
    text = json.dumps(arguments[key])
    return f"{key}={text if len(text) <= 80 else text[:77] + '...'}"
