"""Files written whole or not at all: a temporary file in the target folder, renamed into place.

Every writer of the package (cubes, tables, figures, study results) writes through
:func:`atomic_output`, so that an error or an interrupt (Ctrl-C) half-way through leaves
the file that was there before untouched and no partial file behind that could be read
back as a smaller, valid-looking result.
"""

from __future__ import annotations

import contextlib
import os
import signal
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from .paths import check_output_path, check_writable

__all__ = ["atomic_netcdf", "atomic_netcdf_chunks", "atomic_output", "interrupts_deferred"]


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path`` at once.

    The temporary file lives in the same folder (so the final rename is atomic on
    POSIX and Windows) and keeps the suffix of ``path`` (so writers that choose a
    format by suffix, such as matplotlib, still do). If the body raises, including
    :class:`KeyboardInterrupt`, the temporary file is removed and ``path`` is left as
    it was. The folder is checked first (:func:`~scorestd.io.paths.check_writable`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> _ = target.write_text("old")
    >>> try:
    ...     with atomic_output(target) as tmp:
    ...         _ = tmp.write_text("half a fi")
    ...         raise RuntimeError("interrupted")
    ... except RuntimeError:
    ...     pass
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('old', ['out.txt'])
    >>> with atomic_output(target) as tmp:
    ...     _ = tmp.write_text("new")
    >>> target.read_text()
    'new'
    """
    final = check_writable(path)
    folder = final.parent if str(final.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=f".part{final.suffix}",
                                dir=folder)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if final.exists():  # keep the permissions of the file being replaced
            os.chmod(tmp, final.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, final)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) until the body is done, then raise :class:`KeyboardInterrupt`.

    HDF5 (under netCDF) is not interruptible: a :class:`KeyboardInterrupt` raised
    while the library holds its lock can leave the process waiting on that lock for
    ever. Inside this block an interrupt is only noted; it takes effect (with the
    handler that was installed before) as soon as the block ends. Off the main thread,
    where Python never delivers signals, the block runs as it is.

    Examples
    --------
    >>> import signal
    >>> done = []
    >>> try:
    ...     with interrupts_deferred():
    ...         signal.raise_signal(signal.SIGINT)
    ...         done.append("the body ran to its end")
    ... except KeyboardInterrupt:
    ...     done.append("then the interrupt")
    >>> done
    ['the body ran to its end', 'then the interrupt']
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        if callable(previous):
            previous(signal.SIGINT, None)  # the default handler raises KeyboardInterrupt
        elif previous != signal.SIG_IGN:
            raise KeyboardInterrupt


def atomic_netcdf(data: Any, path: str | os.PathLike, **to_netcdf: Any) -> Path:
    """Write an xarray object (DataArray, Dataset, DataTree) to a netCDF file, whole or not at all.

    The file is written beside ``path`` and renamed into place (:func:`atomic_output`),
    with Ctrl-C held during the HDF5 calls (:func:`interrupts_deferred`): an interrupt
    leaves the previous file as it was, no partial file, and no process stuck in the
    HDF5 lock. The suffix must be a netCDF one (``.nc`` …). Keyword arguments go to
    ``data.to_netcdf``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import xarray as xr
    >>> path = atomic_netcdf(xr.Dataset({"x": ("i", [1.0, 2.0])}),
    ...                      pathlib.Path(tempfile.mkdtemp()) / "x.nc")
    >>> xr.load_dataset(path)["x"].values.tolist()
    [1.0, 2.0]
    """
    final = check_output_path(path, "netcdf")
    with atomic_output(final) as tmp, interrupts_deferred():
        data.to_netcdf(tmp, **to_netcdf)
    return final


@contextlib.contextmanager
def atomic_netcdf_chunks(template: Any, path: str | os.PathLike, *, along: str,
                         encoding: dict | None = None
                         ) -> Iterator[Callable[[int, dict[str, Any]], None]]:
    """Write a netCDF file chunk by chunk along one dimension, whole or not at all.

    ``template`` (an xarray Dataset) holds every variable and coordinate, with the
    dimension ``along`` of length 0; it is written first, ``along`` as the file's
    unlimited dimension. The body receives ``append(start, values)``, which writes
    ``values`` (variable name → array whose first axis runs along ``along``) at
    ``start``: the file then holds what the body appended, and memory only one chunk.
    The file is written beside ``path`` and renamed into place when the body ends
    (:func:`atomic_output`); an error or Ctrl-C while the body computes a chunk leaves
    the previous file as it was and no partial file. Ctrl-C is held during each
    write (:func:`interrupts_deferred`), which opens and closes the file, so no HDF5
    handle stays open between chunks.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np, xarray as xr
    >>> empty = xr.Dataset({"x": (("i", "j"), np.empty((0, 2)))}, coords={"i": np.arange(0)})
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "x.nc"
    >>> with atomic_netcdf_chunks(empty, path, along="i") as append:
    ...     for start in (0, 2):
    ...         append(start, {"x": np.full((2, 2), start), "i": np.arange(start, start + 2)})
    >>> xr.load_dataset(path)["x"].values.tolist()
    [[0.0, 0.0], [0.0, 0.0], [2.0, 2.0], [2.0, 2.0]]
    """
    import netCDF4

    final = check_output_path(path, "netcdf")
    with atomic_output(final) as tmp:
        with interrupts_deferred():
            template.to_netcdf(tmp, engine="netcdf4", unlimited_dims=[along],
                               encoding=encoding)

        def append(start: int, values: dict[str, Any]) -> None:
            with interrupts_deferred(), netCDF4.Dataset(tmp, "a") as nc:
                for name, array in values.items():
                    array = np.asarray(array)
                    nc.variables[name][start:start + len(array)] = array

        yield append
