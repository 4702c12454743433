r"""Standard normals drawn inside compiled loops, from a chain's own PCG64 generator.

A sampler whose every iteration needs a fresh normal for each of thousands of cells
(the probit part of the hurdle model: one latent value per score) spends most of its time
making and storing those normals if numpy draws them into an array first. Here a
compiled loop draws each normal where it uses it:

- the generator is numpy's ``PCG64`` itself (O'Neill 2014: a 128-bit linear congruential
  state, output by the XSL-RR permutation), its state held in four ``uint64`` words
  ``(state_hi, state_lo, inc_hi, inc_lo)`` per chain (:func:`states_of`): the words a
  compiled loop takes are those ``Generator.bit_generator.random_raw`` would give, and
  :func:`restore` hands the advanced state back to the ``Generator``;
- each normal is the 256-layer ziggurat of Marsaglia & Tsang (2000) as numpy's
  ``Generator.standard_normal`` draws it (layer, sign and 52-bit magnitude from one
  64-bit word; the wedges and the tail beyond r = 3.6541528853610088 by rejection), so a
  stream of normals equals numpy's from the same generator to within the last bits of
  the layers' tables (computed here to 40 digits at import and rounded).

Compiled loops hold a chain's state in scalars (``s_hi, s_lo, inc_hi, inc_lo``) and call
:func:`normal_draw` (or :func:`uniform_draw`, :func:`gamma_draw`, :func:`pcg_step`: numpy's
``random``, ``standard_gamma`` and raw words), which return the draw and the new state
halves; :func:`next_uint64` does the same on a ``(4,)`` ``uint64`` row advanced in place,
and :func:`fill` draws an array of normals.

(numba's cache checks only the file of a compiled function: after editing this module,
delete the cached code of the modules that call it, ``kernels/__pycache__/*.nb[ic]``.)
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

from .compiled import jit

__all__ = ["fill", "gamma_draw", "next_uint64", "normal_draw", "pcg_step", "restore",
           "states_of", "uniform_draw"]

#: PCG64's 128-bit multiplier, in two 64-bit halves.
_MULTIPLIER = 0x2360ED051FC65DA44385DF649FCCF645
_MULT_HI = np.uint64(_MULTIPLIER >> 64)
_MULT_LO = np.uint64(_MULTIPLIER & (2**64 - 1))
_LOW32 = np.uint64(0xFFFFFFFF)

#: The ziggurat's rightmost layer edge r and its layers' common area v =
#: r·f(r) + √(π/2)·erfc(r/√2), f(x) = exp(−x²/2) (v to 34 digits, from mpmath at 60).
ZIGGURAT_R = Decimal("3.6541528853610087963519472518")
ZIGGURAT_V = Decimal("0.004928673233974654931590913431847149")
_R = float(ZIGGURAT_R)
_INV_R = 1.0 / _R


def ziggurat_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 256-layer tables ``ki`` (acceptance bounds of the 52-bit magnitudes),
    ``wi`` (magnitude → x) and ``fi`` (f at each layer's edge), computed to 40 digits.

    Layer edges x₂₅₅ = r > x₂₅₄ > … > x₁ > 0 with equal areas v: x_{i−1} =
    √(−2 log(v/x_i + f(x_i))). Layer 0 is the base strip with the tail (width v/f(r));
    layer 1 has no sure part.

    Examples
    --------
    >>> ki, wi, fi = ziggurat_tables()
    >>> float(wi[255] * 2.0 ** 52), float(fi[0]), int(ki[1])
    (3.6541528853610088, 1.0, 0)
    """
    with localcontext() as ctx:
        ctx.prec = 40
        r, v = ZIGGURAT_R, ZIGGURAT_V
        scale = Decimal(2) ** 52

        def f(x: Decimal) -> Decimal:
            return (-x * x / 2).exp()

        x = [Decimal(0)] * 256
        x[255] = r
        for i in range(254, 0, -1):
            x[i] = (-2 * (v / x[i + 1] + f(x[i + 1])).ln()).sqrt()
        ki = np.zeros(256, np.int64)
        wi, fi = np.zeros(256), np.zeros(256)
        ki[0] = int(r * f(r) / v * scale)
        wi[0] = float(v / f(r) / scale)
        fi[0] = 1.0
        for i in range(1, 256):
            if i >= 2:
                ki[i] = int(x[i - 1] / x[i] * scale)
            wi[i] = float(x[i] / scale)
            fi[i] = float(f(x[i]))
    return ki, wi, fi


