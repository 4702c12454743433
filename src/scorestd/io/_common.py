"""Helpers shared by the readers: file opening and number parsing with locations."""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..errors import ScoreDataError

#: Cell texts read as a missing score.
MISSING_MARKERS = frozenset({"", "na", "nan", "null", "none", "-"})


def existing_file(path: str | os.PathLike) -> Path:
    """Return ``path`` as a Path, or raise a ScoreDataError naming it."""
    p = Path(path)
    if not p.exists():
        raise ScoreDataError("no such file", path=p)
    if p.is_dir():
        raise ScoreDataError("is a directory, expected a file", path=p)
    return p


def read_text(path: Path) -> str:
    """Read a UTF-8 text file (a BOM is dropped); an empty file is an error."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ScoreDataError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=path) from None
    if not text.strip():
        raise ScoreDataError("file is empty", path=path)
    return text


def parse_score(text: str, *, path: Path | str | None, line: int, where: str) -> float:
    """Parse one score; missing markers give NaN, anything else non-numeric raises."""
    stripped = text.strip()
    if stripped.lower() in MISSING_MARKERS:
        return math.nan
    try:
        value = float(stripped)
    except ValueError:
        raise ScoreDataError(f"{where}: {text!r} is not a number", path=path, line=line) from None
    if math.isinf(value):
        raise ScoreDataError(f"{where}: infinite score {text!r}", path=path, line=line)
    return value
