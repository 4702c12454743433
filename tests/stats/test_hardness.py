"""Topic hardness (Equations 1, 2 and 1 − max) and the Hard/Easy, Middle/Rest splits."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy.stats import kendalltau

from scorestd import aggregate, cube, topic_hardness, topic_split
from scorestd.errors import ScoreDataError, ScorestdWarning
from scorestd.kernels.hardness import split_sizes, topic_hardness_kernel
from scorestd.stats.hardness import HardEasySplit, MiddleRestSplit


def test_hardness_matches_plain_formulas(small_cube):
    x = small_cube.sel(measure="ap").values  # (topic, system)
    z = topic_hardness(small_cube).sel(measure="ap").values
    for t in range(x.shape[0]):
        row = list(x[t])
        mean = sum(row) / len(row)
        sd = (sum((v - mean) ** 2 for v in row) / (len(row) - 1)) ** 0.5
        assert z[t] == pytest.approx((max(row) - mean) / sd, rel=1e-12)  # Equation 2
    np.testing.assert_allclose(topic_hardness(small_cube, "mean").sel(measure="ap"),
                               1 - x.mean(axis=1))
    np.testing.assert_allclose(topic_hardness(small_cube, "max").sel(measure="ap"),
                               1 - x.max(axis=1))


def test_hardness_labels_and_two_d(small_cube):
    h = topic_hardness(small_cube.sel(measure="ndcg"), "mean")
    assert h.dims == ("topic",) and h.name == "hardness"
    assert h.attrs["hardness_method"] == "mean"


def test_hardness_nan_policy(small_cube):
    holed = small_cube.copy()
    holed[2, 1, 0] = np.nan
    assert np.isnan(topic_hardness(holed).sel(topic="t3", measure="ap"))
    lenient = topic_hardness(holed, skipna=True).sel(topic="t3", measure="ap")
    row = np.delete(small_cube.values[2, :, 0], 1)
    assert lenient == pytest.approx((row.max() - row.mean()) / row.std(ddof=1))
    with pytest.raises(ScoreDataError, match="hardness is NaN for topics t3"):
        topic_split(holed, measure="ap")


def test_degenerate_topic_policy():
    c = cube([[0.2, 0.2, 0.2], [0.1, 0.5, 0.3], [0.0, 0.9, 0.1]], topics=["a", "b", "c"])
    with pytest.warns(ScorestdWarning, match="undefined .* for topics a"):
        h = topic_hardness(c)
    assert np.isnan(h.sel(topic="a")).all()
    h0 = topic_hardness(c, degenerate="zero")
    assert float(h0.sel(topic="a").item()) == 0.0
    hard, easy = topic_split(c, degenerate="zero")
    assert hard.tolist() == ["c"] and easy.tolist() == ["a", "b"]


def test_split_sizes_generalise_the_paper(reference):
    # Ravana & Moffat (2009), section 5.4: for 50 topics, Hard/Easy is 25 against 25 and
    # Middle/Rest is the middle 25 against the 12 hardest and 13 easiest.
    quoted = reference("ravana_moffat2009_text")["split_sizes_for_50_topics"]
    assert split_sizes(quoted["topics"], "hard_easy") == tuple(quoted["hard_easy"])
    assert split_sizes(quoted["topics"], "middle_rest") == tuple(quoted["middle_rest"])
    for t in range(2, 200):
        for kind in ("hard_easy", "middle_rest"):
            for extra in ("easy", "hard"):
                n_hard, n_middle, n_easy = split_sizes(t, kind, extra)
                assert n_hard + n_middle + n_easy == t
                first = n_hard if kind == "hard_easy" else n_middle
                assert {first, t - first} == {t // 2, t - t // 2}
                assert abs(n_hard - n_easy) <= (1 if kind == "middle_rest" else t % 2)
    with pytest.raises(ValueError, match="at least 2 topics"):
        split_sizes(1, "hard_easy")


@given(arrays(np.float64, st.tuples(st.integers(2, 30), st.integers(2, 6)),
              elements=st.floats(0, 1)), st.sampled_from(["hard_easy", "middle_rest"]),
       st.sampled_from(["mean", "max"]), st.sampled_from(["easy", "hard"]), st.randoms())
def test_split_is_a_partition_by_hardness_and_ignores_topic_order(x, kind, method, extra, rnd):
    c = cube(x, topics=[f"q{i:02d}" for i in range(x.shape[0])])
    first, second = topic_split(c, kind, method=method, extra=extra)
    assert sorted([*first, *second]) == sorted(c.topic.values.tolist())
    assert len(first) in (x.shape[0] // 2, x.shape[0] - x.shape[0] // 2)
    h = topic_hardness(c, method).squeeze("measure").to_series()
    if kind == "hard_easy":  # every hard topic is at least as hard as every easy one
        assert h[list(first)].min() >= h[list(second)].max()
    else:  # the middle sits between the hardest and the easiest of the rest
        n_hard, _, n_easy = split_sizes(x.shape[0], kind, extra)
        rest = h[list(second)].sort_values(ascending=False).to_numpy()
        middle = h[list(first)]
        if n_hard:
            assert middle.max() <= rest[:n_hard].min()
        if n_easy:
            assert middle.min() >= rest[n_hard:].max()
    permuted = c.isel(topic=rnd.sample(range(x.shape[0]), x.shape[0]))
    again = topic_split(permuted, kind, method=method, extra=extra)
    assert sorted(again[0]) == sorted(first)


def test_ties_are_broken_by_topic_label():
    # Four equally hard topics: the split takes them in label order.
    c = cube(np.tile([[0.1, 0.5]], (4, 1)), topics=["d", "b", "a", "c"])
    hard, easy = topic_split(c, method="mean")
    assert isinstance(hard, np.ndarray)
    assert sorted(hard) == ["a", "b"] and sorted(easy) == ["c", "d"]


def test_split_types_and_measure_choice(small_cube):
    split = topic_split(small_cube, "middle_rest", measure="ndcg")
    assert isinstance(split, MiddleRestSplit) and len(split.middle) == 6
    assert isinstance(topic_split(small_cube, measure="ap"), HardEasySplit)
    with pytest.raises(ValueError, match="pick one with measure="):
        topic_split(small_cube)
    with pytest.raises(ValueError, match="kind must be one of 'hard_easy', 'middle_rest'"):
        topic_split(small_cube, "random", measure="ap")


def test_kernel_over_a_batch_matches_slices():
    rng = np.random.default_rng(3)
    x = rng.random((4, 10, 7))
    batch = topic_hardness_kernel(x, axis=-1)
    for b in range(4):
        np.testing.assert_allclose(batch[b], topic_hardness_kernel(x[b], axis=-1))


# Ravana & Moffat (2009), Table 3(c), TREC8 (t = 50, s = 129), AP, Kendall's τ between
# the system orderings of the two halves of the Hard/Easy and Middle/Rest splits
# (tests/results/ravana_moffat2009_table3c.csv; ε as printed in the table's rows).
@pytest.mark.parametrize("kind", ["hard_easy", "middle_rest"])
@pytest.mark.parametrize("method", ["am", "egm", "gm_trec_eval"])
def test_table3c_hard_easy_and_middle_rest_tau(adhoc8_ap, reference, kind, method):
    row = reference("ravana_moffat2009_table3c").set_index(["scores", "aggregation"])
    row = row.loc[("AP", method)]
    eps = None if np.isnan(row["eps"]) else float(row["eps"])
    first, second = topic_split(adhoc8_ap, kind)
    a = aggregate(adhoc8_ap.sel(topic=first), method, eps=eps).sel(measure="ap")
    b = aggregate(adhoc8_ap.sel(topic=second), method, eps=eps).sel(measure="ap")
    tau = kendalltau(a.values, b.values).statistic  # τ_b, scipy's default
    assert round(tau, 3) == row[kind]


def test_hardness_on_dask_cube(small_cube):
    lazy = topic_hardness(small_cube.chunk({"topic": 4}))
    xr.testing.assert_allclose(lazy.compute(), topic_hardness(small_cube))
