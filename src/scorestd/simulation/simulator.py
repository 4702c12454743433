"""Fit a simulator (margins + copula) to a collection and simulate new collections.

Urbano & Nagler (2018), "Stochastic simulation of test collections: evaluation
scores", SIGIR: every system's scores over topics get a margin (:func:`fit_margins`),
the dependence between systems a copula (:mod:`.copula`). A simulated topic draws
``U`` from the copula and gives system ``s`` the score ``F_s⁻¹(U_s)``; its expected
score, the mean of ``F_s``, is known: the ground truth of error-rate studies.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import (
    MarginCriterion,
    SimulatedMeans,
    SimulationCopula,
    check_count,
    check_fits_memory,
    check_option,
    check_trunc_level,
    memory_budget,
)
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import OptionError, warn
from ..io.atomic import atomic_netcdf_chunks
from ..io.paths import check_output_path
from ..kernels import seeds
from ..mapping import maps_extra_dims
from ..models.margins import MarginFamily
from . import _random
from .copula import GaussianCopula, VineCopula
from .fitting import Margins, fit_margins, one_measure

__all__ = ["Simulator", "fit_simulator", "simulate"]

#: Default memory budget of one chunk of simulated trials (bytes).
TRIAL = "trial"


@dataclass(frozen=True, eq=False)
class Simulator:
    """A fitted simulator: the margin of every system and the copula between them.

    Attributes
    ----------
    margins : Margins
        One margin per system (:func:`scorestd.fit_margins`).
    copula : GaussianCopula or VineCopula
        Dependence between systems.
    observed : xarray.DataArray
        The ``(topic, system)`` scores fitted on.
    fitted_means : numpy.ndarray
        The expected score of every system under its fitted margin, before any mean
        transform (``means="observed"`` moves the margins to the observed means).
    """

    margins: Margins
    copula: GaussianCopula | VineCopula
    observed: xr.DataArray
    fitted_means: np.ndarray | None = None

    def __repr__(self) -> str:
        return (f"<Simulator of {len(self.systems)} systems ({self.margins.measure}), "
                f"{self.copula.name} copula>")

    @property
    def systems(self) -> np.ndarray:
        """System labels."""
        return self.margins.systems

    @property
    def true_means(self) -> xr.DataArray:
        """Expected score of every simulated system (over the topic population)."""
        return xr.DataArray(self.margins.mean, dims=SYSTEM, coords={SYSTEM: self.systems},
                            name="true_mean")

    def summary(self) -> pd.DataFrame:
        """The margins' table (:meth:`Margins.summary`)."""
        return self.margins.summary()

    def with_means(self, target: Mapping[str, float] | Sequence[float] | np.ndarray
                   ) -> Simulator:
        """The simulator with the expected scores ``target`` imposed on some systems
        by the mean transform (:meth:`Margins.transform`); the copula is kept.

        Examples
        --------
        >>> import scorestd
        >>> sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8"), measure="ap")
        >>> s = str(sim.systems[10])
        >>> round(float(sim.with_means({s: 0.25}).true_means.sel(system=s)), 6)
        0.25
        """
        return replace(self, margins=self.margins.transform(target))

    def _draw(self, root: np.random.SeedSequence, start: int, stop: int,
              n_topics: int, piece: int = _random.BLOCK) -> np.ndarray:
        """Trials ``[start, stop)`` as ``(trials, topics, systems)``.

        Block ``k`` of trials is drawn from its own generator, ``piece`` trials at a
        time (the copulas draw trial after trial, so the numbers do not depend on
        ``piece``); the trials of a block before ``start`` are drawn and dropped.
        """
        out = np.empty((stop - start, n_topics, len(self.systems)))
        for block, keep in _random.blocks(start, stop):
            rng = _random.block_generator(root, block)
            draw = self.copula.trial_sampler(_random.BLOCK, n_topics, rng)
            first = block * _random.BLOCK
            for lo in range(0, keep.stop, piece):
                hi = min(lo + piece, keep.stop)
                u = draw(hi - lo)
                a = max(lo, keep.start)
                if a < hi:
                    out[first + a - start:first + hi - start] = self.margins.icdf(u[a - lo:])
        return out


