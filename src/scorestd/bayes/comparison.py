"""Which likelihood describes the scores: PSIS-LOO comparison and posterior predictive checks.

- :func:`compare_likelihoods`: fits (or takes) crossed models under several likelihoods and
  compares them by PSIS-LOO (``arviz.compare``), with Pareto-k diagnostics, and shows how
  the answers change: each system's expected score, P(best) and mean rank per likelihood,
  the rank agreement (Kendall's τ between the rankings by expected score), and the pairs
  whose posterior probability crosses 0.95 under one likelihood and not another;
- :func:`predictive_checks`: observed statistics of the scores (share of zeros and ones,
  mean, sd, share outside [0, 1], per-system means and sds, per-topic means) against their
  posterior predictive distribution.

Only the front end is here; the log densities and replicated scores come from
:mod:`scorestd.bayes.likelihoods`, LOO from arviz (imported inside the functions).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import ComparisonCells, check_count, check_option
from ..dims import SYSTEM, TOPIC
from ..errors import OptionError, warn
from ..kernels import posterior as kp
from ..kernels.correlation import kendall_tau_b
from ..kernels.psis import log_sum_exp, pareto_smoothed_log_weights
from ..kernels.seeds import root_sequence
from ..mapping import maps_extra_dims
from ..stats._pairs import system_pairs
from ._arviz import to_arviz
from ._checks import check_same_data
from .crossed import CrossedPosterior, bayes_crossed

__all__ = ["LikelihoodComparison", "PredictiveChecks", "compare_likelihoods", "loo",
           "predictive_checks"]

#: Pareto k above which PSIS-LOO's estimate of a score's term is unreliable.
PARETO_K = 0.7
#: Posterior probability a pair's decision is read at.
DECISION = 0.95


def _cells_mask(y: np.ndarray, cells: str) -> np.ndarray:
    check_option(cells, ComparisonCells, "cells")
    mask = ~np.isnan(y)
    if cells == "continuous":
        mask &= (y > 0.0) & (y < 1.0)
    if not mask.any():
        raise OptionError(f"cells={cells!r} leaves no score to compare on")
    return mask


def _loo_data(fit: CrossedPosterior, memory, cells: str):
    keep = fit.predictive_subset(memory)
    y = fit.observed_data["score"].values
    mask = _cells_mask(y, cells)
    ll = fit.log_likelihood(keep)["score"].values[..., mask]  # (chain, draw, cell)
    post = fit.posterior[["mu", "system_score"]].isel(draw=keep)
    loglik = xr.Dataset({"score": (("chain", "draw", "cell"), ll)},
                        coords={"chain": post["chain"].values, "draw": post["draw"].values})
    return to_arviz({"posterior": post, "log_likelihood": loglik}), mask


@dataclass(frozen=True)
class _PointwiseLoo:
    """A fit's PSIS-LOO over some cells, with what a subset of them needs: each cell's log
    pointwise predictive density (for p_loo) and the cells, as a topic × system mask."""

    elpd: Any
    lppd: np.ndarray
    mask: np.ndarray


def _pointwise_loo(fit: CrossedPosterior, memory, cells: str) -> _PointwiseLoo:
    import arviz

    data, mask = _loo_data(fit, memory, cells)
    ll = data["log_likelihood"]["score"].values
    flat = ll.reshape(-1, ll.shape[2])
    lppd = log_sum_exp(flat, axis=0) - np.log(flat.shape[0])
    elpd = _psis_loo(data, ll, lppd)
    if elpd is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # arviz's own k warning: ours names the fit
            elpd = arviz.loo(data, pointwise=True)
    return _PointwiseLoo(elpd, lppd, mask)


#: Bytes of log-likelihood smoothed at once by :func:`_psis_loo`.
PSIS_BLOCK_BYTES = 1 << 24


def _psis_loo(data, ll: np.ndarray, lppd: np.ndarray):
    """``arviz.loo(data, pointwise=True)`` on arviz 0.x, its Pareto smoothing vectorised
    over the scores (:func:`scorestd.kernels.psis.pareto_smoothed_log_weights`, arviz's
    rule); ``None`` on arviz ≥ 1, whose ``loo`` returns another type (the caller calls it).

    ``ll``: the pointwise log-likelihood ``(chain, draw, cell)``; ``lppd``: each cell's
    log pointwise predictive density. The relative efficiency is arviz's: the mean ESS of
    the posterior's variables over the number of draws.
    """
    import arviz

    if int(arviz.__version__.split(".")[0]) >= 1:
        return None
    from arviz.stats.stats_utils import ELPDData

    chains, draws, cells = ll.shape
    n = chains * draws
    reff = 1.0
    if chains > 1:
        ess = arviz.ess(data["posterior"], method="mean")
        reff = float(np.hstack([ess[v].values.ravel() for v in ess.data_vars]).mean()) / n
    flat = ll.reshape(n, cells)
    loo_i = np.empty(cells)
    k = np.empty(cells)
    step = max(1, PSIS_BLOCK_BYTES // (8 * n))
    for start in range(0, cells, step):
        block = flat[:, start:start + step].T
        lw, k[start:start + step] = pareto_smoothed_log_weights(-block, reff)
        lw += block
        loo_i[start:start + step] = log_sum_exp(lw, axis=1)
    elpd = float(loo_i.sum())
    good_k = min(1 - 1 / np.log10(n), 0.7)
    return ELPDData(
        data=[elpd, (cells * np.var(loo_i)) ** 0.5, float(np.sum(lppd)) - elpd, n, cells,
              bool(np.any(k > good_k)), xr.DataArray(loo_i, dims=["cell"], name="loo_i"),
              xr.DataArray(k, dims=["cell"], name="pareto_shape"), "log", good_k],
        index=["elpd_loo", "se", "p_loo", "n_samples", "n_data_points", "warning", "loo_i",
               "pareto_k", "scale", "good_k"])


def _loo_subset(full: _PointwiseLoo, mask: np.ndarray):
    """PSIS-LOO over the cells of ``mask`` (a subset of ``full``'s) from ``full``'s terms.

    PSIS smooths the importance weights of each score on its own, so these are the terms
    of a LOO run on those cells alone: elpd and its se from their ``loo_i``, p_loo as
    their lppd minus their elpd. ``None`` where arviz's result is not the 0.x Series
    (arviz ≥ 1): the caller runs LOO on the subset instead.
    """
    elpd = full.elpd
    if not isinstance(elpd, pd.Series) or elpd.get("scale") != "log":
        return None
    keep = np.flatnonzero(mask[full.mask])
    loo_i = elpd["loo_i"].isel(cell=keep)
    k = elpd["pareto_k"].isel(cell=keep)
    out = elpd.copy()
    n = keep.size
    out["elpd_loo"] = loo_i.values.sum()
    out["se"] = (n * np.var(loo_i.values)) ** 0.5
    out["p_loo"] = float(np.sum(full.lppd[keep])) - out["elpd_loo"]
    out["n_data_points"] = n
    out["warning"] = bool(np.any(k.values > elpd["good_k"]))
    out["loo_i"], out["pareto_k"] = loo_i, k
    return out


def loo(fit: CrossedPosterior, *, memory: int | str | None = None, cells: str = "all"):
    """PSIS-LOO (``arviz.loo``, pointwise) of a crossed fit over its observed scores.

    On arviz 0.x the Pareto smoothing is arviz's rule vectorised over the scores
    (:mod:`scorestd.kernels.psis`; the same numbers as ``arviz.loo`` to rounding, a
    fraction of its time); on arviz ≥ 1, ``arviz.loo`` itself.

    Parameters
    ----------
    fit : CrossedPosterior
        A fit of :func:`scorestd.bayes_crossed` (with its topic effects).
    memory : int or str, optional
        Bytes for the pointwise log-likelihood: the draws used are evenly spaced, as many
        as fit (:meth:`CrossedPosterior.predictive_subset`).
    cells : {"all", "continuous"}
        All observed scores, or only those strictly inside (0, 1).

    Returns
    -------
    arviz's ELPDData (``elpd_loo``, ``se``, ``p_loo``, ``pareto_k``…).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5), topic=slice(0, 20))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=1000, warmup=200, seed=1)
    >>> res = loo(fit)
    >>> int(res.n_data_points), bool(res.elpd_loo > 0)
    (100, True)
    """
    return _pointwise_loo(fit, memory, cells).elpd


@dataclass(frozen=True)
class LikelihoodComparison:
    """The comparison of crossed fits under several likelihoods.

    Attributes
    ----------
    table : pandas.DataFrame
        ``arviz.compare`` by PSIS-LOO: one row per likelihood, best first (``rank``,
        ``elpd_loo``, ``p_loo``, ``elpd_diff``, ``weight``, ``se``, ``dse``, ``warning``),
        plus ``pareto_k_max`` and ``pareto_k_bad`` (scores with k > 0.7).
    systems : pandas.DataFrame
        Per system (rows) and likelihood (column level 0): ``score`` (expected score),
        ``prob_best``, ``mean_rank``.
    rank_agreement : pandas.DataFrame
        Kendall's τ_b between the rankings of the systems by expected score, likelihood ×
        likelihood.
    decisions : pandas.DataFrame
        The pairs decided (P(A > B) ≥ 0.95 or ≤ 0.05) under some likelihood but not all:
        P(A > B) under each likelihood.
    fits : dict
        The fits, by likelihood.
    cells : str
        ``"all"`` or ``"continuous"``: the scores LOO was computed on.
    pointwise : dict
        Each fit's pointwise PSIS-LOO (for :meth:`on_continuous_scores`).
    memory : int or str or None
        The memory budget LOO was computed with.
    """

    table: pd.DataFrame
    systems: pd.DataFrame
    rank_agreement: pd.DataFrame
    decisions: pd.DataFrame
    fits: dict = field(repr=False)
    cells: str = "all"
    pointwise: dict = field(default_factory=dict, repr=False)
    memory: Any = field(default=None, repr=False)

    @property
    def best(self) -> str:
        """The likelihood with the highest expected log predictive density."""
        return str(self.table.index[0])

    def on_continuous_scores(self) -> LikelihoodComparison:
        """The comparison by PSIS-LOO on the scores strictly inside (0, 1) only
        (``cells="continuous"``: densities under every likelihood).

        Equals ``compare_likelihoods(self.fits, cells="continuous")`` without computing LOO
        again: PSIS smooths each score's importance weights on its own, so the LOO terms
        of those scores are taken from this comparison's. The other answers (expected
        scores, agreement, decisions) do not depend on the cells and are shared.

        Examples
        --------
        >>> import scorestd, warnings
        >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4), topic=slice(0, 20))
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore", scorestd.ScorestdWarning)
        ...     res = scorestd.compare_likelihoods(ap, ["normal", "censored"], chains=2,
        ...                                        draws=500, warmup=200, seed=1)
        ...     inside = res.on_continuous_scores()
        >>> inside.cells, int(inside.table["pareto_k_bad"].sum()) >= 0
        ('continuous', True)
        """
        import arviz

        if self.cells == "continuous":
            return self
        loos = {}
        for name, fit in self.fits.items():
            mask = _cells_mask(fit.observed_data["score"].values, "continuous")
            part = self.pointwise.get(name)
            subset = None if part is None else _loo_subset(part, mask)
            loos[name] = (subset if subset is not None
                          else loo(fit, memory=self.memory, cells="continuous"))
        _warn_pareto(loos)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            table = arviz.compare(loos, ic="loo")
        return replace(self, table=_with_pareto(table, loos), cells="continuous",
                       pointwise={})

    def __repr__(self) -> str:
        return (f"LikelihoodComparison(best={self.best!r} of {list(self.table.index)}, "
                f"cells={self.cells!r}, {len(self.decisions)} pair decision(s) change)")


@maps_extra_dims()
def compare_likelihoods(
    data: Any,
    likelihoods: Sequence[str] = ("normal", "censored", "hurdle"),
    *,
    measure: str | None = None,
    cells: ComparisonCells = "all",
    memory: int | str | None = None,
    workers: int | None = None,
    **fit_options: Any,
) -> LikelihoodComparison:
    """Compare likelihoods of the crossed model by PSIS-LOO, and what changes across them.

    Parameters
    ----------
    data : xarray.DataArray or mapping of str to CrossedPosterior
        Scores (each likelihood is then fitted with :func:`scorestd.bayes_crossed` and
        ``fit_options``), or fits already made, by name.
    likelihoods : sequence of str
        The likelihoods to fit (with scores as ``data``).
    measure : str, optional
        The measure (when the cube has several).
    cells : {"all", "continuous"}
        Compare on all observed scores, or only on those strictly inside (0, 1). The
        normal likelihood has a density at 0 and 1 where the censored and hurdle
        likelihoods have a probability: on scores with zeros or ones, ``"all"`` compares
        a density with a probability there (a warning says so) and ``"continuous"``
        compares densities only.
    memory : int or str, optional
        Bytes per fit for its pointwise log-likelihood (evenly spaced draws). Each
        worker holds one fit and its log-likelihood at a time.
    workers : int, optional
        Processes that fit and compute LOO at once, each fit (or each given fit's LOO)
        in one process; default: one per fit, at most the cores available to this
        process; ``1``: all in this process. The answer does not depend on it: every
        fit draws from the same root seed (``seed``, or fresh entropy drawn once here
        and recorded in each fit's ``posterior.attrs["seed"]``), so a fit equals
        ``bayes_crossed(data, likelihood=..., seed=...)`` run alone.
    **fit_options
        Passed to :func:`scorestd.bayes_crossed` (``chains``, ``draws``, ``seed``…).

    Returns
    -------
    LikelihoodComparison

    Raises
    ------
    ScoreDataError
        Fits (given as ``data``) of different data: another collection or measure, other
        topics or systems, or other scores (the first difference named).

    Warns
    -----
    ScorestdWarning
        When some scores have Pareto k > 0.7 (their LOO terms are unreliable), named by
        fit and count; when ``cells="all"`` compares a density with a probability.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5), topic=slice(0, 30))
    >>> import warnings
    >>> with warnings.catch_warnings():  # (a Pareto k above 0.7 is likely on 150 scores)
    ...     warnings.simplefilter("ignore", scorestd.ScorestdWarning)
    ...     res = scorestd.compare_likelihoods(ap, ["normal", "censored"], cells="continuous",
    ...                                        chains=2, draws=1000, warmup=200, seed=1)
    >>> sorted(res.table.index)
    ['censored', 'normal']
    >>> res.rank_agreement.shape
    (2, 2)
    """
    import arviz

    check_option(cells, ComparisonCells, "cells")
    if workers is not None:
        workers = check_count("workers", workers)
    given: dict = {}
    if isinstance(data, Mapping):
        given = dict(data)
        for name, fit in given.items():
            if not isinstance(fit, CrossedPosterior):
                raise OptionError(f"compare_likelihoods: fits[{name!r}] is a "
                                  f"{type(fit).__name__}, not a fit of bayes_crossed")
        if len(given) < 2:
            raise OptionError(f"compare_likelihoods needs at least 2 fits, got {list(given)}")
        check_same_data(given, "compare_likelihoods")
        tasks = {name: (_loo_task, (fit, memory, cells)) for name, fit in given.items()}
    else:
        if not likelihoods:
            raise OptionError("likelihoods must name at least one likelihood")
        if len(set(map(str, likelihoods))) < 2:
            raise OptionError(f"compare_likelihoods needs at least 2 likelihoods, got "
                              f"{list(likelihoods)}")
        options = {**fit_options, "measure": measure,
                   "seed": root_sequence(fit_options.get("seed"))}
        if min(len(likelihoods), workers or available_cores()) > 1:
            options["progress"] = False  # (one bar per process would garble the terminal)
        tasks = {str(lk): (_fit_task, (data, str(lk), options, memory, cells))
                 for lk in likelihoods}
    done = run_tasks(tasks, workers)
    fits = {name: given.get(name) or fit for name, (fit, _) in done.items()}
    check_same_data(fits, "compare_likelihoods")
    y = next(iter(fits.values())).observed_data["score"].values
    atoms = int(np.sum((y == 0.0) | (y == 1.0)))
    dense = [n for n, f in fits.items() if f.likelihood == "normal"]
    if cells == "all" and atoms and dense and len(dense) < len(fits):
        which = (f"the {dense[0]} likelihood gives" if len(dense) == 1
                 else f"the likelihoods {', '.join(dense)} give")
        warn(f"compare_likelihoods: {atoms} scores are exactly 0 or 1, where {which} "
             f"a density and the others a probability: their LOO terms are not "
             f"comparable; compare with cells='continuous' too")
    pointwise = {name: done[name][1] for name in fits}
    loos = {name: part.elpd for name, part in pointwise.items()}
    _warn_pareto(loos)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = arviz.compare(loos, ic="loo")
    return LikelihoodComparison(_with_pareto(table, loos), _systems(fits), _agreement(fits),
                                _decisions(fits), fits, str(cells), pointwise, memory)


def _warn_pareto(loos: dict) -> None:
    """Warn, by fit, where scores have Pareto k above :data:`PARETO_K`, and where their
    LOO terms are undefined (NaN)."""
    bad, undefined = [], []
    for name, res in loos.items():
        k = np.asarray(res.pareto_k)
        if np.sum(k > PARETO_K):
            bad.append(f"{name}: {int(np.sum(k > PARETO_K))} of {k.size} (max k "
                       f"{float(np.max(k)):.2f})")
        # (each score's term: ``loo_i`` on arviz 0.x, ``elpd_i`` on arviz ≥ 1)
        terms = np.asarray(getattr(res, "loo_i", getattr(res, "elpd_i", np.zeros(0))),
                           dtype=float)
        if np.isnan(terms).any():
            undefined.append(f"{name}: {int(np.isnan(terms).sum())} of {terms.size}")
    if bad:
        warn(f"compare_likelihoods: PSIS-LOO is unreliable for scores with Pareto k > "
             f"{PARETO_K}: {'; '.join(bad)}; their elpd terms may be off (refit without "
             f"them, or use more draws)")
    if undefined:
        warn(f"compare_likelihoods: PSIS-LOO is undefined (NaN) for some scores: "
             f"{'; '.join(undefined)}: their importance weights span more than the "
             f"floating-point range (below 1e-308 of the largest), where the Pareto "
             f"smoothing (arviz's rule) gives no weights, so that fit's elpd is NaN; "
             f"look at those scores' log-likelihood draws, or refit without them")


def _with_pareto(table: pd.DataFrame, loos: dict) -> pd.DataFrame:
    """``arviz.compare``'s table with each fit's largest Pareto k and count above 0.7."""
    table["pareto_k_max"] = [float(np.max(loos[n].pareto_k)) for n in table.index]
    table["pareto_k_bad"] = [int(np.sum(np.asarray(loos[n].pareto_k) > PARETO_K))
                             for n in table.index]
    return table


def _fit_task(data, likelihood: str, options: dict, memory, cells: str):
    """One likelihood's fit and its pointwise LOO (run in a worker process or here)."""
    fit = bayes_crossed(data, likelihood=likelihood, **options)
    return fit, _pointwise_loo(fit, memory, cells)


