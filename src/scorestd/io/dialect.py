"""CSV dialects: the field separator and decimal mark, given or sniffed from the file.

Spreadsheets in many locales write ``;``-separated files with decimal commas
(``401;0,25;0,5``); tab-separated files come from R and from ``trec_eval``-like tools.
Reading such a file as comma-separated would give "too few fields" or, worse, numbers cut
in two, so the readers sniff the dialect from the first lines unless told.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import get_args

from .._options import DecimalMark, Delimiter, check_option
from ..errors import OptionError

__all__ = ["Dialect", "csv_error", "sniff"]

_DECIMAL_COMMA = re.compile(r"^\s*[-+]?\d*,\d+(?:[eE][-+]?\d+)?\s*$")
_DECIMAL_POINT = re.compile(r"^\s*[-+]?\d*\.\d+(?:[eE][-+]?\d+)?\s*$")


class Dialect:
    """A field separator and a decimal mark (``","`` and ``"."`` by default)."""

    __slots__ = ("decimal", "delimiter")

    def __init__(self, delimiter: str = ",", decimal: str = ".") -> None:
        self.delimiter = check_option(delimiter, Delimiter, "delimiter")
        self.decimal = check_option(decimal, DecimalMark, "decimal")
        if self.delimiter == self.decimal:
            raise OptionError("delimiter and decimal must differ; got both " + repr(self.decimal))

    def __repr__(self) -> str:
        return f"Dialect(delimiter={self.delimiter!r}, decimal={self.decimal!r})"


def sniff(lines: Iterable[str], *, delimiter: str | None = None,
          decimal: str | None = None) -> Dialect:
    """The dialect of a CSV file from its first lines (given parts are kept).

    The separator is the one of ``,``, ``;`` and tab that splits every sampled line into
    the same number (> 1) of fields, preferring ``;`` and tab when a decimal comma would
    also split evenly; the decimal mark is ``,`` when the separator is not a comma and
    numbers are written ``0,25``.

    Examples
    --------
    >>> sniff(["topic;bm25;qld", "401;0,25;0,5"])
    Dialect(delimiter=';', decimal=',')
    >>> sniff(["topic,bm25", "401,0.25"])
    Dialect(delimiter=',', decimal='.')
    >>> sniff(["topic\\tbm25", "401\\t0.25"], decimal=".")
    Dialect(delimiter='\\t', decimal='.')
    """
    sample = [line.rstrip("\r\n") for line in lines if line.strip() and not line.startswith("#")]
    if delimiter is None:
        delimiter = _sniff_delimiter(sample)
    if decimal is None:
        decimal = "."
        if delimiter != ",":
            cells = [c for line in sample[1:] for c in _split(line, delimiter)]
            commas = sum(bool(_DECIMAL_COMMA.match(c)) for c in cells)
            points = sum(bool(_DECIMAL_POINT.match(c)) for c in cells)
            decimal = "," if commas > points else "."
    return Dialect(delimiter, decimal)


def _sniff_delimiter(sample: list[str]) -> str:
    counts = {}
    for candidate in get_args(Delimiter):
        widths = {len(_split(line, candidate)) for line in sample}
        counts[candidate] = widths.pop() if len(widths) == 1 else 0
    # ";" and tab first: a file with decimal commas may split evenly on "," too
    for candidate in (";", "\t", ","):
        if counts[candidate] > 1:
            return candidate
    return ","


def _split(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line], delimiter=delimiter), [])
    except csv.Error:  # e.g. a field over the csv module's limit: the reader names the line
        return line.split(delimiter)


def csv_error(exc: csv.Error) -> str:
    """What a :class:`csv.Error` means for a score file, in words (the caller adds the line).

    Examples
    --------
    >>> csv_error(csv.Error("field larger than field limit (131072)"))
    'a field longer than 131,072 characters (is this a score file?)'
    """
    text = str(exc)
    if text.startswith("field larger than field limit"):
        return f"a field longer than {csv.field_size_limit():,} characters (is this a score file?)"
    return f"not a CSV line: {text}"
