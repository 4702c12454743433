"""Reading and writing by file type, for the CLI and for ``scorestd.load``."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

import xarray as xr

from .._options import Format
from ..datasets import is_dataset, names
from ..datasets import load as load_dataset
from ..errors import ScoreDataError
from .matrix_csv import read_matrix_csv, write_matrix_csv
from .netcdf import read_netcdf, write_netcdf
from .tidy import ATTRS_PREFIX, COLUMN_ALIASES, read_long_csv, write_long_csv
from .trec_eval import read_trec_eval

__all__ = ["FORMATS", "detect_format", "load", "save"]

FORMATS: tuple[str, ...] = get_args(Format)
NETCDF_SUFFIXES = frozenset({".nc", ".nc4", ".netcdf", ".cdf"})


def detect_format(path: str | os.PathLike) -> str:
    """Guess the format of a score file from its name and first line.

    ``.nc`` is netCDF; a ``.csv``/``.tsv`` file whose header names a system, topic,
    measure and value column (or that scorestd wrote as long CSV) is ``long``, any
    other CSV is a topic-by-system ``matrix``; a directory or any other file is
    ``trec_eval`` output.

    Examples
    --------
    >>> detect_format("scores.nc")
    'netcdf'
    """
    p = Path(path)
    if p.suffix.lower() in NETCDF_SUFFIXES:
        return "netcdf"
    if p.is_dir():
        return "trec_eval"
    if p.suffix.lower() in {".csv", ".tsv", ".txt"} and p.exists():
        with p.open(encoding="utf-8-sig", errors="replace") as fh:
            first = fh.readline()
        if first.startswith(ATTRS_PREFIX):
            return "long"
        sep = "\t" if p.suffix.lower() == ".tsv" else ","
        if sep in first:
            header = {h.strip().lower() for h in first.split(sep)}
            roles = [any(a in header for a in aliases) for aliases in COLUMN_ALIASES.values()]
            return "long" if all(roles) else "matrix"
    return "trec_eval"


def load(
    source: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    format: Format | None = None,
    measure: str | None = None,
) -> xr.DataArray:
    """Read scores from a bundled dataset name, a file, a directory or several files.

    Parameters
    ----------
    source : str, path or sequence of paths
        A name from :func:`scorestd.datasets.list` (``"robust2004"``,
        ``"adhoc8_ap"``), a score file, a directory of ``trec_eval -q`` files, or a
        list of ``trec_eval -q`` files.
    format : {"netcdf", "matrix", "long", "trec_eval"}, optional
        Skip format detection (see :func:`detect_format`).
    measure : str, optional
        Keep only this measure.

    Returns
    -------
    xarray.DataArray
        A validated cube.

    Examples
    --------
    >>> load("adhoc8_ap").sizes["system"]
    129
    """
    if isinstance(source, list | tuple):
        cube = read_trec_eval(source)
    elif format is None and isinstance(source, str) and is_dataset(source):
        cube = load_dataset(source)
    else:
        path = Path(source)
        if format is None and not path.exists():
            known = ", ".join(names())
            raise ScoreDataError(f"no such file, and not a bundled dataset ({known})", path=path)
        fmt = format or detect_format(path)
        if fmt not in FORMATS:
            raise ScoreDataError(f"unknown format {fmt!r}; choose one of {FORMATS}")
        cube = {
            "netcdf": read_netcdf,
            "matrix": read_matrix_csv,
            "long": read_long_csv,
            "trec_eval": read_trec_eval,
        }[fmt](path)
    if measure is not None:
        if measure not in cube["measure"].values:
            raise ScoreDataError(
                f"unknown measure {measure!r}; the scores have {cube['measure'].values.tolist()}"
            )
        cube = cube.sel(measure=[measure])
    return cube


def save(
    cube: xr.DataArray,
    path: str | os.PathLike,
    *,
    format: Format | None = None,
    measure: str | None = None,
) -> Path:
    """Write a cube; the format comes from the suffix (``.nc`` netCDF, ``.csv`` long).

    ``format="matrix"`` writes one measure as a topic-by-system CSV.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> out = save(cube([[0.5]]), pathlib.Path(tempfile.mkdtemp()) / "c.nc")
    >>> out.suffix
    '.nc'
    """
    p = Path(path)
    fmt = format or ("netcdf" if p.suffix.lower() in NETCDF_SUFFIXES else "long")
    if fmt == "netcdf":
        return write_netcdf(cube, p)
    if fmt == "long":
        return write_long_csv(cube, p)
    if fmt == "matrix":
        return write_matrix_csv(cube, p, measure=measure)
    raise ScoreDataError(f"cannot write format {fmt!r}; choose netcdf, long or matrix")
