"""netCDF storage and format detection."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.io import detect_format, load, read_netcdf, save, write_netcdf


def test_netcdf_rejects_attrs_it_cannot_store(tmp_path):
    c = scorestd.cube([[0.5]], attrs={"flags": {"a": 1}})
    with pytest.raises(ScoreDataError, match="attribute 'flags' holds a dict"):
        write_netcdf(c, tmp_path / "x.nc")


def test_netcdf_errors_name_the_file(tmp_path):
    bad = tmp_path / "bad.nc"
    bad.write_text("not netcdf")
    with pytest.raises(ScoreDataError, match=r"bad\.nc: cannot read"):
        read_netcdf(bad)
    with pytest.raises(ScoreDataError, match=r"gone\.nc: no such file"):
        read_netcdf(tmp_path / "gone.nc")


def test_detect_and_load_every_format(tmp_path, small_cube):
    nc = save(small_cube, tmp_path / "c.nc")
    long_csv = save(small_cube, tmp_path / "c.csv")
    matrix = save(small_cube, tmp_path / "m_ap.csv", format="matrix", measure="ap")
    (tmp_path / "run.eval").write_text("map 1 0.5\nrunid all r\n")
    assert [detect_format(p) for p in (nc, long_csv, matrix, tmp_path / "run.eval")] == [
        "netcdf", "long", "matrix", "trec_eval"]
    xr.testing.assert_identical(load(nc), small_cube)
    xr.testing.assert_identical(load(long_csv), small_cube)
    np.testing.assert_array_equal(load(matrix).values, small_cube.sel(measure=["ap"]).values)
    assert load(tmp_path / "run.eval").item() == 0.5


def test_load_dataset_measure_and_unknown_source(tmp_path):
    assert load("robust2004", measure="ap").measure.values.tolist() == ["ap"]
    with pytest.raises(ScoreDataError, match="unknown measure 'p10'"):
        load("robust2004", measure="p10")
    with pytest.raises(ScoreDataError, match="no such file, and not a bundled dataset"):
        load(tmp_path / "nothing.csv")
