"""Files written whole or not at all: a temporary file in the target folder, renamed into place.

Every writer of the package (cubes, tables, figures, study results) writes through
:func:`atomic_output`, so that an error or an interrupt (Ctrl-C) half-way through leaves
the file that was there before untouched and no partial file behind that could be read
back as a smaller, valid-looking result.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .paths import check_writable

__all__ = ["atomic_output"]


@contextlib.contextmanager
def atomic_output(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success it replaces ``path`` at once.

    The temporary file lives in the same folder (so the final rename is atomic on
    POSIX and Windows) and keeps the suffix of ``path`` (so writers that choose a
    format by suffix, such as matplotlib, still do). If the body raises, including
    :class:`KeyboardInterrupt`, the temporary file is removed and ``path`` is left as
    it was. The folder is checked first (:func:`~scorestd.io.paths.check_writable`).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> _ = target.write_text("old")
    >>> try:
    ...     with atomic_output(target) as tmp:
    ...         _ = tmp.write_text("half a fi")
    ...         raise RuntimeError("interrupted")
    ... except RuntimeError:
    ...     pass
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('old', ['out.txt'])
    >>> with atomic_output(target) as tmp:
    ...     _ = tmp.write_text("new")
    >>> target.read_text()
    'new'
    """
    final = check_writable(path)
    folder = final.parent if str(final.parent) else Path(".")
    fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=f".part{final.suffix}",
                                dir=folder)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if final.exists():  # keep the permissions of the file being replaced
            os.chmod(tmp, final.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, final)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