def _loo_task(fit: CrossedPosterior, memory, cells: str):
    """A given fit's pointwise LOO (the fit itself is not sent back)."""
    return None, _pointwise_loo(fit, memory, cells)


#: Relative cost of a fit by likelihood: the costliest are started first, so that the
#: last one to finish is a cheap one.
_COST = {"hurdle": 3, "censored": 2, "normal": 1}


def run_tasks(tasks: dict[str, tuple], workers: int | None) -> dict[str, Any]:
    """``{name: function(*args)}`` for ``tasks`` = ``{name: (function, args)}``, run by up
    to ``workers`` processes (default: one per task, at most the cores available), in
    the order of ``tasks`` whatever the order they finish in.

    The warnings a task raises in a worker are raised again here, in the order of
    ``tasks``. Processes are forked where this process has no other thread (nothing to
    import again), else started afresh.
    """
    from concurrent.futures import ProcessPoolExecutor

    names = list(tasks)
    if workers is None:
        workers = min(len(names), available_cores())
    workers = min(workers, len(names))
    if workers <= 1:
        return {name: tasks[name][0](*tasks[name][1]) for name in names}
    context = multiprocessing.get_context(
        "fork" if threading.active_count() == 1 and "fork" in
        multiprocessing.get_all_start_methods() else None)
    order = sorted(names, key=lambda n: -_COST.get(_likelihood_of(tasks[n]), 0))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {name: pool.submit(_with_warnings, *tasks[name]) for name in order}
        results = {name: futures[name].result() for name in names}
    out = {}
    for name in names:
        value, caught = results[name]
        for message, category in caught:
            warn(message, category)
        out[name] = value
    return out


