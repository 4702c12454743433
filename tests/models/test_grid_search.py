"""The bucketed search of tabulated margins (compiled): the quantiles of a plain search of the
whole table, bit for bit."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from scorestd.kernels.table_search import bucketed_inverse
from scorestd.models import _grid


def _cdf_rows(rng, m, k, kind):
    """cdf rows with the shapes tables have: smooth, steps and long flat stretches."""
    if kind == "smooth":
        cdf = np.cumsum(rng.gamma(0.3, size=(m, k)), axis=1)
    elif kind == "steps":  # a few jumps (discrete-like), equal values in between
        cdf = np.cumsum(rng.random((m, k)) * (rng.random((m, k)) < 0.05), axis=1)
    else:  # mass at both ends, nearly flat between (many grid points in one bucket)
        w = np.full((m, k), 1e-9)
        w[:, 0], w[:, -1] = rng.random(m) + 0.1, rng.random(m) + 0.1
        cdf = np.cumsum(w, axis=1)
    cdf[:, -1] = np.maximum(cdf[:, -1], 1e-300)
    return cdf / cdf[:, -1:]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(1, 40), k=st.sampled_from([2, 11, 300]),
       kind=st.sampled_from(["smooth", "steps", "flat"]))
def test_bucketed_search_gives_the_quantiles_of_a_plain_search(seed, m, k, kind):
    rng = np.random.default_rng(seed)
    cdf = _cdf_rows(rng, m, k, kind)
    flat = _grid.stacked(cdf)
    index = _grid.search_index(flat, m)
    n = 400
    u = rng.random((n, 7))
    # the values where an off-by-one would show: bucket edges, the cdf's own values, 0, 1
    edges = rng.integers(0, _grid.BUCKETS + 1, size=(n, 2)) / _grid.BUCKETS
    rows = rng.integers(0, m, size=(n, 1))
    own = cdf[rows[:, 0], rng.integers(0, k, size=n)][:, np.newaxis]
    u = np.concatenate([u, edges, own, np.nextafter(own, 0), np.nextafter(own, 1),
                        np.zeros((n, 1)), np.ones((n, 1))], axis=1).clip(0, 1)
    rows = np.broadcast_to(rows, u.shape)
    # discrete (distinct support points: equal quantiles are equal positions) and continuous
    support = np.linspace(0, 1, k)
    for sup in (None, support):
        np.testing.assert_array_equal(
            _grid.table_inverse(cdf, u, rows=rows, support=sup, flat=flat, index=index),
            _grid.table_inverse(cdf, u, rows=rows, support=sup, flat=flat))


def test_a_probability_outside_its_row_is_searched_in_the_whole_table():
    cdf = np.vstack([_grid.X, _grid.X ** 2])
    flat = _grid.stacked(cdf)
    index = _grid.search_index(flat, 2)
    u = np.array([[0.25, np.nan], [0.5, 0.75]])
    rows = np.broadcast_to(np.array([[0], [1]]), u.shape)
    assert bucketed_inverse(flat, _grid.X, _grid.X.size, u, rows, index) is None
    got = _grid.table_inverse(cdf, u, rows=rows, flat=flat, index=index)
    want = _grid.table_inverse(cdf, u, rows=rows, flat=flat)
    np.testing.assert_array_equal(got, want)
    assert got[0, 0] == 0.25 and np.isclose(got[1, 0], np.sqrt(0.5))
