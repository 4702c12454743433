"""Significance decisions of many t-tests at a grid of α, without computing p-values.

Resampling studies only need *how many* tests are significant at each α, for millions
of tests: a two-sided p-value from ``scipy.special.stdtr`` costs about a microsecond
each, which would dominate such a study. The decision ``p < α`` is the same as
``|t| > t_{1-α/2}(df)``, and the critical values are computed once per α and df range
(:class:`CriticalTable`):

- a table of a few thousand buckets of ``t²`` gives, for every bucket that no critical
  value (or, with a ``df`` per test, no range of critical values) crosses, the number of
  α at which the test is significant: one look-up per test instead of a p-value;
- the few tests in a bucket that a critical value crosses are decided exactly: against
  the exact critical values when all tests share one ``df`` (paired tests on complete
  data), otherwise by Hill's (1970, CACM Algorithm 395) transformation of ``|t|`` to the
  standard normal deviate with the same tail probability, accurate to better than 1e-6
  for ``df >= 10``, with the exact p-value for the tests within 1e-5 of a critical value
  (or with ``df < 10``).

The decisions therefore equal ``p < α`` with the p-values of
:func:`scorestd.kernels.significance.pvalue_from_t`.

:func:`paired_t_counts` and :func:`welch_t_counts` count the significant tests of every
pair of systems straight from the S × S moment matrices of each batch element, block by
block, without a per-pair array (their temporaries come from the
:mod:`~scorestd.kernels.workspace`); :func:`paired_t_complete` and
:func:`welch_t_all_pairs` return the statistics themselves; all expect complete scores.
"""

from __future__ import annotations

import functools

import numpy as np
from scipy import special, stats

from .blas import limited_blas
from .paired import complete_pair_moments
from .unpaired import unpaired_t_statistic
from .workspace import workspace

__all__ = [
    "CriticalTable",
    "count_significant_t",
    "fraction_significant_t",
    "paired_t_complete",
    "paired_t_counts",
    "welch_t_all_pairs",
    "welch_t_counts",
]

# Hill's transformation is checked to 1e-6 for df >= 10; closer calls get exact p-values.
_EXACT_DF_BELOW = 10.0
_TOLERANCE = 1e-5
# Buckets of the look-up table, and the relative margin around a critical value (or a
# range of them) inside which a test is decided exactly rather than by its bucket.
_BUCKETS = 4096
_MARGIN = 1e-8
# Relative rounding of a kernel's u (a few operations) and of a df: the buckets are
# widened by it.
_ROUNDING = 1e-12
# Buckets of df of the second table of a df range, and the number of undecided tests
# from which building it (a few milliseconds, once per table) pays.
_DF_BUCKETS = 256
_DF_TABLE_FROM = 4096
# Elements of one block of pair statistics (float64): a few such arrays live at once,
# so that the passes over a block run in cache.
BLOCK_CELLS = 2**16


def _alphas(alphas) -> np.ndarray:
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or alphas.size == 0:
        raise ValueError(f"alphas must be a non-empty 1-D grid, got shape {alphas.shape}")
    return alphas


