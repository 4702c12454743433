"""Reading and writing by file type, for the CLI and for ``scorestd.load``/``scorestd.save``.

The output format comes from the file's suffix and an unknown suffix is an error (a file
named ``out.xlsx`` is never CSV in disguise); the input format from the suffix and the
first line, with the CSV dialect sniffed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

import xarray as xr

from .._options import DecimalMark, Delimiter, Format, TopicSet, check_flag
from ..datasets import is_dataset, names
from ..datasets import load as load_dataset
from ..errors import ScoreDataError
from ..frames import COLUMN_ALIASES
from ..measures import find_measure
from ._common import head_lines
from .dialect import sniff
from .matrix_csv import read_matrix_csv, write_matrix_csv
from .netcdf import read_netcdf, write_netcdf
from .paths import FILE_SUFFIXES, check_output_path
from .tidy import ATTRS_PREFIX, read_long_csv, read_parquet, write_long_csv, write_parquet
from .trec_eval import read_trec_eval

__all__ = ["FORMATS", "OUTPUT_SUFFIXES", "detect_format", "load", "output_format", "save"]

FORMATS: tuple[str, ...] = get_args(Format)
NETCDF_SUFFIXES = frozenset(FILE_SUFFIXES["netcdf"])
CSV_SUFFIXES = frozenset(FILE_SUFFIXES["csv"])
PARQUET_SUFFIXES = frozenset(FILE_SUFFIXES["parquet"])
#: Output suffixes → the format :func:`save` writes.
OUTPUT_SUFFIXES = {**dict.fromkeys(NETCDF_SUFFIXES, "netcdf"),
                   **dict.fromkeys((".csv", ".tsv"), "long"),
                   **dict.fromkeys(PARQUET_SUFFIXES, "parquet")}
_WRITABLE = ("netcdf", "long", "matrix", "parquet")
#: The kind of file (a key of FILE_SUFFIXES) each written format is.
_FILE_KIND = {"netcdf": "netcdf", "long": "csv", "matrix": "csv", "parquet": "parquet"}


def detect_format(path: str | os.PathLike) -> str:
    """Guess the format of a score file from its name and first lines.

    ``.nc`` is netCDF, ``.parquet`` a long table; a ``.csv``/``.tsv``/``.txt`` file
    whose first line splits into several fields on ``,``, ``;`` or tab is CSV: ``long``
    when its header names a system, topic, measure and value column (or scorestd wrote
    it), else a topic-by-system ``matrix``; a directory, or a file of
    white-space-separated ``measure topic value`` lines, is ``trec_eval`` output.

    Examples
    --------
    >>> detect_format("scores.nc")
    'netcdf'
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in NETCDF_SUFFIXES:
        return "netcdf"
    if suffix in PARQUET_SUFFIXES:
        return "parquet"
    if p.is_dir():
        return "trec_eval"
    if suffix in CSV_SUFFIXES and p.exists():
        lines = head_lines(p)
        if lines[0].startswith(ATTRS_PREFIX):
            return "long"
        dialect = sniff(lines)
        header = lines[0].rstrip("\r\n").split(dialect.delimiter)
        if len(header) > 1:
            names_ = {h.strip().lower() for h in header}
            roles = [any(a in names_ for a in aliases) for aliases in COLUMN_ALIASES.values()]
            return "long" if all(roles) else "matrix"
    return "trec_eval"


