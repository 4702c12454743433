"""netCDF storage of score cubes (attrs preserved)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import xarray as xr

from ..errors import ScoreDataError
from ..score_cube import validate
from ._common import existing_file

__all__ = ["read_netcdf", "write_netcdf"]

_ATTR_SCALARS = (str, int, float, np.integer, np.floating)


def write_netcdf(scores: xr.DataArray, path: str | os.PathLike) -> Path:
    """Write a cube to a netCDF-4 file.

    Attribute values must be strings, numbers or lists of them (what netCDF can
    store); anything else is an error naming the attribute.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> c = cube([[0.5, float("nan")]], topics=["401"], systems=["a", "b"],
    ...          attrs={"collection": "demo"})
    >>> p = write_netcdf(c, pathlib.Path(tempfile.mkdtemp()) / "demo.nc")
    >>> read_netcdf(p).identical(c)
    True
    """
    c = validate(scores, check_range=False)  # a writer writes what it is given
    for key, value in c.attrs.items():
        if not _storable(value):
            raise ScoreDataError(
                f"attribute {key!r} holds a {type(value).__name__}, which netCDF cannot store "
                "(use a string, a number or a list of them)"
            )
    out = Path(path)
    c.to_netcdf(out, engine="netcdf4")
    return out


def read_netcdf(path: str | os.PathLike) -> xr.DataArray:
    """Read a cube written by :func:`write_netcdf` (or any netCDF with the cube's dims).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> p = write_netcdf(cube([[0.5]]), pathlib.Path(tempfile.mkdtemp()) / "one.nc")
    >>> read_netcdf(p).sizes["system"]
    1
    """
    p = existing_file(path)
    try:
        with xr.open_dataarray(p, engine="netcdf4") as da:
            loaded = da.load()
    except (OSError, ValueError) as exc:
        raise ScoreDataError(f"cannot read as a netCDF score cube: {exc}", path=p) from None
    return validate(loaded, what=str(p))


def _storable(value: object) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, _ATTR_SCALARS):
        return True
    if isinstance(value, list | tuple | np.ndarray):
        items = list(np.asarray(value).ravel()) if isinstance(value, np.ndarray) else list(value)
        return len(items) > 0 and all(
            isinstance(v, _ATTR_SCALARS) and not isinstance(v, bool) for v in items
        )
    return False
