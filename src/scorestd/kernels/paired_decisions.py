"""Decisions of the paired tests of an error-rate study, for a batch of difference vectors.

A simulation study of Type I, II and III errors (Urbano, Lima & Hanjalic, SIGIR 2019)
needs, for millions of pairs of runs, only whether each test rejects at each α of a grid,
one-tailed (``H1: mean > 0``) and two-tailed. :func:`paired_decisions` decides them for a
batch ``d`` (trials × topics) of differences (experimental − baseline) as the published
R code does (``round(p, 6) <= α``), without a p-value where a count or a statistic can be
compared with precomputed thresholds instead:

- **paired t** (R's ``t.test``): the statistic against critical values computed once per
  α; a trial whose differences are constant (R stops with "data are essentially
  constant") or all zero (R's p-value is NaN) is not valid;
- **Wilcoxon signed-rank** (R's ``wilcox.test``): zeros dropped, average ranks of
  ``|d|`` from one integer sort per trial; the exact null distribution when fewer than
  50 differences remain and there are no ties and no zeros, else the normal
  approximation with tie and continuity corrections (statistics and p-values:
  :func:`~scorestd.kernels.rank_tests.signed_ranks` and
  :func:`~scorestd.kernels.rank_tests.signed_rank_pvalues`, the implementation the
  all-pairs tests use with scipy's conventions);
- **sign test** (R's ``binom.test``): wins ``d > min_diff`` among the ``m`` differences
  with ``|d| > min_diff``, decided by a table over ``(m, wins)`` of
  :func:`~scorestd.kernels.rank_tests.sign_pvalues`; ``m = 0`` is not valid;
- **permutation** (random sign flips) and **bootstrap** (shift method: resamples of the
  topics, centred on the observed mean) tests with ``resamples`` resamples, p-value
  ``(1 + #{as extreme}) / (resamples + 1)``: the published code's ``#{as extreme} /
  resamples`` with its 10⁶ resamples is within 10⁻⁶ of it, but with fewer it would add
  ``1 / (resamples + 1)`` to every rejection rate (5e-4 at 2,000 resamples, half the
  rate at α = .001), where this one keeps an exact test's rate at α. The resampled sums
  of every trial of a block come from one float32 matrix product per chunk of
  resamples (the resample matrices hold small integers, exact in float32), counted
  against the thresholds in one compiled pass (:mod:`~scorestd.kernels.band_counts`); a
  sum too close to a threshold for float32 to tell its side is computed again in
  float64, so the counts are those of float64 sums. Differences on a lattice ``k / q`` (P@10's:
  ``q = 10``; ``q`` found from the batch's distinct ``|d|``) are resampled as the
  integers ``k``: their sums are exact in float32 (below 2²⁴), compared with the integer
  thresholds with no band and no recount, and decided as float64 sums are (the same
  decisions). A trial leaves the computation as soon as it has more resamples as
  extreme as observed than the largest α allows, in both tails (its decisions can no
  longer change).

Resamples: trial ``t`` (counted from ``first_trial``) belongs to resampling block
``t // block``, whose resamples (one ``resamples × topics`` matrix of sign flips, one of
bootstrap counts) are drawn from ``SeedSequence`` child ``(t // block, 1)`` (permutation)
or ``(t // block, 2)`` (bootstrap) of ``seed``, with, from the same generator, a random
sign per topic (permutation) or a random order of the topics (bootstrap) for each trial
of the block: every trial's test is an exact randomisation test with its own resamples
(marginally uniform), and the counts of two trials are uncorrelated. The decisions of a
trial therefore depend only on its differences, its index and ``seed``, never on how the
trials are split into calls.
"""

from __future__ import annotations

import fractions
import functools
import math
from typing import NamedTuple

import numpy as np
from scipy import stats

from .blas import limited_blas
from .rank_tests import sign_counts, sign_pvalues, signed_rank_pvalues, signed_ranks
from .seeds import child_sequence, root_sequence

__all__ = ["PAIRED_TESTS", "PairedDecisions", "paired_decisions"]

#: The tests, in the order of the paper.
PAIRED_TESTS: tuple[str, ...] = ("paired_t", "wilcoxon", "sign", "permutation", "bootstrap")

