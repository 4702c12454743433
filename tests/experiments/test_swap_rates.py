"""Swap rates against a plain loop over trials, sizes and pairs."""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import scorestd
from scorestd.errors import ScoreDataError, ScorestdError
from scorestd.experiments.engine import draw_trials
from scorestd.experiments.swap_rates import swap_rate


@pytest.fixture(scope="module")
def sub(adhoc8_ap):
    return adhoc8_ap.isel(system=slice(0, 10))


def _plain(x, perms, sizes, width, n_bins):
    pairs = np.zeros((len(sizes), n_bins), dtype=int)
    swaps = np.zeros_like(pairs)
    for perm in perms:
        for s, n in enumerate(sizes):
            a, b = x[perm[:n]].mean(axis=0), x[perm[n:2 * n]].mean(axis=0)
            for i, j in itertools.combinations(range(x.shape[1]), 2):
                da, db = a[i] - a[j], b[i] - b[j]
                k = min(int(np.floor(abs(da) / width + 1e-9)), n_bins - 1)
                pairs[s, k] += 1
                swaps[s, k] += da * db < 0
    return pairs, swaps


def test_counts_equal_a_plain_loop(sub):
    res = swap_rate(sub, sizes=[5, 12, 25], trials=15, seed=11, bin_width=0.02, batch_size=4)
    x = sub.sel(measure="ap").values
    perms = draw_trials(11, 15, lambda rng: rng.permutation(50))
    n_bins = res.data.sizes["bin"]
    pairs, swaps = _plain(x, perms, [5, 12, 25], 0.02, n_bins)
    np.testing.assert_array_equal(res.data["pairs"].sel(scheme="raw").values, pairs)
    np.testing.assert_array_equal(res.data["swaps"].sel(scheme="raw").values, swaps)
    assert pairs.sum(axis=1).tolist() == [15 * 45] * 3


def test_same_seed_same_answer_whatever_the_batch_size(sub):
    a = swap_rate(sub, sizes=[10], trials=30, seed=2, batch_size=7)
    b = swap_rate(sub, sizes=[10], trials=30, seed=2, batch_size=30)
    np.testing.assert_array_equal(a.data["swaps"].values, b.data["swaps"].values)


def test_min_diff_is_first_bin_from_which_all_rates_are_below_threshold(sub):
    res = swap_rate(sub, sizes=[5, 20], trials=40, seed=4, schemes=["raw", "E"])
    for scheme in ("raw", "E"):
        for n in (5, 20):
            rate = res.data["swap_rate"].sel(scheme=scheme, n=n).values
            low = res.data["bin_low"].values
            d = res.data["min_diff"].sel(scheme=scheme, n=n).item()
            k = round(d / 0.01)
            assert low[k] == pytest.approx(d)
            after = rate[k:][~np.isnan(rate[k:])]
            assert after.size and (after < 0.05).all()
            if k > 0:  # the bin just before is observed and at or above the threshold
                assert rate[k - 1] >= 0.05


def test_more_topics_need_smaller_differences(sub):
    res = swap_rate(sub, sizes=[5, 25], trials=100, seed=9)
    d = res.summary()["raw"]
    assert d.loc[25] < d.loc[5]


def test_bad_input(sub):
    with pytest.raises(ScorestdError, match="half the topics"):
        swap_rate(sub, sizes=[30], trials=2)
    x = sub.sel(measure="ap").values.copy()
    x[3, 2] = np.nan
    with pytest.raises(ScoreDataError, match="missing scores"):
        swap_rate(scorestd.cube(x), trials=2)
    with pytest.raises(ScoreDataError, match="two systems"):
        swap_rate(sub.isel(system=[0]), trials=2)


def test_plot(sub):
    fig = swap_rate(sub, sizes=[5, 10], trials=5, seed=1).plot()
    assert len(fig.axes[0].lines) == 3  # two sizes and the threshold
    plt.close(fig)


@given(arrays(np.float64, (12, 5), elements=st.floats(0, 1)),
       arrays(np.float64, (12, 1), elements=st.floats(-2, 2)),
       st.permutations(range(5)))
def test_swap_counts_ignore_topic_effects_and_system_order(x, topic_effect, order):
    from scorestd.kernels.swap_rate import swap_counts

    perms = np.array([np.arange(12), np.arange(12)[::-1], np.roll(np.arange(12), 5)])
    sizes = np.array([2, 6])
    # A topic effect shifts every system alike; relabelling the systems permutes the pairs
    # (|d| and the swap decision of a pair do not depend on which system comes first).
    # Scores on a 1/64 grid keep every sum exact, so the counts must agree exactly.
    xq = np.round(x * 64) / 64
    tq = np.round(topic_effect * 64) / 64
    base = swap_counts(xq[None], perms, sizes, 0.05, 10)
    shifted = swap_counts((xq + tq)[None], perms, sizes, 0.05, 10)
    relabelled = swap_counts(xq[None][..., list(order)], perms, sizes, 0.05, 10)
    for other in (shifted, relabelled):
        np.testing.assert_array_equal(other["swaps"], base["swaps"])
        np.testing.assert_array_equal(other["pairs"], base["pairs"])