class CriticalTable:
    """Decisions of two-sided t-tests at a grid of α from precomputed critical values.

    The table classifies a statistic ``u = factor · t²`` (a kernel computes ``u`` from its
    moments) into its *level*: the number of α at which the test is significant. Use
    :func:`critical_table` (cached) rather than the constructor.

    Parameters
    ----------
    alphas : array_like
        1-D grid of significance levels.
    df_low, df_high : float
        The range of degrees of freedom of the tests (equal when all share one ``df``).
    factor : float
        ``u / t²``.

    Attributes
    ----------
    critical : numpy.ndarray
        The critical values ``|t|`` of one ``df`` (``df_low``), sorted ascending.
    order : numpy.ndarray
        ``alphas[order]`` lists α by ascending critical value (descending α).
    ambiguous : int
        The level the table gives a test it cannot decide (``len(alphas) + 1``).

    Examples
    --------
    >>> table = critical_table((0.01, 0.05), 20.0)
    >>> t = np.array([1.0, 2.5, 3.0, np.nan, np.inf])
    >>> table.exact_levels(np.abs(t)).tolist()  # significant at 0, 1, 2, 0, 2 levels
    [0, 1, 2, 0, 2]
    >>> table.levels(t * t).tolist()
    [0, 1, 2, 0, 2]
    """

    def __init__(self, alphas, df_low: float, df_high: float | None = None,
                 factor: float = 1.0) -> None:
        self.alphas = _alphas(alphas)
        df_high = df_low if df_high is None else df_high
        self.df_low, self.df_high, self.factor = float(df_low), float(df_high), float(factor)
        half = self.alphas / 2.0
        self.single_df = self.df_low == self.df_high
        # the critical values the exact decisions of one df use (as before this table)
        crit = stats.t.isf(half, self.df_low)
        self.order = np.argsort(crit, kind="stable")
        self.critical = crit[self.order]
        self.normal_critical = -special.ndtri(half[self.order])
        # range of every critical value over the df range, on the u scale, widened
        low = stats.t.isf(half, self.df_high)[self.order] ** 2 * self.factor * (1 - _MARGIN)
        high = stats.t.isf(half, self.df_low)[self.order] ** 2 * self.factor * (1 + _MARGIN)
        #: multiplier of u that gives its bucket (the integer part, up to _BUCKETS - 1)
        self.scale = _BUCKETS / (float(high.max()) * 1.05)
        self.ambiguous = self.alphas.size + 1
        lut = self._classify(low[None, :], high[None, :])[:, 0]
        lut[-1] = self.alphas.size  # at or above the top (and inf): significant everywhere
        # (a bucket that a critical value crosses, bucket 0 too when the critical values
        # span thousands of bucket widths, is decided exactly)
        self.lut = lut.astype(np.intp)

    def _classify(self, low: np.ndarray, high: np.ndarray) -> np.ndarray:
        """Level of every u bucket (rows) for each set of critical ranges ``low``/``high``
        (columns × α, ascending), or ``ambiguous`` when a range crosses the bucket."""
        # bucket k holds u·scale in [k, k + 1), widened by the rounding of u·scale
        k = np.arange(_BUCKETS, dtype=np.float64)[:, None]
        lower = k * (1 - _ROUNDING) / self.scale
        upper = (k + 1.0) * (1 + _ROUNDING) / self.scale
        level = np.zeros((_BUCKETS, low.shape[0]),
                         dtype=np.uint8 if self.ambiguous < 256 else np.intp)
        decided = np.ones((_BUCKETS, low.shape[0]), dtype=bool)
        for m in range(self.alphas.size):
            significant = lower > high[:, m]
            level += significant
            decided &= significant | (upper <= low[:, m])
        level[~decided] = self.ambiguous
        return level

    def levels(self, u: np.ndarray, out: np.ndarray | None = None,
               work: np.ndarray | None = None) -> np.ndarray:
        """The level of every statistic ``u = factor · t²`` (``ambiguous`` where undecided).

        ``u`` must be ≥ 0 or NaN (NaN: not significant). ``out`` (intp) and ``work``
        (float64, may be ``u`` itself, which is then overwritten) are optional buffers of
        the shape of ``u``.
        """
        if work is None:
            work = np.empty(u.shape)
        np.multiply(u, self.scale, out=work)
        np.minimum(work, _BUCKETS - 1, out=work)  # inf → top bucket; NaN stays NaN
        index = np.empty(u.shape, dtype=np.intp) if out is None else out
        with np.errstate(invalid="ignore"):
            np.copyto(index, work, casting="unsafe")
        if not _NAN_INDEX_IS_NEGATIVE:
            index[np.isnan(work)] = 0
        # NaN became the most negative integer: clipped to bucket 0, not significant
        return np.take(self.lut, index, out=index, mode="clip")

    def exact_levels(self, abs_t: np.ndarray, df=None) -> np.ndarray:
        """Exact level of ``|t|`` statistics (with their ``df`` when the table has a range).

        One ``df``: the number of critical values ``|t|`` exceeds. A ``df`` per test:
        Hill's normal deviate, exact p-values close to a critical value (module notes).
        """
        abs_t = np.asarray(abs_t, dtype=np.float64)
        if self.single_df or df is None:
            level = np.searchsorted(self.critical, abs_t, side="left")
            return np.where(np.isnan(abs_t), 0, level)
        df = np.broadcast_to(np.asarray(df, dtype=np.float64), abs_t.shape)
        if abs_t.size < _DF_TABLE_FROM:
            return self._hill_levels(abs_t, df)
        with np.errstate(over="ignore"):
            u = abs_t * abs_t
            u *= self.factor
        level = self.df_levels(u, df)
        # a NaN statistic is never significant, an infinite one always
        level[np.isnan(abs_t)] = 0
        self.resolve(level, lambda where: self._hill_levels(abs_t[where], df[where]))
        return level

    def _hill_levels(self, abs_t: np.ndarray, df: np.ndarray) -> np.ndarray:
        z = _normal_deviate(abs_t, df, self.normal_critical)
        level = np.searchsorted(self.normal_critical, z, side="left")
        return np.where(np.isnan(abs_t), 0, level)  # NaN: no p-value, not significant

    def df_levels(self, u: np.ndarray, df: np.ndarray) -> np.ndarray:
        """Levels of statistics ``u = factor · t²`` with their own ``df``, from the table
        over (u, df) buckets; ``ambiguous`` where a bucket is undecided.

        For a table of a df range: the critical values of a narrow df bucket leave far
        fewer tests undecided than those of the whole range.
        """
        lut, df_scale = self._df_table()
        work = np.multiply(u, self.scale)
        np.minimum(work, _BUCKETS - 1, out=work)
        index = np.empty(u.shape, dtype=np.intp)
        with np.errstate(invalid="ignore"):
            np.copyto(index, work, casting="unsafe")
        np.clip(index, 0, _BUCKETS - 1, out=index)  # NaN: bucket 0, not significant
        d = (df - self.df_low) * df_scale
        np.clip(d, 0, _DF_BUCKETS - 1, out=d)
        index *= _DF_BUCKETS
        index += np.nan_to_num(d, nan=0.0).astype(np.intp)
        level = lut[index].astype(np.intp)
        # a NaN df with a finite statistic: left to the exact decision
        level[np.isnan(df) & np.isfinite(u)] = self.ambiguous
        return level

    def _df_table(self) -> tuple[np.ndarray, float]:
        """The look-up table over (u bucket, df bucket), built on first use."""
        if getattr(self, "_lut_df", None) is None:
            width = (self.df_high - self.df_low) / _DF_BUCKETS
            # df bucket b holds df in [low + b w, low + (b + 1) w), widened by rounding
            edges = self.df_low + width * np.arange(_DF_BUCKETS + 1)
            start = np.clip(edges[:-1] * (1 - _ROUNDING), self.df_low, self.df_high)
            stop = np.clip(edges[1:] * (1 + _ROUNDING), self.df_low, self.df_high)
            half = self.alphas[self.order][None, :] / 2.0
            low = stats.t.isf(half, stop[:, None]) ** 2 * self.factor * (1 - _MARGIN)
            high = stats.t.isf(half, start[:, None]) ** 2 * self.factor * (1 + _MARGIN)
            lut = self._classify(low, high)
            lut[-1] = self.alphas.size
            self._lut_df = lut.reshape(-1)
            self._df_scale = 1.0 / width
        return self._lut_df, self._df_scale

    def resolve(self, levels: np.ndarray, exact) -> None:
        """Replace the undecided entries of ``levels`` (C-contiguous) by
        ``exact(flat positions)``."""
        flat = levels.reshape(-1)
        where = np.flatnonzero(flat == self.ambiguous)
        if where.size:
            flat[where] = exact(where)

    def counts(self, hist: np.ndarray) -> np.ndarray:
        """Counts of significant tests per α (in ``alphas`` order) from level histograms.

        ``hist[..., L]`` is how many tests have level L (L = 0 … len(alphas)).
        """
        n = self.alphas.size
        # tests significant at the m-th smallest critical value: levels above m
        above = np.cumsum(hist[..., n:0:-1], axis=-1)[..., ::-1]
        out = np.empty(above.shape, dtype=np.int64)
        out[..., self.order] = above
        return out


