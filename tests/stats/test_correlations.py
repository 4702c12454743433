"""Labelled correlation: system matching, batch dims, per-topic input, bad input."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from scipy import stats

import scorestd
from scorestd import ScoreDataError
from scorestd.stats.correlations import CORRELATIONS


@pytest.fixture(scope="module")
def halves():
    ap = scorestd.datasets.load("robust2004")
    return ap.isel(topic=slice(0, 50)), ap.isel(topic=slice(50, 99))


def test_per_topic_input_averaged_and_matches_scipy(halves):
    first, second = halves
    tau = scorestd.correlation(first, second, "tau_b")
    assert tau.dims == ("measure",) and tau.name == "tau_b"
    for m in ("ap", "ndcg"):
        a = first.sel(measure=m).mean("topic").values
        b = second.sel(measure=m).mean("topic").values
        assert tau.sel(measure=m).item() == pytest.approx(stats.kendalltau(a, b).statistic)
        rho = scorestd.correlation(first, second, "spearman").sel(measure=m).item()
        assert rho == pytest.approx(stats.spearmanr(a, b).statistic)


def test_systems_matched_by_label(halves):
    first, second = halves
    a, b = first.mean("topic"), second.mean("topic")
    shuffled = b.isel(system=np.random.default_rng(0).permutation(b.sizes["system"]))
    for method in CORRELATIONS:
        xr.testing.assert_allclose(scorestd.correlation(a, b, method),
                                   scorestd.correlation(a, shuffled, method))
    with pytest.raises(ScoreDataError, match="differ in systems"):
        scorestd.correlation(a, b.isel(system=slice(0, 20)))


def test_batch_dim_and_symmetry():
    rng = np.random.default_rng(1)
    coords = {"trial": range(5), "system": [f"s{k}" for k in range(30)]}
    a = xr.DataArray(rng.random((5, 30)), dims=("trial", "system"), coords=coords)
    b = xr.DataArray(rng.random((5, 30)), dims=("trial", "system"), coords=coords)
    t = scorestd.correlation(a, b, "tau_ap_b")
    assert t.dims == ("trial",)
    xr.testing.assert_allclose(t, scorestd.correlation(b, a, "tau_ap_b"))
    assert scorestd.correlation(a, a, "tau_ap").values.tolist() == [1.0] * 5


def test_bad_input(halves):
    first, _ = halves
    with pytest.raises(ValueError, match="method must be one of"):
        scorestd.correlation(first, first, "kendall_w")
    with pytest.raises(ScoreDataError, match="no 'system' dim"):
        scorestd.correlation(first.mean("system"), first)
    with pytest.raises(TypeError, match="DataArray"):
        scorestd.correlation(first.values, first)
