"""The Figure-1 plots: mappings and per-topic distributions."""


from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import scorestd
from scorestd.errors import ScoreDataError


def test_mapping_plot_draws_the_fitted_cdf(adhoc8_ap):
    ax = scorestd.plot_mapping(adhoc8_ap, "normal")
    segments = ax.collections[0].get_segments()
    assert len(segments) == adhoc8_ap.sizes["topic"]
    x, y = segments[0][:, 0], segments[0][:, 1]
    r = adhoc8_ap.isel(topic=0, measure=0).values
    np.testing.assert_allclose(y, stats.norm.cdf(x, r.mean(), r.std(ddof=1)))
    points = ax.collections[1].get_offsets()
    assert len(points) == adhoc8_ap.sizes["topic"] * adhoc8_ap.sizes["system"]


def test_distribution_plot_orders_topics_by_mean_raw_score(adhoc8_ap):
    ax = scorestd.plot_topic_distributions(adhoc8_ap)
    means = ax.collections[-1].get_offsets()[:, 1]
    assert (np.diff(means) >= 0).all()
    np.testing.assert_allclose(np.sort(means), np.sort(adhoc8_ap.mean("system").values[:, 0]))


def test_figure1_plot_shares_the_topic_order(robust2004):
    fig = scorestd.plot_standardization(robust2004, measure="ndcg")
    titles = [ax.get_title() for ax in fig.axes]
    assert titles == ["normal", "uniform", "empirical", "raw", "normal", "uniform", "empirical"]
    raw_means = fig.axes[3].collections[-1].get_offsets()[:, 1]
    assert (np.diff(raw_means) >= 0).all()
    with pytest.raises(ScoreDataError, match="unknown measure 'p10'"):
        scorestd.plot_standardization(robust2004, measure="p10")
