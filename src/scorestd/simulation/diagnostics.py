"""How well simulated collections reproduce the observed one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import check_fits_memory, memory_budget
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..io.figures import save_figure
from ..kernels.correlation import AGREEMENT_CELLS, kendall_tau_b, pearson
from .simulator import TRIAL, Simulator

__all__ = ["SimulationDiagnostics", "simulation_diagnostics"]

PAIR = "pair"


#: Bytes a system pair of a block of :func:`_pair_stats` takes, per topic: the two
#: systems' scores copied side by side (16), Pearson's deviations and product (24) and
#: the Kendall kernel's NaN masks (2), rounded up (measured with tracemalloc).
PAIR_BYTES_PER_TOPIC = 48
#: Bytes of float64 values kept per system pair whatever the block: the sums and counts
#: over trials, the observed and simulated τ and r, the copula's τ and the pair indices.
KEPT_BYTES_PER_PAIR = 8 * 11


def _kendall_pair_bytes(n_topics: int) -> tuple[int, int]:
    """Bytes of the Kendall kernel's comparison matrices for one pair (four boolean
    T × T matrices and the counts of their rows) and how many pairs one of its chunks
    holds (:data:`~scorestd.kernels.correlation.AGREEMENT_CELLS` cells a matrix)."""
    return 4 * n_topics * n_topics + 32 * n_topics, max(1, AGREEMENT_CELLS // n_topics**2)


def pair_block(n_topics: int, n_systems: int, memory: int | str | None,
               held: int = 0) -> int:
    """System pairs per block of :func:`_pair_stats` over ``n_topics`` topics: what is
    left of the memory budget after the values kept per pair
    (:data:`KEPT_BYTES_PER_PAIR`) and ``held`` bytes of scores, at
    :data:`PAIR_BYTES_PER_TOPIC` bytes a topic a pair beside the Kendall kernel's
    comparison matrices (of at most one of its chunks of pairs).

    Refused (:class:`~scorestd.errors.OptionError` naming the sizes) when not even one
    pair fits.

    Examples
    --------
    >>> pair_block(150, 130, "8MB"), pair_block(150, 130, "256MB")  # of 8385 pairs
    (863, 8385)
    """
    pairs = n_systems * (n_systems - 1) // 2
    fixed = KEPT_BYTES_PER_PAIR * pairs + held
    per_pair = PAIR_BYTES_PER_TOPIC * n_topics
    matrices, chunk = _kendall_pair_bytes(n_topics)
    check_fits_memory(fixed + per_pair + matrices, memory,
                      f"the pairwise statistics of {n_systems} systems ({pairs} pairs) over "
                      f"{n_topics} topics", instead="select fewer systems or topics")
    left = memory_budget(memory) - fixed
    if left >= (per_pair + matrices) * chunk:  # a whole chunk of the kernel, and more
        block = (left - matrices * chunk) // per_pair
    else:
        block = left // (per_pair + matrices)
    return int(max(1, min(pairs, block)))


def _pair_stats(x: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """Kendall τ_b and Pearson r over topics of every system pair: ``(T, S)`` → ``(P,)``
    each, pairs of ``numpy.triu_indices(S, 1)``, ``block`` pairs at a time
    (:func:`pair_block`)."""
    i, j = np.triu_indices(x.shape[-1], k=1)
    tau, r = np.empty(len(i)), np.empty(len(i))
    by_system = x.T  # rows of the pairs' systems gathered contiguous: (pairs, T)
    for start in range(0, len(i), block):
        pairs = slice(start, start + block)
        xi, xj = by_system[i[pairs]], by_system[j[pairs]]
        tau[pairs], r[pairs] = kendall_tau_b(xi, xj), pearson(xi, xj)
    return tau, r


def _mean_pair_stats(trials: xr.DataArray, memory: int | str | None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_pair_stats` of each trial of ``(N, T, S)`` scores, averaged over the trials
    where it is defined: trials read a block at a time (:func:`block_trials`), their
    pairs a block at a time (:func:`pair_block`), a bar over the trials."""
    n_trials, n_topics, n_sys = trials.shape
    step = min(n_trials, block_trials(n_topics, n_sys, memory))
    block = pair_block(n_topics, n_sys, memory, held=8 * step * n_topics * n_sys)
    sums = [np.zeros(n_sys * (n_sys - 1) // 2) for _ in range(2)]
    counts = [np.zeros_like(sums[0]) for _ in range(2)]
    with progress_bar(n_trials, "diagnostics", unit="trial") as job:
        for start in range(0, n_trials, step):
            for trial in np.asarray(trials[start:start + step].values):
                for k, stat in enumerate(_pair_stats(trial, block)):
                    ok = np.isfinite(stat)
                    sums[k][ok] += stat[ok]
                    counts[k] += ok
                job.advance(1)
    with np.errstate(invalid="ignore", divide="ignore"):  # NaN where no trial defines it
        return sums[0] / counts[0], sums[1] / counts[1]


def block_trials(n_topics: int, n_systems: int, memory: int | str | None) -> int:
    """Trials of ``(T, S)`` float64 scores per block of :func:`_moments`: a block, its
    deviations and their squares within the memory budget (a quarter of it a block).

    Examples
    --------
    >>> block_trials(50, 129, "64MB"), block_trials(50, 129, "256MB")
    (310, 1240)
    """
    per_trial = 8 * n_topics * n_systems
    return max(1, memory_budget(memory) // 4 // per_trial)


def _moments(one: xr.DataArray, memory: int | str | None = None) -> xr.Dataset:
    """Each system's mean and variance over trials and topics of ``(N, T, S)`` scores,
    a block of trials at a time (dask's chunks for a dask-backed cube), so a file opened
    lazily is read block by block (:func:`block_trials` of the budget ``memory``), merged
    by Chan, Golub & LeVeque's (1979) pairwise update."""
    if one.chunks is not None:
        return xr.Dataset({"mean": one.mean((TRIAL, TOPIC)),
                           "var": one.var((TRIAL, TOPIC))}).compute()
    n_trials, n_topics, n_sys = one.shape
    step = block_trials(n_topics, n_sys, memory)
    count, mean, m2 = 0, np.zeros(n_sys), np.zeros(n_sys)
    for start in range(0, n_trials, step):
        block = np.asarray(one[start:start + step].values).reshape(-1, n_sys)
        k, block_mean = len(block), block.mean(axis=0)
        block_m2 = ((block - block_mean) ** 2).sum(axis=0)
        delta = block_mean - mean
        mean = mean + delta * k / (count + k)
        m2 = m2 + block_m2 + delta**2 * count * k / (count + k)
        count += k
    coords = {SYSTEM: one[SYSTEM].values}
    return xr.Dataset({"mean": (SYSTEM, mean), "var": (SYSTEM, m2 / count)}, coords=coords)


@dataclass(frozen=True, eq=False)
class SimulationDiagnostics:
    """Observed against simulated: per-system moments and per-pair dependence.

    ``data`` holds, over ``system``: ``observed_mean``, ``observed_var``,
    ``simulated_mean``, ``simulated_var`` (over all simulated topics and trials),
    ``true_mean``, ``true_var`` (of the margins simulated from) and ``fitted_mean`` (of
    the fitted margins before the mean transform to the observed means); over ``pair``: ``observed_tau``,
    ``simulated_tau`` (Kendall τ_b between the two systems' scores over topics, mean
    over trials), ``observed_r``, ``simulated_r`` (Pearson) and, for the Gaussian
    copula, ``copula_tau`` (``2/π asin ρ``).
    """

    data: xr.Dataset

    def summary(self) -> pd.DataFrame:
        """Agreement of each statistic: mean absolute difference, correlation across
        systems (or pairs) and the two means. Rows ``true_mean`` and ``fitted_mean``
        compare the observed means with the margins' means after and before the mean
        transform.

        Examples
        --------
        >>> import scorestd
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 30))
        >>> sim = scorestd.fit_simulator(ap)
        >>> d = scorestd.simulation_diagnostics(sim, scorestd.simulate(sim, trials=4, seed=1))
        >>> d.summary().loc["mean", "correlation"] > 0.95
        np.True_
        """
        rows = {}
        for stat, obs, sim in (("mean", "observed_mean", "simulated_mean"),
                               ("true_mean", "observed_mean", "true_mean"),
                               ("fitted_mean", "observed_mean", "fitted_mean"),
                               ("var", "observed_var", "simulated_var"),
                               ("kendall_tau", "observed_tau", "simulated_tau"),
                               ("pearson_r", "observed_r", "simulated_r")):
            o, s = self.data[obs].values, self.data[sim].values
            ok = np.isfinite(o) & np.isfinite(s)
            rows[stat] = {"observed": o[ok].mean(), "simulated": s[ok].mean(),
                          "mean_abs_diff": np.abs(o - s)[ok].mean(),
                          "correlation": np.corrcoef(o[ok], s[ok])[0, 1]}
        table = pd.DataFrame(rows).T.rename_axis("statistic")
        table.attrs["columns"] = {
            "observed": "the statistic on the observed collection, averaged over systems "
                        "(over system pairs for kendall_tau and pearson_r)",
            "simulated": "the same on the simulated collections (all topics, mean over "
                         "trials), averaged alike",
            "mean_abs_diff": "mean over systems (pairs) of |observed − simulated|",
            "correlation": "Pearson correlation across systems (pairs) of observed and "
                           "simulated",
            "mean, var": "rows: each system's mean and variance of its scores over topics",
            "true_mean": "row: the simulated margins' means (after the mean transform)",
            "fitted_mean": "row: the fitted margins' means (before the mean transform)",
            "kendall_tau, pearson_r": "rows: Kendall τ_b and Pearson r between two systems' "
                                      "scores over topics, per pair",
        }
        return table

    def plot(self, path: Any = None, **kwargs: Any):
        """Simulated against observed: means, variances, pairwise τ and r (4 panels)."""
        import matplotlib.pyplot as plt


        fig, axes = plt.subplots(2, 2, figsize=kwargs.pop("figsize", (8, 7.5)), **kwargs)
        for ax, (obs, sim, label) in zip(axes.ravel(), (
                ("observed_mean", "simulated_mean", "system mean"),
                ("observed_var", "simulated_var", "system variance"),
                ("observed_tau", "simulated_tau", "Kendall τ between systems"),
                ("observed_r", "simulated_r", "Pearson r between systems")), strict=True):
            o, s = self.data[obs].values, self.data[sim].values
            ax.plot(o, s, ".", alpha=0.5 if o.size > 200 else 0.8, markersize=3)
            lo, hi = np.nanmin([o.min(), s.min()]), np.nanmax([o.max(), s.max()])
            ax.plot([lo, hi], [lo, hi], color="grey", lw=1, ls="--")
            ax.set_xlabel(f"observed {label}")
            ax.set_ylabel(f"simulated {label}")
        fig.suptitle(f"simulation diagnostics: {self.data.attrs.get('source', '')} "
                     f"{self.data.attrs.get('measure', '')}")
        fig.tight_layout()
        save_figure(fig, path)
        return fig


def simulation_diagnostics(simulator: Simulator, simulated: xr.DataArray, *,
                           max_trials: int = 50,
                           memory: int | str | None = None) -> SimulationDiagnostics:
    """Compare simulated collections with the observed one they were fitted to.

    Parameters
    ----------
    simulator : Simulator
        The fitted simulator (its observed scores and margins).
    simulated : xarray.DataArray
        Output of :func:`scorestd.simulate` for that simulator.
    max_trials : int
        Pairwise τ and r are averaged over at most this many trials (they cost
        O(S² T²) time each).
    memory : int or str, optional
        Memory budget (as :func:`scorestd.simulate`; default ``$SCORESTD_MEMORY`` or
        256 MiB): the moments of collections read from a file are computed a block of
        trials at a time within it; the pairwise statistics read the trials a block at
        a time and compute a block of system pairs at a time (about 48 bytes a topic a
        pair), beside the 88 bytes a pair of their results. Sizes where not even one pair
        fits are refused (:class:`~scorestd.errors.OptionError` naming them).

    Returns
    -------
    SimulationDiagnostics

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 8))
    >>> sim = scorestd.fit_simulator(ap)
    >>> cubes = scorestd.simulate(sim, trials=4, seed=1, progress=False)
    >>> table = simulation_diagnostics(sim, cubes).summary()
    >>> table.index.tolist(), table.columns.tolist()[:2]
    (['mean', 'true_mean', 'fitted_mean', 'var', 'kendall_tau', 'pearson_r'], ['observed', 'simulated'])
    """
    if not isinstance(simulator, Simulator):
        raise TypeError("simulation_diagnostics needs the Simulator the cubes came from")
    if not isinstance(simulated, xr.DataArray) or not {TOPIC, SYSTEM} <= set(simulated.dims):
        raise ScoreDataError(f"simulated must be the labelled output of scorestd.simulate, "
                             f"with dims including {TOPIC!r} and {SYSTEM!r}; got "
                             f"{getattr(simulated, 'dims', type(simulated).__name__)}")
    extra = set(simulated.dims) - {TRIAL, TOPIC, SYSTEM, MEASURE}
    if extra:
        raise ScoreDataError(f"simulated has dims {sorted(extra)} besides trial, topic, "
                             "system and measure")
    if TRIAL not in simulated.dims:  # one simulated collection
        simulated = simulated.expand_dims(TRIAL)
    if MEASURE not in simulated.dims:
        simulated = simulated.expand_dims(MEASURE, axis=-1)
    if simulated.sizes[MEASURE] != 1:
        raise ScoreDataError(f"simulated has {simulated.sizes[MEASURE]} measures; the "
                             "simulator has one")
    sims = simulated.transpose(TRIAL, TOPIC, SYSTEM, MEASURE)
    if not np.array_equal(sims[SYSTEM].values.astype(str), simulator.systems):
        raise ScoreDataError("the simulated systems are not those of the simulator")
    one = sims.isel({MEASURE: 0}, drop=True)  # (N, T, S)
    if one.dtype != np.float64:  # (astype would read a file opened lazily whole)
        one = one.astype(np.float64)
    # moments chunk by chunk (of a dask-backed cube, or of one read from a file), and
    # the first max_trials trials for the pairwise statistics, read a block at a time
    moments = _moments(one, memory)
    obs = np.asarray(simulator.observed.values, dtype=np.float64)
    obs_tau, obs_r = _pair_stats(obs, pair_block(*obs.shape, memory, held=obs.nbytes))
    sim_tau, sim_r = _mean_pair_stats(one.isel({TRIAL: slice(0, max_trials)}), memory)
    i, j = np.triu_indices(len(simulator.systems), k=1)
    data = {
        "observed_mean": (SYSTEM, obs.mean(axis=0)),
        "observed_var": (SYSTEM, obs.var(axis=0)),
        "simulated_mean": (SYSTEM, moments["mean"].values),
        "simulated_var": (SYSTEM, moments["var"].values),
        "true_mean": (SYSTEM, simulator.margins.mean),
        "true_var": (SYSTEM, simulator.margins.var),
        "fitted_mean": (SYSTEM, simulator.margins.mean if simulator.fitted_means is None
                        else simulator.fitted_means),
        "observed_tau": (PAIR, obs_tau), "simulated_tau": (PAIR, sim_tau),
        "observed_r": (PAIR, obs_r), "simulated_r": (PAIR, sim_r),
    }
    if hasattr(simulator.copula, "kendall_tau"):
        data["copula_tau"] = (PAIR, simulator.copula.kendall_tau[i, j])
    ds = xr.Dataset(data, coords={SYSTEM: simulator.systems,
                                  "system_i": (PAIR, simulator.systems[i]),
                                  "system_j": (PAIR, simulator.systems[j])},
                    attrs={"measure": simulator.margins.measure,
                           "source": simulated.attrs.get("source", ""),
                           "trials": int(one.sizes[TRIAL]), "n_topics": int(one.sizes[TOPIC])})
    return SimulationDiagnostics(ds)
