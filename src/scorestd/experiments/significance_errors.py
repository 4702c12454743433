"""Type I, II and III error rates of paired significance tests, by simulation.

Urbano, Lima & Hanjalic (2019), "Statistical Significance Testing in Information
Retrieval: An Empirical Analysis of Type I, Type II and Type III Errors", SIGIR. The
true system means of simulated collections are known, so a test's error rates can be
counted rather than guessed:

- every run of every collection gets a margin (:func:`scorestd.fit_margins`, AIC among
  simIReff's families) after duplicate runs (equal on every topic to 1e-5) and the
  bottom 10% of runs by mean are removed; pairs of runs get, as the paper, a bivariate
  copula per pair selected by AIC (``copula="vine"``, the default: fitted with
  ``pyvinecopulib``, drawn by :mod:`scorestd.kernels.pair_copulas`) or the dependence of
  a Gaussian copula fitted to the collection (``copula="gaussian"``);
- **Type I**: a collection is drawn with probability proportional to its runs, two of
  its runs uniformly; both simulated scores come from the *first* run's margin (the
  null hypothesis holds by construction) with the copula of the pair; the error rate
  is the fraction of trials a test rejects at α;
- **Type II**: baselines are the runs outside the top 25% by mean; for a baseline ``i``
  and effect ``δ``, the 10 other runs whose means are closest to ``μ_i + δ`` are
  transformed to mean exactly ``μ_i + δ`` (:meth:`scorestd.simulation.Margins.transform`);
  a trial draws a collection (proportional to its baselines), a baseline and one of its
  transformed runs: power is the fraction of rejections (a run whose transform cannot
  reach ``μ_i + δ`` is left out of that baseline's choices, as the published code does);
- **Type III**: among those trials, the fraction that the two-tailed test rejects with
  the observed difference in the wrong direction (experimental below baseline).

Tests (on experimental − baseline): the paired t-test, Wilcoxon signed-rank, sign test
(differences within 0.01 are ties; a trial with only ties is left out of that test's
rates, as the published code does), sign-flip permutation and bootstrap (shift) tests,
one-tailed (``H1: experimental > baseline``) and two-tailed, at every α of the grid,
decided as the published R code does (``round(p, 6) <= α``; R's ``t.test``,
``wilcox.test`` and ``binom.test``; permutation and bootstrap p-values
``(1 + #{as extreme}) / (B + 1)``, what the published ``#{as extreme} / B`` is at its
``B = 10⁶``) by :func:`scorestd.kernels.paired_decisions.paired_decisions`:
critical values and tables instead of p-values, one matrix of ``B`` resamples per 512
trials with a randomisation of its own for each trial.

Every rate comes with its Monte Carlo standard error ``sqrt(r (1 − r) / trials)``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr
from scipy import special

from .._options import (
    UNRECORDED_PAIR_FAMILIES,
    PairFamilies,
    SimulationCopula,
    check_count,
    check_fits_memory,
    check_level_in,
    check_option,
    check_probability,
    check_sequence,
    memory_budget,
)
from .._progress import progress_bar
from ..dims import MEASURE
from ..errors import OptionError, ScoreDataError, warn
from ..io.figures import save_figure
from ..io.netcdf import content_digest
from ..kernels import pair_copulas
from ..kernels.paired_decisions import paired_decisions
from ..kernels.seeds import child_sequence, seed_record
from ..mapping import check_shared_extra_dims, map_slices, maps_extra_dims
from ..measures import find_measure
from ..models._grid import search_index, stacked, table_inverse
from ..score_cube import collection_of, validate
from ..simulation import _random
from ..simulation.transform import apply_transform, solve_mean_transform
from ._common import collection_from
from .checkpoint import Cell, Study
from .engine import run_batches, submit_batches
from .error_rate_comparison import compare_error_rates
from .error_rate_pool import ErrorRatePool, MeasurePool, prepare_collection, resolve_pool
from .result import ALPHAS, Experiment

__all__ = ["COLLECTIONS", "ERROR_RATE_TESTS", "ErrorRates", "error_rates",
           "prepare_collection"]

#: The collections of the paper (all bundled).
COLLECTIONS: tuple[str, ...] = ("adhoc5", "adhoc6", "adhoc7", "adhoc8",
                                "web2010", "web2011", "web2012", "web2013")
#: The tests of the paper, in its order.
ERROR_RATE_TESTS: tuple[str, ...] = ("paired_t", "wilcoxon", "sign", "permutation",
                                     "bootstrap")
#: Effect sizes δ of the paper.
DELTAS: tuple[float, ...] = tuple(np.round(np.arange(1, 11) * 0.01, 2))
TAILS = (1, 2)
_SIGN_MIN_DIFF = 0.01
#: Chunks of a study in flight per worker of a cluster (each chunk one task of seconds):
#: enough that the workers compute while this process writes the finished chunks and
#: prepares the next cells (designs, pair copulas), so that they never wait between cells.
TASKS_AHEAD_PER_WORKER = 3


@dataclass
class _Design:
    """What one (measure, δ) trial draws from: collections, baselines, their pairs."""

    coll_prob: np.ndarray  # (C,)
    coll_groups: np.ndarray  # (C + 1,) baseline offsets of each collection
    base_margin: np.ndarray  # (G,) margin index of each baseline group
    group_pairs: np.ndarray  # (G + 1,) pair offsets of each group
    exp_tables: np.ndarray  # (E, K) experimental tables (transformed for δ > 0)
    exp_rows: np.ndarray  # (P,) row of exp_tables of each pair
    rho: np.ndarray  # (P,) Gaussian copula correlation of the pair
    base_tables: np.ndarray  # (M, K)
    keys: np.ndarray | None = None  # (P, 3) collection, baseline and experimental run
    copulas: np.ndarray | None = None  # (P, 6) pair copula rows, fitted when drawn

    def __post_init__(self) -> None:
        self.base_flat = stacked(self.base_tables)
        self.exp_flat = (self.base_flat if self.exp_tables is self.base_tables
                         else stacked(self.exp_tables))
        self.base_index = search_index(self.base_flat, len(self.base_tables))
        self.exp_index = (self.base_index if self.exp_flat is self.base_flat
                          else search_index(self.exp_flat, len(self.exp_tables)))


def _type1_design(pool: MeasurePool, pair_keys: bool) -> _Design:
    """Two runs of one collection (drawn by its runs), the first's margin for both.

    The pool holds only collections with two runs or more, so the second run is
    always another run of the first one's collection.
    """
    groups, pairs, rho, keys = [], [], [], []
    for c, (off, size) in enumerate(zip(pool.offsets, pool.sizes, strict=True)):
        for i in range(size):
            js = np.delete(np.arange(size), i)
            groups.append(off + i)
            pairs.append(np.full(len(js), off + i))
            rho.append(pool.corr[c][i, js])
            keys.append(np.column_stack([np.full(len(js), c), np.full(len(js), i), js]))
    # Two runs drawn uniformly = the first uniformly, the second among the others.
    coll_groups = np.concatenate([[0], np.cumsum(pool.sizes)])
    group_pairs = np.concatenate([[0], np.cumsum([len(p) for p in pairs])])
    exp_margin = np.concatenate(pairs)
    # H0: the second run's scores come from the first run's margin too.
    return _Design(pool.sizes / pool.sizes.sum(), coll_groups, np.array(groups), group_pairs,
                   pool.tables, exp_margin, np.concatenate(rho), pool.tables,
                   np.concatenate(keys) if pair_keys else None)


def _type2_design(pool: MeasurePool, delta: float, pair_keys: bool, closest: int = 10,
                  top: float = 0.25) -> _Design:
    """Baselines outside the top quarter; for each, the ``closest`` other runs of its
    collection with means nearest ``μ + δ``, transformed to mean ``μ + δ``.

    A baseline is never paired with itself: a collection with fewer than ``closest + 1``
    runs cannot give every baseline ``closest`` others and is left out with a warning
    naming it (an error if no collection is left).
    """
    small = [name for name, size in zip(pool.collections, pool.sizes, strict=True)
             if size < closest + 1]
    if len(small) == len(pool.collections):
        raise ScoreDataError(
            f"no collection of measure {pool.measure!r} keeps {closest + 1} runs or more, as "
            f"the Type II design needs (a baseline and {closest} others): {small}")
    if small:
        warn(f"collections {small} keep fewer than {closest + 1} runs of measure "
             f"{pool.measure!r}: they are left out of the Type II trials (a baseline needs "
             f"{closest} other runs)")
    base, exp, target, rho, keys, per_group = [], [], [], [], [], []
    for c, (off, size) in enumerate(zip(pool.offsets, pool.sizes, strict=True)):
        if size < closest + 1:
            continue
        mu = pool.means[off:off + size]
        order = np.argsort(-mu, kind="stable")
        for i in order[int(np.round(size * top)):]:
            others = np.delete(np.arange(size), i)
            js = others[np.argsort(np.abs(mu[others] - mu[i] - delta), kind="stable")[:closest]]
            exp.append(off + js)
            target.append(np.full(len(js), mu[i] + delta))
            rho.append(pool.corr[c][i, js])
            keys.append(np.column_stack([np.full(len(js), c), np.full(len(js), i), js]))
            base.append(off + i)
            per_group.append(len(js))
    exp, target, rho = np.concatenate(exp), np.concatenate(target), np.concatenate(rho)
    a = np.full(len(exp), np.nan)
    b = np.full(len(exp), np.nan)
    sub = np.flatnonzero(target < 1)
    for start in range(0, len(sub), 256):  # bounded memory: 256 tables at a time
        rows = sub[start:start + 256]
        a[rows], b[rows], _ = solve_mean_transform(pool.tables[exp[rows]], target[rows],
                                                   pool.support)
    ok = np.isfinite(a)
    if not ok.any():
        raise ScoreDataError(f"δ = {delta:g} cannot be reached from any baseline of measure "
                             f"{pool.measure!r} by the mean transform (no run can be moved to "
                             "μ + δ)")
    # Groups (baselines) keep their successful transforms; empty groups are dropped.
    group_of = np.repeat(np.arange(len(base)), per_group)
    kept_groups = np.bincount(group_of[ok], minlength=len(base))
    kept = np.flatnonzero(ok)
    tables = np.empty((len(kept), pool.tables.shape[1]))
    for start in range(0, len(kept), 256):
        rows = kept[start:start + 256]
        tables[start:start + 256] = apply_transform(pool.tables[exp[rows]], a[rows], b[rows])
    coll_of_group = np.searchsorted(pool.offsets, np.array(base), side="right") - 1
    has = kept_groups > 0
    coll_counts = np.bincount(coll_of_group[has], minlength=len(pool.sizes))
    coll_groups = np.concatenate([[0], np.cumsum(coll_counts)])
    group_pairs = np.concatenate([[0], np.cumsum(kept_groups[has])])
    return _Design(coll_counts / coll_counts.sum(), coll_groups, np.array(base)[has],
                   group_pairs, tables, np.arange(len(tables)), rho[ok], pool.tables,
                   np.concatenate(keys)[ok] if pair_keys else None)


def _select(design: _Design, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Baseline group and pair of each trial from uniforms ``u`` ``(n, 3)``: a collection
    by its weight, a baseline uniformly within it, a pair uniformly within the baseline."""
    coll = np.minimum(np.searchsorted(np.cumsum(design.coll_prob), u[:, 0], side="right"),
                      len(design.coll_prob) - 1)
    first, count = design.coll_groups[coll], np.diff(design.coll_groups)[coll]
    group = first + np.minimum((u[:, 1] * count).astype(np.int64), count - 1)
    p_first, p_count = design.group_pairs[group], np.diff(design.group_pairs)[group]
    return group, p_first + np.minimum((u[:, 2] * p_count).astype(np.int64), p_count - 1)


