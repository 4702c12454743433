"""Variance estimates for design, against statsmodels' ANOVA and plain loops."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import statsmodels.formula.api as smf
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from statsmodels.stats.anova import anova_lm

import scorestd
from scorestd.design.variance import anova_residual, estimate_variance
from scorestd.errors import ScoreDataError, ScorestdWarning


def _statsmodels_residual(x2d: np.ndarray) -> tuple[float, float]:
    """Residual SS and df of ols("score ~ C(topic) + C(system)") + anova_lm."""
    t, s = np.indices(x2d.shape)
    frame = pd.DataFrame({"score": x2d.ravel(), "topic": t.ravel(), "system": s.ravel()})
    table = anova_lm(smf.ols("score ~ C(topic) + C(system)", data=frame).fit())
    return float(table.loc["Residual", "sum_sq"]), float(table.loc["Residual", "df"])


def test_residual_variance_equals_statsmodels_anova(adhoc8_ap):
    sub = adhoc8_ap.isel(system=slice(0, 40))
    ss, df = _statsmodels_residual(sub.sel(measure="ap").values)
    got = estimate_variance(sub).sel(measure="ap")
    assert got.item() == pytest.approx(ss / df, rel=1e-10)
    assert int(got["df"]) == df
    res = anova_residual(sub).sel(measure="ap")
    assert float(res["ss"]) == pytest.approx(ss, rel=1e-10)


def test_pooled_variance_is_sum_ss_over_sum_df(robust2004, small_cube):
    a = robust2004.sel(measure=["ap"]).isel(topic=slice(0, 40), system=slice(0, 15))
    b = small_cube.sel(measure=["ap"])
    ss_a, df_a = _statsmodels_residual(a.sel(measure="ap").values)
    ss_b, df_b = _statsmodels_residual(b.sel(measure="ap").values)
    got = estimate_variance([a, b]).sel(measure="ap")
    assert got.item() == pytest.approx((ss_a + ss_b) / (df_a + df_b), rel=1e-10)
    assert int(got["df"]) == df_a + df_b


def test_pooling_over_collections_with_different_measures(small_cube):
    only_ap = small_cube.sel(measure=["ap"])
    got = estimate_variance([small_cube, only_ap])
    assert got.sel(measure="ap").item() == pytest.approx(
        estimate_variance(small_cube).sel(measure="ap").item())
    assert got.sel(measure="ndcg").item() == pytest.approx(
        estimate_variance(small_cube).sel(measure="ndcg").item())


def test_within_system_equals_one_way_anova(small_cube):
    x = small_cube.sel(measure="ap").values
    s = np.indices(x.shape)[1]
    frame = pd.DataFrame({"score": x.ravel(), "system": s.ravel()})
    table = anova_lm(smf.ols("score ~ C(system)", data=frame).fit())
    expected = table.loc["Residual", "mean_sq"]
    got = estimate_variance(small_cube, kind="within_system").sel(measure="ap").item()
    assert got == pytest.approx(expected, rel=1e-10)


def _plain_paired(x: np.ndarray) -> float:
    """Pooled variance of paired differences with pairwise deletion, one pair at a time."""
    ss = df = 0.0
    for j, k in itertools.combinations(range(x.shape[1]), 2):
        d = x[:, j] - x[:, k]
        d = d[~np.isnan(d)]
        if d.size >= 2:
            ss += float(np.sum((d - d.mean()) ** 2))
            df += d.size - 1
    return ss / df


def test_paired_difference_with_missing_scores_matches_plain_loop(small_cube):
    x = small_cube.sel(measure="ap").values.copy()
    x[0, 1] = x[3, 4] = x[5, 1] = np.nan
    c = scorestd.cube(x)
    got = estimate_variance(c, kind="paired_difference")
    assert got.item() == pytest.approx(_plain_paired(x), rel=1e-10)


@given(arrays(np.float64, st.tuples(st.integers(2, 8), st.integers(2, 7)),
              elements=st.floats(0, 1)))
def test_paired_difference_is_twice_the_residual_on_complete_data(x):
    c = scorestd.cube(x)
    resid = estimate_variance(c).item()
    paired = estimate_variance(c, kind="paired_difference").item()
    assert paired == pytest.approx(2 * resid, rel=1e-9, abs=1e-12)
    assert paired == pytest.approx(_plain_paired(x), rel=1e-9, abs=1e-12)


@given(
    arrays(np.float64, (6, 4), elements=st.floats(0, 1)),
    arrays(np.float64, (6, 1), elements=st.floats(-5, 5)),
    arrays(np.float64, (1, 4), elements=st.floats(-5, 5)),
    st.floats(0.1, 10),
)
def test_residual_ignores_additive_effects_and_scales_quadratically(x, topic, system, c):
    base = estimate_variance(scorestd.cube(x)).item()
    shifted = estimate_variance(scorestd.cube(x + topic + system)).item()
    scaled = estimate_variance(scorestd.cube(c * x)).item()
    assert shifted == pytest.approx(base, rel=1e-7, abs=1e-9)
    assert scaled == pytest.approx(c * c * base, rel=1e-9, abs=1e-12)


def test_incomplete_topics_are_dropped_with_a_warning(small_cube):
    x = small_cube.sel(measure="ap").values.copy()
    x[2, 3] = np.nan
    with pytest.warns(ScorestdWarning, match="1 topic"):
        got = estimate_variance(scorestd.cube(x)).item()
    ss, df = _statsmodels_residual(np.delete(x, 2, axis=0))
    assert got == pytest.approx(ss / df, rel=1e-10)


def test_mapping_of_schemes_gives_a_scheme_dim(small_cube):
    got = estimate_variance({"raw": small_cube, "scaled": [2 * small_cube]})
    assert got.dims == ("scheme", "measure")
    assert got.sel(scheme="scaled").values == pytest.approx(4 * got.sel(scheme="raw").values)


@pytest.mark.parametrize("shape,what", [((5, 1), "two systems"), ((1, 5), "two topics")])
def test_too_few_systems_or_topics(shape, what):
    c = scorestd.cube(np.ones(shape), attrs={"collection": "tiny"})
    with pytest.raises(ScoreDataError, match=f"'tiny'.*{what}"):
        estimate_variance(c)


def test_bad_kind_lists_choices(small_cube):
    with pytest.raises(ValueError, match="'residual', 'paired_difference', 'within_system'"):
        estimate_variance(small_cube, kind="total")


def test_mapping_and_schemes_together_is_an_error(small_cube):
    with pytest.raises(scorestd.ScorestdError, match="not both"):
        estimate_variance({"raw": small_cube}, schemes=["raw"])


def test_raw_scheme_needs_no_standardization(small_cube):
    got = estimate_variance(small_cube, schemes=["raw"])
    xr.testing.assert_allclose(got.sel(scheme="raw", drop=True), estimate_variance(small_cube))


def test_schemes_standardize_each_collection_first(robust2004):
    # The reference: standardize by hand with scorestd.standardize, then the plain estimate.
    got = estimate_variance(robust2004, schemes=["raw", "N", "U", "E"])
    assert got.dims == ("scheme", "measure")
    for scheme, model in [("N", "normal"), ("U", "uniform"), ("E", "empirical")]:
        by_hand = estimate_variance(scorestd.standardize(robust2004, model=model))
        np.testing.assert_allclose(got.sel(scheme=scheme).values, by_hand.values, rtol=1e-12)
    np.testing.assert_allclose(got.sel(scheme="raw").values,
                               estimate_variance(robust2004).values)


def test_unknown_scheme_is_named(small_cube):
    with pytest.raises(scorestd.ScorestdError, match="unknown scheme 'Q'"):
        estimate_variance(small_cube, schemes=["raw", "Q"])


@pytest.mark.parametrize("kind", ["residual", "paired_difference", "within_system"])
def test_dask_backed_cube_gives_the_same_estimate(robust2004, kind):
    lazy = robust2004.chunk({"topic": 33})
    xr.testing.assert_allclose(estimate_variance(lazy, kind=kind),
                               estimate_variance(robust2004, kind=kind))
