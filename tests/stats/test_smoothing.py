"""Smoothing against partial prior scores (Ravana, Park & Moffat 2009, Equation 1)."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd import aggregate, cube, smooth
from scorestd.errors import ScoreDataError, ScorestdWarning
from scorestd.kernels.smoothing import prior_mean, smooth_kernel


def partial_prior(robust, seed=0):
    """Prior cube of robust2004 topics 51-99: each system run on its own random subset."""
    rng = np.random.default_rng(seed)
    prior = robust.isel(topic=slice(50, None)).copy()
    prior.values[rng.random(prior.shape) < 0.4] = np.nan
    return prior


def test_equation_1_against_a_plain_loop(robust2004):
    new = robust2004.isel(topic=slice(0, 25))
    prior = partial_prior(robust2004)
    got = smooth(new, prior, alpha=0.8)
    for s_i, system in enumerate(new.system.values[:15]):
        for m_i, measure in enumerate(new.measure.values):
            run = [v for v in prior.values[:, s_i, m_i] if not np.isnan(v)]
            mean = sum(run) / len(run)
            for q_i in range(0, 25, 6):
                want = 0.8 * new.values[q_i, s_i, m_i] + 0.2 * mean
                assert got.sel(system=system, measure=measure).values[q_i] == pytest.approx(want)
    assert got.dims == new.dims and got.attrs["smoothing_alpha"] == [0.8, 0.8]


def test_alpha_per_measure(robust2004):
    new = robust2004.isel(topic=slice(0, 10))
    prior = robust2004.isel(topic=slice(10, 40))
    by_dict = smooth(new, prior, alpha={"ap": 0.8, "ndcg": 0.5})
    by_array = smooth(new, prior, alpha=xr.DataArray([0.5, 0.8], dims="measure",
                                                     coords={"measure": ["ndcg", "ap"]}))
    xr.testing.assert_allclose(by_dict, by_array)
    alone = smooth(new.sel(measure=["ndcg"]), prior.sel(measure=["ndcg"]), alpha=0.5)
    xr.testing.assert_allclose(by_dict.sel(measure=["ndcg"]), alone, check_dim_order=False)
    with pytest.raises(ValueError, match="no value for measures ndcg"):
        smooth(new, prior, alpha={"ap": 0.8})
    # the keys name measures under any usual spelling (trec_eval's map, ir_measures' nDCG)
    xr.testing.assert_identical(smooth(new, prior, alpha={"map": 0.8, "nDCG": 0.5}), by_dict)
    with pytest.raises(ValueError, match=r"alpha must be in \[0, 1\], got 1.5 for measure 'ap'"):
        smooth(new, prior, alpha={"ap": 1.5, "ndcg": 0.5})


scores_2d = arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)),
                   elements=st.floats(0, 1))


@settings(max_examples=40)
@given(scores_2d, st.data())
def test_alpha_one_is_identity_and_alpha_zero_is_prior_mean(x, data):
    n_systems = x.shape[1]
    p = data.draw(arrays(np.float64, (data.draw(st.integers(1, 6)), n_systems),
                         elements=st.one_of(st.floats(0, 1), st.just(np.nan))))
    p[0] = np.where(np.isnan(p[0]), 0.5, p[0])  # every system has a prior score
    new = cube(x)
    prior = cube(p, topics=[f"p{i}" for i in range(p.shape[0])])
    np.testing.assert_array_equal(smooth(new, prior, alpha=1.0).values, new.values)
    at_zero = smooth(new, prior, alpha=0.0).values[:, :, 0]
    np.testing.assert_allclose(at_zero, np.broadcast_to(np.nanmean(p, axis=0), x.shape))
    a = data.draw(st.floats(0, 1))
    smoothed = smooth(new, prior, alpha=a).values[:, :, 0]
    # Every smoothed score lies between the new score and the prior mean.
    lo = np.minimum(x, np.nanmean(p, axis=0))
    hi = np.maximum(x, np.nanmean(p, axis=0))
    assert np.all(smoothed >= lo - 1e-12) and np.all(smoothed <= hi + 1e-12)


def test_mean_of_smoothed_scores_is_smoothed_mean(small_cube):
    # Aggregating smoothed scores with AM = α·AM(new) + (1 − α)·prior mean.
    new, prior = small_cube.isel(topic=slice(0, 6)), small_cube.isel(topic=slice(6, None))
    got = aggregate(smooth(new, prior, alpha=0.7))
    want = 0.7 * aggregate(new) + 0.3 * prior.mean("topic")
    xr.testing.assert_allclose(got, want, check_dim_order=False)


def test_missing_new_scores_stay_missing(small_cube):
    new = small_cube.isel(topic=slice(0, 6)).copy()
    new[0, 0, 0] = np.nan
    got = smooth(new, small_cube.isel(topic=slice(6, None)), alpha=0.0)
    assert np.isnan(got[0, 0, 0]) and np.isfinite(got[1, 0, 0])


def test_system_without_prior(small_cube):
    new = small_cube.isel(topic=slice(0, 6))
    prior = small_cube.isel(topic=slice(6, None)).copy()
    prior[:, 1, :] = np.nan  # s2 never run on a prior topic
    prior = prior.drop_sel(system="s4")  # s4 absent from the prior cube
    with pytest.raises(ScoreDataError, match="no prior scores for systems s2, s4"):
        smooth(new, prior, alpha=0.5)
    with pytest.warns(ScorestdWarning, match="systems s2, s4: left unsmoothed"):
        got = smooth(new, prior, alpha=0.5, missing_prior="unsmoothed")
    xr.testing.assert_equal(got.sel(system=["s2", "s4"]), new.sel(system=["s2", "s4"]))
    assert not np.allclose(got.sel(system="s1"), new.sel(system="s1"))
    assert got.attrs["smoothed_systems"] == 4
    with pytest.raises(ValueError, match="missing_prior must be one of 'raise', 'unsmoothed'"):
        smooth(new, prior, alpha=0.5, missing_prior="alpha1")


def test_prior_systems_missing_from_new_scores_are_ignored_with_a_note(small_cube):
    new = small_cube.isel(topic=slice(0, 6)).drop_sel(system=["s5", "s6"])
    prior = small_cube.isel(topic=slice(6, None))
    with pytest.warns(ScorestdWarning, match="prior systems not in the scores are ignored: s5, s6"):
        got = smooth(new, prior, alpha=0.5)
    assert got.system.values.tolist() == ["s1", "s2", "s3", "s4"]
    xr.testing.assert_allclose(got, smooth(new, prior.drop_sel(system=["s5", "s6"]), alpha=0.5))


def test_prior_measures(small_cube):
    new = small_cube.isel(topic=slice(0, 6))
    with pytest.raises(ScoreDataError, match="prior has no scores for measures ndcg"):
        smooth(new, small_cube.isel(topic=slice(6, None)).sel(measure=["ap"]), alpha=0.5)
    # 2-D on both sides: the measures they were selected from must agree; 2-D out.
    with pytest.raises(ScoreDataError, match="prior is of measure 'ndcg', the scores of 'ap'"):
        smooth(new.sel(measure="ap"), small_cube.isel(topic=slice(6, None)).sel(measure="ndcg"),
               alpha=0.5)
    got = smooth(new.sel(measure="ap"), small_cube.isel(topic=slice(6, None)).sel(measure="ap"),
                 alpha=0.5)
    assert got.dims == ("topic", "system")
    unlabelled = small_cube.isel(topic=slice(6, None)).sel(measure="ap").drop_vars("measure")
    assert smooth(new.sel(measure="ap"), unlabelled, alpha=0.5).identical(got)


def test_kernel_over_a_batch():
    rng = np.random.default_rng(1)
    x, p = rng.random((3, 5, 4)), rng.random((3, 7, 4))
    p[p < 0.3] = np.nan
    got = smooth_kernel(x, prior_mean(p), 0.6)
    for b in range(3):
        np.testing.assert_allclose(got[b], 0.6 * x[b] + 0.4 * np.nanmean(p[b], axis=0))


def test_dask_backed_cubes(small_cube):
    new, prior = small_cube.isel(topic=slice(0, 6)), small_cube.isel(topic=slice(6, None))
    lazy = smooth(new.chunk({"system": 2}), prior.chunk({"topic": 3}), alpha=0.8)
    xr.testing.assert_allclose(lazy.compute(), smooth(new, prior, alpha=0.8))


def test_standardized_scores_are_smoothed_too(robust2004):
    # The paper also smooths standardized AP: each side is standardized on its own
    # topics (here z-scores per topic across systems, which are negative for weak runs).
    def z(c):  # marked as standardized: no range check of AP against [0, 1]
        return ((c - c.mean("system")) / c.std("system", ddof=1)).assign_attrs(
            standardization="z")

    new, prior = z(robust2004.isel(topic=slice(0, 25))), z(partial_prior(robust2004))
    got = smooth(new, prior, alpha=0.5)
    assert float(got.min()) < 0
    want = 0.5 * new + 0.5 * prior.mean("topic", skipna=True)
    xr.testing.assert_allclose(got, want.transpose(*new.dims), check_dim_order=False)
