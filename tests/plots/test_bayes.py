"""Figures of the Bayesian analyses."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import scorestd
from scorestd.errors import ScorestdError


@pytest.fixture(scope="module")
def fit(adhoc8_ap):
    return scorestd.bayes_crossed(adhoc8_ap.isel(system=slice(0, 7)), chains=2, draws=500,
                                  warmup=200, seed=3)


def test_forest_plot_draws_each_interval(fit, tmp_path):
    ax = scorestd.plot_system_effects(fit, ci_prob=0.9, path=tmp_path / "f.png")
    eff = fit.system_effects(ci_prob=0.9)
    segments = ax.collections[0].get_segments()
    assert len(segments) == 7
    widths = sorted(s[1, 0] - s[0, 0] for s in segments)
    np.testing.assert_allclose(widths, sorted((eff.ci_high - eff.ci_low).values))
    top = max(ax.get_yticklabels(), key=lambda t: t.get_position()[1])
    assert top.get_text() == fit.summary().index[0]  # best on top
    assert (tmp_path / "f.png").stat().st_size > 0
    plt.close("all")


def test_pair_heat_map_is_antisymmetric(fit, adhoc8_ap):
    ax = scorestd.plot_pair_probabilities(fit)
    m = np.asarray(ax.images[0].get_array())
    off = ~np.eye(7, dtype=bool)
    np.testing.assert_allclose((m + m.T)[off], 1.0)
    closed = scorestd.bayes_compare(adhoc8_ap.isel(system=slice(0, 7)))
    assert np.asarray(scorestd.plot_pair_probabilities(closed).images[0].get_array()).shape \
        == (7, 7)
    with pytest.raises(ScorestdError, match="prob_greater"):
        scorestd.plot_pair_probabilities(closed.drop_vars("prob_greater"))
    plt.close("all")


def test_differences_and_ranks(fit, adhoc8_ap):
    closed = scorestd.bayes_compare(adhoc8_ap.isel(system=slice(0, 7)))
    ax = scorestd.plot_posterior_differences(fit, [("run2", "run1")], rope=0.01,
                                             closed_form=closed)
    solid, dashed = ax.lines[0], ax.lines[1]
    assert dashed.get_linestyle() == "--" and solid.get_linestyle() == "-"
    a = fit.posterior["system_effect"].sel(system="run2") - \
        fit.posterior["system_effect"].sel(system="run1")
    x, y = solid.get_data()
    assert abs(x[np.argmax(y)] - float(a.median())) < 0.01
    with pytest.raises(scorestd.ScoreDataError, match="'nope' is not a system"):
        scorestd.plot_posterior_differences(fit, [("nope", "run1")])
    ranks = scorestd.plot_posterior_ranks(fit)
    np.testing.assert_allclose(np.asarray(ranks.images[0].get_array()).sum(axis=1), 1.0)
    with pytest.raises(ScorestdError, match="bayes_crossed"):
        scorestd.plot_posterior_ranks(closed)
    plt.close("all")
