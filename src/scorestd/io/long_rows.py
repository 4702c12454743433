"""Rows of (topic, system, measure, value) gathered block by block into a cube.

The readers of long tables (:func:`scorestd.read_long_csv`, :func:`scorestd.from_dataframe`)
hand over their rows in blocks. Labels become integer codes as they arrive (in order of
first appearance; only a block's distinct labels are looked at in Python) and values
float64, so what is kept grows by 20 bytes a row, never by a Python object a cell. The
cube is assembled at the end, block by block: memory stays a few times the cube's bytes
however many rows the file has.

A (topic, system, measure) given twice must have the same value both times (a file of
concatenated runs may repeat a row); different values are an error naming both rows.
Rows may also carry extra dims (the ``trial`` of simulated collections, a ``fold``):
their labels lead the cell's address and the cube's dims, and keep their type.
"""

from __future__ import annotations

import contextlib
import gc
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..score_cube import labelled, validate
from ._common import MISSING_MARKERS

__all__ = ["BLOCK_ROWS", "LongRows", "parse_values", "paused_gc"]

#: Rows handed over and assembled per block: the temporaries of a block stay a few MB.
BLOCK_ROWS = 1 << 16

ROLES = (TOPIC, SYSTEM, MEASURE)

#: ``fail(row, message)``: the error for data row ``row`` (0-based), naming where it is.
Fail = Callable[[int, str], ScoreDataError]


class LongRows:
    """Codes and values of the rows seen so far (:meth:`add`), and the cube (:meth:`cube`).

    Parameters
    ----------
    columns : mapping of role to column name
        Names of the topic, system and measure columns (and of the ``extra`` dims), for
        messages.
    fail : callable
        ``fail(row, message)`` returns the error for data row ``row``.
    extra : sequence of str
        Extra dims (their roles are their names), which lead the cube's dims.

    Examples
    --------
    >>> rows = LongRows({"topic": "qid", "system": "run", "measure": "m"},
    ...                 lambda row, msg: ScoreDataError(f"row {row}: {msg}"))
    >>> rows.add({"topic": ["1", "2"], "system": ["a", "a"], "measure": ["ap", "ap"]},
    ...          ["0.5", "NA"])
    >>> rows.cube({}, where=lambda row: f"row {row}").values.ravel().tolist()
    [0.5, nan]
    """

    def __init__(self, columns: Mapping[str, Any], fail: Fail, extra: Sequence[str] = ()):
        self.columns = dict(columns)
        self.fail = fail
        self.extra = tuple(extra)
        self.roles = (*self.extra, *ROLES)
        self.codes_of: dict[str, dict[Any, int]] = {role: {} for role in self.roles}
        self._codes: dict[str, list[np.ndarray]] = {role: [] for role in self.roles}
        self._values: list[np.ndarray] = []
        self.n = 0

    def add(self, labels: Mapping[str, Sequence | np.ndarray | pd.Series],
            values: Sequence | np.ndarray | pd.Series, decimal: str = ".") -> None:
        """Add a block of rows: a label sequence per role and the values (text or numbers).

        Labels are ``str()`` of what is given (extra dims' labels are kept as they are);
        a missing (``None``, ``NaN``) or blank label is an error. Values are read by
        :func:`parse_values`.
        """
        start = self.n
        block_fail = _shifted(self.fail, start)
        parsed = parse_values(values, block_fail, decimal)
        for role in self.roles:
            local, uniques = pd.factorize(np.asarray(labels[role], dtype=object))
            kept = role in self.extra
            text = [u.item() if kept and isinstance(u, np.generic) else u if kept else str(u)
                    for u in uniques]
            blank = np.array([not str(t).strip() for t in text] + [True])  # -1: missing
            wrong = blank[local]
            if wrong.any():
                raise block_fail(int(np.argmax(wrong)),
                                 f"missing {role} label in column {self.columns[role]!r}")
            # numpy's text arrays drop trailing NULs, which would merge or empty such labels
            nul = np.array(["\x00" in str(t) for t in text] + [False])[local]
            if nul.any():
                raise block_fail(int(np.argmax(nul)), f"{role} label in column "
                                 f"{self.columns[role]!r} holds a NUL character")
            known = self.codes_of[role]
            to_global = np.fromiter((known.setdefault(t, len(known)) for t in text),
                                    dtype=np.int64, count=len(text))
            self._codes[role].append(to_global[local].astype(np.int32))
        self._values.append(parsed)
        self.n += len(parsed)

    def cube(self, attrs: dict, *, where: Callable[[int], str],
             strict: bool = False) -> xr.DataArray:
        """The cube of the rows added; ``where(row)`` names a row in messages.

        Raises
        ------
        ScoreDataError
            If no row was added, or a (topic, system, measure) has two different values.
        """
        if self.n == 0:
            raise ScoreDataError("no rows of scores")
        codes = {role: np.concatenate(self._codes.pop(role)) for role in self.roles}
        values = np.concatenate(self._values)
        self._values = []
        shape = tuple(len(self.codes_of[role]) for role in self.roles)
        owner_type = np.int32 if self.n < 2**31 else np.int64
        owner = np.full(math.prod(shape), -1, dtype=owner_type)
        out = np.full(math.prod(shape), np.nan)
        blocks = [slice(a, min(a + BLOCK_ROWS, self.n)) for a in range(0, self.n, BLOCK_ROWS)]

        def cells(rows: slice) -> np.ndarray:
            return np.ravel_multi_index(tuple(codes[role][rows] for role in self.roles),
                                        shape)

        for rows in blocks:
            flat = cells(rows)
            owner[flat] = np.arange(rows.start, rows.stop, dtype=owner_type)
            out[flat] = values[rows]
        # a row that does not own its cell repeats another row's (topic, system, measure):
        # fine with the same value (whichever row wrote the cell), an error otherwise
        for rows in blocks:
            holder = owner[cells(rows)]
            again = np.nonzero(holder != np.arange(rows.start, rows.stop))[0]
            if not again.size:
                continue
            mine, theirs = values[rows][again], values[holder[again]]
            differ = ~((mine == theirs) | (np.isnan(mine) & np.isnan(theirs)))
            if differ.any():
                k = int(np.argmax(differ))
                first, second = sorted((rows.start + int(again[k]), int(holder[again[k]])))
                label = {role: list(self.codes_of[role])[int(codes[role][second])]
                         for role in self.roles}
                raise self.fail(
                    second,
                    "".join(f"{dim} {label[dim]!r}, " for dim in self.extra)
                    + f"system {label[SYSTEM]!r}, topic {label[TOPIC]!r}, measure "
                    f"{label[MEASURE]!r} is {float(values[second])!r} here but "
                    f"{float(values[first])!r} on {where(first)}")
        del owner, values  # the codes go with this frame
        if self.extra:
            cube = xr.DataArray(out.reshape(shape), dims=self.roles, attrs=attrs,
                                coords={role: _labels(list(self.codes_of[role]))
                                        for role in self.roles})
            return validate(cube, copy=False, strict=strict, extra_dims=True)
        cube = labelled(out.reshape(shape), topics=list(self.codes_of[TOPIC]),
                        systems=list(self.codes_of[SYSTEM]),
                        measures=list(self.codes_of[MEASURE]), attrs=attrs)
        return validate(cube, copy=False, strict=strict)


