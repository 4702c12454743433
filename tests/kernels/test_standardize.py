"""The standardization kernels against plain-loop references written here."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

from scorestd.kernels import standardize as k


def plain_ecdf(x, ref, ties):
    """One value at a time: #{ref <= x} / n, or the mid-rank variant."""
    out = np.full(x.shape, np.nan)
    for index in np.ndindex(x.shape[:-1]):
        r = ref[index]
        r = r[~np.isnan(r)]
        for j, v in enumerate(x[index]):
            if np.isnan(v) or r.size == 0:
                continue
            le, lt = np.sum(r <= v), np.sum(r < v)
            out[(*index, j)] = le / r.size if ties == "right" else (le + lt) / (2 * r.size)
    return out


# Scores on a coarse grid so that ties are frequent, with some NaN.
grid_scores = st.one_of(st.integers(0, 6).map(lambda i: i / 6), st.just(np.nan))


@given(
    ref=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 8)),
                   elements=grid_scores),
    n_x=st.integers(1, 6),
    data=st.data(),
    ties=st.sampled_from(["right", "mid"]),
)
def test_ecdf_matches_plain_loop(ref, n_x, data, ties):
    x = data.draw(hnp.arrays(np.float64, (*ref.shape[:-1], n_x), elements=grid_scores))
    np.testing.assert_allclose(k.ecdf(x, ref, ties=ties), plain_ecdf(x, ref, ties))
    # The one-sort route for x is ref gives the same as the merged sort.
    np.testing.assert_allclose(k.ecdf(ref, ref, ties=ties), plain_ecdf(ref, ref, ties))
    np.testing.assert_allclose(k.ecdf(ref.copy(), ref, ties=ties), plain_ecdf(ref, ref, ties))


def test_ecdf_broadcasts_a_batch_of_x_against_one_reference():
    rng = np.random.default_rng(3)
    ref = rng.random((4, 9))
    x = rng.random((2, 4, 5))
    np.testing.assert_allclose(k.ecdf(x, ref), plain_ecdf(x, np.broadcast_to(ref, (2, 4, 9)),
                                                          "right"))


def test_ecdf_rejects_unknown_ties():
    with pytest.raises(ValueError, match="ties must be one of 'right', 'mid'; got 'left'"):
        k.ecdf(np.zeros((1, 2)), np.zeros((1, 2)), ties="left")


@given(ref=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 12)),
                      elements=st.floats(0, 1) | st.just(np.nan)))
def test_location_scale_matches_plain_loop(ref):
    n, mean, sd = k.location_scale(ref)
    for t, row in enumerate(ref):
        present = row[~np.isnan(row)]
        assert n[t, 0] == present.size
        if present.size:
            assert mean[t, 0] == pytest.approx(sum(present) / present.size, abs=1e-12)
        if present.size > 1:
            assert sd[t, 0] == pytest.approx(np.std(present, ddof=1), abs=1e-12)
        else:
            assert np.isnan(sd[t, 0])


def test_transforms_against_scipy():
    rng = np.random.default_rng(11)
    ref = rng.beta(2, 5, size=(3, 20))
    x = rng.random((3, 7))
    mu = ref.mean(axis=1, keepdims=True)  # reference: plain numpy moments
    sd = ref.std(axis=1, ddof=1, keepdims=True)
    z = (x - mu) / sd
    _, mean, sd_k = k.location_scale(ref)
    np.testing.assert_allclose(k.zscore(x, mean, sd_k), z)
    np.testing.assert_allclose(k.normal_cdf(x, mean, sd_k), stats.norm.cdf(z))
    np.testing.assert_allclose(k.uniform_cdf(x, mean, sd_k, 0.2, 0.4),
                               np.clip(0.2 * z + 0.4, 0, 1))
    a, b = k.uniform_bounds(mu, sd, 0.2, 0.4)
    # The uniform cdf on [a, b] (scipy's parametrisation loc=a, scale=b-a) is U-std.
    np.testing.assert_allclose(k.uniform_cdf(x, mean, sd_k, 0.2, 0.4),
                               stats.uniform.cdf(x, loc=a, scale=b - a))


@pytest.mark.parametrize(("A", "B"), [(0.0, 0.5), (-1.0, 0.5), (0.15, 1.5)])
def test_uniform_rejects_bad_slope_or_intercept(A, B):
    with pytest.raises(ValueError, match="U-std"):
        k.uniform_cdf(np.zeros((1, 2)), 0.5, 0.1, A, B)