def _nan_index_is_negative() -> bool:
    """Whether casting NaN to an integer gives a negative index on this platform."""
    with np.errstate(invalid="ignore"):
        return int(np.array([np.nan, np.nan]).astype(np.intp)[0]) < 0


_NAN_INDEX_IS_NEGATIVE = _nan_index_is_negative()


@functools.lru_cache(maxsize=64)
def _cached_table(alphas: tuple[float, ...], df_low: float, df_high: float,
                  factor: float) -> CriticalTable:
    return CriticalTable(alphas, df_low, df_high, factor)


def critical_table(alphas, df_low: float, df_high: float | None = None,
                   factor: float = 1.0) -> CriticalTable:
    """The (cached) :class:`CriticalTable` of ``alphas`` over ``[df_low, df_high]``.

    Examples
    --------
    >>> critical_table([0.05], 49) is critical_table([0.05], 49.0)
    True
    """
    df_high = df_low if df_high is None else df_high
    return _cached_table(tuple(float(a) for a in _alphas(alphas)), float(df_low),
                         float(df_high), float(factor))


@limited_blas
def paired_t_complete(x: np.ndarray) -> tuple[np.ndarray, int]:
    """Paired t statistics of every pair of systems on complete scores.

    Parameters
    ----------
    x : numpy.ndarray
        Scores ``(..., T, S)`` without NaN (topics second to last).

    Returns
    -------
    t : numpy.ndarray
        ``(..., P)`` for the pairs of ``numpy.triu_indices(S, k=1)`` (system i minus
        system j). ``NaN`` for two identical systems (0/0: never significant).
    df : int
        ``T - 1``.

    Examples
    --------
    >>> x = np.array([[0.2, 0.1, 0.3], [0.4, 0.2, 0.1], [0.6, 0.4, 0.2], [0.5, 0.4, 0.3]])
    >>> t, df = paired_t_complete(x)
    >>> t.round(3).tolist(), df
    ([5.196, 1.852, 0.577], 3)
    """
    x = np.asarray(x, dtype=np.float64)
    n = x.shape[-2]
    i, j = np.triu_indices(x.shape[-1], k=1)
    diff, var, _, _ = complete_pair_moments(x, i, j)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = diff / np.sqrt(var / n)
    return t, n - 1


