"""BLAS threads of the kernels: one by default, set once per call.

The matrices of the kernels are small (e.g. 50 topics × 110 systems): a multi-threaded
OpenBLAS gains nothing on them, and on a busy machine its threads spend their time
waiting for each other — measured here, 110 × 110 cross-products ran 80× slower with
two BLAS threads than with one while other processes shared the two cores, and the
public all-pairs paired t kernel took 1.9 ms on a quiet machine but 7.6–16 ms on a busy
one. So every public kernel that multiplies matrices runs with :func:`limited_blas`: on
entry it sets the BLAS thread count to the kernels' limit (1 unless the user says
otherwise with :func:`blas_threads` or ``$SCORESTD_BLAS_THREADS``), on exit it restores
the previous count; a kernel called by another keeps the setting of the outer call, so
the threads are set once per call. Parallelism comes from processes (the experiment
engine's ``client=``, one BLAS thread per ``dask`` worker), not from BLAS.

The thread count is set in OpenBLAS (numpy's and scipy's BLAS in the wheels), found in
``/proc/self/maps``, as ``threadpoolctl`` would. Where no OpenBLAS is loaded (another
BLAS, or no ``/proc``), nothing changes: set ``OPENBLAS_NUM_THREADS``,
``MKL_NUM_THREADS`` or ``OMP_NUM_THREADS`` before Python starts instead. Results never
depend on it, only speed.
"""

from __future__ import annotations

import contextlib
import contextvars
import ctypes
import functools
import os
from collections.abc import Callable, Iterator
from typing import TypeVar

__all__ = ["BLAS_THREADS_ENV", "blas_thread_limit", "blas_threads", "limited_blas",
           "single_threaded_blas"]

#: Environment variable with the kernels' BLAS thread count (default 1).
BLAS_THREADS_ENV = "SCORESTD_BLAS_THREADS"

# (set, get) entry points of the OpenBLAS builds numpy and scipy ship or link to
_ENTRY_POINTS = (
    ("scipy_openblas_set_num_threads64_", "scipy_openblas_get_num_threads64_"),
    ("scipy_openblas_set_num_threads", "scipy_openblas_get_num_threads"),
    ("openblas_set_num_threads64_", "openblas_get_num_threads64_"),
    ("openblas_set_num_threads", "openblas_get_num_threads"),
)

# The user's limit (None: the environment's, else 1) and whether a limited call is running.
_LIMIT: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "scorestd_blas_limit", default=None)
_INSIDE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "scorestd_blas_inside", default=False)

F = TypeVar("F", bound=Callable)


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


def blas_thread_limit() -> int:
    """BLAS threads the kernels use: :func:`blas_threads`, else ``$SCORESTD_BLAS_THREADS``,
    else 1.

    Examples
    --------
    >>> with blas_threads(2):
    ...     blas_thread_limit()
    2
    """
    limit = _LIMIT.get()
    if limit is not None:
        return limit
    value = os.environ.get(BLAS_THREADS_ENV, "").strip()
    if value:
        try:
            return max(1, int(value))
        except ValueError:
            pass
    return 1


@contextlib.contextmanager
def blas_threads(n: int) -> Iterator[None]:
    """Context manager: the kernels called inside use ``n`` BLAS threads (default 1).

    For large matrices on an otherwise idle machine, e.g. a paired-moment matrix of
    thousands of systems, more threads can pay; on small ones, or when other processes
    (or ``dask`` workers) share the cores, one thread is fastest. Kernels set the count
    on entry and restore the previous one on exit.

    Parameters
    ----------
    n : int
        Threads, at least 1.

    Examples
    --------
    >>> import numpy as np
    >>> import scorestd
    >>> x = np.random.default_rng(0).random((50, 20))
    >>> with scorestd.blas_threads(2):
    ...     t, p, d = scorestd.kernels.paired.paired_t_all_pairs(x)
    >>> t.shape
    (190,)
    """
    from .._options import check_count

    token = _LIMIT.set(check_count("n", n))
    try:
        yield
    finally:
        _LIMIT.reset(token)


@contextlib.contextmanager
def _threads(n: int) -> Iterator[None]:
    controls = _controls()
    before = [getter() for _, getter in controls]
    for (setter, _), count in zip(controls, before, strict=True):
        if count != n:
            setter(n)
    try:
        yield
    finally:
        for (setter, getter), count in zip(controls, before, strict=True):
            if getter() != count:
                setter(count)


@contextlib.contextmanager
def single_threaded_blas() -> Iterator[None]:
    """Context manager: OpenBLAS uses one thread inside, its previous count after.

    Inside, the kernels keep one thread whatever :func:`blas_threads` says (the
    experiment engine runs its batches so).

    Examples
    --------
    >>> import numpy as np
    >>> with single_threaded_blas():
    ...     g = np.ones((3, 4)).T @ np.ones((3, 4))
    >>> g[0, 0]
    np.float64(3.0)
    """
    token = _INSIDE.set(True)
    try:
        with _threads(1):
            yield
    finally:
        _INSIDE.reset(token)


def limited_blas(func: F) -> F:
    """Decorator of a kernel that multiplies matrices: BLAS uses
    :func:`blas_thread_limit` threads during the call, set once (a call from inside
    another limited call keeps the outer setting).

    Examples
    --------
    >>> import numpy as np
    >>> @limited_blas
    ... def gram(x):
    ...     return x.T @ x
    >>> gram(np.ones((3, 2))).tolist()
    [[3.0, 3.0], [3.0, 3.0]]
    """
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if _INSIDE.get():
            return func(*args, **kwargs)
        token = _INSIDE.set(True)
        try:
            with _threads(blas_thread_limit()):
                return func(*args, **kwargs)
        finally:
            _INSIDE.reset(token)

    return wrapper  # type: ignore[return-value]
