"""Two simulation studies with ground truth: topic set size designs and E-std stability.

- :func:`topic_set_validation`: a topic set size design (:func:`scorestd.topic_set_size`,
  Sakai's method) promises power ``1 − β`` for a true difference ``min_diff`` at
  level α. Collections of the designed size are simulated (:func:`scorestd.simulate`),
  standardized with each scheme, and the paired t-test is run on every system pair; the
  *achieved* power is the rejection rate of the pairs whose true (scheme-unit)
  difference lies within ``±tolerance · min_diff`` of ``min_diff``. The true differences
  come from one large simulated collection standardized the same way.
- :func:`estd_stability`: E-std scores of a fixed system depend on the reference
  systems. Reference pools of ``k`` systems are drawn from simulated collections and
  the spread of the fixed system's mean E-std score is reported against ``k``.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import check_count, check_fits_memory, check_probability, memory_budget
from .._progress import progress_bar
from ..design import topic_set_size
from ..errors import OptionError
from ..kernels.seeds import child_sequence, seed_record
from ..kernels.t_decisions import paired_t_complete
from ..mapping import maps_extra_dims
from ..models.schemes import check_schemes, scheme_model
from ..simulation import _random
from ..simulation.simulator import Simulator, fit_simulator
from ._common import collection_from
from .result import Experiment, data_label, finish_figure

__all__ = ["EstdStability", "TopicSetValidation", "estd_stability", "topic_set_validation"]


def _standardize(model, x: np.ndarray) -> np.ndarray:
    """``x`` ``(…, T, S)`` standardized per topic against all its systems."""
    if model is None:
        return x
    return model.transform(x, degenerate="unstandardized")


def _t_block(n_topics: int, n_systems: int, memory: int | str | None) -> int:
    """Trials per block of the paired t-tests of every system pair: a trial's scores
    standardized and centred, its systems' cross-products and its pairs' moments within
    the memory budget (beside the simulated trials, which :func:`scorestd.simulate`
    checks)."""
    pairs = n_systems * (n_systems - 1) // 2
    per_trial = 8 * (2 * n_topics * n_systems + n_systems**2 + 6 * pairs)
    check_fits_memory(per_trial, memory, f"the paired t-tests of one trial ({n_systems} "
                      f"systems, {n_topics} topics)", instead="select fewer systems")
    return max(1, memory_budget(memory) // per_trial)


def _reads_files_first(func: Callable[..., Any]) -> Callable[..., Any]:
    """Read a score file or bundled dataset name into its cube before the call, so that the
    file's extra dims (a simulated file's ``trial``) are mapped over as a cube's are."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if args and isinstance(args[0], str | os.PathLike):
            args = (collection_from(args[0])[1], *args[1:])
        elif isinstance(kwargs.get("scores"), str | os.PathLike):
            kwargs["scores"] = collection_from(kwargs["scores"])[1]
        return func(*args, **kwargs)

    return wrapper


def _as_simulator(scores: Any, measure: str | None) -> Simulator:
    """A fitted simulator, from a simulator, a cube, a score file or a bundled dataset."""
    if isinstance(scores, Simulator):
        return scores
    _, cube = collection_from(scores)
    return fit_simulator(cube, measure=measure)


