"""The packed-key ecdf kernels against plain loops written here, on every route:
the key sort, the exact argsort a clash falls back to, many chunks, split rows."""

from __future__ import annotations

from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from scorestd.kernels import ecdf as k

NEGATIVE_NAN = float(np.copysign(np.nan, -1.0))  # a NaN with its sign bit set
# Signalling NaNs whose payload is in the low mantissa bits (the bits a key drops).
SIGNALLING_NAN, NEGATIVE_SIGNALLING_NAN = np.array(
    [0x7FF0_0000_0000_0001, 0xFFF0_0000_0000_0001], dtype=np.uint64).view(np.float64)
# Scores chosen to be hard for the keys: ties, -0.0 against 0.0, negative scores,
# infinities, NaN, subnormals, and neighbours one and two ulps apart (these share a
# key, so they force the exact fallback).
TRICKY = [0.1, float(np.nextafter(0.1, 1)), float(np.nextafter(np.nextafter(0.1, 1), 1)),
          0.0, -0.0, 0.25, 1.0, -1.5, -1e-300, 5e-324, np.inf, -np.inf, np.nan, NEGATIVE_NAN,
          SIGNALLING_NAN, NEGATIVE_SIGNALLING_NAN]
scores = st.one_of(st.sampled_from(TRICKY),
                   st.floats(-2, 2, allow_nan=False, allow_subnormal=True))


def plain_counts(x, ref, ties):
    """One score at a time: #{ref <= x} or its mid-rank variant, NaN for NaN."""
    out = np.full(x.shape, np.nan)
    for index in np.ndindex(x.shape[:-1]):
        r = ref[index][~np.isnan(ref[index])]
        for j, v in enumerate(x[index]):
            if not np.isnan(v):
                le, lt = np.sum(r <= v), np.sum(r < v)
                out[(*index, j)] = le if ties == "right" else (le + lt) / 2
    return out


ROUTES = ["one chunk", "small chunks", "split rows", "exact only"]


@contextmanager
def route(name):
    """Send the kernel down one route: the default chunks, many small chunks, chunks
    smaller than one (A) entry so rows split, or the exact argsort everywhere."""
    with pytest.MonkeyPatch.context() as patch:
        if name == "small chunks":
            patch.setattr(k, "CHUNK", 16)
        elif name == "split rows":
            patch.setattr(k, "CHUNK", 3)
        elif name == "exact only":
            patch.setattr(k, "MAX_CODE_BITS", 0)
        yield


def plain_row_stats(values):
    """Smallest and largest non-NaN score of each row, NaN for a row without one."""
    low, high = np.full(values.shape[:-1], np.nan), np.full(values.shape[:-1], np.nan)
    for index in np.ndindex(values.shape[:-1]):
        row = values[index][~np.isnan(values[index])]
        if row.size:
            low[index], high[index] = row.min(), row.max()
    return low, high


@given(values=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 4),
                                               st.integers(1, 9)), elements=scores),
       ties=st.sampled_from(["right", "mid"]))
@pytest.mark.parametrize("name", ROUTES)
def test_self_counts_match_a_plain_loop_on_every_route(name, values, ties):
    with route(name):
        ranks = k.self_counts(values, ties)
        divided = k.self_counts(values, ties, keep_sorted=False, divide=True)
    np.testing.assert_array_equal(ranks.counts, plain_counts(values, values, ties))
    n = (~np.isnan(values)).sum(axis=-1, keepdims=True)
    np.testing.assert_array_equal(ranks.n, n)
    with np.errstate(invalid="ignore"):  # (a signalling NaN)
        expected_sorted = np.sort(values + 0.0, axis=-1)  # + 0.0: -0.0 is stored as 0.0
    np.testing.assert_array_equal(ranks.sorted, expected_sorted)
    assert not np.signbit(ranks.sorted[ranks.sorted == 0]).any()
    low, high = plain_row_stats(values)
    np.testing.assert_array_equal(ranks.low, low)
    np.testing.assert_array_equal(ranks.high, high)
    assert divided.sorted is None
    with np.errstate(invalid="ignore", divide="ignore"):
        np.testing.assert_array_equal(divided.counts, ranks.counts / n)


