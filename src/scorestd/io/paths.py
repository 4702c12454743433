"""Output paths checked before any computation, with the real cause in the message."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["check_writable"]


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


def _writable_directory(p: Path, folder: Path) -> Path:
    if not folder.is_dir():
        raise NotADirectoryError(f"cannot write {p}: {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise PermissionError(f"cannot write {p}: no permission to write in the directory {folder}")
    return p
