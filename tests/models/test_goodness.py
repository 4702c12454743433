"""Goodness of fit of the models against scipy."""


from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from scipy import stats
from scipy.special import ndtr

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




def _kernel(a: float, b: float, h: float) -> float:
    """Gaussian kernel at ``b`` reflected about 0 and 1, evaluated at ``a``."""
    return sum(math.exp(-0.5 * ((a - s) / h) ** 2) for s in (b, -b, 2 - b)) / (
        h * math.sqrt(2 * math.pi))


def _kernel_mass(b: float, h: float) -> float:
    """Mass of that kernel on [0, 1]."""
    return (ndtr((1 - b) / h) + ndtr((1 + b) / h) + ndtr((b - 1) / h) - 1.0
            - ndtr((b - 2) / h))


def test_kde_aic_uses_the_trace_of_its_smoothing_matrix():
    # reference: a plain loop over one topic's scores, the reflected Gaussian kernels
    # written out; k = Σ_i K(x_i, x_i) / Σ_j K(x_i, x_j), AIC = 2k − 2 loglik
    ap = scorestd.datasets.load("adhoc8_ap").isel(topic=slice(0, 3), system=slice(0, 40))
    c = scorestd.goodness_of_fit(ap, ["kde"])
    for t in range(3):
        x = ap.isel(topic=t, measure=0).values
        n = len(x)
        q75, q25 = np.percentile(x, [75, 25])
        sd = x.std(ddof=1)
        spread = min(sd, (q75 - q25) / 1.34)
        h = 0.9 * (spread if spread > 0 else sd) * n ** -0.2
        y = (x * (n - 1) + 0.5) / n  # squeezed off the bounds, as goodness_of_fit does

        total = sum(_kernel_mass(b, h) for b in x) / n
        k, loglik = 0.0, 0.0
        for i in range(n):
            dens = sum(_kernel(y[i], b, h) for b in x)
            k += _kernel(y[i], x[i], h) / dens
            loglik += math.log(dens / n / total)
        got = c.data.isel(topic=t, measure=0).sel(model="kde")
        assert float(got["params"]) == pytest.approx(k, rel=1e-9)
        assert float(got["loglik"]) == pytest.approx(loglik, rel=1e-9)
        assert float(got["aic"]) == pytest.approx(2 * k - 2 * loglik, rel=1e-9)
        assert 1 <= k <= n
    assert "effective number" in c.summary().loc[("kde", "ap"), "note"]