def welch_t_all_pairs(x1: np.ndarray, x2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Welch's t and df of every system on ``x1`` against every system on ``x2``.

    Parameters
    ----------
    x1, x2 : numpy.ndarray
        Scores ``(..., T1, S)`` and ``(..., T2, S)`` (topics second to last).

    Returns
    -------
    t, df : numpy.ndarray
        Each ``(..., S, S)``: entry ``[i, j]`` is system i on ``x1`` against system j
        on ``x2``, as :func:`scorestd.kernels.unpaired.unpaired_t_all_pairs` (without
        its p-values).

    Examples
    --------
    >>> t, df = welch_t_all_pairs(np.array([[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]]),
    ...                           np.array([[0.1, 0.3], [0.2, 0.2]]))
    >>> t.round(3).tolist()
    [[0.655, -0.655], [4.583, 3.273]]
    """
    return unpaired_t_statistic(x1, x2)


def fraction_significant_t(t, df, alphas, axis: int = -1) -> np.ndarray:
    """Fraction of two-sided t-tests with ``p < α``, for each α, from ``t`` and ``df``.

    :func:`count_significant_t` divided by the number of tests along ``axis``.

    Examples
    --------
    >>> fraction_significant_t([2.5, -1.0, 4.0, 0.0], 20, [0.01, 0.05]).tolist()
    [0.25, 0.5]
    """
    return count_significant_t(t, df, alphas, axis=axis) / np.shape(t)[axis]


def count_significant_t(t, df, alphas, axis: int = -1) -> np.ndarray:
    """Number of two-sided t-tests with ``p < α``, for each α, from ``t`` and ``df``.

    Parameters
    ----------
    t : array_like
        t statistics.
    df : float or array_like
        Degrees of freedom: one number, or one per test (broadcast against ``t``).
    alphas : array_like
        1-D grid of significance levels.
    axis : int
        Axis of ``t`` to count over.

    Returns
    -------
    numpy.ndarray
        Counts (int): the shape of ``t`` without ``axis``, plus a last axis of length
        ``len(alphas)``. A NaN statistic (0/0: two identical samples, p = 1) is counted
        as a test that is not significant.

    Examples
    --------
    >>> count_significant_t([2.5, -1.0, 4.0, 0.0], 20, [0.01, 0.05]).tolist()
    [1, 2]
    """
    alphas = _alphas(alphas)
    t = np.moveaxis(np.asarray(t, dtype=np.float64), axis, -1)
    df = np.asarray(df, dtype=np.float64)
    if df.ndim:
        df = np.moveaxis(np.broadcast_to(df, np.shape(t)), axis, -1)
        if np.all(df == df.flat[0]):
            df = df.flat[0]
    batch, n = t.shape[:-1], t.shape[-1]
    a = np.abs(t).reshape(-1, n)
    if df.ndim:
        df_flat = df.reshape(-1, n)
        finite = df_flat[np.isfinite(df_flat)]
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (1.0, 1.0)
        table = critical_table(alphas, low, high)
    else:
        df_flat = None
        table = critical_table(alphas, float(df))
    with np.errstate(over="ignore"):
        u = a * a
    levels = table.levels(u, work=u)
    if df_flat is not None:
        # a test with a NaN df has no p-value (NaN statistic) or an infinite one
        levels[np.isnan(df_flat) & ~np.isinf(a)] = 0
    table.resolve(levels, lambda where: table.exact_levels(
        a.ravel()[where], None if df_flat is None else df_flat.ravel()[where]))
    hist = _histogram(levels, alphas.size)
    return table.counts(hist).reshape(*batch, alphas.size)


def _histogram(levels: np.ndarray, n_alphas: int) -> np.ndarray:
    """``(rows, n_alphas + 1)`` counts of each level 0 … ``n_alphas`` in each row of
    ``levels`` (rows, n, intp, C-contiguous; overwritten)."""
    rows = levels.shape[0]
    width = n_alphas + 1
    levels += (np.arange(rows, dtype=np.intp) * width)[:, None]
    return np.bincount(levels.reshape(-1), minlength=rows * width).reshape(rows, width)


def _row_blocks(n_rows: int, width: int, units: int, cells: int) -> list[tuple[int, int]]:
    """Row ranges ``[i0, i1)`` of about ``cells`` elements over ``units`` matrices each."""
    step = max(1, cells // max(1, units * width))
    return [(i0, min(n_rows, i0 + step)) for i0 in range(0, n_rows, step)]


def _unit_chunks(units: int, per_unit: int, cells: int) -> list[slice]:
    step = max(1, cells // max(1, per_unit))
    return [slice(u0, min(units, u0 + step)) for u0 in range(0, units, step)]


@limited_blas
def paired_t_counts(x: np.ndarray, alphas, *, centre: np.ndarray | None = None) -> np.ndarray:
    """Number of system pairs with a significant two-sided paired t-test, at each α.

    Every pair i < j of the systems of each batch element is tested (the diagonal and
    the duplicate pair j, i are skipped), from one S × S cross-product matrix per batch
    element and the systems' means, block by block: no array of all pairs is formed,
    and no p-value computed. The counts equal counting ``p < α`` over the p-values of
    :func:`scorestd.kernels.paired.paired_t_all_pairs`; two identical systems are not
    significant.

    Parameters
    ----------
    x : numpy.ndarray
        Complete scores ``(..., T, S)`` (topics second to last), T ≥ 2, S ≥ 2.
    alphas : array_like
        1-D grid of significance levels.
    centre : numpy.ndarray, optional
        The systems' means ``x.mean(axis=-2)``, ``(..., S)``, when the caller has them.

    Returns
    -------
    numpy.ndarray
        ``(..., len(alphas))`` counts (int64) out of ``S (S - 1) / 2`` pairs.

    Examples
    --------
    >>> x = np.array([[0.2, 0.1, 0.3], [0.4, 0.2, 0.1], [0.6, 0.4, 0.2], [0.5, 0.4, 0.3]])
    >>> paired_t_counts(x, [0.05, 0.2]).tolist()  # p = 0.014, 0.161, 0.604
    [1, 2]
    """
    x = np.asarray(x, dtype=np.float64)
    alphas = _alphas(alphas)
    *batch, n, s = x.shape
    if n < 2 or s < 2:
        raise ValueError(f"need at least 2 topics and 2 systems, got {n} and {s}")
    x = x.reshape(-1, n, s)
    units = x.shape[0]
    if centre is None:
        centre = x.mean(axis=-2)
    centre = np.asarray(centre, dtype=np.float64).reshape(units, s)
    # u = diff² / (S_ij / 2), S_ij = d_i + d_j - 2 g_ij = (T - 1) var_ij, so that
    # t² = diff² / (var / T) = u · T (T - 1) / 2
    table = critical_table(alphas, n - 1, factor=2.0 / (n * (n - 1.0)))
    width = alphas.size + 1
    hist = np.zeros((units, width), dtype=np.int64)
    ws = workspace()
    for chunk in _unit_chunks(units, s * s, 4 * BLOCK_CELLS):
        m = chunk.stop - chunk.start
        z = ws.array("paired_z", (m, n, s))
        np.subtract(x[chunk], centre[chunk, None, :], out=z)
        g = ws.array("paired_g", (m, s, s))
        np.matmul(z.transpose(0, 2, 1), z, out=g)  # symmetric: one syrk per element
        d = np.diagonal(g, axis1=1, axis2=2)
        half = d * 0.5
        c = centre[chunk]
        for i0, i1 in _row_blocks(s - 1, s, m, BLOCK_CELLS):
            _paired_block(g, d, half, c, centre[chunk], i0, i1, n, table,
                          hist[chunk], ws)
    return table.counts(hist).reshape(*batch, alphas.size)


def _paired_block(g, d, half, c, mean, i0, i1, n, table, hist, ws):
    """Levels of the pairs (i, j), i0 ≤ i < i1, j > i; add them to ``hist``."""
    m, s = g.shape[0], g.shape[-1]
    h, w = i1 - i0, s - i0
    shape = (m, h, w)
    var2 = ws.array("paired_var", shape)
    np.add(half[:, i0:i1, None], half[:, None, i0:], out=var2)
    np.subtract(var2, g[:, i0:i1, i0:], out=var2)  # (T - 1) var / 2, exactly
    u = ws.array("paired_u", shape)
    np.subtract(c[:, i0:i1, None], c[:, None, i0:], out=u)
    np.multiply(u, u, out=u)
    with np.errstate(invalid="ignore", divide="ignore"):
        np.divide(u, var2, out=u)
    # rounding can leave a slightly negative variance for a constant difference
    # (t = ±inf): |u| keeps it infinite or huge, as it should be
    np.abs(u, out=u)
    rows, cols = _lower_triangle(h)
    u[:, rows, cols] = np.nan  # j <= i: the diagonal and duplicate pairs
    levels = table.levels(u, out=ws.array("paired_level", shape, np.intp), work=u)

    def exact(where):
        k, r, col = np.unravel_index(where, shape)
        i, j = r + i0, col + i0
        var = np.maximum(d[k, i] + d[k, j] - 2.0 * g[k, i, j], 0.0) / (n - 1)
        with np.errstate(invalid="ignore", divide="ignore"):
            t = (mean[k, i] - mean[k, j]) / np.sqrt(var / n)
        return table.exact_levels(np.abs(t))

    table.resolve(levels, exact)
    hist += _histogram(levels.reshape(m, -1), table.alphas.size)


@functools.lru_cache(maxsize=16)
def _lower_triangle(h: int) -> tuple[np.ndarray, np.ndarray]:
    """Indices (row, column) of a block's cells on or below its diagonal (j ≤ i)."""
    return np.tril_indices(h, m=h)


def welch_t_counts(x1: np.ndarray, x2: np.ndarray, alphas) -> tuple[np.ndarray, np.ndarray]:
    """Numbers of significant two-sided Welch t-tests of every system on ``x1`` against
    every system on ``x2``, at each α: of a system against itself, and against the others.

    The statistics come from the systems' means and variances, block by block (no array
    of all pairs, no p-value); the decisions are those of ``p < α`` with the p-values of
    :func:`scorestd.kernels.unpaired.unpaired_t_all_pairs` (two constant samples with
    equal means are not significant).

    Parameters
    ----------
    x1, x2 : numpy.ndarray
        Complete scores ``(..., T1, S)`` and ``(..., T2, S)``, T1, T2 ≥ 2.
    alphas : array_like
        1-D grid of significance levels.

    Returns
    -------
    same, other : numpy.ndarray
        ``(..., len(alphas))`` counts (int64): of the S tests of system i on ``x1``
        against system i on ``x2``, and of the S (S - 1) tests of i against j ≠ i.

    Examples
    --------
    >>> x1 = np.array([[0.2, 0.4], [0.3, 0.6], [0.1, 0.5]])
    >>> x2 = np.array([[0.1, 0.3], [0.2, 0.2]])
    >>> same, other = welch_t_counts(x1, x2, [0.05, 0.5])  # p: [[.561, .561], [.021, .049]]
    >>> same.tolist(), other.tolist()
    ([1, 1], [1, 1])
    """
    x1 = np.asarray(x1, dtype=np.float64)
    x2 = np.asarray(x2, dtype=np.float64)
    alphas = _alphas(alphas)
    *batch, n1, s = x1.shape
    n2 = x2.shape[-2]
    if x2.shape[:-2] != tuple(batch) or x2.shape[-1] != s:
        raise ValueError(f"x1 and x2 must have the same batch shape and systems, got "
                         f"{x1.shape} and {x2.shape}")
    if n1 < 2 or n2 < 2:
        raise ValueError(f"need at least 2 topics on each side, got {n1} and {n2}")
    m1, v1 = _mean_var(x1.reshape(-1, n1, s))
    m2, v2 = _mean_var(x2.reshape(-1, n2, s))
    units = m1.shape[0]
    a, b = v1 / n1, v2 / n2
    # Welch–Satterthwaite df lies between min(n1, n2) - 1 and n1 + n2 - 2
    table = critical_table(alphas, min(n1, n2) - 1.0, n1 + n2 - 2.0)
    # levels 0 … len(alphas), and one more for the tests decided at the end, together
    width = alphas.size + 2
    hist = np.zeros((units, width), dtype=np.int64)
    same = np.zeros((units, width), dtype=np.int64)
    deferred = table.ambiguous
    pending: list[tuple[np.ndarray, ...]] = []
    ws = workspace()
    a2, b2 = a * a / (n1 - 1), b * b / (n2 - 1)  # the df's denominator, as unpaired's
    # (blocks twice the paired kernel's: measured fastest for these passes)
    cells = 2 * BLOCK_CELLS
    for chunk in _unit_chunks(units, s * s, cells):
        m = chunk.stop - chunk.start
        for i0, i1 in _row_blocks(s, s, m, cells):
            shape = (m, i1 - i0, s)
            se2 = ws.array("welch_se2", shape)
            np.add(a[chunk, i0:i1, None], b[chunk, None, :], out=se2)
            u = ws.array("welch_u", shape)
            np.subtract(m1[chunk, i0:i1, None], m2[chunk, None, :], out=u)
            np.multiply(u, u, out=u)
            with np.errstate(invalid="ignore", divide="ignore"):
                np.divide(u, se2, out=u)
            levels = table.levels(u, out=ws.array("welch_level", shape, np.intp),
                                  work=ws.array("welch_work", shape))

            def undecided(where, chunk=chunk, i0=i0, i1=i1, se2=se2, u=u):
                # the table of narrow df buckets, with each test's df (the arithmetic of
                # unpaired_t_statistic); the closest calls wait for one exact pass
                row, j = np.divmod(where, s)
                k = row // (i1 - i0) + chunk.start
                i = row % (i1 - i0) + i0
                with np.errstate(invalid="ignore", divide="ignore"):
                    df = np.take(se2, where) ** 2 / (a2[k, i] + b2[k, j])
                level = table.df_levels(np.take(u, where), df)
                rest = np.flatnonzero(level == table.ambiguous)
                if rest.size:
                    pending.append((k[rest], i[rest], j[rest]))
                    level[rest] = deferred
                return level

            table.resolve(levels, undecided)
            diagonal = np.diagonal(levels[:, :, i0:i1], axis1=1, axis2=2)
            same[chunk] += _histogram(np.ascontiguousarray(diagonal), width - 1)
            hist[chunk] += _histogram(levels.reshape(m, -1), width - 1)
    if pending:  # Hill's transformation and exact p-values, once for the whole call
        k, i, j = (np.concatenate(parts) for parts in zip(*pending, strict=True))
        t, df = _welch(m1[k, i], a[k, i], n1, m2[k, j], b[k, j], n2)
        # 0/0: two constant samples with equal means, not significant
        level = np.where(np.isnan(t), 0, table.exact_levels(np.abs(t), df))
        np.add.at(hist, (k, level), 1)
        diag = i == j
        np.add.at(same, (k[diag], level[diag]), 1)
    same_counts = table.counts(same[:, :-1])
    other = table.counts(hist[:, :-1]) - same_counts
    shape = (*batch, alphas.size)
    return same_counts.reshape(shape), other.reshape(shape)


def _mean_var(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance (n − 1) over axis −2 of complete scores, as
    :func:`scorestd.kernels.unpaired.system_moments` computes them."""
    n = x.shape[-2]
    mean = np.sum(x, axis=-2) / n
    dev = workspace().array("welch_dev", x.shape)
    np.subtract(x, mean[..., None, :], out=dev)
    np.multiply(dev, dev, out=dev)
    return mean, np.sum(dev, axis=-2) / (n - 1)


def _welch(m1, a, n1, m2, b, n2):
    """Welch's t and df from means and squared standard errors (as :mod:`.unpaired`)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        se2 = a + b
        df = se2 * se2 / (a * a / (n1 - 1) + b * b / (n2 - 1))
        t = (m1 - m2) / np.sqrt(se2)
    return t, df


def _normal_deviate(a: np.ndarray, df: np.ndarray, critical: np.ndarray) -> np.ndarray:
    """Normal deviate with the two-sided tail probability of ``|t| = a`` (Hill 1970).

    Values within the approximation's tolerance of a (sorted) critical value, or with
    a small ``df``, are recomputed from the exact p-value.
    """
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        h = df - 0.5
        b = 48.0 * h * h
        y = h * np.log1p(a * a / df)
        z = (((((-0.4 * y - 3.3) * y - 24.0) * y - 85.5) / (0.8 * y * y + 100.0 + b)
              + y + 3.0) / b + 1.0) * np.sqrt(y)
    z = np.where(np.isinf(a) & (df > 0), np.inf, z)
    level = np.searchsorted(critical, z)
    nearest_below = critical[np.maximum(level - 1, 0)]
    nearest_above = critical[np.minimum(level, critical.size - 1)]
    close = (np.abs(z - nearest_below) < _TOLERANCE) | (np.abs(z - nearest_above) < _TOLERANCE)
    close |= df < _EXACT_DF_BELOW
    close &= np.isfinite(a)
    if close.any():
        half_p = special.stdtr(df[close], -a[close])  # the p-value is 2 × this
        z[close] = -special.ndtri(half_p)
    return z