_KI, _WI, _FI = ziggurat_tables()


def states_of(generators: list[np.random.Generator]) -> np.ndarray:
    """The ``(C, 4)`` ``uint64`` states of PCG64 generators, one row each.

    Examples
    --------
    >>> st = states_of([np.random.default_rng(1)])
    >>> out = np.empty(3)
    >>> fill(st[0], out)
    >>> bool(np.allclose(out, np.random.default_rng(1).standard_normal(3), rtol=1e-14))
    True
    """
    rows = []
    for gen in generators:
        state = gen.bit_generator.state
        if state.get("bit_generator") != "PCG64":
            raise TypeError(f"a compiled stream needs a PCG64 generator; got "
                            f"{state.get('bit_generator')}")
        s, inc = state["state"]["state"], state["state"]["inc"]
        rows.append([s >> 64, s & (2**64 - 1), inc >> 64, inc & (2**64 - 1)])
    return np.array(rows, dtype=np.uint64).reshape(-1, 4)


def restore(generators: list[np.random.Generator], states: np.ndarray) -> None:
    """Give each generator the state a compiled loop advanced (``states`` row by row),
    so that its next draws follow the compiled ones.

    Examples
    --------
    >>> gen = np.random.default_rng(2)
    >>> st = states_of([gen])
    >>> fill(st[0], np.empty(5))
    >>> restore([gen], st)
    >>> bool(gen.standard_normal() == np.random.default_rng(2).standard_normal(6)[5])
    True
    """
    for gen, row in zip(generators, states, strict=True):
        state = gen.bit_generator.state
        hi, lo, inc_hi, inc_lo = (int(w) for w in row)
        state["state"] = {"state": (hi << 64) | lo, "inc": (inc_hi << 64) | inc_lo}
        state["has_uint32"], state["uinteger"] = 0, 0
        gen.bit_generator.state = state


@jit
def _mulhi(a, b):
    """The high 64 bits of the 128-bit product of two ``uint64``."""
    a_lo, a_hi = a & _LOW32, a >> np.uint64(32)
    b_lo, b_hi = b & _LOW32, b >> np.uint64(32)
    ll, lh, hl = a_lo * b_lo, a_lo * b_hi, a_hi * b_lo
    mid = (ll >> np.uint64(32)) + (lh & _LOW32) + (hl & _LOW32)
    return a_hi * b_hi + (lh >> np.uint64(32)) + (hl >> np.uint64(32)) + (mid >> np.uint64(32))


@jit
def pcg_step(s_hi, s_lo, inc_hi, inc_lo):
    """One step of a PCG64 state held in scalars: ``(output, s_hi, s_lo)``. The state
    steps to s·M + inc (mod 2¹²⁸), then its new halves are xor-ed and rotated right by
    its top 6 bits. (Scalars, not an array row, so that a loop over cells keeps the
    state in registers.)"""
    lo = s_lo * _MULT_LO
    hi = _mulhi(s_lo, _MULT_LO) + s_lo * _MULT_HI + s_hi * _MULT_LO
    new_lo = lo + inc_lo
    carry = np.uint64(1) if new_lo < lo else np.uint64(0)
    new_hi = hi + inc_hi + carry
    x = new_hi ^ new_lo
    rot = new_hi >> np.uint64(58)
    return (x >> rot) | (x << ((np.uint64(64) - rot) & np.uint64(63))), new_hi, new_lo


@jit
def uniform_draw(s_hi, s_lo, inc_hi, inc_lo):
    """A uniform on [0, 1) from the top 53 bits of the next output, as numpy's
    ``Generator.random``: ``(u, s_hi, s_lo)``."""
    word, s_hi, s_lo = pcg_step(s_hi, s_lo, inc_hi, inc_lo)
    return (word >> np.uint64(11)) * (1.0 / 9007199254740992.0), s_hi, s_lo


