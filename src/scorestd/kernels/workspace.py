"""Work buffers that kernels reuse from one call to the next.

A resampling study calls the same kernels thousands of times on arrays of the same
shapes. Allocating their large temporaries afresh every time costs more than the
arithmetic: every new array of a few megabytes is fresh memory from the operating
system, paid for in page faults (measured: system time was 40–50% of the CPU time of
within-collection runs with hundreds of systems). A :class:`Workspace` keeps one flat
buffer per name and hands out views of it, growing a buffer only when a larger shape
is asked for; the experiment engine opens one for a whole run
(:func:`reusing_buffers`) and every kernel that asks :func:`workspace` for its
temporaries then reuses them batch after batch.

Outside :func:`reusing_buffers`, :func:`workspace` gives a fresh workspace: a kernel
called once behaves as if it had allocated its own temporaries. A buffer is only
scratch space: kernels never return a view of one.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Iterator

import numpy as np

__all__ = ["Workspace", "reusing_buffers", "workspace"]


class Workspace:
    """Named scratch buffers, reused while their size suffices.

    Examples
    --------
    >>> ws = Workspace()
    >>> a = ws.array("t", (3, 4))
    >>> b = ws.array("t", (2, 5))  # fits in the 12 elements of "t": the same memory
    >>> bool(np.shares_memory(a, b))
    True
    >>> ws.nbytes
    96
    """

    def __init__(self) -> None:
        self._buffers: dict[str, np.ndarray] = {}

    def array(self, name: str, shape: tuple[int, ...], dtype=np.float64) -> np.ndarray:
        """An uninitialised C-contiguous array of ``shape`` and ``dtype`` named ``name``.

        The contents are whatever the previous user left; two names never share memory.
        """
        dtype = np.dtype(dtype)
        nbytes = math.prod(shape) * dtype.itemsize
        buf = self._buffers.get(name)
        if buf is None or buf.nbytes < nbytes:
            buf = np.empty(max(nbytes, 1), dtype=np.uint8)
            self._buffers[name] = buf
        return buf[:nbytes].view(dtype).reshape(shape)

    @property
    def nbytes(self) -> int:
        """Bytes held by all buffers."""
        return sum(b.nbytes for b in self._buffers.values())


_CURRENT: contextvars.ContextVar[Workspace | None] = contextvars.ContextVar(
    "scorestd_workspace", default=None)


def workspace() -> Workspace:
    """The workspace of the enclosing :func:`reusing_buffers`, or a fresh one.

    Examples
    --------
    >>> with reusing_buffers() as ws:
    ...     workspace() is ws
    True
    >>> workspace() is workspace()
    False
    """
    current = _CURRENT.get()
    return Workspace() if current is None else current


@contextlib.contextmanager
def reusing_buffers(ws: Workspace | None = None) -> Iterator[Workspace]:
    """Context manager: kernels called inside take their temporaries from one workspace.

    Nested uses keep the outer workspace unless ``ws`` is given.
    """
    ws = ws if ws is not None else (_CURRENT.get() or Workspace())
    token = _CURRENT.set(ws)
    try:
        yield ws
    finally:
        _CURRENT.reset(token)
