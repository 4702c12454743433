"""The labelled layer gives the same numbers on numpy- and dask-backed cubes.

Every function that wraps a kernel with ``xr.apply_ufunc(..., dask="parallelized")`` is
called on the cube as the ``backend`` fixture hands it over and compared with the same
call on the numpy cube; on dask the result must still be lazy where the function promises
a DataArray or Dataset of the same backend.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import scorestd


@pytest.fixture(scope="module")
def cube():
    rng = np.random.default_rng(20261122)
    values = np.round(rng.beta(1.5, 3.0, size=(30, 8, 2)), 3)
    return scorestd.cube(values, measures=["ap", "ndcg"], attrs={"collection": "synthetic"})


def _prior(cube):
    return cube.isel(topic=slice(0, 10)).assign_coords(topic=[f"p{i}" for i in range(10)])


LAZY_CALLS = {
    "standardize empirical": lambda c: scorestd.standardize(c),
    "standardize normal against a reference": lambda c: scorestd.standardize(
        c, "normal", reference=c.isel(system=slice(0, 5))),
    "standardize kde": lambda c: scorestd.standardize(c, "kde"),
    "aggregate gm": lambda c: scorestd.aggregate(c, "gm"),
    "aggregate egm": lambda c: scorestd.aggregate(c, "egm", eps=0.01),
    "rank_systems": lambda c: scorestd.rank_systems(c),
    "topic_hardness": lambda c: scorestd.topic_hardness(c),
    "smooth": lambda c: scorestd.smooth(c, _prior(c), alpha=0.5),
    "compare paired_t": lambda c: scorestd.compare(c, "paired_t", correction="holm"),
    "compare wilcoxon": lambda c: scorestd.compare(c, "wilcoxon", baseline="s1"),
    "compare_unpaired": lambda c: scorestd.compare_unpaired(c.isel(topic=slice(0, 15)),
                                                            c.isel(topic=slice(15, 30))),
    "correlation": lambda c: scorestd.correlation(c.isel(topic=slice(0, 15)),
                                                  c.isel(topic=slice(15, 30)), "tau_ap_b"),
}


@pytest.mark.parametrize("call", list(LAZY_CALLS))
def test_same_numbers_and_lazy_on_dask(call, cube, backend):
    expected = LAZY_CALLS[call](cube)
    got = LAZY_CALLS[call](backend(cube))
    if backend(cube).chunks is not None:
        data = got.data if isinstance(got, xr.DataArray) else got[next(iter(got.data_vars))].data
        assert type(data).__module__.startswith("dask"), f"{call} computed eagerly"
    xr.testing.assert_allclose(got.compute(), expected, rtol=1e-12, atol=1e-15)


def test_pair_tables_have_the_same_columns_on_numpy_and_dask(cube):
    # one measure selected: its scalar coordinate leads the table on either path
    pytest.importorskip("dask")
    one = cube.sel(measure="ap")
    tables = [scorestd.compare(c, "paired_t").to_dataframe() for c in (one, one.chunk())]
    assert list(tables[0].columns) == list(tables[1].columns)
    assert list(tables[0].columns)[:2] == ["measure", "statistic"]


EAGER_CALLS = {
    "fraction_significant": lambda c: scorestd.fraction_significant(
        scorestd.compare(c).p_value, [0.01, 0.05]),
    "adjust_pvalues": lambda c: scorestd.adjust_pvalues(scorestd.compare(c).p_value, "bh"),
    "tukey_hsd": lambda c: scorestd.tukey_hsd(c),
    "estimate_variance": lambda c: scorestd.estimate_variance(c),
    "topic_split": lambda c: xr.DataArray(np.concatenate(
        scorestd.topic_split(c, measure="ap"))),
    "standardization_factors": lambda c: scorestd.standardization_factors(c),
}


@pytest.mark.parametrize("call", list(EAGER_CALLS))
def test_same_numbers_on_dask(call, cube, backend):
    got = EAGER_CALLS[call](backend(cube))
    xr.testing.assert_allclose(got.compute() if hasattr(got, "compute") else got,
                               EAGER_CALLS[call](cube), rtol=1e-12, atol=1e-15)
