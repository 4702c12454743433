"""Helpers shared by the readers: file opening, dialects and number parsing with locations."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterator
from pathlib import Path

from ..errors import ScoreDataError
from .dialect import Dialect, sniff

#: Cell texts read as a missing score.
MISSING_MARKERS = frozenset({"", "na", "nan", "null", "none", "-"})

#: Lines read to sniff a CSV dialect.
SNIFF_LINES = 20


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


def open_text(path: Path) -> io.TextIOWrapper:
    """Open a UTF-8 text file for streaming (a BOM is dropped; newlines kept for csv)."""
    return path.open(encoding="utf-8-sig", newline="")


def text_lines(path: Path, handle: io.TextIOBase) -> Iterator[str]:
    """The lines of ``handle``; a byte that is not UTF-8 is an error naming the line."""
    line_no = 0
    while True:
        try:
            line = handle.readline()
        except UnicodeDecodeError as exc:
            # text is decoded in chunks ahead of the lines: find the line in the bytes
            raise ScoreDataError(f"not UTF-8 text ({exc.reason})", path=path,
                                 line=undecodable_line(path) or line_no + 1) from None
        if not line:
            return
        line_no += 1
        yield line


def undecodable_line(path: Path) -> int | None:
    """The number of the first line of ``path`` that is not UTF-8 (``None``: none)."""
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                return number
    return None


def head_lines(path: Path, n: int = SNIFF_LINES) -> list[str]:
    """The first ``n`` lines of a text file (for sniffing); an empty file is an error."""
    lines = []
    with open_text(path) as fh:
        for line in text_lines(path, fh):
            lines.append(line)
            if len(lines) >= n:
                break
    if not "".join(lines).strip():
        raise ScoreDataError("file is empty", path=path)
    return lines


def file_dialect(path: Path, delimiter: str | None, decimal: str | None,
                 skip_prefix: str | None = None) -> Dialect:
    """The dialect of a CSV file: as given, or sniffed from its first lines."""
    if delimiter is not None and decimal is not None:
        return Dialect(delimiter, decimal)
    lines = [line for line in head_lines(path)
             if not (skip_prefix and line.startswith(skip_prefix))]
    return sniff(lines, delimiter=delimiter, decimal=decimal)


def count_lines(path: Path) -> int:
    """Number of lines of a file, read in blocks (no more memory than one block)."""
    n, last = 0, b"\n"
    with path.open("rb") as fh:
        while block := fh.read(1 << 20):
            n += block.count(b"\n")
            last = block[-1:]
    return n + (last != b"\n")


def parse_score(text: str, *, path: Path | str | None, line: int, where: str,
                decimal: str = ".") -> float:
    """Parse one score; missing markers give NaN, anything else non-numeric raises."""
    stripped = text.strip()
    if stripped.lower() in MISSING_MARKERS:
        return math.nan
    if decimal != ".":
        if "." in stripped:
            raise ScoreDataError(f"{where}: {text!r} has a '.' but the decimal mark is "
                                 f"{decimal!r}", path=path, line=line)
        stripped = stripped.replace(decimal, ".")
    if "_" in stripped:  # float() reads "1_0" as 10: no file means that
        raise ScoreDataError(f"{where}: {text!r} is not a number", path=path, line=line)
    try:
        value = float(stripped)
    except ValueError:
        raise ScoreDataError(f"{where}: {text!r} is not a number", path=path, line=line) from None
    if math.isinf(value):
        raise ScoreDataError(f"{where}: infinite score {text!r}", path=path, line=line)
    return value