#: R's wilcox.test uses the exact null distribution below this many non-zero differences.
EXACT_BELOW = 50
# Resampled sums within this relative distance of the observed one count as "as extreme"
# (equal in exact arithmetic; e.g. discrete scores give many such ties).
_REL_TOL = 1e-9
# Resampled sums per chunk of the matrix product (float32: 1 MiB, in L2 cache; measured
# 5-10% faster than 512 KiB and than 2 MiB).
_CHUNK_CELLS = 2**18
# Unit roundoff of float32.
_F32_UNIT = 2.0**-24
# Below this largest |difference| of a trial its float32 copy would leave float32's normal
# range (relative precision lost): such a trial's sums are computed in float64.
_F32_SMALLEST = float(np.finfo(np.float32).tiny) * 2.0**24
# Float32 sums of a trial too close to a threshold, in one chunk, recounted one by one in
# float64; a trial with more (discrete scores: many sums equal the observed one) has its
# sums computed in float64 from then on.
_RECOUNT_MAX = 4
_STREAMS = {"permutation": 1, "bootstrap": 2}
# Differences on a lattice k / q with q up to this are decided on the integers k (exact in
# float32) when a batch has at most this many distinct |d|.
_LATTICE_MAX_Q = 1000
_LATTICE_MAX_VALUES = 1024


class PairedDecisions(NamedTuple):
    """Decisions of :func:`paired_decisions`.

    ``reject`` ``(tests, 2, N, A)``: ``[:, 0]`` one-tailed (``mean > 0``), ``[:, 1]``
    two-tailed, at each α; False where not valid. ``valid`` ``(tests, N)``: the test has
    a p-value for the trial. ``negative`` ``(N,)``: the mean difference, rounded as the
    p-values are, is below 0 (a two-tailed rejection is then in the wrong direction when
    the true effect is positive).
    """

    reject: np.ndarray
    valid: np.ndarray
    negative: np.ndarray


@limited_blas
def paired_decisions(d, alphas, tests=PAIRED_TESTS, *, resamples: int = 2000,
                     min_diff: float = 0.01, seed=None, first_trial: int = 0,
                     block: int = 512, digits: int | None = 6) -> PairedDecisions:
    """Decide the paired tests of every row of ``d`` at every α, both tails.

    Parameters
    ----------
    d : array_like
        Differences ``(N, T)``, one trial per row (e.g. experimental − baseline), no NaN.
    alphas : array_like
        Significance levels ``(A,)``, each in (0, 1).
    tests : sequence of str
        Among ``"paired_t"``, ``"wilcoxon"``, ``"sign"``, ``"permutation"``,
        ``"bootstrap"``.
    resamples : int
        Resamples of the permutation and bootstrap tests.
    min_diff : float
        The sign test counts ``|d| <= min_diff`` as a tie (the paper: 0.01).
    seed : int, numpy.random.SeedSequence or Generator
        Root of the resamples (required with a resampling test).
    first_trial : int
        Index of the first row among all trials of the study (its resampling block).
    block : int
        Trials per resampling block (they share one matrix of resamples).
    digits : int or None
        p-values are rounded to this many decimals before ``p <= α`` (the published code
        rounds to 6); ``None``: ``p <= α`` exactly.

    Returns
    -------
    PairedDecisions

    Examples
    --------
    >>> d = np.array([[0.12, 0.05, 0.30, -0.02, 0.21, 0.08, 0.15, 0.11, -0.01, 0.09]])
    >>> r = paired_decisions(d, [0.01, 0.05], resamples=2000, seed=1)
    >>> r.reject[:, 1, 0].tolist()  # two-tailed, α = .01 and .05, per test
    [[True, True], [True, True], [False, True], [True, True], [True, True]]
    """
    d = np.ascontiguousarray(d, dtype=np.float64)
    if d.ndim != 2 or d.shape[1] < 2:
        raise ValueError(f"d must be (trials, topics) with at least 2 topics, got {d.shape}")
    if np.isnan(d).any():
        raise ValueError("d has NaN: every trial needs a difference on every topic")
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or not np.all((alphas > 0) & (alphas < 1)):
        raise ValueError("alphas must be a 1-D grid of numbers in (0, 1)")
    tests = tuple(tests)
    for test in tests:
        if test not in PAIRED_TESTS:
            raise ValueError(f"test must be one of {PAIRED_TESTS}, got {test!r}")
    if not min_diff >= 0:
        raise ValueError(f"min_diff must be a non-negative number, got {min_diff!r}")
    # round(p, digits) <= α  ⇔  p < α + half a unit of the last digit (α on the grid)
    limit = alphas + (0.0 if digits is None else 0.5 * 10.0 ** -digits)
    n_trials = d.shape[0]
    reject = np.zeros((len(tests), 2, n_trials, len(alphas)), dtype=bool)
    valid = np.ones((len(tests), n_trials), dtype=bool)
    for k, test in enumerate(tests):
        if test == "paired_t":
            reject[k], valid[k] = _t_decisions(d, limit, digits is None)
        elif test == "wilcoxon":
            reject[k] = _wilcoxon_decisions(d, limit, digits is None)
        elif test == "sign":
            reject[k], valid[k] = _sign_decisions(d, limit, min_diff, digits is None)
        else:
            if seed is None:
                raise ValueError(f"seed= is required by the {test} test")
            reject[k] = _resampling_decisions(d, limit, test, resamples, seed,
                                              int(first_trial), int(block), digits is None)
    mean = d.mean(axis=1)
    negative = (mean if digits is None else np.round(mean, digits)) < 0
    return PairedDecisions(reject, valid, negative)