def _likelihood_of(task: tuple) -> str:
    function, args = task
    return args[1] if function is _fit_task else args[0].likelihood


def _with_warnings(function, args):
    """``function(*args)`` and the warnings it raised, as (message, category) pairs."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = function(*args)
    return value, [(str(w.message), w.category) for w in caught]


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # (not on every platform)
        return os.cpu_count() or 1


def _systems(fits: dict) -> pd.DataFrame:
    parts = {}
    for name, fit in fits.items():
        s = fit.summary()
        parts[name] = s[["score", "prob_best", "mean_rank"]]
    return pd.concat(parts, axis=1).sort_values((next(iter(fits)), "score"),
                                                ascending=False, kind="stable")


def _agreement(fits: dict) -> pd.DataFrame:
    names = list(fits)
    scores = np.stack([f.posterior["system_score"].mean(("chain", "draw")).values
                       for f in fits.values()])
    tau = kendall_tau_b(*np.broadcast_arrays(scores[:, None, :], scores[None, :, :]),
                        axis=-1)
    return pd.DataFrame(tau, index=pd.Index(names, name="likelihood"), columns=names)


def _pair_probabilities(fit: CrossedPosterior, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """P(system i > system j) of every pair, in blocks of 16 MiB of differences."""
    a = fit._effects()
    out = np.empty(i.size)
    step = max(1, (1 << 24) // (8 * a.shape[0]))
    for start in range(0, i.size, step):
        sl = slice(start, start + step)
        out[sl] = kp.prob_greater(a[:, i[sl]] - a[:, j[sl]], axis=0)
    return out


def _decisions(fits: dict) -> pd.DataFrame:
    systems = next(iter(fits.values())).systems
    i, j = system_pairs(systems, None)
    probs = {name: _pair_probabilities(fit, i, j) for name, fit in fits.items()}
    frame = pd.DataFrame(probs)
    frame.insert(0, "system2", systems[j].astype(str))
    frame.insert(0, "system", systems[i].astype(str))
    p = frame[list(probs)].to_numpy()
    decided = (p >= DECISION) | (p <= 1.0 - DECISION)
    changes = decided.any(axis=1) & ~decided.all(axis=1)
    return frame[changes].reset_index(drop=True)


@dataclass(frozen=True)
class PredictiveChecks:
    """Observed statistics of the scores against their posterior predictive distribution.

    Attributes
    ----------
    overall : pandas.DataFrame
        One row per statistic (``share_zero``, ``share_one``, ``share_below_0``,
        ``share_above_1``, ``mean``, ``sd``): ``observed``, ``replicated`` (mean over the
        replications), ``ci_low``, ``ci_high`` (95% equal-tailed), ``p_value`` (posterior
        predictive: P(replicated ≥ observed)).
    systems, topics : xarray.Dataset
        Per system: ``observed_mean``, ``observed_sd`` and the replicated
        ``mean``/``sd`` with 95% intervals (``mean_low``…); per topic the means.
    scores : numpy.ndarray
        The observed scores (flattened, missing dropped).
    replicated : numpy.ndarray
        Replicated scores of up to 20 draws (flattened), for the figures.
    likelihood, measure : str
    """

    overall: pd.DataFrame
    systems: xr.Dataset
    topics: xr.Dataset
    scores: np.ndarray = field(repr=False)
    replicated: np.ndarray = field(repr=False)
    likelihood: str = ""
    measure: str = ""

    def plot(self, path: Any = None, **kwargs: Any):
        """The four panels of :func:`scorestd.plot_predictive_checks`."""
        from ._figures import predictive_checks_figure

        return predictive_checks_figure(self, path=path, **kwargs)


def _statistics(x: np.ndarray) -> dict[str, np.ndarray]:
    """The overall statistics of score matrices ``(..., T, S)`` (NaN: missing)."""
    axes = (-2, -1)
    n = np.sum(~np.isnan(x), axis=axes)
    return {"share_zero": np.sum(x == 0.0, axis=axes) / n,
            "share_one": np.sum(x == 1.0, axis=axes) / n,
            "share_below_0": np.sum(x < 0.0, axis=axes) / n,
            "share_above_1": np.sum(x > 1.0, axis=axes) / n,
            "mean": np.nanmean(x, axis=axes), "sd": np.nanstd(x, axis=axes, ddof=1)}


def predictive_checks(fit: CrossedPosterior, *, memory: int | str | None = None,
                      seed: Any = 0) -> PredictiveChecks:
    """Posterior predictive checks of a crossed fit (missing scores stay missing).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5), topic=slice(0, 20))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=1000, warmup=200, seed=1)
    >>> checks = predictive_checks(fit)
    >>> float(checks.overall.loc["share_below_0", "observed"])
    0.0
    >>> bool(checks.overall.loc["share_below_0", "replicated"] > 0)  # normal: below 0
    True
    """
    keep = fit.predictive_subset(memory)
    y = fit.observed_data["score"].values
    rep = fit.posterior_predictive(keep, seed=seed)["score"].values
    rep = np.where(np.isnan(y), np.nan, rep).reshape(-1, *y.shape)  # (draws, T, S)
    obs, reps = _statistics(y), _statistics(rep)
    rows = {}
    for name in obs:
        r = reps[name]
        rows[name] = {"observed": float(obs[name]), "replicated": float(np.mean(r)),
                      "ci_low": float(np.quantile(r, 0.025)),
                      "ci_high": float(np.quantile(r, 0.975)),
                      "p_value": float(np.mean(r >= obs[name]))}
    overall = pd.DataFrame.from_dict(rows, orient="index")
    overall.index.name = "statistic"
    sys_mean, sys_sd = np.nanmean(rep, axis=1), np.nanstd(rep, axis=1, ddof=1)
    systems = xr.Dataset(
        {"observed_mean": (SYSTEM, np.nanmean(y, axis=0)),
         "observed_sd": (SYSTEM, np.nanstd(y, axis=0, ddof=1)),
         "mean": (SYSTEM, sys_mean.mean(axis=0)),
         "mean_low": (SYSTEM, np.quantile(sys_mean, 0.025, axis=0)),
         "mean_high": (SYSTEM, np.quantile(sys_mean, 0.975, axis=0)),
         "sd": (SYSTEM, sys_sd.mean(axis=0)),
         "sd_low": (SYSTEM, np.quantile(sys_sd, 0.025, axis=0)),
         "sd_high": (SYSTEM, np.quantile(sys_sd, 0.975, axis=0))},
        coords={SYSTEM: fit.observed_data[SYSTEM].values})
    top_mean = np.nanmean(rep, axis=2)
    topics = xr.Dataset(
        {"observed_mean": (TOPIC, np.nanmean(y, axis=1)),
         "mean": (TOPIC, top_mean.mean(axis=0)),
         "mean_low": (TOPIC, np.quantile(top_mean, 0.025, axis=0)),
         "mean_high": (TOPIC, np.quantile(top_mean, 0.975, axis=0))},
        coords={TOPIC: fit.observed_data[TOPIC].values})
    few = rep[np.linspace(0, rep.shape[0] - 1, min(20, rep.shape[0])).astype(int)]
    return PredictiveChecks(overall, systems, topics, y[~np.isnan(y)],
                            few[~np.isnan(few)], fit.likelihood,
                            str(fit.posterior.attrs.get("measure", "")))
