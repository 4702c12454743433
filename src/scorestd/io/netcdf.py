"""netCDF storage of score cubes (attrs preserved), with checksums verified on read.

The scores are written with HDF5's Fletcher-32 checksum on every chunk, and the cube's
content — labels and values — with a SHA-256 digest in ``attrs["scorestd_digest"]``.
:func:`read_netcdf` recomputes the digest, so a file damaged anywhere (a flipped byte in a
chunk, a label, an attribute) is an error naming it, never a cube with wrong numbers.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import xarray as xr

from ..dims import CUBE_DIMS, CUBE_NAME
from ..errors import ScoreDataError
from ..score_cube import validate
from ._common import existing_file
from .atomic import atomic_netcdf
from .paths import check_output_path

__all__ = ["DIGEST_ATTR", "content_digest", "read_netcdf", "write_netcdf"]

#: The attribute holding the content digest (``"sha256:<hex>"``); removed on reading.
DIGEST_ATTR = "scorestd_digest"

_ATTR_SCALARS = (str, int, float, np.integer, np.floating)


def write_netcdf(scores: xr.DataArray, path: str | os.PathLike) -> Path:
    """Write a cube to a netCDF-4 file, with checksums that :func:`read_netcdf` verifies.

    Attribute values must be strings, numbers or lists of them (what netCDF can
    store); anything else is an error naming the attribute. Extra dims (the ``trial`` of
    a simulated collection, a ``collection`` …) are written as they are. The scores are stored with
    Fletcher-32 chunk checksums and the content's SHA-256 digest
    (:func:`content_digest`) in ``attrs["scorestd_digest"]``. The file is written
    whole or not at all (:func:`scorestd.io.atomic.atomic_netcdf`): an error or Ctrl-C
    leaves the previous file as it was.

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
    c = validate(scores, check_range=False, extra_dims=True)  # written as given
    for key, value in c.attrs.items():
        if not _storable(value):
            raise ScoreDataError(
                f"attribute {key!r} holds a {type(value).__name__}, which netCDF cannot store "
                "(use a string, a number or a list of them)"
            )
    out = check_output_path(path, "netcdf")
    c = c.assign_attrs({DIGEST_ATTR: content_digest(c)})
    return atomic_netcdf(c, out, engine="netcdf4", encoding={CUBE_NAME: {"fletcher32": True}})


def content_digest(scores: xr.DataArray) -> str:
    """SHA-256 of a canonical cube's labels, values (little-endian float64) and attrs.

    The labels (or, when unlabelled, the size) of extra dims come first; a cube without
    extra dims has the digest it had before they were allowed.

    Examples
    --------
    >>> from scorestd import cube
    >>> content_digest(cube([[0.5]])) == content_digest(cube([[0.5]]))
    True
    >>> content_digest(cube([[0.5]])) == content_digest(cube([[0.25]]))
    False
    """
    h = hashlib.sha256()
    for dim in scores.dims[:-len(CUBE_DIMS)]:
        h.update(f"{dim}:".encode())
        labels = scores[dim].values.tolist() if dim in scores.coords else [scores.sizes[dim]]
        for label in labels:
            h.update(str(label).encode("utf-8") + b"\x00")
        h.update(b"\x01")
    for dim in CUBE_DIMS:
        for label in scores[dim].values.tolist():
            h.update(str(label).encode("utf-8") + b"\x00")
        h.update(b"\x01")
    h.update(np.ascontiguousarray(scores.values, dtype="<f8").tobytes())
    for key in sorted(k for k in scores.attrs if k != DIGEST_ATTR):
        h.update(f"{key}={np.asarray(scores.attrs[key]).tolist()!r}".encode() + b"\x00")
    return "sha256:" + h.hexdigest()


def read_netcdf(path: str | os.PathLike) -> xr.DataArray:
    """Read a cube written by :func:`write_netcdf` (or any netCDF with the cube's dims).

    Extra dims (``trial`` …) are kept, first (:func:`scorestd.validate` with
    ``extra_dims=True``).

    A file with a ``scorestd_digest`` attribute is verified against it (and the HDF5
    layer verifies the chunk checksums): a damaged file is a :class:`ScoreDataError`
    naming it. Files written elsewhere, without a digest, are read as they are.

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
    except Exception as exc:  # the HDF5 layer raises many types on a damaged file
        raise ScoreDataError(f"cannot read as a netCDF score cube (damaged or not netCDF): "
                             f"{type(exc).__name__}: {exc}", path=p) from None
    stored = loaded.attrs.pop(DIGEST_ATTR, None)
    try:
        cube = validate(loaded, what=str(p), check_range=stored is None, extra_dims=True)
    except ScoreDataError as exc:
        damaged = " (the file is damaged: its content digest does not match)" if stored else ""
        raise ScoreDataError(f"{exc.message}{damaged}", path=p) from None
    if stored is not None:
        if content_digest(cube) != stored:
            raise ScoreDataError("the file is damaged: its content does not match the "
                                 "digest written with it", path=p)
        cube = validate(cube, what=str(p), copy=False, extra_dims=True)  # range check
    return cube


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
