"""Bayesian-bootstrap kernels against plain loops."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd.kernels.bayesian_bootstrap import (
    bootstrap_ecdf,
    bootstrap_location_scale,
    dirichlet_weights,
)

rows = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 7)),
              elements=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0, np.nan]))


@given(rows, st.integers(0, 2**32 - 1))
def test_weighted_ecdf_is_the_plain_weighted_count(ref, seed):
    present = ~np.isnan(ref)
    if not present.any(axis=1).all():
        ref = np.where(present.any(axis=1, keepdims=True), ref, 0.5)
        present = ~np.isnan(ref)
    rng = np.random.default_rng(seed)
    w = np.stack([dirichlet_weights(rng, 5, p) for p in present], axis=1)  # (D, N, R)
    x = np.concatenate([ref, rng.random((ref.shape[0], 3))], axis=1)
    right = bootstrap_ecdf(x, ref, w)
    mid = bootstrap_ecdf(x, ref, w, ties="mid")
    for d in range(w.shape[0]):
        for n in range(ref.shape[0]):
            r, wn = ref[n], w[d, n]
            for s, value in enumerate(x[n]):
                if np.isnan(value):
                    assert np.isnan(right[d, n, s])
                    continue
                le = np.nansum(np.where(r <= value, wn, 0.0))
                lt = np.nansum(np.where(r < value, wn, 0.0))
                assert abs(right[d, n, s] - le) < 1e-12
                assert abs(mid[d, n, s] - (le + lt) / 2) < 1e-12
    finite = ~np.isnan(right)
    assert ((right[finite] >= 0) & (right[finite] <= 1)).all()


def test_weighted_moments_are_the_plain_sums():
    rng = np.random.default_rng(4)
    ref = rng.random((3, 6))
    ref[1, 2] = np.nan
    w = np.stack([dirichlet_weights(rng, 4, ~np.isnan(r)) for r in ref], axis=1)
    mean, sd = bootstrap_location_scale(ref, w)
    for d in range(4):
        for n in range(3):
            keep = ~np.isnan(ref[n])
            r, wn = ref[n][keep], w[d, n][keep]
            m = (wn * r).sum()
            v = (wn * (r - m) ** 2).sum() * (keep.sum() + 1) / (keep.sum() - 1)
            assert abs(mean[d, n, 0] - m) < 1e-12
            assert abs(sd[d, n, 0] - np.sqrt(v)) < 1e-12


def test_weights_do_not_depend_on_how_many_are_drawn_at_once():
    present = np.array([True, False, True, True])
    one = dirichlet_weights(np.random.default_rng(7), 6, present)
    rng = np.random.default_rng(7)
    two = np.concatenate([dirichlet_weights(rng, 2, present),
                          dirichlet_weights(rng, 4, present)])
    np.testing.assert_array_equal(one, two)
    # Dirichlet(1, ..., 1): mean weight 1/R over many draws
    many = dirichlet_weights(np.random.default_rng(8), 20_000, present)
    np.testing.assert_allclose(many[:, present].mean(axis=0), 1 / 3, atol=0.01)