def _fallback_attrs(copula: GaussianCopula | VineCopula) -> dict:
    """A vine's pair copulas drawn by ``pyvinecopulib`` instead of numpy (never silent)."""
    if not isinstance(copula, VineCopula):
        return {}
    return {"copula_edges_by_pyvinecopulib": int(copula.fallback_edges)}


@maps_extra_dims()
def fit_simulator(
    scores: Any,
    *,
    measure: str | None = None,
    families: Sequence[str | MarginFamily] | None = None,
    criterion: MarginCriterion = "aic",
    support: Any = "auto",
    copula: SimulationCopula = "vine",
    family_set: Sequence[str] | None = None,
    trunc_lvl: int | None = None,
    vine_method: str = "itau",
    means: SimulatedMeans = "observed",
) -> Simulator:
    """Fit margins and a copula to the scores of a collection.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or ``(topic, system)`` array with complete scores in [0, 1].
    measure : str, optional
        The measure to fit (required when the cube has several).
    families, criterion, support
        As :func:`scorestd.fit_margins`.
    copula : {"vine", "gaussian"}
        The dependence model. ``"vine"`` (default): an R-vine whose pair copulas are
        selected by ``criterion`` among every parametric family of ``pyvinecopulib``
        and fitted by maximum likelihood, as Urbano, Lima & Hanjalic (2019) fit a copula
        per pair of runs; it takes seconds for tens of systems and minutes for a
        hundred (``trunc_lvl`` shortens it). ``"gaussian"``: fast, numpy only, but
        exchangeable (two systems on one margin give symmetric differences).
    family_set : sequence of str, optional
        Vine only: pair-copula families (``pyvinecopulib`` names); default all
        parametric ones.
    trunc_lvl : int, optional
        Vine only: truncation level (≥ 1; independence beyond it).
    vine_method : {"itau", "mle"}
        Vine only: estimator of the pair copulas (:meth:`VineCopula.fit`). ``"itau"``
        (default) inverts Kendall's τ and selects among the families it identifies (one
        parameter, and the Student t): seconds for a collection of 129 runs.
        ``"mle"`` fits every parametric family (BB and Tawn too) by maximum likelihood,
        minutes for such a collection.
    means : {"observed", "fitted"}
        The true means of the simulated systems. ``"observed"`` (default): each margin
        is moved by the mean transform (:meth:`Margins.transform`) to the system's
        observed mean, so simulated collections keep the observed order of systems
        (kernel margins pull scores toward 0.5 and would shift it); a system whose
        observed mean the transform cannot reach keeps its fitted margin, with a
        warning naming it. ``"fitted"``: the fitted margins as they are.
        ``fitted_means`` keeps the means before the transform either way.

    Returns
    -------
    Simulator

    Raises
    ------
    OptionError
        An unknown option, a family name ``pyvinecopulib`` does not have, a truncation
        level below 1, or vine options with ``copula="gaussian"``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 12))
    >>> sim = scorestd.fit_simulator(ap)
    >>> sim.copula.name, len(sim.systems)
    ('vine', 12)
    >>> bool(np.allclose(sim.true_means, ap.mean("topic").squeeze(), atol=1e-8))
    True
    """
    check_option(copula, SimulationCopula, "copula")
    check_option(means, SimulatedMeans, "means")
    trunc_lvl = check_trunc_level("trunc_lvl", trunc_lvl)
    if copula == "gaussian" and (family_set is not None or trunc_lvl is not None
                                 or vine_method != "itau"):
        raise OptionError("family_set=, trunc_lvl= and vine_method= are options of "
                          "copula='vine'")
    observed = one_measure(scores, measure)
    margins = fit_margins(observed, families=families, criterion=criterion, support=support)
    x = np.asarray(observed.values, dtype=np.float64)
    cop = (GaussianCopula.fit(x) if copula == "gaussian"
           else VineCopula.fit(x, family_set=family_set, criterion=criterion,
                               trunc_lvl=trunc_lvl, method=vine_method))
    fitted_means = margins.mean.copy()
    if means == "observed":
        margins = _to_observed_means(margins, x.mean(axis=0))
    return Simulator(margins=margins, copula=cop, observed=observed, fitted_means=fitted_means)


