"""Fits combined in one analysis must be fits of the same data: compare_likelihoods
refuses fits of another collection, measure, topics, systems or scores, naming the first
difference (never a LOO comparison of unrelated fits)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorestd
from scorestd.errors import ScoreDataError, ScorestdWarning

FIT = {"chains": 1, "draws": 60, "warmup": 30, "seed": 1, "progress": False}


def _fit(cube, likelihood="normal"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)  # short chains
        return scorestd.bayes_crossed(cube, likelihood=likelihood, **FIT)


@pytest.fixture(scope="module")
def cubes():
    adhoc = scorestd.datasets.load("adhoc8").isel(system=slice(0, 4), topic=slice(0, 12))
    return {"ap": adhoc.sel(measure=["ap"]), "p10": adhoc.sel(measure=["p10"])}


@pytest.fixture(scope="module")
def base(cubes):
    return _fit(cubes["ap"])


def _compare(fits):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        return scorestd.compare_likelihoods(fits)


def test_fits_of_the_same_data_are_compared(cubes, base):
    res = _compare({"normal": base, "censored": _fit(cubes["ap"], "censored")})
    assert sorted(res.table.index) == ["censored", "normal"]


@pytest.mark.parametrize("change, named", [
    (lambda c: c["p10"], r"measure 'p10' against 'ap'"),
    (lambda c: c["ap"].isel(topic=slice(0, 10)), r"10 topics against 12; e\.g\. topic "
                                                 r"'t\d+' is in one only"),
    (lambda c: c["ap"].isel(system=[0, 1, 3, 2]), r"the same systems in another order"),
    (lambda c: c["ap"].assign_coords(system=["a", "b", "c", "d"]),
     r"other systems; e\.g\. system 'a' is in one only"),
    (lambda c: c["ap"].copy(data=np.where(np.arange(4)[:, None] == 2, 0.5, c["ap"].values)),
     r"12 scores differ, e\.g\. topic 't\d+', system 'run3': 0\.5 against"),
    (lambda c: c["ap"].assign_attrs(collection="robust2004"),
     r"collection 'robust2004' against 'adhoc8'"),
], ids=["measure", "topics", "system order", "system labels", "scores", "collection"])
def test_fits_of_different_data_are_refused_naming_the_difference(cubes, base, change,
                                                                   named):
    other = _fit(change(cubes))
    with pytest.raises(ScoreDataError, match=r"compare_likelihoods: fits\['other'\] and "
                                             r"fits\['base'\] were fitted to different "
                                             r"data: " + named):
        _compare({"base": base, "other": other})