@jit
def normal_draw(s_hi, s_lo, inc_hi, inc_lo):
    """A standard normal by the ziggurat (numpy's ``random_standard_normal``'s steps)
    from a PCG64 state held in scalars: ``(x, s_hi, s_lo)``.

    One word gives the layer (low 8 bits), the sign (bit 8) and a 52-bit magnitude;
    inside the layer's sure part (98.8% of draws) that is the normal, else
    :func:`_normal_rest` continues as numpy does (kept out of line, so that the loop
    calling this one stays small)."""
    r, s_hi, s_lo = pcg_step(s_hi, s_lo, inc_hi, inc_lo)
    idx, sign, rabs = _decode(r)
    if rabs < _KI[idx]:
        return rabs * _WI[idx] * sign, s_hi, s_lo
    return _normal_rest(r, s_hi, s_lo, inc_hi, inc_lo)


@jit
def _decode(r):
    """A word's layer (low 8 bits), sign (bit 8) and 52-bit magnitude: the sign as a
    factor ±1, not a branch (which the processor would mispredict half the time), the
    magnitude signed (below 2⁵²: a one-instruction conversion to float)."""
    idx = np.intp(r & np.uint64(0xFF))
    sign = np.float64(1 - 2 * np.int64((r >> np.uint64(8)) & np.uint64(1)))
    rabs = np.int64((r >> np.uint64(9)) & np.uint64(0x000FFFFFFFFFFFFF))
    return idx, sign, rabs


@jit
def _normal_rest(r, s_hi, s_lo, inc_hi, inc_lo):
    """The ziggurat's draw from a word ``r`` outside its layer's sure part: the tail
    beyond r (Marsaglia 1964) from layer 0, a wedge's rejection test elsewhere, and
    fresh words until a draw is accepted."""
    while True:
        idx, sign, rabs = _decode(r)
        x = rabs * _WI[idx] * sign
        if rabs < _KI[idx]:
            return x, s_hi, s_lo
        if idx == 0:
            while True:
                u, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
                v, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
                xx = -_INV_R * math.log1p(-u)
                yy = -math.log1p(-v)
                if yy + yy > xx * xx:  # (numpy's tail takes its sign from bit 8 of rabs)
                    return -(_R + xx) if (rabs >> 8) & 1 else _R + xx, s_hi, s_lo
        u, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
        if (_FI[idx - 1] - _FI[idx]) * u + _FI[idx] < math.exp(-0.5 * x * x):
            return x, s_hi, s_lo
        r, s_hi, s_lo = pcg_step(s_hi, s_lo, inc_hi, inc_lo)


@jit
def gamma_draw(shape, s_hi, s_lo, inc_hi, inc_lo):
    """A standard gamma draw of shape > 1 as numpy's ``Generator.standard_gamma`` makes it
    (Marsaglia & Tsang 2000: a ziggurat normal x kept where v = (1 + x/√(9b))³, b =
    shape − 1/3, passes the squeeze or the log test at a uniform; the draw is b·v), from
    a PCG64 state held in scalars: ``(g, s_hi, s_lo)``.

    Examples
    --------
    >>> st = states_of([np.random.default_rng(4)])[0]
    >>> g, hi, lo = gamma_draw(3.5, *st)
    >>> bool(abs(g - np.random.default_rng(4).standard_gamma(3.5)) < 1e-12)
    True
    """
    b = shape - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * b)
    while True:
        x, s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
        v = 1.0 + c * x
        while v <= 0.0:
            x, s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
            v = 1.0 + c * x
        v = v * v * v
        u, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
        if u < 1.0 - 0.0331 * (x * x) * (x * x):
            return b * v, s_hi, s_lo
        if math.log(u) < 0.5 * x * x + b * (1.0 - v + math.log(v)):
            return b * v, s_hi, s_lo


@jit
def next_uint64(st):
    """The next 64-bit output of the PCG64 state row ``st`` (advanced in place)."""
    word, st[0], st[1] = pcg_step(st[0], st[1], st[2], st[3])
    return word


@jit
def fill(st, out):
    """Fill the 1-D array ``out`` with standard normals from the state ``st``.

    Examples
    --------
    >>> st = states_of([np.random.default_rng(0)])[0]
    >>> out = np.empty(4)
    >>> fill(st, out)
    >>> bool(np.allclose(out, np.random.default_rng(0).standard_normal(4), rtol=1e-14))
    True
    """
    s_hi, s_lo, inc_hi, inc_lo = st[0], st[1], st[2], st[3]
    for i in range(out.size):
        out[i], s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
    st[0], st[1] = s_hi, s_lo