def _to_observed_means(margins: Margins, target: np.ndarray) -> Margins:
    """The margins moved to ``target`` where the mean transform reaches it."""
    from .transform import solve_mean_transform

    inside = (target > 0) & (target < 1)
    goal = np.where(inside, target, np.nan)
    _, _, ok = solve_mean_transform(margins.table[inside], target[inside], margins.support)
    reach = np.zeros(len(target), dtype=bool)
    reach[inside] = ok
    goal[~reach] = np.nan
    if not reach.all():
        names = margins.systems[~reach].tolist()
        warn(f"the mean transform cannot move {len(names)} system(s) of measure "
             f"{margins.measure!r} to their observed mean (e.g. a mean of 0 or 1): "
             f"{names[:10]}{' …' if len(names) > 10 else ''}; they keep their fitted margins")
    return margins.transform(goal) if reach.any() else margins


def simulate(
    simulator: Simulator,
    *,
    n_topics: int | None = None,
    trials: int = 1,
    seed: int | np.random.SeedSequence | None = None,
    memory: int | str | None = None,
    batch_size: int | None = None,
    dask: bool = False,
    progress: bool | None = None,
    output: str | os.PathLike | None = None,
) -> xr.DataArray:
    """Simulate ``trials`` new collections of ``n_topics`` topics from a fitted simulator.

    Parameters
    ----------
    simulator : Simulator
        From :func:`scorestd.fit_simulator` (optionally with :meth:`Simulator.with_means`).
    n_topics : int, optional
        Topics per simulated collection (default: as many as observed).
    trials : int
        Number of collections.
    seed : int or numpy.random.SeedSequence
        Required. Trial ``k`` depends only on ``(seed, k)``: the same seed gives the same
        collections whatever ``memory``, ``batch_size``, ``dask`` or the number of trials.
    memory : int or str, optional
        Memory budget of one chunk of trials, in bytes or as ``"512MB"``, ``"1GiB"``
        (default ``$SCORESTD_MEMORY``, else 256 MiB; as the resampling experiments).
        The working arrays of a chunk stay within it (trials are drawn a few at a
        time when one trial is large); a budget smaller than one trial raises
        :class:`~scorestd.errors.OptionError`, and so does a result (``trials × n_topics ×
        systems`` float64) over the budget, before any work, unless ``dask=True`` or
        ``output`` is given.
    batch_size : int, optional
        Trials per chunk, overriding ``memory``.
    dask : bool
        Return a lazy dask-backed array, one chunk of trials per dask chunk.
    progress : bool, optional
        A progress bar over the trials (default: when standard error is a terminal;
        never with ``dask``).
    output : str or path, optional
        A netCDF file (``.nc``) to write the collections to, chunk by chunk as they are
        drawn: memory stays within ``memory`` whatever ``trials``. The file appears
        complete or not at all (an error or Ctrl-C leaves a previous file as it was);
        its contents are the same whatever ``memory`` or ``batch_size``. The result
        is then read from the file lazily (``.load()`` reads it all; ``.close()``).

    Returns
    -------
    xarray.DataArray
        Scores with dims ``("trial", "topic", "system", "measure")``: topics ``t1``…,
        the simulator's systems, coordinates ``true_mean`` and ``family`` on ``system``.
        Attribute ``copula_edges_by_pyvinecopulib`` (vine copulas): the pair copulas of
        a family numpy does not sample, drawn by ``pyvinecopulib`` (0 for the
        parametric families).

    Examples
    --------
    >>> import scorestd
    >>> sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8"), measure="ap")
    >>> cubes = scorestd.simulate(sim, n_topics=25, trials=3, seed=1)
    >>> dict(cubes.sizes)
    {'trial': 3, 'topic': 25, 'system': 129, 'measure': 1}
    >>> bool((scorestd.simulate(sim, n_topics=25, trials=2, seed=1) == cubes[:2]).all())
    True
    """
    if not isinstance(simulator, Simulator):
        raise TypeError(f"simulate needs a Simulator from fit_simulator; got "
                        f"{type(simulator).__name__}")
    n_topics = simulator.observed.sizes[TOPIC] if n_topics is None else check_count(
        "n_topics", n_topics, 2)
    trials = check_count("trials", trials)
    if output is not None:
        if dask:
            raise OptionError("simulate(output=...) writes the file chunk by chunk; it "
                              "does not take dask=True")
        output = check_output_path(output, "netcdf")
    root = _random.root_sequence(seed)
    n_sys = len(simulator.systems)
    # the copula's working arrays, the scores and a temporary of the margins
    per_trial = n_topics * (simulator.copula.bytes_per_draw() + 2 * 8 * n_sys)
    check_fits_memory(per_trial, memory, f"the working arrays of one simulated trial "
                      f"({n_topics} topics × {n_sys} systems)", instead="lower n_topics")
    budget = memory_budget(memory)
    if not dask and output is None:
        check_fits_memory(8 * trials * n_topics * n_sys, memory,
                          f"the simulated scores ({trials} trials × {n_topics} topics × "
                          f"{n_sys} systems, float64)",
                          instead="ask for fewer trials (or simulate(dask=True), drawn chunk "
                                  "by chunk when computed, or output= to write them to a "
                                  "file chunk by chunk)")
    piece = int(min(_random.BLOCK, budget // per_trial))  # trials drawn at once
    if batch_size is None:
        per_chunk = max(piece, budget // per_trial // _random.BLOCK * _random.BLOCK)
    else:
        per_chunk = check_count("batch_size", batch_size)
    bounds = [(s, min(s + per_chunk, trials)) for s in range(0, trials, per_chunk)]
    if output is not None:
        template = _labelled(simulator, np.empty((0, n_topics, n_sys, 1)), root)
        chunking = {"score": {"chunksizes": (1, n_topics, n_sys, 1)}}  # whatever per_chunk
        with progress_bar(trials, "simulate", show=progress, unit="trial") as job, \
                atomic_netcdf_chunks(template.to_dataset(), output, along=TRIAL,
                                     encoding=chunking) as append:
            for a, b in bounds:
                append(a, {"score": simulator._draw(root, a, b, n_topics, piece)[..., None],
                           TRIAL: np.arange(a, b)})
                job.advance(b - a)
        return xr.open_dataarray(output, engine="netcdf4")
    if dask:
        import dask.array as da
        from dask import delayed

        parts = [da.from_delayed(delayed(simulator._draw)(root, a, b, n_topics, piece),
                                 shape=(b - a, n_topics, n_sys), dtype=np.float64)
                 for a, b in bounds]
        values = da.concatenate(parts, axis=0)[..., np.newaxis]
    else:
        values = np.empty((trials, n_topics, n_sys, 1))
        with progress_bar(trials, "simulate", show=progress, unit="trial") as job:
            for a, b in bounds:
                values[a:b, ..., 0] = simulator._draw(root, a, b, n_topics, piece)
                job.advance(b - a)
    return _labelled(simulator, values, root)


def _labelled(simulator: Simulator, values: Any, root: np.random.SeedSequence
              ) -> xr.DataArray:
    """Simulated scores ``(trial, topic, system, measure)`` with their labels and attrs."""
    trials, n_topics = values.shape[:2]
    measure = simulator.margins.measure
    return xr.DataArray(
        values, dims=(TRIAL, TOPIC, SYSTEM, MEASURE),
        coords={TRIAL: np.arange(trials), TOPIC: [f"t{i + 1}" for i in range(n_topics)],
                SYSTEM: simulator.systems, MEASURE: [measure],
                "true_mean": (SYSTEM, simulator.margins.mean),
                **({} if simulator.fitted_means is None
                   else {"fitted_mean": (SYSTEM, simulator.fitted_means)}),
                "family": (SYSTEM, simulator.margins.family)},
        attrs={"simulated": "scorestd.simulate", "copula": simulator.copula.name,
               **_fallback_attrs(simulator.copula),
               "seed": str(seeds.seed_record(root)), "source": str(simulator.observed.attrs.get(
                   "collection", simulator.observed.attrs.get("source", "scores")))},
        name="score")