def _draw_pairs(design: _Design, rngs: Sequence[np.random.Generator], n: int, n_topics: int,
                support: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """Baseline and experimental scores ``(len(rngs) * n, T)``: ``n`` trials of each
    block's generator, block after block.

    Each block draws its trials' pairs and uniforms from its own generator; the pair
    copulas and the margins then turn the uniforms of all blocks into scores in one
    vectorised pass (each draw depends only on its own uniforms, so the scores are the
    same however the blocks are batched).
    """
    groups, pairs, uniforms = [], [], []
    for rng in rngs:
        group, pair = _select(design, rng.random((n, 3)))
        groups.append(group)
        pairs.append(pair)
        if design.keys is None:
            z = rng.standard_normal((n, 2, n_topics))
            rho = design.rho[pair][:, np.newaxis]
            uniforms.append(np.stack([special.ndtr(z[:, 0]), special.ndtr(
                rho * z[:, 0] + np.sqrt(np.maximum(1 - rho * rho, 0.0)) * z[:, 1])], axis=-1))
        else:
            uniforms.append(rng.random((n, n_topics, pair_copulas.UNIFORMS)))
    group, pair = np.concatenate(groups), np.concatenate(pairs)
    uu = np.concatenate(uniforms)
    if design.keys is not None:  # every trial its pair's copula, all in one pass
        cop = design.copulas[pair]
        uu = pair_copulas.sample(cop[:, 0].astype(np.int64), cop[:, 1].astype(np.int64),
                                 cop[:, 2:5], uu, tau=cop[:, 5])
        flip = (design.keys[pair, 1] > design.keys[pair, 2])[:, np.newaxis, np.newaxis]
        uu = np.where(flip, uu[..., ::-1], uu)
    base = table_inverse(design.base_tables, uu[..., 0],
                         rows=design.base_margin[group][:, None], support=support,
                         flat=design.base_flat, index=design.base_index)
    exp = table_inverse(design.exp_tables, uu[..., 1], rows=design.exp_rows[pair][:, None],
                        support=support, flat=design.exp_flat, index=design.exp_index)
    return base, exp


def _rejections(d: np.ndarray, alphas: np.ndarray, tests: Sequence[str], B: int,
                root: np.random.SeedSequence, trials: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rejections ``(tests, tails, N, A)``, valid trials ``(tests, N)`` and the sign of
    the observed difference ``(N,)`` of the differences ``d`` of trials ``trials``
    (their indices in the cell): one kernel call per run of consecutive trials, so
    that the resampling tests multiply matrices of hundreds of trials at once."""
    breaks = np.flatnonzero(np.diff(trials) != 1) + 1
    parts = [paired_decisions(d[run], alphas, tests, resamples=B, min_diff=_SIGN_MIN_DIFF,
                              seed=root, first_trial=int(trials[run][0]))
             for run in np.split(np.arange(len(trials)), breaks)]
    return (np.concatenate([p.reject for p in parts], axis=2),
            np.concatenate([p.valid for p in parts], axis=1),
            np.concatenate([p.negative for p in parts]))


def _batch(data: dict[str, Any], blocks: np.ndarray, keep: np.ndarray) -> dict[str, np.ndarray]:
    """Counts of one batch of blocks: rejections, wrong-sign rejections, valid trials."""
    design, n_topics = data["design"], data["n_topics"]
    tests, alphas = data["tests"], data["alphas"]
    rngs = [_random.block_generator(data["root"], int(block)) for block in blocks]
    base_all, exp_all = _draw_pairs(design, rngs, _random.BLOCK, n_topics, data["support"])
    # the kept trials of every block, decided together
    rows = np.concatenate([r * _random.BLOCK + np.arange(kept) for r, kept in enumerate(keep)])
    trials = np.concatenate([block * _random.BLOCK + np.arange(kept)
                             for block, kept in zip(blocks, keep, strict=True)])
    rej, ok, negative = _rejections(exp_all[rows] - base_all[rows], alphas, tests, data["B"],
                                    data["root"], trials)
    starts = np.concatenate([[0], np.cumsum(keep)[:-1]])  # first kept trial of each block

    def per_block(x, axis):
        return np.add.reduceat(x, starts, axis=axis, dtype=np.int64)

    return {"reject": np.moveaxis(per_block(rej, 2), 2, 0),
            "wrong": np.moveaxis(per_block(rej[:, 1] & negative[None, :, None], 1), 1, 0),
            "valid": per_block(ok, 1).T}


def _blocks(trials: int) -> tuple[np.ndarray, np.ndarray]:
    """The blocks of a cell of ``trials`` trials and the trials kept of each."""
    blocks = np.arange(-(-trials // _random.BLOCK))
    return blocks, np.minimum(trials - blocks * _random.BLOCK, _random.BLOCK)


def _fit_drawn(design: _Design, pool: MeasurePool, runs: Sequence[tuple[Any, int]], client,
               memory) -> None:
    """Fit the pair copulas the trials of ``runs`` (root seed, blocks) draw, once per pool
    (the rows of the pairs no trial draws stay 0, unless the pool has every pair of the
    design already: then all rows are filled and the blocks are not redrawn)."""
    if design.keys is None:
        return
    keys = np.column_stack([design.keys[:, 0], np.sort(design.keys[:, 1:], axis=1)])
    if all(key in pool.fitted for key in map(tuple, keys.tolist())):
        # every pair already fitted (an earlier design, a pool file): no need to redraw the
        # cell's blocks to find which (rows no trial draws are never read)
        design.copulas = pool.pair_copulas(keys, client, memory)
        return
    design.copulas = np.zeros((len(design.keys), 6))
    # whole blocks: a block draws all its trials' pairs, the last one's unused ones too
    drawn = np.unique(np.concatenate([
        _select(design, _random.block_generator(root, int(b)).random((_random.BLOCK, 3)))[1]
        for root, n_blocks in runs for b in range(n_blocks)]))
    design.copulas[drawn] = pool.pair_copulas(keys[drawn], client, memory)


def _run(design: _Design, pool: MeasurePool, n_topics: int, trials: int, root, *, tests,
         alphas, B, batch_size, progress, client, memory, desc) -> dict[str, np.ndarray]:
    """The summed counts of one cell's trials, computed at once (no study)."""
    blocks, keep = _blocks(trials)
    _fit_drawn(design, pool, [(root, len(blocks))], client, memory)
    data = _cell_data(design, pool, n_topics, root, tests, alphas, B)
    out = run_batches(_batch, (blocks, keep), data=data, batch_size=batch_size,
                      progress=progress, client=client, desc=desc)
    return {k: v.sum(axis=0) for k, v in out.items()}


def _cell_data(design: Any, pool: MeasurePool, n_topics: int, root, tests, alphas, B
               ) -> dict[str, Any]:
    """What :func:`_batch` reads of a cell (``design`` may be a future of it)."""
    return {"design": design, "n_topics": n_topics, "tests": tuple(tests), "alphas": alphas,
            "support": pool.support, "B": B, "root": root}


def _design_cells(design: _Design, pool: MeasurePool, runs: Sequence[tuple[str, int, int, Any]],
                  *, tests, alphas, B, batch_size, client, memory) -> Iterator[Cell]:
    """The study cells ``(name, n_topics, trials, root seed)`` of one design: its pair
    copulas fitted for all of them at once, and with a cluster sent to every worker once
    (the cells then run as tasks that read it)."""
    runs = [(name, n, root, *_blocks(trials)) for name, n, trials, root in runs]
    _fit_drawn(design, pool, [(root, len(blocks)) for _, _, root, blocks, _ in runs], client,
               memory)
    shared = design if client is None else client.scatter([design], broadcast=True)[0]
    for name, n, root, _, keep in runs:
        data = _cell_data(shared, pool, n, root, tests, alphas, B)
        compute = (functools.partial(_block_counts, data=data, batch_size=batch_size)
                   if client is None else
                   functools.partial(submit_batches, client, _batch, data, batch_size))
        yield Cell(name, keep, compute)


def _block_counts(blocks: np.ndarray, keep: np.ndarray, *, data, batch_size
                  ) -> dict[str, np.ndarray]:
    """The counts of each block (first axis), for a study's chunks, in this process."""
    return run_batches(_batch, (blocks, keep), data=data, batch_size=batch_size,
                       progress=False)


@dataclass(frozen=True, repr=False)
class ErrorRates(Experiment):
    """Result of :func:`error_rates`.

    ``data`` holds ``type1`` (measure × n_topics × test × tails × alpha), ``power``
    and ``type3`` (… × delta × …; Type III is two-tailed only), each with its Monte
    Carlo standard error (``*_se``) and the number of trials it is based on
    (``*_trials``); ``resample_se`` (alpha) is the Monte Carlo standard error of one
    permutation or bootstrap p-value at α, ``sqrt(α (1 − α) / B)``.
    """

    #: The fitted margins and pair copulas (:class:`ErrorRatePool`), for another study.
    pool: Any = field(default=None, compare=False)

    def summary(self, alpha: float = 0.05, deltas: Sequence[float] | None = None,
                tails: int = 2) -> pd.DataFrame:
        """Error rates at ``alpha``: one row per measure, topic set size and test.

        ``deltas`` picks effects among those of the study (default: all of them).

        Columns name their parameters: ``type1(α=.05, 2-tailed)``, its Monte Carlo
        standard error ``se``, and for each δ ``power(δ=.05, α=.05, 2-tailed)`` and
        ``type3(δ=.05, α=.05)`` (Type III is two-tailed).

        Raises
        ------
        OptionError
            ``alpha`` or a δ that the study did not compute (no nearest level is
            used), or ``tails`` other than 1 or 2.

        Examples
        --------
        >>> import scorestd
        >>> res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25],
        ...                            deltas=[0.05], trials=128, trials_type2=128, B=200,
        ...                            copula="gaussian", seed=1)
        >>> list(res.summary().columns)
        ['type1(α=.05, 2-tailed)', 'type1 se', 'power(δ=.05, α=.05, 2-tailed)', 'type3(δ=.05, α=.05)']
        """
        alpha = check_level_in("alpha", alpha, self.data["alpha"].values)
        tails = check_option(tails, TAILS, "tails")
        d = self.data.sel(alpha=alpha, tails=tails)
        a, t = _level(alpha), f"{tails}-tailed"
        at = f"α = {alpha:g}, {'two' if tails == 2 else 'one'}-tailed"
        first = f"type1(α={a}, {t})"
        frame = d["type1"].to_dataframe()[["type1"]].rename(columns={"type1": first})
        frame["type1 se"] = d["type1_se"].to_dataframe()["type1_se"]
        legend = {first: f"Type I error rate at {at}",
                  "type1 se": "its Monte Carlo standard error"}
        if "power" in d:
            chosen = (d["delta"].values if deltas is None
                      else check_sequence("deltas", deltas, check_probability))
            for delta in chosen:
                delta = check_level_in("delta", delta, self.data["delta"].values)
                dd = d.sel(delta=delta)
                power, type3 = f"power(δ={_level(delta)}, α={a}, {t})", \
                    f"type3(δ={_level(delta)}, α={a})"
                frame[power] = dd["power"].to_dataframe()["power"]
                frame[type3] = dd["type3"].to_dataframe()["type3"]
                legend[power] = f"power for a true difference δ = {delta:g} at {at}"
                legend[type3] = (f"Type III error rate (significant, wrong sign) at "
                                 f"δ = {delta:g}, α = {alpha:g}, two-tailed")
        frame.attrs["columns"] = legend
        return frame

    def compare(self, published: pd.DataFrame | str | os.PathLike,
                trials: dict[str, int] | None = None) -> pd.DataFrame:
        """Every published rate beside this study's, with standard errors and ``z``:
        :func:`~scorestd.experiments.error_rate_comparison.compare_error_rates`."""
        return compare_error_rates(self, published, trials)

    def plot(self, path: Any = None, *, kind: str = "type1", tails: int = 2,
             alpha: float = 0.05, delta: float = 0.05, **kwargs: Any):
        """The paper's figures, one panel per measure and topic set size.

        ``kind="type1"``: Type I error rate against α (log-log, diagonal = nominal);
        ``"power"``: power against δ at ``alpha``; ``"power_alpha"``: power against α
        at ``delta``; ``"type3"``: Type III error rate against δ at ``alpha``.

        A rate of 0 (no rejection in any trial), which a log axis cannot show, is left
        out of its line and marked by a triangle on the axes' floor, one beside the other
        for the tests that have one at the same α, as the legend says.

        Examples
        --------
        >>> import scorestd
        >>> res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25],
        ...                            deltas=None, alphas=[0.001, 0.05], B=200,
        ...                            tests=["bootstrap"], trials=128, seed=1,
        ...                            copula="gaussian")
        >>> fig = res.plot()  # the bootstrap's p ≥ 1/200 never reaches α = .001
        >>> [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
        ['bootstrap', 'rate 0 (no rejection in 128 trials)']
        """
        import matplotlib.pyplot as plt

        check_option(kind, ("type1", "power", "power_alpha", "type3"), "kind")
        tails = check_option(tails, TAILS, "tails")
        if kind != "type1" and "power" not in self.data:
            raise OptionError(f"kind={kind!r} needs Type II trials; this study ran none "
                              "(deltas=None)")
        if kind in ("power", "type3"):
            alpha = check_level_in("alpha", alpha, self.data["alpha"].values)
        if kind == "power_alpha":
            delta = check_level_in("delta", delta, self.data["delta"].values)
        measures, sizes = self.data["measure"].values, self.data["n_topics"].values
        fig, axes = plt.subplots(len(sizes), len(measures), squeeze=False,
                                 figsize=kwargs.pop("figsize", (4.2 * len(measures),
                                                                3.4 * len(sizes) + 0.4)),
                                 **kwargs)
        colors = dict(zip(ERROR_RATE_TESTS, ("#e41a1c", "#377eb8", "#4daf4a", "#ff7f00",
                                             "#984ea3"), strict=True))
        zeros = False
        for r, n in enumerate(sizes):
            for c, m in enumerate(measures):
                ax = axes[r, c]
                d = self.data.sel(measure=m, n_topics=n)
                for slot, test in enumerate(d["test"].values):
                    dt = d.sel(test=test)
                    if kind == "type1":
                        x, y = dt["alpha"], dt["type1"].sel(tails=tails)
                    elif kind == "power":
                        x, y = dt["delta"], dt["power"].sel(tails=tails).sel(
                            alpha=alpha)
                    elif kind == "power_alpha":
                        x, y = dt["alpha"], dt["power"].sel(tails=tails).sel(
                            delta=delta)
                    else:
                        x, y = dt["delta"], dt["type3"].sel(alpha=alpha)
                    y = np.asarray(y, dtype=np.float64)
                    if kind == "type1":  # log axis: a zero is marked, not drawn
                        zeros |= _mark_zero_rates(ax, np.asarray(x), y, colors.get(str(test)),
                                                  slot, d.sizes["test"])
                        y = np.where(y == 0, np.nan, y)
                    ax.plot(x, y, color=colors.get(str(test)), lw=1, label=str(test),
                            ls="--" if test == "permutation" else "-")
                if kind == "type1":
                    ax.plot(d["alpha"], d["alpha"], color="grey", lw=1)
                    ax.set_xscale("log")
                    ax.set_yscale("log")
                if kind == "power_alpha":
                    ax.set_xscale("log")
                ax.set_title(f"{m}, {n} topics", fontsize="small")
                ax.set_xlabel("δ" if kind in ("power", "type3") else "α")
        ylabel = {"type1": "Type I error rate", "power": "power", "power_alpha": "power",
                  "type3": "Type III error rate"}[kind]
        for ax in axes[:, 0]:
            ax.set_ylabel(ylabel)
        handles, labels = axes[0, 0].get_legend_handles_labels()
        if zeros:
            handles.append(plt.Line2D([], [], ls="none", marker="v", color="black", ms=5))
            labels.append(f"rate 0 (no rejection in {self.data.attrs.get('trials', '')} "
                          "trials)")
        axes[0, 0].legend(handles, labels, fontsize="x-small")
        sided = f"{'two' if tails == 2 else 'one'}-tailed"
        fig.suptitle({"type1": f"Type I error rate against α ({sided}; grey: nominal)",
                      "power": f"power against the true difference δ (α = {alpha:g}, {sided})",
                      "power_alpha": f"power against α (δ = {delta:g}, {sided})",
                      "type3": f"Type III error rate against δ (α = {alpha:g}, two-tailed)"}[kind],
                     fontsize="medium")
        fig.tight_layout()
        save_figure(fig, path)
        return fig


def _mark_zero_rates(ax: Any, x: np.ndarray, y: np.ndarray, color: Any, slot: int,
                     slots: int) -> bool:
    """Triangles on the floor of a log-scaled ``ax`` at the ``x`` where ``y`` is 0, the
    ``slot``-th of ``slots`` tests 5 points beside the others; whether there were any."""
    from matplotlib.transforms import ScaledTranslation

    zero = y == 0
    if not zero.any():
        return False
    shift = ScaledTranslation((slot - (slots - 1) / 2) * 5 / 72, 0, ax.figure.dpi_scale_trans)
    ax.plot(x[zero], np.zeros(int(zero.sum())), ls="none", marker="v", ms=5, color=color,
            transform=ax.get_xaxis_transform() + shift, clip_on=False, zorder=3)
    return True


def _study_measures(names: Sequence[str], cubes: Mapping[str, Any], *,
                    asked: bool = True) -> list[str]:
    """Each measure under the label the collections give it (the first collection that
    has it), once: ``-m AP`` on collections spelling it ``ap`` is studied, labelled and
    resumed as ``ap``; two spellings of one measure asked for are refused, and among the
    collections' own labels (``asked=False``) the later spelling is dropped."""
    chosen: dict[str, str] = {}
    for name in names:
        label = next((found for cube in cubes.values()
                      if (found := find_measure(name, cube[MEASURE].values,
                                                what="the collections", required=False))),
                     None)
        if label is None:
            known = list(dict.fromkeys(str(m) for c in cubes.values() for m in c[MEASURE].values))
            raise ScoreDataError(f"unknown measure {name!r}; the measures of the collections: "
                                 f"{known}")
        if label in chosen and not asked:
            continue
        if label in chosen:
            raise OptionError(f"measures {chosen[label]!r} and {name!r} are the same measure "
                              f"({label!r} in the collections): ask for it once")
        chosen[label] = name
    return list(chosen)


@maps_extra_dims(vectorized=True)  # itself: its cubes come in a mapping
def error_rates(
    collections: Mapping[str, Any] | Sequence[Any] | str | os.PathLike | None = None,
    *,
    measures: Sequence[str] | None = None,
    n_topics: Sequence[int] = (25, 50, 100),
    deltas: Sequence[float] | None = DELTAS,
    alphas: Sequence[float] = tuple(ALPHAS),
    tests: Sequence[str] = ERROR_RATE_TESTS,
    trials: int = 100_000,
    trials_type2: int = 20_000,
    B: int = 2_000,
    copula: SimulationCopula = "vine",
    seed: int | None = None,
    memory: int | str | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    client: Any = None,
    results_dir: str | os.PathLike | None = None,
    pool: ErrorRatePool | str | os.PathLike | None = None,
    pair_families: PairFamilies = "bicopselect",
) -> ErrorRates:
    """Type I, II and III error rates of paired tests by simulation (Urbano et al. 2019).

    Parameters
    ----------
    collections : mapping of name to cube or file, or sequence of cubes, files or names
        The collections the simulators are fitted to: cubes, score files
        (:func:`scorestd.load` reads them; named by their stem) or bundled dataset names
        (default: adhoc5–8 and web2010–2013, bundled). A cube in a sequence is named by
        its ``attrs["collection"]``. Each is one collection (a cube with extra dims is
        refused: select a slice).
    measures : sequence of str, optional
        Measures to study (default: every measure of the collections, e.g. ap, p10,
        rr, ndcg20, err20). P@k and RR get discrete margins.
    n_topics : sequence of int
        Topic set sizes of the simulated collections.
    deltas : sequence of float or None
        True effects δ of the Type II/III trials (``None``: Type I only).
    alphas : sequence of float
        Significance levels (default: the paper's 0.001 … 0.1).
    tests : sequence of str
        Among ``"paired_t"``, ``"wilcoxon"``, ``"sign"``, ``"permutation"``,
        ``"bootstrap"``.
    trials : int
        Type I trials per (measure, n_topics).
    trials_type2 : int
        Type II/III trials per (measure, n_topics, δ).
    B : int
        Resamples of the permutation and bootstrap tests (the paper: 1,000,000; one
        matrix of them per 512 trials, randomised per trial).
    copula : {"vine", "gaussian"}
        Dependence of a pair of runs. ``"vine"`` (default), as the paper: a bivariate
        copula per pair of runs, its family and rotation selected by AIC and its
        parameters by maximum likelihood (``pair_families``), on pseudo-observations with
        ties broken at random (R's ``BiCopSelect`` on ``pobs(ties.method = "random")``);
        pairs are fitted when a trial first draws them (about 25–35 ms each) and sampled
        in numpy (:mod:`scorestd.kernels.pair_copulas`). ``"gaussian"``: the pair's entry
        of the collection's Gaussian copula (faster to set up; the two runs of a Type I
        trial are then exchangeable, which hides the asymmetries the paper measures).
    seed : int
        Required; the rates depend only on it (not on batch size or workers).
    memory : int or str, optional
        Memory budget of one batch of trials, in bytes or as ``"512MB"``, ``"1GiB"``
        (default ``$SCORESTD_MEMORY``, else 256 MiB; :func:`~scorestd.experiments.engine.memory_budget`).
        A batch holds as many blocks of 64 trials as the budget has room for the working
        arrays of one block (about ``8 (B T + 64 B + 20 · 64 T)`` bytes); blocks are
        computed one after the other, so memory does not grow with ``trials``. The
        fitted margins kept in the process for a later study take at most half of it
        (:class:`ErrorRatePool`; without ``memory``, half of a given pool's own budget).
    batch_size : int, optional
        Blocks of 64 trials per batch, overriding ``memory``.
    progress : bool, optional
        One progress bar over the whole study (default: when standard error is a
        terminal).
    client : distributed.Client, optional
        Run the batches on a dask cluster.
    results_dir : path, optional
        Folder the study writes its counts to as it goes, one netCDF file per chunk of
        16,384 trials (:class:`~scorestd.experiments.checkpoint.Study`): run again with the
        same arguments and folder, an interrupted study resumes where it stopped and gives
        the rates of an uninterrupted run; other arguments are refused (``OptionError``
        naming the first that differs).
    pool : ErrorRatePool or path, optional
        Fitted margins and pair copulas to reuse (:class:`ErrorRatePool`, e.g. the
        ``pool`` of an earlier result), or a ``.npz`` file: read if it exists (refused
        if fitted to other collections or scores), and written (atomically) with every
        pair fitted by this study. A study at another ``n_topics``, δ, trial count or
        seed on the same collections then fits nothing again.
    pair_families : {"bicopselect", "vinecopulib"}
        Family set and selection of the pair copulas (``copula="vine"``).
        ``"bicopselect"`` (default): R VineCopula's ``BiCopSelect(u1, u2,
        selectioncrit = "AIC")``, the paper's own call: its preselection by tails,
        independence among the candidates, two two-parameter Tawn types fitted in its
        bounds (:mod:`scorestd.simulation.bicopselect`); the paper's sign-test power and
        its rank tests' Type I error at 100 topics need it.
        ``"vinecopulib"``: every parametric family of ``pyvinecopulib`` (Gaussian,
        Student t, Clayton, Gumbel, Frank, Joe, BB1, BB6, BB7, BB8, the three-parameter
        Tawn) and its selection. A pool or results folder of one is refused for the
        other.

    Returns
    -------
    ErrorRates
        ``attrs["copula_fallbacks"]`` counts the pairs whose AIC selection failed and
        were fitted family by family (the best family that fits; never independence by
        default); ``result.pool`` is the pool used.

    Raises
    ------
    ScoreDataError
        A measure none of the collections has, or a collection without complete scores;
        no collection large enough for the design.
    OptionError
        An option of the wrong type or out of range, naming it.

    Warns
    -----
    ScorestdWarning
        A collection left out of the design because it keeps too few runs (fewer than
        2 for Type I, 11 for Type II), naming it.

    Notes
    -----
    Margin families that fail on some runs are skipped for them, as in
    :func:`scorestd.fit_margins`; here the warnings are not repeated but counted in
    ``data.attrs["margin_warnings"]``.

    Examples
    --------
    >>> import scorestd
    >>> res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=None,
    ...                            tests=["paired_t"], trials=640, seed=1)
    >>> float(res.data["type1"].sel(alpha=0.05, tails=2).item()) < 0.1
    True
    """
    if seed is None:
        raise OptionError("seed= is required: simulation studies must be reproducible")
    options = {"measures": measures, "n_topics": n_topics, "deltas": deltas, "alphas": alphas,
               "tests": tests, "trials": trials, "trials_type2": trials_type2, "B": B,
               "copula": copula, "seed": seed, "memory": memory, "batch_size": batch_size,
               "progress": progress, "client": client, "pair_families": pair_families}
    check_option(copula, SimulationCopula, "copula")
    check_option(pair_families, PairFamilies, "pair_families")
    tests = check_sequence("tests", tests, lambda n, t: check_option(t, ERROR_RATE_TESTS, "test"))
    trials = check_count("trials", trials)
    trials_type2 = check_count("trials_type2", trials_type2)
    B = check_count("B", B)
    sizes = check_sequence("n_topics", n_topics, lambda n, v: check_count(n, v, 3))
    alphas_arr = np.asarray(check_sequence("alphas", alphas, check_probability))
    deltas_arr = (None if deltas is None
                  else np.asarray(check_sequence("deltas", deltas, check_probability)))
    # a block's resamples, scores and decisions at every α: refused before any work when
    # one block is over the budget (batch_size= sets how many blocks, not their size)
    # (pair copulas: their uniforms, drawn per block then joined for one sampling pass)
    per_topic = 20 + (2 * pair_copulas.UNIFORMS if copula == "vine" else 0)
    per_block = 8 * (B * max(sizes) + _random.BLOCK * B + per_topic * _random.BLOCK * max(sizes)
                     + 4 * _random.BLOCK * len(tests) * len(alphas_arr))
    check_fits_memory(per_block, memory, f"the working arrays of one block of "
                      f"{_random.BLOCK} trials (B = {B}, {max(sizes)} topics)")
    if batch_size is None:
        batch_size = max(1, memory_budget(memory) // per_block)
    else:
        batch_size = check_count("batch_size", batch_size)
    cubes = _collections(collections)
    extra = check_shared_extra_dims(cubes, "error_rates")
    if extra:  # one study per slice, its collections the slices (or the cubes without)
        if results_dir is not None or pool is not None:
            raise OptionError("results_dir= and pool= hold one study: with collections of "
                              f"extra dims {', '.join(map(repr, extra))}, run each slice "
                              "on its own")
        return map_slices(lambda slices: error_rates(slices, **options), cubes, extra,
                          function="error_rates")
    if measures is None:
        measures = _study_measures([str(m) for c in cubes.values() for m in c[MEASURE].values],
                                   cubes, asked=False)
    else:
        measures = _study_measures(check_sequence("measures", measures, lambda n, v: str(v)),
                                   cubes)
    study_pool, pool_path = resolve_pool(pool, cubes, copula, pair_families, memory)
    root = _random.root_sequence(seed)
    shape1 = (len(measures), len(sizes), len(tests), 2, len(alphas_arr))
    type1, valid1 = np.zeros(shape1), np.zeros(shape1[:3])
    n_d = 0 if deltas_arr is None else len(deltas_arr)
    power = np.zeros((len(measures), len(sizes), n_d, len(tests), 2, len(alphas_arr)))
    type3 = np.zeros((len(measures), len(sizes), n_d, len(tests), len(alphas_arr)))
    valid2 = np.zeros((len(measures), len(sizes), n_d, len(tests)))
    warned, families = 0, {}
    arguments = {"collections": {name: content_digest(c) for name, c in cubes.items()},
                 "measures": list(measures), "n_topics": sizes, "alphas": alphas_arr,
                 "deltas": deltas_arr, "tests": list(tests), "trials": trials,
                 "trials_type2": trials_type2, "B": B, "copula": copula,
                 "seed": seed_record(root)}
    arguments["pair_families"] = pair_families
    study = Study(arguments, len(measures) * len(sizes) * (trials + n_d * trials_type2),
                  folder=results_dir, progress=progress,
                  absent={"pair_families": UNRECORDED_PAIR_FAMILIES})
    cell_options = {"tests": tests, "alphas": alphas_arr, "B": B, "batch_size": batch_size,
                    "client": client, "memory": memory}
    vine = copula == "vine"
    fallbacks = 0
    # one bar over the study: fitting a collection's margins costs about as much as
    # 2000 trials (measured on adhoc8, ap, five tests, B = 2000)
    fit_cost = 2000 * len(cubes)
    total = len(measures) * (fit_cost + len(sizes) * (trials + n_d * trials_type2))

    def cells() -> Iterator[Cell]:
        """Every cell of the study, each measure's margins, designs and pair copulas
        made when the study asks for its first cell (the cells before still running)."""
        nonlocal warned, fallbacks
        for m, measure in enumerate(measures):
            with job.part(fit_cost):
                pool = study_pool.measure_pool(measure, memory=memory)
            warned += pool.failures
            families[measure] = pool.families
            before = pool.fallbacks
            yield from _design_cells(
                _type1_design(pool, vine), pool,
                [(f"type1_{measure}_n{n}", n, trials, child_sequence(root, m, k, 0))
                 for k, n in enumerate(sizes)], **cell_options)
            for j in range(n_d):
                yield from _design_cells(
                    _type2_design(pool, float(deltas_arr[j]), vine), pool,
                    [(f"type2_{measure}_n{n}_delta{deltas_arr[j]:g}", n, trials_type2,
                      child_sequence(root, m, k, j + 1)) for k, n in enumerate(sizes)],
                    **cell_options)
            fallbacks += pool.fallbacks - before
            if pool_path is not None and vine:
                study_pool.save(pool_path)  # every measure's fits kept as soon as done

    with progress_bar(total, "error rates", show=progress, unit=None) as job:
        if client is None:
            counts = study.run_cells(cells(), bar=job)
        else:  # the workers kept fed across cells: chunks in flight, one task each
            workers = max(1, len(client.scheduler_info().get("workers", {})))
            counts = study.run_cells(cells(), ahead=TASKS_AHEAD_PER_WORKER * workers,
                                     chunks_per_call=1, bar=job)
    for m, measure in enumerate(measures):
        for k, n in enumerate(sizes):
            out = counts[f"type1_{measure}_n{n}"]
            valid1[m, k] = out["valid"]
            type1[m, k] = out["reject"] / out["valid"][:, None, None]
            for j in range(n_d):
                out = counts[f"type2_{measure}_n{n}_delta{deltas_arr[j]:g}"]
                valid2[m, k, j] = out["valid"]
                power[m, k, j] = out["reject"] / out["valid"][:, None, None]
                type3[m, k, j] = out["wrong"] / out["valid"][:, None]
    study.close()
    coords = {"measure": list(measures), "n_topics": sizes, "test": list(tests),
              "tails": list(TAILS), "alpha": alphas_arr}
    dims1 = ("measure", "n_topics", "test", "tails", "alpha")
    data = {"type1": (dims1, type1),
            "type1_se": (dims1, np.sqrt(type1 * (1 - type1) / valid1[..., None, None])),
            "type1_trials": (dims1[:3], valid1.astype(np.int64)),
            "resample_se": ("alpha", np.sqrt(alphas_arr * (1 - alphas_arr) / B))}
    if deltas_arr is not None:
        coords["delta"] = deltas_arr
        dims2 = ("measure", "n_topics", "delta", "test", "tails", "alpha")
        dims3 = ("measure", "n_topics", "delta", "test", "alpha")
        data.update({
            "power": (dims2, power),
            "power_se": (dims2, np.sqrt(power * (1 - power) / valid2[..., None, None])),
            "type3": (dims3, type3),
            "type3_se": (dims3, np.sqrt(type3 * (1 - type3) / valid2[..., None])),
            "type2_trials": (dims3[:4], valid2.astype(np.int64)),
        })
    attrs = {"experiment": "error rates (Urbano, Lima & Hanjalic 2019)",
             "data": ", ".join(cubes), "measure": ", ".join(measures),
             "trials": trials, "trials_type2": trials_type2, "B": B, "seed": seed_record(root),
             "copula": copula, "margin_warnings": warned, "copula_fallbacks": fallbacks,
             "margins": "; ".join(f"{m}: {f}" for m, f in families.items())}
    if vine:  # which selection made the pair copulas (older files: UNRECORDED_PAIR_FAMILIES)
        attrs["pair_families"] = pair_families
    return ErrorRates(xr.Dataset(data, coords=coords, attrs=attrs), pool=study_pool)


def _level(x: float) -> str:
    """``0.05`` → ``".05"`` (the way the paper writes levels)."""
    text = f"{x:g}"
    return text[1:] if text.startswith("0.") else text


def _collections(collections: Mapping[str, Any] | Sequence[Any] | None) -> dict[str, Any]:
    """Name → cube; cubes, score files and bundled dataset names, by name or in a list."""
    if collections is None:
        collections = COLLECTIONS
    if isinstance(collections, str | os.PathLike | xr.DataArray):
        collections = [collections]
    if not isinstance(collections, Mapping):
        named = [collection_from(c) for c in collections]
        collections = {name or collection_of(cube) or f"collection{k + 1}": cube
                       for k, (name, cube) in enumerate(named)}
        if len(collections) < len(named):
            raise ValueError("two collections have the same name; pass a mapping of name "
                             "to cube or file")
    return {str(k): validate(collection_from(v)[1], what=f"collection {k!r}", extra_dims=True)
            for k, v in collections.items()}
