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
    titles = [ax.get_title() for ax in fig.axes[:-1]]
    assert titles == ["normal", "uniform", "empirical", "raw", "normal", "uniform", "empirical"]
    assert fig.axes[-1].get_ylabel() == "topic mean raw ndcg"  # the colour key of the top row
    raw_means = fig.axes[3].collections[-1].get_offsets()[:, 1]
    assert (np.diff(raw_means) >= 0).all()
    with pytest.raises(ScoreDataError, match="unknown measure 'p10'"):
        scorestd.plot_standardization(robust2004, measure="p10")


def _extent(artist, renderer):
    return artist.get_window_extent(renderer)


def test_figure1_title_sits_above_the_panel_titles_and_inside_the_figure(adhoc8_ap):
    fig = scorestd.plot_standardization(adhoc8_ap)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    title = _extent(fig._suptitle, renderer)
    panels = [_extent(ax.title, renderer) for ax in fig.axes[:3]]
    assert title.y0 >= max(p.y1 for p in panels)  # no overlap with the panel titles
    assert title.y1 <= fig.bbox.y1 and title.x0 >= 0
    # the colour bar spans the topic means, the key of the mapping lines' colours
    low, high = fig.axes[-1].get_ylim()
    means = adhoc8_ap.mean("system").values[:, 0]
    assert (low, high) == pytest.approx((means.min(), means.max()))


def test_distributions_have_a_key_of_dot_box_and_whiskers_that_hides_nothing(adhoc8_ap):
    ax = scorestd.plot_topic_distributions(adhoc8_ap)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["5–95 % of systems", "25–75 %", "mean"]
    fig = scorestd.plot_standardization(adhoc8_ap)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    keys = [leg for sub in fig.subfigs for leg in sub.legends]
    assert len(keys) == 1  # one key for the row of distributions, none per panel
    assert [t.get_text() for t in keys[0].get_texts()] == labels
    key = _extent(keys[0], renderer)
    assert key.y0 >= 0 and key.x0 >= 0 and key.x1 <= fig.bbox.x1
    for ax in fig.axes[3:7]:  # under the panels' axis labels
        assert ax.get_legend() is None
        assert key.y1 <= _extent(ax.xaxis.label, renderer).y0


@pytest.mark.parametrize("models", [["normal"], ["normal", "uniform", "empirical"]])
def test_figure1_labels_stay_inside_the_saved_figure(adhoc8_ap, models):
    # With one model the figure is narrow: margins set as fractions of its width clipped
    # the y labels on the left and the colour bar's label on the right.
    fig = scorestd.plot_standardization(adhoc8_ap, models)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    texts = [ax.yaxis.label for ax in fig.axes] + [ax.xaxis.label for ax in fig.axes]
    texts += [t for ax in fig.axes for t in ax.get_yticklabels() if t.get_text()]
    for text in texts:
        box = _extent(text, renderer)
        assert box.x0 >= 0 and box.x1 <= fig.bbox.x1, text.get_text()
        assert box.y0 >= 0 and box.y1 <= fig.bbox.y1, text.get_text()
