"""bayes_standardize: the Bayesian bootstrap of E-std, N-std and z-std."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import scorestd
from scorestd.bayes import standardization as bs
from scorestd.errors import OptionError, ScoreDataError, ScorestdError, ScorestdWarning
from scorestd.models import Empirical


@pytest.fixture(scope="module")
def ap(adhoc8_ap):
    return adhoc8_ap.isel(topic=slice(0, 8), system=slice(0, 40))


def test_posterior_mean_of_e_std_is_e_std(ap):
    draws = 4000
    post = scorestd.bayes_standardize(ap, draws=draws, seed=3)
    xr.testing.assert_equal(post["estimate"], scorestd.standardize(ap, "empirical"))
    # Monte Carlo error of each cell's mean: sd / sqrt(draws)
    err = np.abs(post["mean"] - post["estimate"]) / (post["sd"] / np.sqrt(draws))
    assert float(err.where(post["sd"] > 0).max()) < 5.0
    assert float(np.abs(post["mean"] - post["estimate"]).max()) < 0.01


def test_n_std_draws_come_from_the_weighted_moments(ap):
    post = scorestd.bayes_standardize(ap, "N", draws=3000, seed=1, output="draws")
    assert post["draws"].dims == ("draw", "topic", "system", "measure")
    # the posterior mean of sigma_w^2 is the n - 1 variance: check through the z draws
    z = scorestd.bayes_standardize(ap, "z", draws=3000, seed=1, output="draws")["draws"]
    x = ap.sel(measure="ap").values
    zz = z.sel(measure="ap").values  # (D, T, S): (x - mu_w) / sigma_w
    sd_w = (x[None, :, 0] - x[None, :, 1]) / (zz[:, :, 0] - zz[:, :, 1])
    np.testing.assert_allclose((sd_w**2).mean(axis=0), x.var(axis=1, ddof=1), rtol=0.05)
    # the same weights give N-std = Phi(z)
    from scipy import stats

    np.testing.assert_allclose(post["draws"].values, stats.norm.cdf(z.values), atol=1e-12)


def test_same_seed_same_draws_however_the_topics_are_blocked(ap, monkeypatch):
    whole = scorestd.bayes_standardize(ap, draws=200, seed=9, output="draws")
    monkeypatch.setattr(bs, "BLOCK_BYTES", 1)  # one topic at a time
    xr.testing.assert_identical(scorestd.bayes_standardize(ap, draws=200, seed=9,
                                                           output="draws"), whole)
    summary = scorestd.bayes_standardize(ap, draws=200, seed=9, ci_prob=0.8)
    np.testing.assert_allclose(summary["mean"], whole["draws"].mean("draw"))
    np.testing.assert_allclose(summary["ci_high"], whole["draws"].quantile(0.9, "draw")
                               .drop_vars("quantile"))


def test_new_systems_against_a_reference_and_mid_ties(ap):
    ref, new = ap.isel(system=slice(0, 30)), ap.isel(system=slice(30, 40))
    post = scorestd.bayes_standardize(new, Empirical(ties="mid"), reference=ref, draws=300,
                                      seed=2)
    expected = scorestd.standardize(new, Empirical(ties="mid"), reference=ref)
    xr.testing.assert_equal(post["estimate"], expected)
    assert float(np.abs(post["mean"] - post["estimate"]).max()) < 0.05
    assert bool(((post.ci_low >= 0) & (post.ci_high <= 1)).all())


def test_missing_scores_stay_missing_and_degenerate_topics_have_no_spread(ap):
    x = ap.copy()
    x[1, 3, 0] = np.nan
    x[2, :, 0] = 0.0  # every system scores 0 on topic 3
    with pytest.warns(ScorestdWarning, match="all reference systems score the same"):
        post = scorestd.bayes_standardize(x, draws=100, seed=1)
    assert np.isnan(post["mean"].values[1, 3, 0])
    np.testing.assert_array_equal(post["sd"].values[2], 0.0)
    np.testing.assert_array_equal(post["mean"].values[2], post["estimate"].values[2])


def test_bad_input_is_named(ap):
    with pytest.raises(ScorestdError, match="supports the models"):
        scorestd.bayes_standardize(ap, "uniform")
    with pytest.raises(ScoreDataError, match="reference has no topic"):
        scorestd.bayes_standardize(ap, reference=ap.isel(topic=slice(0, 4)))
    with pytest.raises(OptionError, match="output must be one of"):
        scorestd.bayes_standardize(ap, output="intervals")
    with pytest.raises(OptionError, match="draws must be an integer"):
        scorestd.bayes_standardize(ap, draws=0)
    empty = ap.copy()
    empty[0, :, 0] = np.nan
    with pytest.raises(ScoreDataError, match="no system with a score for topic 't01'"):
        scorestd.bayes_standardize(ap, reference=empty)


def test_draws_that_do_not_fit_the_memory_budget_are_refused_before_any_work():
    import time

    robust = scorestd.datasets.load("robust2004")
    start = time.perf_counter()
    with pytest.raises(scorestd.OptionError, match=r"need 34\.8 GB, over the memory budget of 268\.4 MB "
                       r"\(memory='256MiB'\); use draws <= 770,"):
        scorestd.bayes_standardize(robust, draws=100000, output="draws", seed=1,
                                   memory="256MiB")
    assert time.perf_counter() - start < 5  # refused up front, not after sampling
    with pytest.raises(scorestd.OptionError, match=r"memory budget of 1\.0 MB \(memory=.1MiB.\)"):
        scorestd.bayes_standardize(robust, draws=10, output="draws", memory="1MiB")
    small = robust.isel(topic=slice(0, 3), system=slice(0, 5))
    out = scorestd.bayes_standardize(small, draws=10, output="draws", seed=1, memory="1MiB")
    assert out["draws"].shape == (10, 3, 5, 2)
