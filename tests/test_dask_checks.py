"""A dask-backed cube gets the value checks of a numpy-backed one, when it is computed.

``validate`` keeps the cube lazy (nothing is computed to check it); the checks run on
each block as dask computes it, with the same errors and warnings, naming the cell.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorestd
from scorestd.errors import ScoreDataError, ScorestdWarning

pytest.importorskip("dask")


@pytest.fixture(scope="module")
def ap():
    return scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30), topic=slice(0, 20))


@settings(deadline=None, max_examples=25)
@given(topic=st.integers(0, 19), system=st.integers(0, 29), chunk=st.integers(1, 30),
       value=st.sampled_from([np.inf, -np.inf]))
def test_an_infinite_score_is_the_same_error_on_both_backends(ap, topic, system, chunk, value):
    bad = ap.copy()
    bad[topic, system, 0] = value
    with pytest.raises(ScoreDataError) as eager:
        scorestd.validate(bad)
    lazy = scorestd.validate(bad.chunk({"system": chunk}))  # nothing computed yet
    assert type(lazy.data).__module__.startswith("dask")
    with pytest.raises(ScoreDataError) as computed:
        scorestd.aggregate(lazy).compute()
    assert str(computed.value) == str(eager.value)


def test_out_of_range_scores_warn_when_computed_and_raise_with_strict(ap):
    percent = (ap * 100).chunk({"system": 10})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lazy = scorestd.validate(percent)
    assert not caught  # lazily: nothing computed, nothing said yet
    with pytest.warns(ScorestdWarning, match=r"'ap' scores? outside \[0, 1\]"):
        result = scorestd.aggregate(lazy).compute()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        expected = scorestd.aggregate(ap * 100)
    np.testing.assert_allclose(result.values, expected.values)
    with pytest.raises(ScoreDataError, match=r"outside \[0, 1\]"):
        scorestd.validate(percent, strict=True).compute()


def test_valid_dask_cube_computes_to_the_numpy_answer(ap):
    lazy = ap.chunk({"system": 7, "topic": 6})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScorestdWarning)
        got = scorestd.aggregate(lazy).compute()
    expected = scorestd.aggregate(ap)
    np.testing.assert_allclose(got.values, expected.values, rtol=1e-12)
    assert got.attrs == expected.attrs
