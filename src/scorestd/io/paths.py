"""Output paths checked before any computation, with the real cause in the message."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from ..errors import OptionError

__all__ = ["FILE_SUFFIXES", "check_output_path", "check_writable"]

#: The suffixes a file of each kind may have (the first is the usual one).
FILE_SUFFIXES: dict[str, tuple[str, ...]] = {
    "netcdf": (".nc", ".nc4", ".netcdf", ".cdf"),
    "csv": (".csv", ".tsv", ".txt"),
    "parquet": (".parquet", ".pq"),
}


def check_writable(path: str | os.PathLike, *, directory: bool = False) -> Path:
    """Return ``path`` as a Path if a file (or, with ``directory``, a folder) can be written there.

    Called by the writers and by every command before it reads or computes anything, so
    that a typo in an output path costs nothing and says what is wrong: a missing
    directory is :class:`FileNotFoundError`, a directory without write permission
    :class:`PermissionError`, an existing directory where a file is wanted
    :class:`IsADirectoryError` (all :class:`OSError`).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_writable(folder / "out.nc") == folder / "out.nc"
    True
    >>> check_writable(folder / "no-such-dir" / "out.nc")
    Traceback (most recent call last):
    ...
    FileNotFoundError: cannot write .../no-such-dir/out.nc: the directory .../no-such-dir does not exist
    """
    p = Path(path)
    if directory:
        if p.exists() and not p.is_dir():
            raise NotADirectoryError(f"cannot write into {p}: it exists and is not a directory")
        target = p
        while not target.exists():  # the folders will be created below the first that exists
            target = target.parent
        return _writable_directory(p, target)
    if p.is_dir():
        raise IsADirectoryError(f"cannot write {p}: it is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.exists():
        raise FileNotFoundError(f"cannot write {p}: the directory {parent} does not exist")
    _writable_directory(p, parent)
    if p.exists() and not os.access(p, os.W_OK):
        raise PermissionError(f"cannot write {p}: the file exists and is read-only")
    return p


def check_output_path(path: str | os.PathLike, kind: str | None = None, *,
                      inputs: Iterable[str | os.PathLike | None] = ()) -> Path:
    """Check an output file before any work: folder, suffix of its ``kind``, not an input.

    ``kind`` is a key of :data:`FILE_SUFFIXES` (``"netcdf"``, ``"csv"``, ``"parquet"``),
    ``"figure"`` (a format matplotlib writes) or ``None`` (any suffix). A file that is
    also one of ``inputs`` is refused: writing the result over the data it is computed
    from loses the data if anything goes wrong later, and is nearly always a typo.

    Raises
    ------
    OptionError
        A suffix that does not fit ``kind``, or ``path`` naming one of ``inputs``.
    OSError
        From :func:`check_writable`: the folder does not exist, is not writable …

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> check_output_path(folder / "scores.nc", "netcdf").name
    'scores.nc'
    >>> check_output_path(folder / "scores.csv", "netcdf")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: .../scores.csv: a netcdf file needs the suffix .nc, .nc4, .netcdf or .cdf, not '.csv'
    >>> check_output_path(folder / "runs.csv", inputs=[folder / "runs.csv"])
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: .../runs.csv: the output is also an input; write the result to another file
    """
    p = Path(path)
    if kind is not None:
        allowed = _figure_suffixes() if kind == "figure" else FILE_SUFFIXES[kind]
        if p.suffix.lower() not in allowed:
            shown = [s for s in allowed][:12]
            listed = ", ".join(shown[:-1]) + f" or {shown[-1]}" if len(shown) > 1 else shown[0]
            raise OptionError(f"{p}: a {kind} file needs the suffix {listed}, not "
                                f"{p.suffix or '(none)'!r}")
    for source in inputs:
        if source is not None and _same_file(p, Path(source)):
            raise OptionError(f"{p}: the output is also an input; write the result to "
                                "another file")
    return check_writable(p)


def _same_file(a: Path, b: Path) -> bool:
    if a.exists() and b.exists():
        return os.path.samefile(a, b)
    return a.resolve() == b.resolve()


def _figure_suffixes() -> tuple[str, ...]:
    from matplotlib.backend_bases import FigureCanvasBase

    return tuple("." + f for f in sorted(FigureCanvasBase.get_supported_filetypes()))


def _writable_directory(p: Path, folder: Path) -> Path:
    if not folder.is_dir():
        raise NotADirectoryError(f"cannot write {p}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {p}: no permission to write in the directory {folder}")
    return p
