"""Labelled aggregation and ranking: labels, dims, NaN, bad input, dask."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy.stats import gmean, hmean, rankdata

from scorestd import aggregate, rank_systems
from scorestd.errors import ScoreDataError, ScorestdWarning


def test_aggregate_matches_scipy_on_bundled_data(adhoc8_ap):
    x = adhoc8_ap.sel(measure="ap").values  # (topic, system)
    np.testing.assert_allclose(aggregate(adhoc8_ap, "am").sel(measure="ap"), x.mean(axis=0))
    np.testing.assert_allclose(aggregate(adhoc8_ap, "md").sel(measure="ap"),
                               np.median(x, axis=0))
    # scipy's geometric mean of the ε-shifted scores, minus ε (Robertson's εGM).
    np.testing.assert_allclose(aggregate(adhoc8_ap, "egm", eps=0.01).sel(measure="ap"),
                               gmean(x + 0.01, axis=0) - 0.01, rtol=1e-12)
    np.testing.assert_allclose(aggregate(adhoc8_ap, "ehm", eps=0.1).sel(measure="ap"),
                               hmean(x + 0.1, axis=0) - 0.1, rtol=1e-12)
    np.testing.assert_allclose(aggregate(adhoc8_ap, "gm_trec_eval").sel(measure="ap"),
                               gmean(np.maximum(x, 1e-5), axis=0), rtol=1e-12)


def test_result_keeps_labels_and_says_what_it_is(small_cube):
    got = aggregate(small_cube, "egm")
    assert got.dims == ("system", "measure")
    assert got.name == "egm"
    assert got.attrs["aggregation"] == "egm" and got.attrs["eps"] == 0.01
    assert got.attrs["collection"] == "synthetic"
    assert got.sel(system="s3", measure="ndcg") == pytest.approx(
        np.exp(np.log(small_cube.sel(system="s3", measure="ndcg").values + 0.01).mean()) - 0.01)


def test_two_d_input_gives_two_d_shaped_result(small_cube):
    two_d = small_cube.sel(measure="ap")
    got = aggregate(two_d, "gm")
    assert got.dims == ("system",)
    np.testing.assert_allclose(got, gmean(two_d.values, axis=0))


def test_dataframe_input():
    wide = pd.DataFrame({"a": [0.2, 0.4], "b": [0.1, 0.3]},
                        index=pd.Index(["q1", "q2"], name="topic"))
    got = aggregate(wide, "am")
    assert got.sel(system="a").item() == pytest.approx(0.3)


def test_any_dim_by_keyword(small_cube):
    per_topic = aggregate(small_cube, "am", dim="system")
    assert per_topic.dims == ("topic", "measure")
    np.testing.assert_allclose(per_topic.values, small_cube.values.mean(axis=1))
    with pytest.raises(ValueError, match="dim must be one of 'topic'"):
        aggregate(small_cube, dim="trial")


def test_nan_policy(small_cube):
    holed = small_cube.copy()
    holed[3, 2, 0] = np.nan
    strict = aggregate(holed, "egm")  # package default skipna=False: NaN propagates
    assert np.isnan(strict.sel(system="s3", measure="ap"))
    assert np.isfinite(strict.sel(system="s3", measure="ndcg"))
    lenient = aggregate(holed, "egm", skipna=True)
    present = np.delete(small_cube.values[:, 2, 0], 3)
    assert lenient.sel(system="s3", measure="ap") == pytest.approx(
        np.exp(np.log(present + 0.01).mean()) - 0.01)


def test_negative_scores_name_the_system(small_cube):
    bad = small_cube.copy()
    bad[5, 4, 1] = -0.25
    for method in ("gm", "egm", "gm_trec_eval", "hm", "ehm"):
        with pytest.raises(ScoreDataError, match=rf"{method} needs non-negative scores: system "
                                                 r"'s5' has -0.25 at topic 't6', measure 'ndcg'"), \
                pytest.warns(ScorestdWarning, match=r"'ndcg' score outside \[0, 1\]"):
            aggregate(bad, method)
    with pytest.warns(ScorestdWarning, match=r"-0.25 at topic 't6', system 's5'"):
        assert np.isfinite(aggregate(bad, "am")).all()


def test_harmonic_mean_with_zero_is_undefined(adhoc8_ap):
    with pytest.raises(ScoreDataError, match=r"hm: the harmonic mean is undefined.*system 'run"):
        aggregate(adhoc8_ap, "hm")
    with pytest.warns(ScorestdWarning, match="undefined"):
        got = aggregate(adhoc8_ap, "hm", zeros="nan").sel(measure="ap")
    has_zero = (adhoc8_ap.sel(measure="ap") == 0).any("topic")
    assert bool(has_zero.any()) and bool((~has_zero).any())
    assert np.isnan(got.where(has_zero, drop=True)).all()
    np.testing.assert_allclose(got.where(~has_zero, drop=True),
                               hmean(adhoc8_ap.sel(measure="ap").values[:, ~has_zero.values],
                                     axis=0))


def test_dask_backed_cube_gives_the_same_numbers(small_cube):
    chunked = small_cube.chunk({"system": 2, "topic": 5})
    for method in ("am", "egm", "md", "gm_trec_eval"):
        lazy = aggregate(chunked, method)
        assert lazy.chunks is not None
        xr.testing.assert_allclose(lazy.compute(), aggregate(small_cube, method))
    ranks = rank_systems(chunked, "egm")
    xr.testing.assert_equal(ranks.compute(), rank_systems(small_cube, "egm"))


def test_dask_negative_score_is_caught_by_the_kernel(small_cube):
    bad = small_cube.copy()
    bad[0, 0, 0] = -1.0
    # the range check of the block warns as the values are computed, then the kernel refuses
    with pytest.warns(ScorestdWarning, match="outside"), \
            pytest.raises(ScoreDataError, match="gm needs non-negative"):
        aggregate(bad.chunk({"system": 3}), "gm").compute()


def test_rank_systems_orders_by_aggregate(adhoc8_ap):
    ranks = rank_systems(adhoc8_ap, "egm").sel(measure="ap")
    means = aggregate(adhoc8_ap, "egm").sel(measure="ap").values
    np.testing.assert_array_equal(ranks.values, rankdata(-means, method="min"))
    best = ranks.system.values[ranks.values == 1]
    assert best.tolist() == [adhoc8_ap.system.values[np.argmax(means)]]
    assert ranks.attrs["ties"] == "min" and ranks.name == "rank"


def test_rank_tie_rules():
    s = xr.DataArray([[0.5, 0.2, 0.2, 0.1]], dims=("topic", "system"),
                     coords={"topic": ["q"], "system": list("abcd")})
    assert rank_systems(s).values.tolist() == [1, 2, 2, 4]
    assert rank_systems(s, ties="average").values.tolist() == [1, 2.5, 2.5, 4]
    assert rank_systems(s, ties="dense").values.tolist() == [1, 2, 2, 3]
    assert rank_systems(s, ties="ordinal").values.tolist() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="ties must be one of 'min'"):
        rank_systems(s, ties="first")


def test_rank_systems_accepts_aggregated_scores_and_nan(small_cube):
    agg = aggregate(small_cube, "am")
    agg[1, 0] = np.nan
    ranks = rank_systems(agg)
    assert np.isnan(ranks[1, 0]) and sorted(ranks[:, 0].dropna("system").values) == [1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match="cannot rank systems"):
        rank_systems(small_cube, dim="system")
