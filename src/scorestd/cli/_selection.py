"""``--systems``: which systems of a cube a command works on.

A selection is a comma-separated list of names and shell-style globs (``bm25*``), a file
of them (one a line, ``#`` starts a comment; given as ``@FILE`` or the path of an existing
file), or ``top:K``: the K systems with the highest mean score (of ``--measure``, or of
the first measure), missing scores left out. Systems keep the cube's order.
"""

from __future__ import annotations

import argparse
import difflib
import fnmatch
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import OptionError

if TYPE_CHECKING:
    import xarray as xr

SYSTEMS_HELP = ("use only these systems: names or globs, comma-separated (run1,bm25*), a file "
                "of them one a line (@FILE), or top:K, the K best by mean score (of --measure, "
                "else of the first measure)")


def add_systems_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--systems``/``-s``."""
    parser.add_argument("--systems", "-s", metavar="SELECTION", help=SYSTEMS_HELP)


def select_systems(cube: xr.DataArray, selection: str | None) -> xr.DataArray:
    """The cube restricted to the systems ``selection`` names (see the module's docstring).

    Raises :class:`~scorestd.errors.OptionError` naming a name or glob that matches no
    system (with the closest names), an unreadable file, or a ``top:K`` with a bad K.
    """
    if not selection:
        return cube
    systems = [str(s) for s in cube["system"].values]
    text = selection.strip()
    if text.lower().startswith("top:"):
        chosen = _top(cube, text)
    else:
        patterns = _patterns(text)
        chosen = set()
        for pattern in patterns:
            hits = [s for s in systems if fnmatch.fnmatchcase(s, pattern)]
            if not hits:
                close = difflib.get_close_matches(pattern, systems, n=3)
                hint = f"; did you mean {', '.join(close)}?" if close else ""
                raise OptionError(f"--systems: {pattern!r} matches no system of the data "
                                  f"({len(systems)} systems){hint}")
            chosen.update(hits)
    return cube.isel(system=[k for k, s in enumerate(systems) if s in chosen])


def _patterns(text: str) -> list[str]:
    path = Path(text[1:]) if text.startswith("@") else Path(text)
    if text.startswith("@") or ("," not in text and path.is_file()):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise OptionError(f"--systems: cannot read {path}: {exc.strerror or exc}") from None
        names = [line.split("#", 1)[0].strip() for line in lines]
        names = [n for n in names if n]
        if not names:
            raise OptionError(f"--systems: {path} names no system")
        return names
    names = [part.strip() for part in text.split(",") if part.strip()]
    if not names:
        raise OptionError("--systems: give names, globs, @FILE or top:K")
    return names


def _top(cube: xr.DataArray, text: str) -> set[str]:
    try:
        k = int(text.split(":", 1)[1])
    except ValueError:
        raise OptionError(f"--systems: {text!r}: K of top:K must be a whole number") from None
    if k < 1:
        raise OptionError(f"--systems: {text!r}: K of top:K must be at least 1")
    n = cube.sizes["system"]
    if k > n:
        raise OptionError(f"--systems: {text!r} asks for more systems than the data has ({n})")
    first = cube.isel(measure=0) if "measure" in cube.dims else cube
    means = first.mean([d for d in first.dims if d != "system"], skipna=True)
    order = (-means.fillna(-float("inf")).values).argsort(kind="stable")  # ties: data order
    return {str(s) for s in cube["system"].values[order[:k]]}
