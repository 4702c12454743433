"""What the compiled kernels share: the numba decorator and scipy's special functions.

Importing this module imports numba (≈ 0.3 s), so only compiled kernels import it and
nothing imports them when ``scorestd`` is imported: the layers above import them inside
the functions that use them.

- :func:`jit`: ``numba.njit(cache=True)``: the machine code is written beside the module
  (or in numba's user-wide cache, or ``NUMBA_CACHE_DIR``) on a process's first call and
  read back by later processes; where no cache location is writable, each process
  compiles on its first call instead (the same code, slower to start).
- ``ndtr``, ``ndtri``, ``gammainc``, ``gammaincc``, ``gammaincinv``, ``gammainccinv``:
  scipy's own C functions (``scipy.special.cython_special``) called from compiled code,
  so that a compiled step computes the numbers scipy would, bit for bit. They are bound by
  symbol name (not by address, which would change from process to process), so code that
  calls them can be cached.
"""

from __future__ import annotations

from collections.abc import Callable

import llvmlite.binding as llvm
import numba
from numba import types
from numba.extending import get_cython_function_address

__all__ = ["gammainc", "gammaincc", "gammainccinv", "gammaincinv", "jit", "ndtr", "ndtri"]


def jit(function: Callable) -> Callable:
    """``numba.njit(cache=True)``, or without the cache where no cache location is
    writable; floating-point errors as numpy's (∞ or NaN, not an exception).

    Examples
    --------
    >>> double = jit(lambda x: 2.0 * x)
    >>> double(1.5)
    3.0
    """
    try:
        return numba.njit(cache=True, error_model="numpy")(function)
    except RuntimeError:  # numba: "cannot cache function ...: no locator available"
        return numba.njit(error_model="numpy")(function)


def _scipy_special(name: str, arguments: int) -> types.ExternalFunction:
    """scipy's C function ``name`` (float64 arguments), callable from compiled code as
    ``f(x, ..., 0)`` (the last argument: Cython's ``skip_dispatch`` flag)."""
    cython_name = {"ndtr": "__pyx_fuse_1ndtr"}.get(name, name)  # (its real-valued version)
    address = get_cython_function_address("scipy.special.cython_special", cython_name)
    symbol = f"scorestd_scipy_special_{name}"
    llvm.add_symbol(symbol, address)
    return types.ExternalFunction(
        symbol, types.float64(*[types.float64] * arguments, types.intc))


ndtr = _scipy_special("ndtr", 1)
ndtri = _scipy_special("ndtri", 1)
gammainc = _scipy_special("gammainc", 2)
gammaincc = _scipy_special("gammaincc", 2)
gammaincinv = _scipy_special("gammaincinv", 2)
gammainccinv = _scipy_special("gammainccinv", 2)
