"""Run → group files (e.g. run → team), for leaving whole groups out of a reference."""

from __future__ import annotations

import csv
import os

from ..errors import ScoreDataError
from .dialect import csv_error

__all__ = ["read_groups"]

#: A first line naming the columns, skipped when present.
HEADER = ("run", "group")


def read_groups(path: str | os.PathLike) -> dict[str, str]:
    """Read a CSV file of ``run,group`` lines into a run → group mapping.

    Blank lines and lines starting with ``#`` are skipped, and so is a first line
    ``run,group``. Fields are stripped of surrounding spaces.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    dict of str to str

    Raises
    ------
    ScoreDataError
        Naming the file and line: a line without exactly two fields, an empty run or
        group, or a run listed twice.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "teams.csv"
    >>> _ = path.write_text("run,group\\nuwat1,uwaterloo\\nuwat2,uwaterloo\\nmsr1,msr\\n")
    >>> read_groups(path)
    {'uwat1': 'uwaterloo', 'uwat2': 'uwaterloo', 'msr1': 'msr'}
    """
    groups: dict[str, str] = {}
    seen_at: dict[str, int] = {}
    with open(path, newline="", encoding="utf-8") as fh:
        reader = csv.reader(fh)
        for line_no, row in enumerate(_rows(reader, path), start=1):
            if not row or not "".join(row).strip() or row[0].lstrip().startswith("#"):
                continue
            fields = [field.strip() for field in row]
            if len(fields) != 2:
                raise ScoreDataError(f"expected 2 fields (run,group), found {len(fields)}",
                                     path=path, line=line_no)
            if line_no == 1 and tuple(f.lower() for f in fields) == HEADER:
                continue
            run, group = fields
            if not run or not group:
                raise ScoreDataError("empty run or group", path=path, line=line_no)
            if run in groups:
                raise ScoreDataError(f"run {run!r} is listed twice (first on line "
                                     f"{seen_at[run]})", path=path, line=line_no)
            groups[run], seen_at[run] = group, line_no
    return groups


def _rows(reader, path):
    """The rows of ``reader``; a line the csv module cannot read is an error naming it."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ScoreDataError(csv_error(exc), path=path, line=reader.line_num) from None
        yield row