class TopicSetValidation(Experiment):
    """Result of :func:`topic_set_validation`: per scheme the designed topic set size,
    the promised power and the achieved power (with its Monte Carlo standard error and
    the number of system pairs near ``min_diff``); ``trial_power`` (scheme × trial) is
    each simulated collection's rate of significant pairs among those, whose mean is the
    achieved power and whose spread gives its standard error."""

    def summary(self) -> pd.DataFrame:
        """One row per scheme.

        Examples
        --------
        >>> import scorestd
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 20))
        >>> res = scorestd.topic_set_validation(ap, schemes=["raw"], min_diff=0.1, trials=5,
        ...                                     truth_topics=2000, seed=1)
        >>> list(res.summary().columns)
        ['n_topics', 'promised_power', 'achieved_power', 'achieved_se', 'pairs']
        >>> res.summary().attrs["columns"]["pairs"]
        'system pairs whose true difference is within ±0.2 × min_diff of min_diff = 0.1'
        """
        a = self.data.attrs
        table = self.data.drop_dims("trial").to_dataframe()[
            ["n_topics", "promised_power", "achieved_power", "achieved_se", "pairs"]]
        near = f"within ±{a['tolerance']:g} × min_diff of min_diff = {a['min_diff']:g}"
        table.attrs["columns"] = {
            "n_topics": f"topics the paired t-test design needs to detect min_diff = "
                        f"{a['min_diff']:g} at α = {a['alpha']:g} with power 1 − β, from "
                        "the scheme's variance",
            "promised_power": f"1 − β = {1 - a['beta']:g}, the power the design promises",
            "achieved_power": "share of the pairs of column pairs the test finds significant on "
                              "collections of n_topics simulated topics, mean over the "
                              "trials (NaN: no pair that near min_diff)",
            "achieved_se": "its Monte Carlo standard error (sd over the trials / √trials)",
            "pairs": f"system pairs whose true difference is {near}",
        }
        return table

    def plot(self, path: Any = None, **kwargs: Any):
        """Achieved (with ±2 SE) against promised power per scheme."""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=kwargs.pop("figsize", (5, 3.5)), **kwargs)
        d = self.data
        x = np.arange(d.sizes["scheme"])
        ax.errorbar(x, d["achieved_power"], yerr=2 * d["achieved_se"], fmt="o",
                    label="achieved (± 2 SE)")
        ax.plot(x, d["promised_power"], "_", markersize=20, color="k", label="promised 1 − β")
        ax.set_xticks(x, [f"{s}\nn={n}" for s, n in zip(d["scheme"].values,
                                                         d["n_topics"].values, strict=True)])
        ax.set_ylabel("power")
        ax.legend(fontsize="small")
        return finish_figure(fig, d, path)


@_reads_files_first
@maps_extra_dims()
def topic_set_validation(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = ("raw", "z", "N", "U", "E"),
    min_diff: float = 0.05,
    alpha: float = 0.05,
    beta: float = 0.2,
    tolerance: float = 0.2,
    trials: int = 200,
    truth_topics: int = 20_000,
    seed: int | None = None,
    memory: int | str | None = None,
) -> TopicSetValidation:
    """Check a topic set size design's promised power on simulated collections.

    Parameters
    ----------
    scores : xarray.DataArray, str, path or Simulator
        The collection the design and the simulator are fitted to (a cube, a score file
        or a bundled dataset name), or a fitted :class:`~scorestd.simulation.Simulator`,
        whose observed scores are used.
    measure : str, optional
        The measure (required when the cube has several).
    schemes : sequence of str
        Standardization schemes (``"raw"``, ``"z"``, ``"N"``, ``"U"``, ``"E"`` or model
        names).
    min_diff, alpha, beta : float
        The design: smallest difference to detect (in each scheme's units), level and
        Type II error rate of a two-sided paired t-test.
    tolerance : float
        Pairs whose true difference is within ``tolerance · min_diff`` of ``min_diff``
        count towards the achieved power.
    trials : int
        Simulated collections per scheme.
    truth_topics : int
        Topics of the large simulated collection giving the true differences.
    seed : int
        Required.
    memory : int or str, optional
        Memory budget of the simulated collections (as :func:`scorestd.simulate`):
        collections over it are refused before they are drawn. The paired t-tests of
        every system pair run a block of trials at a time within it.

    Returns
    -------
    TopicSetValidation

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 20))
    >>> res = topic_set_validation(ap, schemes=["raw"], min_diff=0.1, trials=5,
    ...                            truth_topics=2000, seed=1)
    >>> res.summary().index.tolist()
    ['raw']
    """
    if seed is None:
        raise OptionError("seed= is required: simulation studies must be reproducible")
    check_probability("alpha", alpha)
    check_probability("beta", beta)
    check_probability("tolerance", tolerance)
    trials = check_count("trials", trials)
    truth_topics = check_count("truth_topics", truth_topics, 2)
    schemes = check_schemes(schemes)
    sim = _as_simulator(scores, measure)
    from ..simulation.simulator import simulate

    root = _random.root_sequence(seed)
    # one bar: the large collection, then each scheme's trials (the cost is the draws)
    sizes = {scheme: int(topic_set_size(sim.observed, min_diff=min_diff, alpha=alpha,
                                        beta=beta, schemes=[scheme]).values.ravel()[0])
             for scheme in schemes}
    with progress_bar(truth_topics + trials * sum(sizes.values()), "topic set validation",
                      unit=None) as job:
        with job.part(truth_topics):
            truth = simulate(sim, n_topics=truth_topics, trials=1, memory=memory,
                             seed=child_sequence(root, 0)).values[0, :, :, 0]
        i, j = np.triu_indices(len(sim.systems), k=1)
        rows = {k: [] for k in ("n_topics", "promised_power", "achieved_power", "achieved_se",
                                "pairs", "trial_power")}
        from scipy import stats

        for s, scheme in enumerate(schemes):
            model = scheme_model(scheme)
            n = sizes[scheme]
            true_means = _standardize(model, truth).mean(axis=0)
            diff = np.abs(true_means[i] - true_means[j])
            near = np.abs(diff - min_diff) <= tolerance * min_diff
            with job.part(trials * n):
                cubes = simulate(sim, n_topics=n, trials=trials, memory=memory,
                                 seed=child_sequence(root, 1 + s)).values[..., 0]
            crit = stats.t.ppf(1 - alpha / 2, n - 1)
            by_trial = np.full(trials, np.nan)
            step = _t_block(n, len(sim.systems), memory)
            for start in range(0, trials if near.any() else 0, step):
                t, _ = paired_t_complete(_standardize(model, cubes[start:start + step]))
                with np.errstate(invalid="ignore"):  # a NaN t (no variance): no rejection
                    by_trial[start:start + step] = (np.abs(t[:, near]) > crit).mean(axis=1)
            # the pairs of one trial share its topics, the trials are independent: the
            # Monte Carlo SE is that of the mean of the trials' rates
            power = float(by_trial.mean())
            se = float(by_trial.std(ddof=1) / np.sqrt(trials)) if trials > 1 else np.nan
            for key, value in (("n_topics", n), ("promised_power", 1 - beta),
                               ("achieved_power", power), ("achieved_se", se),
                               ("pairs", int(near.sum())), ("trial_power", by_trial)):
                rows[key].append(value)
    data = xr.Dataset({k: (("scheme", "trial")[:np.ndim(v)], np.asarray(v))
                       for k, v in rows.items()},
                      coords={"scheme": list(schemes), "trial": np.arange(trials)},
                      attrs={"experiment": "topic set size validation",
                             "data": data_label(sim.observed),
                             "measure": sim.margins.measure, "min_diff": min_diff,
                             "alpha": alpha, "beta": beta, "tolerance": tolerance,
                             "trials": trials, "seed": seed_record(root)})
    return TopicSetValidation(data)


