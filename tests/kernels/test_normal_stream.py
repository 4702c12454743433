"""The compiled PCG64 stream and ziggurat normals against numpy's own generator on the same
state (the independent reference: ``Generator.bit_generator.random_raw`` and
``Generator.standard_normal``), the ziggurat's tables against their defining equations,
and the law of the normals."""

from __future__ import annotations

import math

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from scorestd.kernels import normal_stream as ns


@numba.njit
def _words(state, out):
    for i in range(out.size):
        out[i] = ns.next_uint64(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**63))
def test_words_are_numpys_pcg64_bit_for_bit(seed):
    state = ns.states_of([np.random.default_rng(seed)])[0]
    out = np.empty(2_000, np.uint64)
    _words(state, out)
    np.testing.assert_array_equal(out, np.random.default_rng(seed).bit_generator.random_raw(2_000))


@pytest.mark.parametrize("seed", [0, 20261127])
def test_normals_are_numpys_standard_normal_from_the_same_state(seed):
    # numpy draws the same ziggurat; its tables were rounded differently in the last bits
    # (ours: 40 digits), so equal to 1e-13 relative, and every draw — the sure parts, the
    # wedges' rejections and the tail's, which take extra words — takes the same words
    n = 1_000_000
    out = np.empty(n)
    state = ns.states_of([np.random.default_rng(seed)])[0]
    ns.fill(state, out)
    want = np.random.default_rng(seed).standard_normal(n)
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=0)
    assert np.sum(np.abs(want) > float(ns.ZIGGURAT_R)) > 100  # (the tail was drawn)
    gen = np.random.default_rng(seed)
    gen.standard_normal(n)
    ns.restore([rng := np.random.default_rng(0)], state[None, :])
    assert rng.bit_generator.random_raw() == gen.bit_generator.random_raw()


def test_normals_follow_the_normal_law():
    out = np.empty(400_000)
    ns.fill(ns.states_of([np.random.default_rng(9)])[0], out)
    n = out.size
    assert stats.kstest(out, "norm").pvalue > 1e-3
    assert abs(out.mean()) < 5 / np.sqrt(n)
    assert abs(out.var() - 1) < 5 * np.sqrt(2 / n)
    p3 = 2 * stats.norm.sf(3)
    assert abs(np.mean(np.abs(out) > 3) - p3) < 5 * np.sqrt(p3 / n)
    far = out[np.abs(out) > 3.6541528853610088]  # (drawn in the tail's own loop)
    law = stats.truncnorm(3.6541528853610088, np.inf)
    assert stats.kstest(np.abs(far), law.cdf).pvalue > 1e-3


def test_ziggurat_tables_solve_their_equations():
    ki, wi, fi = ns.ziggurat_tables()
    r, v = float(ns.ZIGGURAT_R), float(ns.ZIGGURAT_V)
    # v: the base strip's area, rectangle plus the normal's tail beyond r (scipy's erfc)
    assert v == pytest.approx(r * math.exp(-r * r / 2)
                              + math.sqrt(math.pi / 2) * special.erfc(r / math.sqrt(2)),
                              rel=1e-15)
    x = wi * 2.0 ** 52
    x[0] = 0.0  # (layer 0's table holds the base strip's width v / f(r))
    f = np.exp(-x * x / 2)
    np.testing.assert_allclose(fi, f, rtol=1e-15)
    # every layer above the base: a rectangle of width x_i from f(x_i) to f(x_{i−1}), area v
    np.testing.assert_allclose(x[1:] * (f[:-1] - f[1:]), v, rtol=1e-12)
    np.testing.assert_allclose(wi[0] * 2.0 ** 52, v / math.exp(-r * r / 2), rtol=1e-15)
    # sure parts: the share of a layer under the next layer's edge
    np.testing.assert_allclose(ki[2:] / 2.0 ** 52, x[1:-1] / x[2:], rtol=1e-15, atol=2**-52)
    assert ki[1] == 0 and ki[0] / 2.0 ** 52 == pytest.approx(r * math.exp(-r * r / 2) / v)


def test_states_need_pcg64():
    with pytest.raises(TypeError, match="PCG64 generator; got MT19937"):
        ns.states_of([np.random.Generator(np.random.MT19937(1))])
