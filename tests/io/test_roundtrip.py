"""Round trips cube → file → cube are identical, for hypothesis-generated cubes."""

from __future__ import annotations

import numpy as np
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import scorestd
from scorestd.io import read_long_csv, read_netcdf, write_long_csv, write_netcdf

# Unicode labels without control characters or surrounding blanks (CSV cells are stripped
# of those when they are labels, and netCDF strings cannot hold NUL).
label = st.text(
    alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=8
).map(str.strip).filter(bool)


@st.composite
def cubes(draw):
    shape = draw(st.tuples(st.integers(1, 5), st.integers(1, 5), st.integers(1, 3)))
    values = draw(arrays(np.float64, shape, elements=st.one_of(
        st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False), st.just(np.nan))))
    names = [draw(st.lists(label, min_size=n, max_size=n, unique=True)) for n in shape]
    names[2] = [f"x:{m}" for m in names[2]]  # no known measure: any value is in range
    attrs = draw(st.dictionaries(st.sampled_from(["collection", "source", "note"]),
                                 st.one_of(label, st.integers(-10, 10)), max_size=3))
    return scorestd.cube(values, topics=names[0], systems=names[1], measures=names[2], attrs=attrs)


@given(cubes())
def test_netcdf_round_trip_is_identical(tmp_path_factory, c):
    path = tmp_path_factory.mktemp("nc") / "c.nc"
    back = read_netcdf(write_netcdf(c, path))
    xr.testing.assert_identical(back, c)


@given(cubes())
def test_long_csv_round_trip_is_identical(tmp_path_factory, c):
    path = tmp_path_factory.mktemp("csv") / "c.csv"
    back = read_long_csv(write_long_csv(c, path))
    xr.testing.assert_identical(back, c)