class EstdStability(Experiment):
    """Result of :func:`estd_stability`: ``estd`` (trial × pool_size), the mean E-std
    score of the fixed system with a reference pool of that many systems."""

    def summary(self) -> pd.DataFrame:
        """Mean, standard deviation and 95% range of the E-std score per pool size.

        Examples
        --------
        >>> import scorestd
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30))
        >>> res = scorestd.estd_stability(ap, pool_sizes=[5, 25], trials=20, seed=1)
        >>> bool(res.summary().loc[5, "sd"] > res.summary().loc[25, "sd"])
        True
        """
        e = self.data["estd"]
        table = pd.DataFrame({
            "mean": e.mean("trial").values, "sd": e.std("trial", ddof=1).values,
            "q025": e.quantile(0.025, "trial").values, "q975": e.quantile(0.975, "trial").values,
        }, index=pd.Index(self.data["pool_size"].values, name="pool_size"))
        what = f"E-std score of {self.data.attrs['system']} (its mean over topics)"
        table.attrs["columns"] = {
            "pool_size": "reference systems drawn at random among the others, each trial",
            "mean": f"mean over the trials of the {what}",
            "sd": "its standard deviation over the trials: how much the pool moves it",
            "q025, q975": "the 2.5% and 97.5% quantiles over the trials",
        }
        return table

    def plot(self, path: Any = None, **kwargs: Any):
        """Spread of the fixed system's E-std score against the pool size."""
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=kwargs.pop("figsize", (5, 3.5)), **kwargs)
        table = self.summary()
        if len(table) > 1:
            ax.fill_between(table.index, table["q025"], table["q975"], alpha=0.3,
                            label="95% of the trials")
        else:  # a band of one pool size would not show
            ax.vlines(table.index, table["q025"], table["q975"], alpha=0.3, lw=6,
                      label="95% of the trials")
        ax.plot(table.index, table["mean"], "o-", label="mean")
        ax.set_xscale("log")
        ax.set_xlabel("reference systems")
        ax.set_ylabel(f"E-std score of {self.data.attrs['system']}")
        ax.legend(fontsize="small")
        return finish_figure(fig, self.data, path)


