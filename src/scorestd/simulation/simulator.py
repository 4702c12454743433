"""Fit a simulator (margins + copula) to a collection and simulate new collections.

Urbano & Nagler (2018), "Stochastic simulation of test collections: evaluation
scores", SIGIR: every system's scores over topics get a margin (:func:`fit_margins`),
the dependence between systems a copula (:mod:`.copula`). A simulated topic draws
``U`` from the copula and gives system ``s`` the score ``F_s⁻¹(U_s)``; its expected
score, the mean of ``F_s``, is known: the ground truth of error-rate studies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import MarginCriterion, SimulationCopula, check_count, check_option, memory_budget
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM, TOPIC
from ..kernels import seeds
from ..models.margins import MarginFamily
from . import _random
from .copula import GaussianCopula, VineCopula, check_vine_available
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
    """

    margins: Margins
    copula: GaussianCopula | VineCopula
    observed: xr.DataArray

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
              n_topics: int) -> np.ndarray:
        """Trials ``[start, stop)`` as ``(trials, topics, systems)`` from whole blocks."""
        parts = []
        for block, keep in _random.blocks(start, stop):
            rng = _random.block_generator(root, block)
            u = self.copula.sample(_random.BLOCK * n_topics, rng)
            u = u.reshape(_random.BLOCK, n_topics, -1)[keep]
            parts.append(self.margins.icdf(u))
        return np.concatenate(parts)


def fit_simulator(
    scores: Any,
    *,
    measure: str | None = None,
    families: Sequence[str | MarginFamily] | None = None,
    criterion: MarginCriterion = "aic",
    support: Any = "auto",
    copula: SimulationCopula = "gaussian",
    family_set: Sequence[str] | None = None,
    trunc_lvl: int | None = None,
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
    copula : {"gaussian", "vine"}
        The dependence model. ``"vine"`` needs ``pip install "scorestd[vine]"``.
    family_set : sequence of str, optional
        Vine only: pair-copula families (``pyvinecopulib`` names); default all
        parametric ones.
    trunc_lvl : int, optional
        Vine only: truncation level.

    Returns
    -------
    Simulator

    Raises
    ------
    ScorestdError
        ``copula="vine"`` without ``pyvinecopulib`` (naming the extra to install).

    Examples
    --------
    >>> import scorestd
    >>> sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8"), measure="ap")
    >>> sim.copula.name, len(sim.systems)
    ('gaussian', 129)
    """
    check_option(copula, SimulationCopula, "copula")
    if copula == "vine":
        check_vine_available()
    elif family_set is not None or trunc_lvl is not None:
        raise ValueError("family_set= and trunc_lvl= are options of copula='vine'")
    observed = one_measure(scores, measure)
    margins = fit_margins(observed, families=families, criterion=criterion, support=support)
    x = np.asarray(observed.values, dtype=np.float64)
    cop = (GaussianCopula.fit(x) if copula == "gaussian"
           else VineCopula.fit(x, family_set=family_set, criterion=criterion,
                               trunc_lvl=trunc_lvl))
    return Simulator(margins=margins, copula=cop, observed=observed)


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
        The working arrays of a chunk stay within it, to a whole block of 64 trials.
    batch_size : int, optional
        Trials per chunk, overriding ``memory``.
    dask : bool
        Return a lazy dask-backed array, one chunk of trials per dask chunk.
    progress : bool, optional
        A progress bar over the trials (default: when standard error is a terminal;
        never with ``dask``).

    Returns
    -------
    xarray.DataArray
        Scores with dims ``("trial", "topic", "system", "measure")``: topics ``t1``…,
        the simulator's systems, coordinates ``true_mean`` and ``family`` on ``system``.

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
    root = _random.root_sequence(seed)
    n_sys = len(simulator.systems)
    per_trial = 4 * 8 * n_topics * n_sys  # u, normals, scores and a temporary
    if batch_size is None:
        per_chunk = max(_random.BLOCK,
                        memory_budget(memory) // per_trial // _random.BLOCK * _random.BLOCK)
    else:
        per_chunk = check_count("batch_size", batch_size)
    bounds = [(s, min(s + per_chunk, trials)) for s in range(0, trials, per_chunk)]
    if dask:
        import dask.array as da
        from dask import delayed

        parts = [da.from_delayed(delayed(simulator._draw)(root, a, b, n_topics),
                                 shape=(b - a, n_topics, n_sys), dtype=np.float64)
                 for a, b in bounds]
        values = da.concatenate(parts, axis=0)[..., np.newaxis]
    else:
        values = np.empty((trials, n_topics, n_sys, 1))
        with progress_bar(trials, "simulate", show=progress, unit="trial") as job:
            for a, b in bounds:
                values[a:b, ..., 0] = simulator._draw(root, a, b, n_topics)
                job.advance(b - a)
    measure = simulator.margins.measure
    return xr.DataArray(
        values, dims=(TRIAL, TOPIC, SYSTEM, MEASURE),
        coords={TRIAL: np.arange(trials), TOPIC: [f"t{i + 1}" for i in range(n_topics)],
                SYSTEM: simulator.systems, MEASURE: [measure],
                "true_mean": (SYSTEM, simulator.margins.mean),
                "family": (SYSTEM, simulator.margins.family)},
        attrs={"simulated": "scorestd.simulate", "copula": simulator.copula.name,
               "seed": str(seeds.seed_record(root)), "source": str(simulator.observed.attrs.get(
                   "collection", simulator.observed.attrs.get("source", "scores")))},
        name="score")
