"""Empirical-cdf counts per row from one sort of packed integer keys (no argsort).

E-std needs, for every score, the number of reference scores at or below it, so it
needs the order of each row as well as its sorted values. ``numpy.argsort`` of
float64 is 2–3 times slower than ``numpy.sort`` on CPUs without AVX-512. Here each
score becomes a 64-bit key whose high bits order like the score and whose low ``b``
bits hold the score's place in the chunk (``b = 15`` for chunks of 32,768 scores); one
sort of the keys gives both the order and the sorted scores.

The keys drop the lowest ``b`` mantissa bits, so two different scores within about
``2**b`` ulps of each other can share a key and then go by place. Each chunk checks
that its sorted rows ascend and recomputes any row that does not with an exact stable
argsort: results are always exact. Rows go through in chunks small enough to stay in
the CPU cache, which is what makes the dozen elementwise passes cheap.

No xarray here; :mod:`scorestd.kernels.standardize` builds the ecdf on these counts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from .._options import Ties

__all__ = ["RowRanks", "merged_counts", "self_counts"]


#: Scores per chunk: a chunk's few buffers then fit in L2/L3 cache.
CHUNK = 1 << 15
#: A chunk wider than ``2**MAX_CODE_BITS`` scores (one very long row) leaves too few
#: score bits in a key; it uses the exact argsort.
MAX_CODE_BITS = 20

_SIGN = np.uint64(1 << 63)
_MAGNITUDE = np.uint64((1 << 63) - 1)
_NAN_KEY = np.uint64((1 << 64) - 1)  # above every finite and infinite score's key
_QUIET_NAN_BITS = np.uint64(0x7FF8_0000_0000_0000)  # the smallest bits of a quiet NaN
_INF_KEY = np.uint64(0xFFF0_0000_0000_0000)  # the keys of +inf and -inf (before the low
_NEG_INF_KEY = np.uint64(0x000F_FFFF_FFFF_FFFF)  # bits are cleared)


class RowRanks(NamedTuple):
    """What :func:`self_counts` finds in each row of scores.

    Examples
    --------
    >>> ranks = self_counts(np.array([[0.5, 0.2, 0.9]]), keep_sorted=False)
    >>> ranks.counts.tolist(), ranks.low.tolist(), ranks.high.tolist(), ranks.sorted
    ([[2.0, 1.0, 3.0]], [0.2], [0.9], None)
    """

    #: ``(..., R)`` float64 counts ``#{v <= v_i}`` (or the ecdf, divided by ``n``).
    counts: np.ndarray
    #: ``(..., 1)`` number of non-NaN scores.
    n: np.ndarray
    #: ``(...)`` smallest and largest non-NaN score (``NaN`` for a row without one).
    low: np.ndarray
    high: np.ndarray
    #: ``(..., R)`` the row sorted ascending, ``NaN`` last, ``-0.0`` as ``0.0``
    #: (``None`` unless asked for).
    sorted: np.ndarray | None


def self_counts(values: np.ndarray, ties: Ties = "right", *, keep_sorted: bool = True,
                divide: bool = False) -> RowRanks:
    """``#{v <= v_i}`` (or the mid-rank count) of every score within its row.

    Parameters
    ----------
    values : numpy.ndarray
        Scores ``(..., R)``, any strides (a transposed view is read chunk by chunk,
        never copied whole). ``NaN`` is a missing score.
    ties : {"right", "mid"}
        ``"mid"`` counts the other members of a tie group as one half.
    keep_sorted : bool
        Also return the sorted rows.
    divide : bool
        Divide the counts by ``n``: the ecdf of the row at its own scores.

    Returns
    -------
    RowRanks
        ``counts`` is ``NaN`` where the score is ``NaN``.

    Examples
    --------
    >>> ranks = self_counts(np.array([[0.3, 0.1, 0.3, np.nan]]))
    >>> ranks.counts.tolist(), ranks.sorted.tolist(), ranks.n.tolist(), ranks.high.tolist()
    ([[3.0, 1.0, 3.0, nan]], [[0.1, 0.3, 0.3, nan]], [[3]], [0.3])
    """
    values = np.asarray(values, dtype=np.float64)
    shape, r = values.shape, values.shape[-1]
    if values.size == 0:  # no rows, or rows without scores
        lead = shape[:-1]
        return RowRanks(np.empty(shape), np.zeros((*lead, 1), dtype=np.int64),
                        np.full(lead, np.nan), np.full(lead, np.nan),
                        np.empty(shape) if keep_sorted else None)
    blocks = _as_blocks(values)
    a, b = blocks.shape[:2]
    counts = np.empty(blocks.shape)
    ordered = np.empty(blocks.shape) if keep_sorted else None
    n = np.full((a, b), r, dtype=np.int64)
    low, high = np.empty((a, b)), np.empty((a, b))
    for ws, a_, b_ in _chunks(a, b, r):
        rows = ws.load(blocks[a_, b_])
        sorted_chunk = ws.sorted_buffer[:rows] if ordered is None else _rows(ordered[a_, b_])
        order, has_nan = ws.sort_rows(rows, sorted_chunk, stable=False)
        le = ws.work[:rows]
        if ties == "mid":  # (#{v <= v_i} + #{v < v_i}) / 2
            np.add(ws.group_ends(rows), ws.group_starts(rows), out=le, dtype=np.float64)
            le *= 0.5
        else:
            np.copyto(le, ws.group_ends(rows))
        chunk_n = n[a_, b_].reshape(rows)
        low[a_, b_] = sorted_chunk[:, 0].reshape(low[a_, b_].shape)
        if has_nan:
            missing = np.isnan(sorted_chunk)
            le[missing] = np.nan
            chunk_n[:] = r - missing.sum(axis=-1)
            last = np.maximum(chunk_n - 1, 0)
            high[a_, b_] = sorted_chunk[np.arange(rows), last].reshape(high[a_, b_].shape)
            if divide:
                with np.errstate(invalid="ignore", divide="ignore"):
                    le /= chunk_n[:, np.newaxis]
        else:
            high[a_, b_] = sorted_chunk[:, -1].reshape(high[a_, b_].shape)
            if divide:
                le /= r
        _rows(counts[a_, b_]).reshape(-1)[order.reshape(-1)] = le.reshape(-1)
    lead = shape[:-1]
    return RowRanks(counts.reshape(shape), n.reshape((*lead, 1)), low.reshape(lead),
                    high.reshape(lead), None if ordered is None else ordered.reshape(shape))


def merged_counts(x: np.ndarray, ref: np.ndarray, ties: Ties = "right"
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``#{ref <= x_j}`` (or the mid-rank count) for every ``x_j``, row by row.

    Each row of ``[ref, x]`` is sorted once with reference scores before equal
    ``x`` (they come first in the row), so the running count of reference scores at
    an ``x`` is ``#{ref <= x}``.

    Parameters
    ----------
    x, ref : numpy.ndarray
        ``(..., S)`` scores and ``(..., R)`` reference scores; the leading dims
        broadcast. ``NaN`` in ``ref`` is skipped, ``NaN`` in ``x`` gives ``NaN``.
    ties : {"right", "mid"}

    Returns
    -------
    counts : numpy.ndarray
        ``(..., S)`` float64.
    n : numpy.ndarray
        ``(..., 1)`` number of non-NaN reference scores per row.

    Examples
    --------
    >>> counts, n = merged_counts(np.array([[0.2, 0.3]]), np.array([[0.1, 0.2, 0.2, 0.4]]))
    >>> counts.tolist(), n.tolist()
    ([[3.0, 3.0]], [[4]])
    """
    x = np.asarray(x, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    lead = np.broadcast_shapes(x.shape[:-1], ref.shape[:-1])
    s, r = x.shape[-1], ref.shape[-1]
    xb = _as_blocks(np.broadcast_to(x, (*lead, s)))
    refb = _as_blocks(np.broadcast_to(ref, (*lead, r)))
    width = r + s
    counts = np.zeros(xb.shape)  # (stays 0 where the reference is empty)
    n = np.full((*refb.shape[:-1], 1), r, dtype=np.int64)
    if r == 0 or xb.size == 0:
        counts[np.isnan(xb)] = np.nan
        return counts.reshape((*lead, s)), n.reshape((*lead, 1))
    for ws, a_, b_ in _chunks(xb.shape[0], xb.shape[1], width):
        rows = ws.load(refb[a_, b_], xb[a_, b_])
        sorted_chunk = ws.sorted_buffer[:rows]
        order, has_nan = ws.sort_rows(rows, sorted_chunk, stable=True)
        from_ref = np.take(ws.reference_mask(r), order)
        if has_nan:
            from_ref &= ~np.isnan(sorted_chunk)
        le = np.cumsum(from_ref, axis=-1, dtype=np.int32, out=ws.counts[:rows])
        if ties == "mid":
            before = le - from_ref  # reference scores strictly before this sorted position
            # #{ref < v}: the count before the first member of v's tie group.
            starts = ws.group_starts(rows).astype(np.intp)
            le = (le + np.take_along_axis(before, starts, axis=-1)) * 0.5
        scattered = ws.vals[:rows]  # the merged scores are no longer needed
        scattered.reshape(-1)[order.reshape(-1)] = le.reshape(-1)
        out = _rows(counts[a_, b_])
        np.copyto(out, scattered[:, r:])
        if has_nan:
            out[np.isnan(_rows(xb[a_, b_]))] = np.nan
            n[a_, b_] = (~np.isnan(refb[a_, b_])).sum(axis=-1, keepdims=True)
    return counts.reshape((*lead, s)), n.reshape((*lead, 1))


def _as_blocks(values: np.ndarray) -> np.ndarray:
    """``(A, B, W)`` view (or copy, for odd strides) of ``(..., W)``: chunks go along A."""
    if values.ndim == 1:
        return values.reshape(1, 1, -1)
    if values.ndim == 2:
        return values[:, np.newaxis, :]
    return values.reshape(values.shape[0], -1, values.shape[-1])


def _chunks(a: int, b: int, width: int) -> Iterator[tuple[_Workspace, slice, slice]]:
    """Yield ``(workspace, a_slice, b_slice)`` chunks of an ``(A, B, width)`` array.

    A chunk is a few whole ``A`` entries or, when one is too big, a range of ``B`` in
    one ``A`` entry: either way its rows are contiguous in a C-ordered array.
    """
    if b * width <= CHUNK or b == 1:
        step = max(1, CHUNK // max(b * width, 1))
        ws = _Workspace(min(step, a) * b, width)
        for start in range(0, a, step):
            yield ws, slice(start, min(a, start + step)), slice(0, b)
    else:
        step = max(1, CHUNK // width)
        ws = _Workspace(min(step, b), width)
        for i in range(a):
            for start in range(0, b, step):
                yield ws, slice(i, i + 1), slice(start, min(b, start + step))


def _rows(block: np.ndarray) -> np.ndarray:
    """``(rows, width)`` view of a chunk's contiguous ``(a, b, width)`` block."""
    return block.reshape(-1, block.shape[-1])


class _Workspace:
    """Buffers of one chunk of ``rows × width`` scores, reused from chunk to chunk."""

    def __init__(self, rows: int, width: int) -> None:
        self.width = width
        self.vals = np.empty((rows, width))
        self.sorted_buffer = np.empty((rows, width))
        self.work = np.empty((rows, width))
        self.ends = np.empty((rows, width), dtype=bool)
        self.descends = np.empty((rows, max(width - 1, 0)), dtype=bool)
        self.order = np.empty((rows, width), dtype=np.int64)
        self.counts = np.empty((rows, width), dtype=np.int32)  # (cumsum is fast in int32)
        self.offsets = (np.arange(rows, dtype=np.int64) * width)[:, np.newaxis]
        self.bits = max(int(rows * width - 1).bit_length(), 1)
        self.exact = self.bits > MAX_CODE_BITS
        if not self.exact:
            self.keys = np.empty((rows, width), dtype=np.uint64)
            # A key's low bits: the score's flat place in the chunk.
            self.codes = np.arange(rows * width, dtype=np.uint64).reshape(rows, width)
            self.low = np.uint64((1 << self.bits) - 1)
            self.high = ~self.low
        # Tie-group bounds in the smallest integer type that holds a position.
        rank_type = np.int16 if width < 2**15 else np.int64
        self.ranks = np.empty((rows, width), dtype=rank_type)
        self.positions_minus_width = np.arange(1 - width, 1, dtype=rank_type)
        self.positions = np.arange(width, dtype=rank_type)
        self.starts = np.empty((rows, width), dtype=bool)
        self.first = np.empty((rows, width), dtype=rank_type)
        self._reference_mask: tuple[int, np.ndarray] | None = None

    def load(self, *parts: np.ndarray) -> int:
        """Copy ``(a, b, w_i)`` blocks side by side into ``vals``; returns the rows.

        Adding 0.0 turns ``-0.0`` into ``0.0``, so equal scores have equal bits, and
        quiets a signalling NaN, so every NaN's bits are above +inf's.
        """
        a, b = parts[0].shape[:2]
        rows = a * b
        vals = self.vals[:rows].reshape(a, b, self.width)
        start = 0
        for part in parts:
            width = part.shape[-1]
            with np.errstate(invalid="ignore"):  # (raised by a signalling NaN)
                np.add(part, 0.0, out=vals[..., start:start + width])
            start += width
        return rows

    def reference_mask(self, r: int) -> np.ndarray:
        """Flat mask of the chunk: True in the first ``r`` places of each row."""
        if self._reference_mask is None or self._reference_mask[0] != r:
            mask = np.zeros(self.order.shape, dtype=bool)
            mask[:, :r] = True
            self._reference_mask = (r, mask.reshape(-1))
        return self._reference_mask[1]

    def sort_rows(self, rows: int, sorted_out: np.ndarray, *, stable: bool
                  ) -> tuple[np.ndarray, bool]:
        """Sort the first ``rows`` rows of ``vals``: order, sorted values and tie groups.

        Returns the flat places (into ``vals``) of the sorted scores and whether a
        score is ``NaN``; fills ``sorted_out`` and ``ends`` (True at the last member of
        each tie group; each ``NaN`` is a group of its own). Equal scores keep their
        order of place, in the exact fallback too when ``stable``.
        """
        vals = self.vals[:rows]
        if self.exact:
            order = self.order[:rows]
            return order, self._exact_rows(np.arange(rows), order, sorted_out, stable=stable)
        keys = self.keys[:rows]
        if np.fmin.reduce(vals, axis=None) >= 0.0:  # no negative score (NaN aside)
            # Non-negative floats' bits order like them, and a NaN's (quiet since
            # ``load``, whatever its sign) sort after +inf's.
            np.bitwise_and(vals.view(np.uint64), self.high, out=keys)
            has_nan = None  # known after the sort
        else:  # the general order-preserving map
            np.copyto(keys, vals.view(np.uint64))
            flip = keys >> np.uint64(63)
            flip *= _MAGNITUDE
            flip |= _SIGN
            keys ^= flip  # negative: all bits flipped; positive: the sign bit set
            # A NaN now sorts above +inf, unless its sign bit was set (-nan): move those.
            negative_nan = bool(keys.min() < _NEG_INF_KEY)
            has_nan = negative_nan or bool(keys.max() > _INF_KEY)
            if negative_nan:
                keys[np.isnan(vals)] = _NAN_KEY
            keys &= self.high
        keys |= self.codes[:rows]
        keys.sort(axis=-1)
        if has_nan is None:  # a row's largest key is a NaN's if it has one
            has_nan = bool((keys[:, -1] >= _QUIET_NAN_BITS).any())
        order = np.bitwise_and(keys.view(np.int64), np.int64(self.low), out=self.order[:rows])
        np.take(vals.reshape(-1), order, out=sorted_out, mode="clip")  # "clip": unbuffered
        ends = self.ends[:rows]
        ends[:, -1] = True
        np.not_equal(sorted_out[:, 1:], sorted_out[:, :-1], out=ends[:, :-1])
        # Equal scores share a key and keep their order of place. Different scores that
        # share a key (within 2**bits ulps) go by place too, so they may come out
        # descending: redo such rows with an exact argsort.
        descends = np.less(sorted_out[:, 1:], sorted_out[:, :-1], out=self.descends[:rows])
        if descends.any():
            bad = np.flatnonzero(descends.any(axis=-1))
            self._exact_rows(bad, order, sorted_out, stable=stable)
        return order, has_nan

    def _exact_rows(self, which: np.ndarray, order: np.ndarray, sorted_out: np.ndarray, *,
                    stable: bool) -> bool:
        """Sort rows ``which`` by argsort; returns whether they hold a ``NaN``."""
        vals = self.vals[which]
        sub = np.argsort(vals, axis=-1, kind="stable" if stable else None)
        order[which] = sub + self.offsets[which]
        sorted_out[which] = np.take_along_axis(vals, sub, axis=-1)
        self.ends[which, -1] = True
        self.ends[which, :-1] = sorted_out[which, 1:] != sorted_out[which, :-1]
        return bool(np.isnan(sorted_out[which]).any())

    def group_ends(self, rows: int) -> np.ndarray:
        """1-based position of the last member of each score's tie group: ``#{v <= v_i}``."""
        ranks = self.ranks[:rows]
        np.multiply(self.ends[:rows], self.positions_minus_width, out=ranks)
        ranks += self.width  # a group's end: its position; elsewhere the row's width
        # A reverse running minimum spreads each group's end over the group.
        np.minimum.accumulate(ranks[:, ::-1], axis=-1, out=ranks[:, ::-1])
        return ranks

    def group_starts(self, rows: int) -> np.ndarray:
        """0-based position of the first member of each score's tie group: ``#{v < v_i}``."""
        starts = self.starts[:rows]
        starts[:, 0] = True
        starts[:, 1:] = self.ends[:rows, :-1]
        first = self.first[:rows]
        np.multiply(starts, self.positions, out=first)
        np.maximum.accumulate(first, axis=-1, out=first)
        return first