#: Reference pool sizes of :func:`estd_stability` (those the collection has systems for).
DEFAULT_POOL_SIZES = (5, 10, 20, 50, 100)


@_reads_files_first
@maps_extra_dims()
def estd_stability(
    scores: Any,
    *,
    measure: str | None = None,
    system: str | None = None,
    pool_sizes: Sequence[int] | None = None,
    n_topics: int | None = None,
    trials: int = 500,
    seed: int | None = None,
    memory: int | str | None = None,
) -> EstdStability:
    """Spread of a system's E-std score as the number of reference systems shrinks.

    Each trial simulates a collection (all systems), and for every pool size ``k``
    draws ``k`` reference systems among the others at random; the fixed system's
    E-std score is its mean over topics of the reference pool's empirical cdf.

    Parameters
    ----------
    scores : xarray.DataArray, str, path or Simulator
        The collection the simulator is fitted to (a cube, a score file or a bundled
        dataset name), or a fitted simulator.
    measure : str, optional
        The measure (required when the cube has several).
    system : str, optional
        The fixed system (default: the one with the median observed mean).
    pool_sizes : sequence of int, optional
        Reference pool sizes (at most the number of other systems); default those of
        5, 10, 20, 50 and 100 there are enough other systems for (all the other
        systems below 5).
    n_topics : int, optional
        Topics per simulated collection (default: as observed).
    trials : int
        Simulated collections.
    seed : int
        Required.
    memory : int or str, optional
        Memory budget of the simulated collections (as :func:`scorestd.simulate`):
        collections over it are refused before they are drawn.

    Returns
    -------
    EstdStability

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30))
    >>> res = estd_stability(ap, pool_sizes=[5, 25], trials=20, seed=1)
    >>> res.summary().index.tolist()  # the spread shrinks as the pool grows
    [5, 25]
    """
    if seed is None:
        raise OptionError("seed= is required: simulation studies must be reproducible")
    trials = check_count("trials", trials)
    sim = _as_simulator(scores, measure)
    systems = [str(s) for s in sim.systems]
    if system is None:
        means = sim.observed.mean("topic").values
        system = systems[int(np.argsort(means)[len(means) // 2])]
    if system not in systems:
        raise OptionError(f"system: unknown system {system!r}; the systems are "
                          f"{systems[:10]}{' …' if len(systems) > 10 else ''}")
    if pool_sizes is None:
        pool_sizes = [k for k in DEFAULT_POOL_SIZES if k < len(systems)] or [len(systems) - 1]
    sizes = [check_count("pool size", k, 1) for k in pool_sizes]
    if max(sizes) > len(systems) - 1:
        raise OptionError(f"pool sizes must be at most {len(systems) - 1} (the other systems); "
                         f"got {max(sizes)}")
    from ..simulation.simulator import simulate

    root = _random.root_sequence(seed)
    cubes = simulate(sim, n_topics=n_topics, trials=trials, memory=memory,
                     seed=child_sequence(root, 0)).values[..., 0]  # (N, T, S)
    s = systems.index(system)
    others = np.delete(np.arange(len(systems)), s)
    fixed = cubes[..., s]  # (N, T)
    empirical = scheme_model("E")
    out = np.empty((trials, len(sizes)))
    rng = np.random.default_rng(child_sequence(root, 1))
    order = rng.random((trials, len(others))).argsort(axis=1)
    for k, size in enumerate(sizes):
        pool = others[order[:, :size]]  # (N, k) nested pools: the first k of one order
        ref = np.take_along_axis(cubes, pool[:, None, :], axis=2)  # (N, T, k)
        y = empirical.transform(ref, fixed[..., None])[..., 0]
        out[:, k] = y.mean(axis=1)
    data = xr.Dataset({"estd": (("trial", "pool_size"), out)},
                      coords={"trial": np.arange(trials), "pool_size": sizes},
                      attrs={"experiment": "E-std stability",
                             "data": data_label(sim.observed),
                             "measure": sim.margins.measure, "system": system,
                             "trials": trials, "seed": seed_record(root)})
    return EstdStability(data)