@given(ref=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 4),
                                            st.integers(1, 7)), elements=scores),
       n_x=st.integers(1, 6), data=st.data(), ties=st.sampled_from(["right", "mid"]))
@pytest.mark.parametrize("name", ROUTES)
def test_merged_counts_match_a_plain_loop_on_every_route(name, ref, n_x, data, ties):
    x = data.draw(hnp.arrays(np.float64, (*ref.shape[:-1], n_x), elements=scores))
    with route(name):
        counts, n = k.merged_counts(x, ref, ties)
    np.testing.assert_array_equal(counts, plain_counts(x, ref, ties))
    np.testing.assert_array_equal(n, (~np.isnan(ref)).sum(axis=-1, keepdims=True))


@pytest.mark.parametrize("name", ROUTES)
def test_a_strided_view_gives_what_its_copy_gives(name):
    rng = np.random.default_rng(7)
    cube = np.round(rng.random((6, 40, 3)), 2)  # (topic, system, measure), many ties
    view = cube.transpose(0, 2, 1)  # systems last, not contiguous
    with route(name):
        ranks = k.self_counts(view, "mid")
        copy = k.self_counts(np.ascontiguousarray(view), "mid")
    np.testing.assert_array_equal(ranks.counts, copy.counts)
    np.testing.assert_array_equal(ranks.counts, plain_counts(view, view, "mid"))


def test_merged_counts_broadcast_one_reference_over_a_batch():
    rng = np.random.default_rng(3)
    ref, x = rng.random((4, 9)), rng.random((2, 4, 5))
    counts, n = k.merged_counts(x, ref)
    np.testing.assert_array_equal(counts, plain_counts(x, np.broadcast_to(ref, (2, 4, 9)),
                                                       "right"))
    assert n.shape == (2, 4, 1) and (n == 9).all()


def test_neighbouring_floats_take_the_exact_route_and_stay_exact():
    # 1,000 scores one ulp apart share keys; the row falls back to the argsort.
    base = 0.3 + np.arange(1000) * np.spacing(0.3)
    values = np.random.default_rng(1).permutation(base)[np.newaxis, :]
    counts = k.self_counts(values).counts
    np.testing.assert_array_equal(counts, np.argsort(np.argsort(values)) + 1.0)


def test_empty_rows_and_rows_of_nan():
    ranks = k.self_counts(np.full((2, 3), np.nan), divide=True)
    assert np.isnan(ranks.counts).all() and (ranks.n == 0).all()
    assert np.isnan(ranks.low).all() and np.isnan(ranks.high).all()
    counts, n = k.merged_counts(np.array([[0.5]]), np.array([[np.nan, np.nan]]))
    assert counts.tolist() == [[0.0]] and n.tolist() == [[0]]


@given(values=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 9)),
                         elements=st.sampled_from([-2.5, -1.0, -0.0, 0.0, 0.125, 0.5, 3.0,
                                                   np.inf, -np.inf, np.nan,
                                                   NEGATIVE_NAN, SIGNALLING_NAN])),
       merged=st.booleans())
def test_scores_far_apart_never_need_the_exact_route(values, merged):
    # The keys alone must order negative scores, infinities and NaN: the argsort is
    # only for different scores within a few ulps of each other.
    def refuse(*args, **kwargs):
        raise AssertionError("took the exact route")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(k._Workspace, "_exact_rows", refuse)
        if merged:
            counts, _ = k.merged_counts(values[:, ::-1], values)
            np.testing.assert_array_equal(counts, plain_counts(values[:, ::-1], values, "right"))
        else:
            np.testing.assert_array_equal(k.self_counts(values).counts,
                                          plain_counts(values, values, "right"))


def test_empty_shapes():
    ranks = k.self_counts(np.empty((2, 0)))
    assert ranks.counts.shape == (2, 0) and ranks.n.tolist() == [[0], [0]]
    assert k.self_counts(np.empty((0, 5))).counts.shape == (0, 5)
    counts, n = k.merged_counts(np.array([[0.5, np.nan]]), np.empty((1, 0)))
    np.testing.assert_array_equal(counts, [[0.0, np.nan]])
    assert n.tolist() == [[0]]
    counts, n = k.merged_counts(np.empty((1, 0)), np.array([[0.5]]))
    assert counts.shape == (1, 0) and n.tolist() == [[1]]