def _below(p, limit, inclusive):
    """``p <= α`` (exact) or ``p < α + ½ unit`` (rounded) for every α: ``(N, A)``."""
    p = np.asarray(p)[..., np.newaxis]
    return p <= limit if inclusive else p < limit


# --- paired t -----------------------------------------------------------------------------

@functools.lru_cache(maxsize=64)
def _t_critical(df: int, limit: tuple[float, ...], inclusive: bool):
    limit = np.array(limit)
    return stats.t.isf(limit, df), stats.t.isf(limit / 2, df)


def _t_decisions(d, limit, inclusive):
    n = d.shape[1]
    mean = d.mean(axis=1)
    se = d.std(axis=1, ddof=1) / np.sqrt(n)
    # R's t.test stops on constant data (se < 10 eps |mean|); all zeros give a NaN p-value
    valid = (se > 0) & (se >= 10 * np.finfo(float).eps * np.abs(mean))
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(valid, mean / se, 0.0)
    one, two = _t_critical(n - 1, tuple(limit.tolist()), inclusive)
    # p < α ⇔ t > t_{1-α}; at equality p = α, which "p <= α" rejects and "p < α" does not
    if inclusive:
        out = np.stack([t[:, None] >= one, np.abs(t)[:, None] >= two])
    else:
        out = np.stack([t[:, None] > one, np.abs(t)[:, None] > two])
    return out & valid[:, None], valid


# --- Wilcoxon signed-rank and sign tests (statistics and p-values: rank_tests) ------------

def _wilcoxon_decisions(d, limit, inclusive):
    r = signed_ranks(d)
    conventions = {"exact_max": EXACT_BELOW - 1, "correction": True}  # R's wilcox.test
    out = np.zeros((2, d.shape[0], len(limit)), dtype=bool)
    for tail, alternative in enumerate(("greater", "two-sided")):
        p = signed_rank_pvalues(r.v, r.n, r.zeros, r.ties, alternative, **conventions)
        # No non-zero difference: R's one-tailed p-value is 1, its two-tailed one NaN.
        out[tail] = _below(p, limit, inclusive) & (r.n > 0)[:, None]
    return out


@functools.lru_cache(maxsize=16)
def _sign_table(n: int, limit: tuple[float, ...], inclusive: bool) -> np.ndarray:
    """``table[m, wins, tail, α]`` for ``m <= n`` decided differences."""
    m, wins = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    table = np.zeros((n + 1, n + 1, 2, len(limit)), dtype=bool)
    for tail, alternative in enumerate(("greater", "two-sided")):
        p = sign_pvalues(np.minimum(wins, m), m, alternative)
        table[:, :, tail] = _below(p, np.array(limit), inclusive) & (wins <= m)[..., None]
    table[0] = False  # no decided difference: R's p-value is NaN
    return table


def _sign_decisions(d, limit, min_diff, inclusive):
    wins, m = sign_counts(d, min_diff, tie_at_min_diff=True)  # the published code's ties
    table = _sign_table(d.shape[1], tuple(limit.tolist()), inclusive)
    return np.moveaxis(table[m, wins], 1, 0), m > 0


# --- permutation and bootstrap ------------------------------------------------------------

