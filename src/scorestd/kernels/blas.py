"""Run batches of trials with a single-threaded BLAS.

The matrices of one trial are small (e.g. 50 topics × 110 systems): a multi-threaded
OpenBLAS gains nothing on them, and on a busy machine its threads spend their time
waiting for each other — measured here, 110 × 110 cross-products ran 80× slower with
two BLAS threads than with one while other processes shared the two cores. The engine
therefore pins OpenBLAS (numpy's and scipy's BLAS in the wheels) to one thread while a
batch runs, as ``threadpoolctl`` would, and restores the previous setting afterwards.
Parallelism across trials comes from the engine (``client=``), not from BLAS.

Where no OpenBLAS is loaded, or the platform has no ``/proc/self/maps`` to find it, this
changes nothing: results never depend on it, only speed.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
from collections.abc import Iterator

__all__ = ["single_threaded_blas"]

# (set, get) entry points of the OpenBLAS builds numpy and scipy ship or link to
_ENTRY_POINTS = (
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
    ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
)


@functools.cache
def _controls() -> tuple[tuple[object, object], ...]:
    """(setter, getter) of every OpenBLAS loaded in this process."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps
                     if "openblas" in line.lower() and ".so" in line}
    except OSError:
        return ()
    found = []
    for path in sorted(paths):
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        for set_name, get_name in _ENTRY_POINTS:
            setter, getter = getattr(lib, set_name, None), getattr(lib, get_name, None)
            if setter is not None and getter is not None:
                getter.restype = ctypes.c_int
                found.append((setter, getter))
                break
    return tuple(found)


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Context manager: OpenBLAS uses one thread inside, its previous count after.

    Examples
    --------
    >>> import numpy as np
    >>> with single_threaded_blas():
    ...     g = np.ones((3, 4)).T @ np.ones((3, 4))
    >>> g[0, 0]
    np.float64(3.0)
    """
    controls = _controls()
    before = [getter() for _, getter in controls]
    for setter, _ in controls:
        setter(1)
    try:
        yield
    finally:
        for (setter, _), count in zip(controls, before, strict=True):
            setter(count)