def _labels(values: list) -> np.ndarray:
    """Labels as an array of their own type (ints stay ints), objects only when mixed."""
    array = np.asarray(values)
    return array if array.dtype.kind in "iufbU" else np.asarray(values, dtype=object)


def parse_values(values: Sequence | np.ndarray | pd.Series, fail: Fail,
                 decimal: str = ".") -> np.ndarray:
    """Values as float64: numbers as they are, text parsed, missing markers ``NaN``.

    ``""``, ``NA``, ``NaN``, ``null``, ``none`` and ``-`` (any case) are missing; a
    boolean, text that is not a number (``1_000`` included, and ``0.5`` when the decimal
    mark is ``,``) and infinite values are errors from ``fail(row, message)``. Clean
    text is parsed by pandas in C; only the cells it cannot read are looked at one by one.

    Examples
    --------
    >>> parse_values(["0.5", "", "NA", "1e-3"], None).tolist()
    [0.5, nan, nan, 0.001]
    >>> parse_values(["0,25"], None, decimal=",").tolist()
    [0.25]
    """
    column = values if isinstance(values, pd.Series) else pd.Series(
        np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values)
    if column.dtype.kind in "iuf" and decimal == ".":
        out = column.to_numpy(dtype=np.float64)
        if np.isinf(out).any():
            i = int(np.argmax(np.isinf(out)))
            raise fail(i, f"infinite value {out[i]!r}")
        return out
    raw = column.to_numpy(dtype=object)
    kind = pd.api.types.infer_dtype(raw, skipna=True)
    given = pd.Series(raw, dtype=object)
    text = given.str.replace(decimal, ".", regex=False) if decimal != "." else given
    out = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    # cells pandas could not read, or read where Python's float would refuse (1_000,
    # booleans, "0.5" with a decimal comma), and infinities: one by one
    look = ~np.isfinite(out)
    if look.any():  # missing markers, vectorised: a sparse file has many
        maybe = given[look]
        marker = maybe.isna() | maybe.str.strip().str.lower().isin(MISSING_MARKERS)
        look[np.nonzero(look)[0][marker.to_numpy(dtype=bool, na_value=False)]] = False
    if kind not in ("string", "floating", "integer", "mixed-integer-float", "empty"):
        look |= np.fromiter((isinstance(v, bool | np.bool_) for v in raw), bool, len(raw))
    if decimal != ".":
        look |= column.astype(str).str.contains(".", regex=False).to_numpy()
    if look.any() and not out.flags.writeable:
        out = out.copy()
    for i in np.nonzero(look)[0]:
        out[i] = _parse_one(raw[i], int(i), fail, decimal)
    return out


def _parse_one(raw: Any, i: int, fail: Fail, decimal: str) -> float:
    """One cell by the rules of :func:`parse_values`."""
    if raw is None or (isinstance(raw, float) and math.isnan(raw)):
        return math.nan
    if isinstance(raw, bool | np.bool_):
        raise fail(i, f"value {raw!r} is not a number")
    if isinstance(raw, str):
        if raw.strip().lower() in MISSING_MARKERS:
            return math.nan
        if "_" in raw or (decimal != "." and "." in raw):
            raise fail(i, f"value {raw!r} is not a number")
        raw = raw.replace(decimal, ".") if decimal != "." else raw
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise fail(i, f"value {raw!r} is not a number") from None
    if math.isinf(value):
        raise fail(i, f"infinite value {raw!r}")
    return value


def _shifted(fail: Fail, start: int) -> Fail:
    """``fail`` for rows counted from ``start``."""
    return lambda row, message: fail(start + row, message)


@contextlib.contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic garbage collection meanwhile (as it was after).

    Reading a long CSV creates millions of short-lived lists without cycles; the
    collector would walk them again and again (measured: over half of the reading time).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