class _Resamples:
    """The resamples of one block: ``matrix`` ``(resamples, n)`` float32 (sign flips or
    bootstrap counts: small integers, exact in float32), each trial's randomisation
    ``per_trial`` ``(block, n)`` (signs, or an order of the topics) and, made the first
    time a trial needs exact sums, ``wide``: the same matrix in float64."""

    def __init__(self, matrix: np.ndarray, per_trial: np.ndarray) -> None:
        matrix.flags.writeable = False
        per_trial.flags.writeable = False
        self.matrix, self.per_trial = matrix, per_trial
        self._wide: np.ndarray | None = None

    @property
    def wide(self) -> np.ndarray:
        if self._wide is None:
            self._wide = self.matrix.astype(np.float64)
            self._wide.flags.writeable = False
        return self._wide


@functools.lru_cache(maxsize=4)
def _resampling_block(entropy, spawn_key, pool_size, index: int, test: str, n: int,
                      resamples: int, block: int) -> _Resamples:
    """The resamples of one block (:class:`_Resamples`)."""
    seq = child_sequence(np.random.SeedSequence(entropy, spawn_key=spawn_key,
                                                pool_size=pool_size), index, _STREAMS[test])
    rng = np.random.default_rng(seq)
    if test == "permutation":
        bits = np.unpackbits(rng.integers(0, 256, size=-(-resamples * n // 8),
                                          dtype=np.uint8))[: resamples * n]
        matrix = bits.reshape(resamples, n).astype(np.float32)
        matrix *= -2.0
        matrix += 1.0  # bit 1 → −1, bit 0 → +1
        signs = rng.integers(0, 2, size=(block, n), dtype=np.int8)
        per_trial = 1.0 - 2.0 * signs
    else:
        from .band_counts import bootstrap_count_matrix  # numba: imported when first used

        matrix = bootstrap_count_matrix(rng.integers(0, n, size=(resamples, n), dtype=np.int32))
        per_trial = rng.permuted(np.broadcast_to(np.arange(n), (block, n)), axis=1)
    return _Resamples(matrix, per_trial)


def _resampling_decisions(d, limit, test, resamples, seed, first_trial, block, inclusive):
    root = root_sequence(seed)
    n_trials, n = d.shape
    count_limit = _count_limits(resamples, limit, inclusive)  # reject ⇔ count <= it
    out = np.zeros((2, n_trials, len(limit)), dtype=bool)
    trial = first_trial + np.arange(n_trials)
    steps, on_lattice = _lattice_steps(d)
    for index in np.unique(trial // block):
        rows = np.flatnonzero(trial // block == index)
        drawn = _resampling_block(root.entropy, tuple(root.spawn_key), root.pool_size,
                                  int(index), test, n, int(resamples), block)
        offset = trial[rows] - index * block
        counts = np.empty((2, len(rows)), dtype=np.int64)
        lattice = on_lattice[rows]
        for exact, part, values in ((True, lattice, steps), (False, ~lattice, d)):
            if not part.any():
                continue
            v = values[rows[part]]
            per_trial = drawn.per_trial[offset[part]]
            x = (v * per_trial if test == "permutation"
                 else np.take_along_axis(v, per_trial, axis=1))
            counts[:, part] = _extreme_counts(drawn, x, v.sum(axis=1), test,
                                              count_limit.max(), exact=exact)
        out[:, rows] = counts[..., None] <= count_limit
    return out


def _lattice_steps(d, max_q: int = _LATTICE_MAX_Q):
    """Differences on a lattice ``k / q`` (e.g. P@10's, ``q = 10``), as the integers
    ``k``: ``(steps (N, T), on_lattice (N,))``, ``steps`` meaningful where ``on_lattice``.

    ``q`` is the least common denominator (at most ``max_q``) of the distinct ``|d|``. A
    row is on the lattice when its every resampled sum in integer steps is exact in
    float32 (below 2²⁴) and deciding it on the integers gives the decisions of float64
    sums: the float64 sums (and ``d``'s distance to ``k / q``) are off by far less than
    the tolerance ``_REL_TOL Σ|d|`` within which a sum ties with a threshold, and the
    tolerance is far below the lattice's step ``1 / q``, so a float64 sum passes a
    threshold exactly when its integer sum passes the integer threshold.
    """
    on_lattice = np.zeros(len(d), dtype=bool)
    magnitudes = np.unique(np.abs(d))
    if magnitudes.size > _LATTICE_MAX_VALUES or not np.isfinite(magnitudes).all():
        return d, on_lattice
    q = 1
    for value in magnitudes.tolist():
        q = math.lcm(q, fractions.Fraction(value).limit_denominator(max_q).denominator)
        if q > max_q:
            return d, on_lattice
    scaled = d * q
    steps = np.rint(scaled)
    n = d.shape[1]
    off = np.abs(scaled - steps).max(axis=1) / q  # distance of d to the lattice
    total = np.abs(d).sum(axis=1)
    largest = np.abs(steps).max(axis=1)
    tol = _REL_TOL * total
    # resampled sums (weights summing to at most n in absolute value), the observed sum
    # and the thresholds (at most two of them added): float64 rounding and lattice distance
    error = 3 * n * off + 4 * (n + 2) * 2.0**-53 * n * np.abs(d).max(axis=1)
    on_lattice = ((2 * n * largest < 2**24) & (error <= tol / 2) & (tol <= 0.25 / q))
    return steps, on_lattice


def _count_limits(resamples, limit, inclusive):
    """Largest count of "as extreme" resamples at which each α rejects (−1: none)."""
    counts = np.arange(resamples + 1)
    p = (counts + 1) / (resamples + 1)
    return (_below(p, limit, inclusive).sum(axis=0) - 1).astype(np.int64)


def _float32_margin(x, test, up_at, low_at):
    """Half-width of the band around a threshold inside which a float32 resampled sum
    cannot tell on which side the float64 one lies.

    With ``W = Σ |w_t x_t|`` (``Σ |x|`` for sign flips; at most ``n max |x|`` for
    bootstrap counts, which sum to ``n``), rounding ``x`` to float32 and summing ``n``
    terms in float32 (any order) is off by at most ``(n + 1) 2⁻²⁴ W``, the float64 sum by
    ``n 2⁻⁵³ W``: ``(n + 2) 2⁻²⁴ W`` bounds their difference. The thresholds are
    rounded to float32 too, which the second term covers.
    """
    n = x.shape[1]
    weight = (np.abs(x).sum(axis=1) if test == "permutation"
              else n * np.abs(x).max(axis=1))
    error = (n + 2) * _F32_UNIT * weight * (1 + 1e-3)
    return error + 4 * _F32_UNIT * (np.abs(up_at) + np.abs(low_at) + error)


def _extreme_counts(drawn, x, observed, test, stop_above, exact=False):
    """Resamples as extreme as the ``observed`` sums ``(2, N)`` (one-tailed "greater",
    two-tailed), the resampled sums being ``drawn.matrix @ x[i]``; a trial whose both
    counts exceed ``stop_above`` is left at a (partial) count above it.

    Two comparisons per resampled sum: with ``c`` the centre of the null distribution (0
    for sign flips, the observed sum for the bootstrap), ``up = #{s >= c + |obs| − tol}``
    and ``low = #{s <= c − |obs| + tol}``; two-tailed count ``up + low``, one-tailed count
    ``up`` when ``obs >= 0``; when ``obs < 0`` the one-tailed count is at least
    ``resamples − low``, and is counted exactly (a third comparison) only for the rare
    trials where that bound would still allow a rejection.

    The sums are computed in float32 (half the work of float64) and compared with each
    threshold moved by :func:`_float32_margin` either way: a sum on the same side of both
    is on that side in float64 too. The few sums between them (a sum equal to the
    observed one, as discrete scores give, or within about 10⁻⁵ of it) are computed
    again in float64, one by one: the counts are those of float64 sums.

    ``exact``: ``x`` holds integers whose every resampled sum is below 2²⁴ in magnitude
    (see :func:`_lattice_steps`): the float32 sums are exact, compared with the
    thresholds themselves (no tolerance, no band, no recount).
    """
    matrix = drawn.matrix
    n_resamples = matrix.shape[0]
    tol = np.zeros(len(x)) if exact else _REL_TOL * np.abs(x).sum(axis=1)
    centre = observed if test == "bootstrap" else np.zeros_like(observed)
    up_at = centre + np.abs(observed) - tol
    low_at = centre - np.abs(observed) + tol
    margin = np.zeros(len(x)) if exact else _float32_margin(x, test, up_at, low_at)
    from .band_counts import band_counts  # numba: imported when first used

    # (N, 4, 1): sure / maybe at least up_at, sure / maybe at most low_at (∞ or 0 in
    # float32 for the trials beyond its range, which are counted in float64 below)
    with np.errstate(over="ignore"):
        bounds = np.stack([up_at + margin, up_at - margin, low_at - margin,
                           low_at + margin], axis=1).astype(np.float32)[..., np.newaxis]
        x32 = x.astype(np.float32)
    negative = observed < 0
    up = np.zeros(len(x), dtype=np.int64)
    low = np.zeros(len(x), dtype=np.int64)
    done = np.zeros(len(x), dtype=np.int64)
    # scratch space reused chunk after chunk (fresh arrays would cost page faults)
    cells = max(64 * len(x), min(_CHUNK_CELLS, n_resamples * len(x)) + 64 * len(x))
    sums_buffer = np.empty(cells, dtype=np.float32)
    wide_buffer = None
    wide = np.zeros(len(x), dtype=bool)  # counted in float64 from now on (many ties)
    if not exact:  # (and trials whose values float32 cannot hold: from the start)
        largest = np.abs(x).max(axis=1, initial=0.0)
        n_terms = x.shape[1]
        wide |= (largest > 0) & ((largest < _F32_SMALLEST) | (
            largest > float(np.finfo(np.float32).max) / (4.0 * n_terms * n_terms)))
    active = np.arange(len(x))
    start = 0
    while start < n_resamples and active.size:
        step = min(n_resamples - start, max(64, _CHUNK_CELLS // active.size // 64 * 64))
        chunk = slice(start, start + step)
        fast = active[~wide[active]]
        if fast.size:
            sums = sums_buffer[:fast.size * step].reshape(fast.size, step)
            np.matmul(x32[fast], matrix[chunk].T, out=sums)
            b = bounds[fast]
            # sure / maybe at least up_at, sure / maybe at most low_at (exact sums and
            # thresholds: the sure and maybe bounds are equal, nothing is unsure)
            counts = band_counts(sums, b[:, :, 0])
            unsure = (counts[1] - counts[0]) + (counts[3] - counts[2])
            many = unsure > _RECOUNT_MAX  # e.g. discrete scores: float64 from now on
            for tail, at in enumerate((up_at, low_at)):
                few = np.flatnonzero((counts[2 * tail + 1] != counts[2 * tail]) & ~many)
                if few.size:  # the few sums too close to the threshold for float32
                    bu, su = b[few], sums[few]
                    band = ((su >= bu[:, 1]) & (su < bu[:, 0]) if tail == 0
                            else (su <= bu[:, 3]) & (su > bu[:, 2]))
                    counts[2 * tail][few] += _recount(
                        drawn, x, start, fast[few], band, at,
                        np.greater_equal if tail == 0 else np.less_equal)
            up[fast[~many]] += counts[0][~many]
            low[fast[~many]] += counts[2][~many]
            wide[fast[many]] = True  # this chunk too, below
        slow = active[wide[active]]
        if slow.size:  # float64 sums, compared with the thresholds themselves
            if wide_buffer is None:
                wide_buffer = np.empty(cells, dtype=np.float64)
            sums = wide_buffer[:slow.size * step].reshape(slow.size, step)
            np.matmul(x[slow], drawn.wide[chunk].T, out=sums)
            at = np.column_stack([up_at[slow], up_at[slow], low_at[slow], low_at[slow]])
            counts = band_counts(sums, at)
            up[slow] += counts[0]
            low[slow] += counts[2]
        done[active] += step
        start += step
        one = np.where(negative[active], done[active] - low[active], up[active])
        going = (one <= stop_above) | (up[active] + low[active] <= stop_above)
        active = active[going]
    counts = np.stack([np.where(negative, done - low, up), up + low])
    # obs < 0 and the bound allows a rejection: count the one tail exactly
    exact = np.flatnonzero(negative & (counts[0] <= stop_above))
    for i in exact:
        sums = drawn.wide @ x[i]
        counts[0, i] = np.count_nonzero(sums >= centre[i] + observed[i] - tol[i])
    return counts


def _recount(drawn, x, start, rows, band, at, compare):
    """Per row of ``rows``, how many of the sums flagged in ``band`` (their float32 value
    too close to the threshold ``at``) pass ``compare(sum, at)`` in float64."""
    row, col = np.nonzero(band)
    sums = np.einsum("ij,ij->i", drawn.matrix[start + col].astype(np.float64), x[rows[row]])
    return np.bincount(row, weights=compare(sums, at[rows[row]]),
                       minlength=len(rows)).astype(np.int64)
