"""Goodness of fit of the models against scipy."""


from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

import scorestd
from scorestd.errors import ScorestdError, ScorestdWarning


def test_goodness_of_fit_against_scipy(adhoc8_ap):
    c = scorestd.goodness_of_fit(adhoc8_ap, ["normal", "beta"])
    x = adhoc8_ap.sel(topic="t04", measure="ap").values
    mu, sd = x.mean(), x.std(ddof=1)
    # Reference: scipy's one-sample KS statistic against the same fitted normal.
    ks = stats.kstest(x, stats.norm(mu, sd).cdf).statistic
    assert float(c.data["distance"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(ks, abs=1e-12)
    n = x.size
    squeezed = (x * (n - 1) + 0.5) / n
    ll = stats.norm.logpdf(squeezed, mu, sd).sum()
    assert float(c.data["loglik"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(ll)
    assert float(c.data["aic"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(4 - 2 * ll)
    cvm = scorestd.goodness_of_fit(adhoc8_ap, ["normal"], distance="cvm")
    # Reference: scipy's Cramér–von Mises statistic.
    want = stats.cramervonmises(x, stats.norm(mu, sd).cdf).statistic
    assert float(cvm.data["distance"].sel(model="normal", topic="t04", measure="ap")) == \
        pytest.approx(want)
    wins = c.wins("aic").sel(measure="ap")
    assert int(wins.sum()) == adhoc8_ap.sizes["topic"]
    summary = c.summary()
    assert summary.loc[("beta", "ap"), "wins_aic"] == int(wins.sel(model="beta"))


def test_discrete_measures_give_no_range_warning():
    # The densities are compared at scores moved off 0 and 1: for P@10 and RR those are
    # off the measure's support by construction, which is no fault of the user's data.
    cube = scorestd.datasets.load("adhoc8").sel(measure=["p10", "rr"])
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScorestdWarning)
        c = scorestd.goodness_of_fit(cube, ["normal", "beta"])
    assert np.isfinite(c.data["loglik"]).any()


def test_goodness_of_fit_rejects_the_z_score_and_bad_distance(adhoc8_ap):
    with pytest.raises(ScorestdError, match="'z' is not a cdf"):
        scorestd.goodness_of_fit(adhoc8_ap, ["normal", "z"])
    with pytest.raises(ValueError, match="distance must be one of 'ks', 'cvm'"):
        scorestd.goodness_of_fit(adhoc8_ap, ["normal"], distance="ad")


