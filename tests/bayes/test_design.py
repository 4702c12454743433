"""Assurance: power averaged over the uncertainty about the variance."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import integrate, stats

import scorestd
from scorestd.errors import OptionError


def test_assurance_is_the_integral_of_power_over_the_scaled_inverse_chi2():
    power = scorestd.power_function("paired_t", variance=1.0)

    def integrand(v):  # reference: scipy quad over the density of sigma^2 = df s^2 / chi2_df
        df, s2 = 12.0, 0.04
        density = stats.invgamma.pdf(v, df / 2, scale=df * s2 / 2)
        return power(0.1 / np.sqrt(v), 40, 0.05) * density

    ref, _ = integrate.quad(integrand, 1e-6, 2.0, limit=200)
    got = scorestd.assurance(variance=0.04, df=12, min_diff=0.1, n_topics=40)
    assert got == pytest.approx(ref, abs=1e-5)


def test_certain_variance_gives_the_power_and_draws_the_monte_carlo_average():
    power = scorestd.power_function("anova", variance=0.02, n_systems=5)(0.15, 30, 0.05)
    a = scorestd.assurance(test="anova", variance=0.02, df=1e8, min_diff=0.15, n_topics=30,
                           n_systems=5)
    assert a == pytest.approx(power, abs=1e-5)
    rng = np.random.default_rng(1)
    draws = 12 * 0.04 / rng.chisquare(12, 20_000)
    mc = scorestd.assurance(variance_draws=draws, min_diff=0.1, n_topics=40)
    quad = scorestd.assurance(variance=0.04, df=12, min_diff=0.1, n_topics=40)
    assert mc == pytest.approx(quad, abs=0.005)


def test_assurance_from_scores_uses_the_design_variance_and_its_df(adhoc8_ap):
    ap = adhoc8_ap.isel(topic=slice(0, 10), system=slice(0, 6))
    v = scorestd.design_variance(ap, "paired_t").sel(measure="ap")
    got = scorestd.assurance(ap, min_diff=0.1, n_topics=50).sel(measure="ap")
    ref = scorestd.assurance(variance=float(v), df=int(v.df), min_diff=0.1, n_topics=50)
    assert float(got) == pytest.approx(ref)
    assert int(v.df) == 45  # (10 - 1)(6 - 1)


def test_topic_set_size_is_the_smallest_n_reaching_the_assurance():
    res = scorestd.assurance_topic_set_size(variance=0.04, df=15, min_diff=0.1, beta=0.2)
    n = int(res.n_topics)
    a = lambda k: scorestd.assurance(variance=0.04, df=15, min_diff=0.1, n_topics=k)  # noqa: E731
    assert a(n) >= 0.8 > a(n - 1)
    assert int(res.n_topics_classical) == scorestd.topic_set_size(
        variance=0.04, min_diff=0.1, method="exact")
    assert float(res.assurance_classical) == pytest.approx(a(int(res.n_topics_classical)))
    assert n > int(res.n_topics_classical)  # an uncertain variance needs more topics
    more = scorestd.assurance_topic_set_size(variance=0.04, df=200, min_diff=0.1)
    assert int(res.n_topics_classical) <= int(more.n_topics) <= n


def test_over_measures_with_scores(robust2004):
    res = scorestd.assurance_topic_set_size(robust2004.isel(topic=slice(0, 20)),
                                            test="anova", min_diff=0.1, n_systems=10)
    assert res["n_topics"].dims == ("measure",) and res["n_topics"].dtype == np.int64
    assert bool((res.n_topics >= res.n_topics_classical).all())


@pytest.mark.parametrize(("kwargs", "message"), [
    ({}, "give exactly one of"),
    ({"variance": 0.04}, "needs df="),
    ({"variance": 0.04, "df": 10, "variance_draws": [0.1, 0.2]}, "exactly one of"),
    ({"variance_draws": [0.1, -0.2]}, "variance_draws must be"),
    ({"variance": 0.04, "df": 0}, "df must be a finite number > 0"),
    ({"variance": 0.04, "df": 10, "test": "ci"}, "test must be one of"),
    ({"variance": 0.04, "df": 10, "alpha": 1.5}, "alpha must be strictly between"),
])
def test_bad_input_is_named(kwargs, message):
    with pytest.raises(OptionError, match=message):
        scorestd.assurance(min_diff=0.1, n_topics=30, **kwargs)