def load(
    source: str | os.PathLike | Sequence[str | os.PathLike],
    *,
    format: Format | None = None,
    measure: str | None = None,
    delimiter: Delimiter | None = None,
    decimal: DecimalMark | None = None,
    topics: TopicSet | None = None,
    strict: bool = False,
    collection: str | None = None,
) -> xr.DataArray:
    """Read scores from a bundled dataset name, a file, a directory or several files.

    Parameters
    ----------
    source : str, path or sequence of paths
        A name from :func:`scorestd.datasets.list` (``"robust2004"``,
        ``"adhoc8_ap"``), a score file, a directory of ``trec_eval -q`` files, or a
        list of ``trec_eval -q`` files.
    format : {"netcdf", "matrix", "long", "trec_eval", "parquet"}, optional
        Skip format detection (see :func:`detect_format`).
    measure : str, optional
        Keep only this measure.
    delimiter, decimal : str, optional
        CSV field separator (``","``, ``";"``, ``"\\t"``) and decimal mark (``"."``,
        ``","``); sniffed by default.
    topics : {"union", "intersection", "strict"}, optional
        ``trec_eval`` runs covering different topics (see :func:`read_trec_eval`).
    strict : bool
        Raise instead of warning on scores outside their measure's range.
    collection : str, optional
        Stored in ``attrs["collection"]`` (a bundled dataset has its own).

    Returns
    -------
    xarray.DataArray
        A validated cube.

    Examples
    --------
    >>> load("adhoc8_ap").sizes["system"]
    129
    """
    strict = check_flag("strict", strict)
    if isinstance(source, list | tuple):
        cube = read_trec_eval(source, topics=topics, strict=strict, collection=collection)
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
        csv_options = {"delimiter": delimiter, "decimal": decimal, "strict": strict}
        if fmt == "netcdf":
            cube = read_netcdf(path)
        elif fmt == "matrix":
            cube = read_matrix_csv(path, collection=collection, **csv_options)
        elif fmt == "long":
            cube = read_long_csv(path, **csv_options)
        elif fmt == "parquet":
            cube = read_parquet(path, strict=strict)
        else:
            cube = read_trec_eval(path, topics=topics, strict=strict, collection=collection)
        if collection is not None:
            cube.attrs["collection"] = collection
    if measure is not None:  # any usual spelling
        cube = cube.sel(measure=[find_measure(measure, cube["measure"].values)])
    return cube


def output_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The format :func:`save` writes ``path`` in: ``format``, or the one of its suffix.

    Raises
    ------
    ScoreDataError
        For a suffix that names no supported format (``.xlsx``, ``.json`` …) or an
        unknown ``format``.
    OptionError
        For a ``format`` whose files have another suffix (``format="netcdf"`` and
        ``scores.csv``).

    Examples
    --------
    >>> output_format("scores.nc"), output_format("runs.tsv")
    ('netcdf', 'long')
    >>> output_format("out.xlsx")
    Traceback (most recent call last):
    ...
    scorestd.errors.ScoreDataError: out.xlsx: cannot tell the format from the suffix '.xlsx'; ...
    """
    if format is not None:
        if format not in _WRITABLE:
            raise ScoreDataError(f"cannot write format {format!r}; choose one of {_WRITABLE}")
        check_output_path(path, _FILE_KIND[format])
        return format
    suffix = Path(path).suffix.lower()
    if suffix not in OUTPUT_SUFFIXES:
        raise ScoreDataError(
            f"cannot tell the format from the suffix {suffix or '(none)'!r}; use "
            f"{', '.join(sorted(OUTPUT_SUFFIXES))}, or give the format (a topic-by-system "
            "CSV: format='matrix')", path=path)
    return OUTPUT_SUFFIXES[suffix]


def save(
    cube: xr.DataArray,
    path: str | os.PathLike,
    *,
    format: Format | None = None,
    measure: str | None = None,
) -> Path:
    """Write a cube in the format its suffix names.

    ``.nc`` netCDF (with checksums), ``.csv`` long CSV, ``.tsv`` long tab-separated,
    ``.parquet`` a long table (needs ``pyarrow``); ``format="matrix"`` writes one
    measure as a topic-by-system CSV. Any other suffix is an error, raised before
    anything is written, and so is a suffix that does not fit ``format`` and a
    directory that does not exist or cannot be written to. The file is written whole
    or not at all: an error or Ctrl-C half-way leaves the previous file as it was.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from scorestd import cube
    >>> out = save(cube([[0.5]]), pathlib.Path(tempfile.mkdtemp()) / "c.nc")
    >>> out.suffix
    '.nc'
    """
    fmt = output_format(path, format)
    p = check_output_path(path, _FILE_KIND[fmt])
    if fmt == "netcdf":
        return write_netcdf(cube, p)
    if fmt == "long":
        return write_long_csv(cube, p, delimiter="\t" if p.suffix.lower() == ".tsv" else ",")
    if fmt == "parquet":
        return write_parquet(cube, p)
    return write_matrix_csv(cube, p, measure=measure)
