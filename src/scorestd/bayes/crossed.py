r"""The crossed random-effects model of a score matrix: :func:`bayes_crossed`.

.. math::
    y_{ts} = \mu + \alpha_s + \beta_t + \varepsilon_{ts}

(system effects α, topic effects β, residuals ε), fitted by the blocked Gibbs sampler of
:mod:`scorestd.bayes.gibbs`. The draws are held as plain ``xr.Dataset`` groups
(``posterior``, ``sample_stats``, ``observed_data``) in a :class:`CrossedPosterior`,
which derives the labelled answers (pairwise probabilities, P(best), ranks, variance
components) and converts to arviz's data type at the edge (:mod:`scorestd.bayes._arviz`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._options import (
    CIKind,
    ErrorDistribution,
    Likelihood,
    check_count,
    check_fits_memory,
    check_likelihood,
    check_option,
    check_positive,
    memory_budget,
)
from .._progress import progress_bar
from ..dims import SYSTEM, TOPIC
from ..errors import OptionError, ScoreDataError, warn
from ..kernels import posterior as kp
from ..kernels.seeds import root_sequence, seed_record
from ..mapping import maps_extra_dims
from ..score_cube import first_cell, validate
from ..stats._pairs import pair_coords, system_pairs
from ._arviz import diagnostics, to_arviz, to_datatree
from ._checks import check_interval, check_rope, check_scores, one_measure
from .bounded import sample_censored, sample_hurdle
from .gibbs import CrossedPriors, VariancePrior, sample_crossed
from .likelihoods import system_scores

__all__ = ["CONVERGENCE", "CrossedPosterior", "bayes_crossed", "resolve_priors"]

#: The convergence gate: largest R-hat and smallest bulk and tail ESS accepted.
CONVERGENCE = {"rhat": 1.01, "ess": 400}

#: Default prior shape of every variance, and its scale as a share of the scores' variance.
DEFAULT_SHAPE = 1.0
DEFAULT_SCALE_SHARE = 0.1

_PRIOR_KEYS = ("system", "topic", "residual", "mu")

#: The model of each likelihood, as recorded in ``posterior.attrs["model"]``.
MODELS = {
    "normal": "y[t,s] = mu + system_effect[s] + topic_effect[t] + e[t,s]",
    "censored": "y[t,s] = min(max(mu + system_effect[s] + topic_effect[t] + e[t,s], 0), 1)",
    "hurdle": ("P(y[t,s] = 0) = Phi(zero_mu + zero_system_effect[s] + zero_topic_effect[t]);"
               " P(y[t,s] = 1 | y > 0) = one_prob; otherwise logit(y[t,s]) = mu + "
               "system_effect[s] + topic_effect[t] + e[t,s]"),
}

#: How ``system_score`` (the expected score of a system) is computed, per likelihood.
SYSTEM_SCORE = {
    "normal": "mu + system_effect (the mean over the topic population)",
    "censored": ("E[min(max(X, 0), 1)], X ~ N(mu + system_effect, sigma_topic^2 + sigma^2): "
                 "over the topic population, in closed form"),
    "hurdle": ("(1 - P(0)) (one_prob + (1 - one_prob) E[logistic(X)]), "
               "X ~ N(mu + system_effect, sigma_topic^2 + sigma^2), P(0) the probit zero "
               "probability over the topic population (closed form); E[logistic] by "
               "Gauss-Hermite quadrature"),
}

#: Largest number of distinct values a measure's scores may take for a bounded likelihood.
DISCRETE_VALUES = 21


def check_bounded_scores(one: xr.DataArray, measure: str, likelihood: str) -> None:
    """Scores a likelihood on [0, 1] can describe: in [0, 1], not of a discrete measure.

    Raises :class:`~scorestd.errors.ScoreDataError` naming the topic and system of a score
    outside [0, 1], or the measure whose scores are discrete (P@k, reciprocal rank…),
    with what to use instead.
    """
    from ..measures import measure_info

    y = np.asarray(one.values, dtype=float)
    outside = ~np.isnan(y) & ((y < 0.0) | (y > 1.0))
    if outside.any():
        t, s = first_cell(outside)
        raise ScoreDataError(
            f"bayes_crossed(likelihood={likelihood!r}) needs scores in [0, 1]; topic "
            f"{str(one[TOPIC].values[t])!r}, system {str(one[SYSTEM].values[s])!r} has "
            f"{float(y[t, s])!r}: use likelihood='normal' for unbounded measures")
    info = measure_info(measure) if measure else None
    values = np.unique(y[~np.isnan(y)])
    discrete = (info is not None and info.support != "interval") or (
        values.size <= DISCRETE_VALUES)
    if discrete:
        what = (info.describe() if info is not None and info.support != "interval"
                else f"only {values.size} distinct values")
        raise ScoreDataError(
            f"bayes_crossed(likelihood={likelihood!r}): the scores of measure "
            f"{measure or '(unnamed)'!r} are discrete ({what}); a likelihood for continuous "
            f"scores in [0, 1] would describe values they cannot take. Use "
            f"likelihood='normal' (its system means and differences stay unbiased for "
            f"averages of discrete scores) or scorestd.bayes_compare")


def _model_scale(y: np.ndarray, likelihood: str) -> np.ndarray:
    """The scores on the scale of the model's normal part (logits of (0, 1) for hurdle)."""
    if likelihood != "hurdle":
        return y
    inside = (y > 0.0) & (y < 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(inside, np.log(y / (1.0 - y)), np.nan)


def resolve_priors(priors: Mapping[str, Any] | None, y: np.ndarray) -> CrossedPriors:
    """The priors as numbers: the user's entries, defaults for the others.

    Defaults: each variance IG(1, 0.1·v), v the variance of all observed scores (the
    same prior relative to the data whatever the measure); μ flat.

    Examples
    --------
    >>> p = resolve_priors({"system": 0.5, "residual": (2.0, 0.1)}, np.array([[0.0, 1.0]]))
    >>> p.system.describe(), p.topic.describe(), p.residual.describe(), p.mu
    ('fixed 0.5', 'IG(1, 0.025)', 'IG(2, 0.1)', None)
    """
    given = dict(priors or {})
    unknown = sorted(set(given) - set(_PRIOR_KEYS))
    if unknown:
        raise OptionError(f"priors has unknown key(s) {unknown}; its keys are "
                          f"{list(_PRIOR_KEYS)}")
    scale = DEFAULT_SCALE_SHARE * float(np.nanvar(y))
    if not scale > 0:
        scale = DEFAULT_SCALE_SHARE  # all scores equal: any positive scale
    resolved = {}
    for key in ("system", "topic", "residual"):
        value = given.get(key)
        if value is None:
            resolved[key] = VariancePrior(DEFAULT_SHAPE, scale)
        elif np.ndim(value) == 0 and key != "residual":
            resolved[key] = VariancePrior(fixed=check_positive(f"priors[{key!r}]", value))
        else:
            resolved[key] = _inverse_gamma(key, value)
    mu = given.get("mu")
    if mu is not None:
        mean, sd = _pair("priors['mu']", mu, "(mean, sd)")
        if not math.isfinite(mean):
            raise OptionError(f"priors['mu'] mean must be finite; got {mu!r}")
        mu = (mean, check_positive("priors['mu'] sd", sd))
    return CrossedPriors(resolved["system"], resolved["topic"], resolved["residual"], mu)


def _pair(name: str, value: Any, what: str) -> tuple[float, float]:
    try:
        a, b = (float(v) for v in value)
    except (TypeError, ValueError):
        raise OptionError(f"{name} must be a pair {what}; got {value!r}") from None
    return a, b


def _inverse_gamma(key: str, value: Any) -> VariancePrior:
    what = "(shape, scale) of an inverse-gamma prior" + (
        "" if key == "residual" else ", or a number (the variance, fixed)")
    shape, scale = _pair(f"priors[{key!r}]", value, what)
    return VariancePrior(check_positive(f"priors[{key!r}] shape", shape),
                         check_positive(f"priors[{key!r}] scale", scale))


@dataclass(frozen=True)
class CrossedPosterior:
    """Posterior draws of the crossed model and what they answer.

    Attributes
    ----------
    posterior : xarray.Dataset
        Draws over ``chain`` × ``draw``: ``mu``, ``system_effect`` (``system``),
        ``topic_effect`` (``topic``; unless not kept), ``sigma_system`` and
        ``sigma_topic`` (sds of the effects) and ``sigma`` (residual sd; over ``system``
        when heteroscedastic). ``attrs`` record the model, priors, sizes and seed.
    sample_stats : xarray.Dataset
        ``lp``: log density of the scores and the parameters, up to a constant.
    observed_data : xarray.Dataset
        ``score``: the topic × system scores fitted (``NaN``: missing).
    diagnostics : xarray.Dataset
        R-hat, bulk and tail ESS (from arviz) of ``system_effect``, ``mu`` and the
        sampled sds, as ``<name>_rhat``, ``<name>_ess_bulk``, ``<name>_ess_tail``.
    """

    posterior: xr.Dataset
    sample_stats: xr.Dataset
    observed_data: xr.Dataset
    diagnostics: xr.Dataset = field(repr=False)

    # -- arviz ---------------------------------------------------------------------
    def groups(self) -> dict[str, xr.Dataset]:
        """The groups as plain Datasets: ``posterior``, ``sample_stats``, ``observed_data``."""
        return {"posterior": self.posterior, "sample_stats": self.sample_stats,
                "observed_data": self.observed_data}

    def to_datatree(self) -> xr.DataTree:
        """The groups as one ``xarray.DataTree`` (arviz ≥ 1.0's data type)."""
        return to_datatree(self.groups())

    def to_arviz(self, *, predictive: bool = False, memory: int | str | None = None,
                 seed: Any = 0):
        """arviz's data object: ``InferenceData`` on arviz 0.x, ``DataTree`` on arviz ≥ 1.0.

        Pass it to ``arviz.summary``, ``arviz.plot_forest``, ``arviz.plot_trace``,
        ``arviz.rhat``, ``arviz.ess``… With ``predictive=True`` it also holds the
        ``log_likelihood`` (``score``: the pointwise log density of every score, on the
        score scale) and ``posterior_predictive`` (``score``: replicated scores) groups,
        for ``arviz.loo``, ``arviz.compare``, ``arviz.plot_ppc``; every group then holds
        the same evenly spaced subset of the draws, as many as fit in ``memory`` bytes
        per group (:func:`scorestd._options.memory_budget`; all the draws when they fit).
        """
        if not predictive:
            return to_arviz(self.groups())
        keep = self.predictive_subset(memory)
        groups = {name: ds.isel(draw=keep) for name, ds in self.groups().items()
                  if name != "observed_data"}
        groups["observed_data"] = self.observed_data
        groups["log_likelihood"] = self.log_likelihood(keep)
        groups["posterior_predictive"] = self.posterior_predictive(keep, seed=seed)
        return to_arviz(groups)

    # -- likelihood and predictions -------------------------------------------------
    @property
    def likelihood(self) -> str:
        """The likelihood of the scores: ``"normal"``, ``"censored"`` or ``"hurdle"``."""
        return str(self.posterior.attrs.get("likelihood", "normal"))

    def predictive_subset(self, memory: int | str | None = None) -> np.ndarray:
        """Indices of the evenly spaced draws (per chain) whose topic × system arrays of
        float64 fit in ``memory`` bytes (default :func:`scorestd._options.memory_budget`)."""
        budget = memory_budget(memory)
        sizes = self.posterior.sizes
        cells = self.observed_data["score"].size
        per_chain = max(1, budget // (8 * cells * sizes["chain"]))
        n = sizes["draw"]
        return np.unique(np.linspace(0, n - 1, min(n, per_chain)).round().astype(int))

    def _parameters(self, keep: np.ndarray) -> tuple[dict[str, np.ndarray], tuple[int, int]]:
        post = self.posterior
        if TOPIC not in post.dims:
            raise OptionError("the pointwise log-likelihood and the predictive draws need the "
                              "topic effects: fit with topic_effects=True")
        sub = post.isel(draw=keep)
        shape = (sub.sizes["chain"], sub.sizes["draw"])
        data = {name: (None, sub[name].transpose("chain", "draw", ...).values)
                for name in sub.data_vars}
        arrays = data_arrays(data)
        return ({k: v.reshape(-1, *v.shape[2:]) for k, v in arrays.items()}, shape)

    def _nu(self) -> float | None:
        nu = self.posterior.attrs.get("nu", "none")
        return None if nu == "none" or self.posterior.attrs.get("errors") == "normal" \
            else float(nu)

    def log_likelihood(self, draws: np.ndarray | None = None) -> xr.Dataset:
        """Pointwise log-likelihood of the observed scores, as arviz's group.

        ``score`` over ``chain`` × ``draw`` × ``topic`` × ``system``: the log density of each
        score on the score scale (the Jacobian of the logit included for the hurdle model;
        a log probability for a score of 0 or 1 where the likelihood has mass there;
        ``NaN`` for a missing score). ``draws``: the draw indices (default: the evenly
        spaced subset that fits the memory budget, :meth:`predictive_subset`).
        """
        from .likelihoods import pointwise_log_likelihood

        keep = self.predictive_subset() if draws is None else np.asarray(draws)
        p, shape = self._parameters(keep)
        y = self.observed_data["score"].values
        ll = pointwise_log_likelihood(self.likelihood, p, y, self._nu())
        return self._cells(ll.reshape(*shape, *y.shape), keep)

    def posterior_predictive(self, draws: np.ndarray | None = None, *,
                             seed: Any = 0) -> xr.Dataset:
        """Replicated scores (``score`` over chain × draw × topic × system), arviz's group;
        ``draws`` as :meth:`log_likelihood`."""
        from .likelihoods import predictive_draws

        keep = self.predictive_subset() if draws is None else np.asarray(draws)
        p, shape = self._parameters(keep)
        y = self.observed_data["score"].values
        rng = np.random.default_rng(root_sequence(seed))
        rep = predictive_draws(self.likelihood, p, y.shape[0], rng, self._nu())
        return self._cells(rep.reshape(*shape, *y.shape), keep)

    def _cells(self, values: np.ndarray, keep: np.ndarray) -> xr.Dataset:
        obs = self.observed_data
        return xr.Dataset(
            {"score": (("chain", "draw", TOPIC, SYSTEM), values)},
            coords={"chain": self.posterior["chain"].values,
                    "draw": self.posterior["draw"].values[keep],
                    TOPIC: obs[TOPIC].values, SYSTEM: obs[SYSTEM].values})

    def loo(self, *, memory: int | str | None = None, cells: str = "all"):
        """PSIS-LOO of the fit (``arviz.loo``) over the observed scores.

        ``cells="continuous"`` keeps only the scores strictly inside (0, 1), where every
        likelihood has a density (see :func:`scorestd.compare_likelihoods`).
        """
        from .comparison import loo

        return loo(self, memory=memory, cells=cells)

    def predictive_checks(self, *, memory: int | str | None = None, seed: Any = 0):
        """Observed statistics against their posterior predictive distribution
        (:func:`scorestd.bayes.comparison.predictive_checks`)."""
        from .comparison import predictive_checks

        return predictive_checks(self, memory=memory, seed=seed)

    # -- derived answers -------------------------------------------------------------
    @property
    def _compared(self) -> str:
        """The variable systems are compared by: the system effects (normal likelihood:
        differences of effects are differences of expected scores) or the expected scores
        (bounded likelihoods, whose effects live on a latent or logit scale)."""
        return "system_effect" if self.likelihood == "normal" else "system_score"

    def _draws_of(self, name: str) -> np.ndarray:
        """A per-system variable's draws, chains pooled, ``(chain·draw, S)``."""
        a = self.posterior[name].transpose("chain", "draw", SYSTEM).values
        return a.reshape(-1, a.shape[-1])

    def _effects(self) -> np.ndarray:
        """The draws systems are compared by (:attr:`_compared`), chains pooled."""
        return self._draws_of(self._compared)

    @property
    def systems(self) -> np.ndarray:
        """System labels."""
        return self.posterior[SYSTEM].values

    def pairs(self, *, baseline: str | None = None, ci_prob: float = 0.95,
              ci_kind: CIKind = "eti", rope: float | tuple[float, float] | None = None
              ) -> xr.Dataset:
        """Posterior of α_A − α_B for every pair of systems (or each against ``baseline``).

        Returns
        -------
        xarray.Dataset
            Over ``pair`` (coordinates ``system``, ``system2``), as
            :func:`scorestd.bayes_compare`: ``mean``, ``sd``, ``ci_low``, ``ci_high``,
            ``prob_greater`` = P(α_system > α_system2), ``prob_less`` and, with a ``rope``,
            (with a bounded likelihood, of the difference of expected scores
            ``system_score`` instead of α),
            the split
            ``prob_below_rope``, ``prob_in_rope``, ``prob_above_rope``.
        """
        prob = check_interval(ci_prob, ci_kind)
        bounds = check_rope(rope)
        i, j = system_pairs(self.systems, baseline)
        out = kp.pair_summaries(self._effects(), i, j, prob=prob, kind=ci_kind, rope=bounds)
        res = xr.Dataset({k: ("pair", v) for k, v in out.items()}).assign_coords(
            pair_coords(self.systems, i, j))
        res.attrs = {"model": "crossed random effects", "measure": self._measure,
                     "ci_prob": prob, "ci_kind": ci_kind, "baseline": str(baseline),
                     "rope": "none" if bounds is None else list(bounds)}
        return res

    def prob_best(self) -> xr.DataArray:
        """P(each system has the largest effect), over ``system``."""
        return xr.DataArray(kp.prob_best(self._effects()), dims=SYSTEM,
                            coords={SYSTEM: self.systems}, name="prob_best")

    def rank_probabilities(self) -> xr.DataArray:
        """P(system has rank r) (1 = best), over ``system`` × ``rank``; rows sum to 1."""
        s = self.systems.size
        return xr.DataArray(kp.rank_probabilities(self._effects()), dims=(SYSTEM, "rank"),
                            coords={SYSTEM: self.systems, "rank": np.arange(1, s + 1)},
                            name="rank_probability")

    def system_effects(self, *, ci_prob: float = 0.95, ci_kind: CIKind = "hdi"
                       ) -> xr.Dataset:
        """Per system: posterior ``mean``, ``sd``, interval, ``prob_best``, ``mean_rank`` and
        the diagnostics ``rhat``, ``ess_bulk``, ``ess_tail`` of the quantity systems are
        compared by: the system effect α (normal likelihood) or the expected score
        ``system_score`` (bounded likelihoods, whose α is on a logit or latent scale;
        ``attrs["variable"]`` says which)."""
        prob = check_interval(ci_prob, ci_kind)
        a = self._effects()
        low, high = kp.interval(a, prob, ci_kind, axis=0)
        ranks = kp.rank_probabilities(a)
        d, name = self.diagnostics, self._compared
        res = xr.Dataset(
            {"mean": (SYSTEM, a.mean(axis=0)), "sd": (SYSTEM, a.std(axis=0, ddof=1)),
             "ci_low": (SYSTEM, low), "ci_high": (SYSTEM, high),
             "prob_best": (SYSTEM, ranks[:, 0]),
             "mean_rank": (SYSTEM, ranks @ np.arange(1, a.shape[1] + 1)),
             "rhat": (SYSTEM, d[f"{name}_rhat"].values),
             "ess_bulk": (SYSTEM, d[f"{name}_ess_bulk"].values),
             "ess_tail": (SYSTEM, d[f"{name}_ess_tail"].values)},
            coords={SYSTEM: self.systems})
        res.attrs = {"ci_prob": prob, "ci_kind": ci_kind, "measure": self._measure,
                     "variable": name}
        return res

    def variance_components(self, *, ci_prob: float = 0.95, ci_kind: CIKind = "eti"
                            ) -> xr.Dataset:
        """σ_system², σ_topic², σ² (residual): posterior mean, median, interval, and share.

        ``share`` is the posterior mean of each variance over their sum (the share of
        score variance due to systems, topics and residual). With per-system residual
        variances, ``residual`` is their mean over systems.
        """
        prob = check_interval(ci_prob, ci_kind)
        post = self.posterior
        resid = post["sigma"] ** 2
        if SYSTEM in resid.dims:
            resid = resid.mean(SYSTEM)
        parts = [post["sigma_system"] ** 2, post["sigma_topic"] ** 2, resid]
        v = np.stack([p.transpose("chain", "draw").values.ravel() for p in parts], axis=1)
        low, high = kp.interval(v, prob, ci_kind, axis=0)
        share = (v / v.sum(axis=1, keepdims=True)).mean(axis=0)
        res = xr.Dataset(
            {"mean": ("component", v.mean(axis=0)), "median": ("component", np.median(v, 0)),
             "ci_low": ("component", low), "ci_high": ("component", high),
             "share": ("component", share)},
            coords={"component": ["system", "topic", "residual"]})
        res.attrs = {"ci_prob": prob, "ci_kind": ci_kind, "measure": self._measure,
                     "what": "variances (squared sds) of the effects and residuals"}
        return res

    def summary(self, *, ci_prob: float = 0.95, ci_kind: CIKind = "hdi") -> pd.DataFrame:
        """One row per system, best first: the expected score and its interval, the effect,
        P(best), mean rank, R-hat and ESS.

        Columns: ``score`` (posterior mean of ``system_score``, the system's expected
        score on the original scale over the topic population), ``score_sd``,
        ``score_ci_low``, ``score_ci_high``; ``effect`` (posterior mean of
        ``system_effect``: relative to μ, on the model's scale, logits for the hurdle
        model); ``prob_best``, ``mean_rank``; ``rhat``, ``ess_bulk``, ``ess_tail`` of the
        effect. ``attrs["mu"]`` holds μ's posterior mean (printed by the CLI).
        """
        eff = self.system_effects(ci_prob=ci_prob, ci_kind=ci_kind)
        score = self._draws_of("system_score")
        low, high = kp.interval(score, eff.attrs["ci_prob"], ci_kind, axis=0)
        d = self.diagnostics  # (of the effect α, whatever the systems are compared by)
        frame = pd.DataFrame(
            {"score": score.mean(axis=0), "score_sd": score.std(axis=0, ddof=1),
             "score_ci_low": low, "score_ci_high": high,
             "effect": self._draws_of("system_effect").mean(axis=0),
             "prob_best": eff["prob_best"].values, "mean_rank": eff["mean_rank"].values,
             "rhat": d["system_effect_rhat"].values,
             "ess_bulk": d["system_effect_ess_bulk"].values,
             "ess_tail": d["system_effect_ess_tail"].values},
            index=pd.Index(self.systems, name=SYSTEM))
        frame = frame.sort_values("score", ascending=False, kind="stable")
        frame.attrs = {"mu": float(self.posterior["mu"].mean()), "ci_prob": ci_prob,
                       "ci_kind": ci_kind, "likelihood": self.likelihood,
                       "measure": self._measure}
        return frame

    def plot(self, path: Any = None, **kwargs: Any):
        """Forest plot of the system effects (:func:`scorestd.plot_system_effects`)."""
        from ._figures import system_effects_figure

        return system_effects_figure(self, path=path, **kwargs)

    @property
    def _measure(self) -> str:
        return str(self.posterior.attrs.get("measure", ""))

    def __repr__(self) -> str:
        a = self.posterior.attrs
        return (f"CrossedPosterior({a.get('measure')}: {self.posterior.sizes[SYSTEM]} systems, "
                f"{self.observed_data.sizes[TOPIC]} topics; {a.get('chains')} chains × "
                f"{a.get('draws')} draws, errors={a.get('errors')})")


@maps_extra_dims()
def bayes_crossed(
    scores: Any,
    *,
    measure: str | None = None,
    chains: int = 4,
    draws: int = 2000,
    warmup: int = 1000,
    thin: int = 1,
    seed: int | np.random.SeedSequence | None = None,
    priors: Mapping[str, Any] | None = None,
    errors: ErrorDistribution = "normal",
    nu: float = 4.0,
    heteroscedastic: bool = False,
    topic_effects: bool = True,
    chain_batch: int | None = None,
    progress: bool | None = None,
    likelihood: Likelihood = "normal",
    memory: int | str | None = None,
) -> CrossedPosterior:
    r"""Fit the crossed random-effects model of systems and topics by blocked Gibbs sampling.

    The model of the scores of one measure,

    .. math::
        y_{ts} = \mu + \alpha_s + \beta_t + \varepsilon_{ts},\quad
        \alpha_s \sim N(0, \sigma_{system}^2),\ \beta_t \sim N(0, \sigma_{topic}^2),\
        \varepsilon_{ts} \sim N(0, \sigma^2)

    (Student-t residuals with ``errors="student_t"``, one σ per system with
    ``heteroscedastic=True``), is the crossed topic × system model of Benham, Carterette,
    Culpepper & Moffat (SIGIR 2020), sampled here in numpy with all chains at once.
    Missing cells are left out of the likelihood.

    For scores bounded in [0, 1] with mass at 0 (and 1), ``likelihood`` replaces the
    normal likelihood (see :mod:`scorestd.bayes.bounded`):

    - ``"censored"``: the normal model censored at 0 and 1 (a score of 0 is a latent value
      ≤ 0, a score of 1 one ≥ 1);
    - ``"hurdle"``: a score is 0 with probability Φ(ζ + γ_system + δ_topic) (probit, with
      its own crossed effects: ``zero_mu``, ``zero_system_effect``, ``zero_topic_effect``),
      else 1 with probability ``one_prob`` (where the scores hold ones), else its logit
      follows the crossed normal model (``mu``, ``system_effect``… on the logit scale).

    Measures with discrete scores (P@k, reciprocal rank, success) are refused by the
    bounded likelihoods. Every fit holds ``system_score``: each system's expected score
    on the original scale over the topic population (a new topic), so that rankings,
    P(best) and pairs are comparable across likelihoods (see
    :func:`scorestd.bayes.likelihoods.system_scores`); its pointwise log-likelihood and
    posterior predictive draws are in ``to_arviz(predictive=True)``, and
    :func:`scorestd.compare_likelihoods` compares fits by PSIS-LOO.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array.
    measure : str, optional
        The measure to model (needed when the cube has several).
    chains, draws, warmup, thin : int
        Chains, draws kept per chain, iterations discarded first (≥ 0), and thinning
        (keep every ``thin``-th iteration after warm-up).
    seed : int or numpy.random.SeedSequence, optional
        Root seed; chain ``c`` draws from ``SeedSequence(seed).spawn(chains)[c]`` only, so
        the same seed gives the same draws whatever ``chain_batch``. ``None`` draws fresh
        entropy, recorded in ``posterior.attrs["seed"]`` to reproduce the run.
    priors : mapping, optional
        Any of ``"system"``, ``"topic"``, ``"residual"``: ``(shape, scale)`` of an
        inverse-gamma prior IG(a, b) (density ∝ v^(−a−1) e^(−b/v)) on that variance, or
        for ``"system"``/``"topic"`` a number: the effects' variance, fixed (a very wide
        value such as 100 gives, nearly, the fixed-effects two-way ANOVA); ``"mu"``:
        ``(mean, sd)`` of a normal prior on μ. Defaults: IG(1, 0.1·v) for each variance,
        v the variance of all the scores (weakly informative on the data's own scale,
        whatever the measure), and a flat prior on μ. The priors used are recorded in
        ``posterior.attrs``.
    errors : {"normal", "student_t"}
        Residual distribution; Student-t (a scale mixture of normals) with ``nu``
        degrees of freedom downweights outlying scores.
    nu : float
        Degrees of freedom of the Student-t residuals (fixed; > 0).
    heteroscedastic : bool
        One residual variance per system (each with the ``"residual"`` prior).
    topic_effects : bool
        Keep the draws of the topic effects (chains × draws × topics numbers; they
        dominate memory on large cubes).
    chain_batch : int, optional
        Chains sampled together (memory); the draws do not depend on it.
    progress : bool, optional
        Show a progress bar over the iterations. Default: only when standard error is a
        terminal.
    likelihood : {"normal", "censored", "hurdle"}
        The likelihood of the scores (``errors`` and ``heteroscedastic`` are options of
        ``"normal"``). With ``"hurdle"``, ``priors`` are those of the logit part (defaults
        relative to the variance of the logits); the zero part has intercept N(0, 2²) and
        effect variances IG(2, 0.5) on the probit scale.
    memory : int or str, optional
        Memory budget of the draws kept and the sampler's arrays (``"512MB"``; default
        ``$SCORESTD_MEMORY``, else 256 MiB). A fit over it is refused before sampling,
        naming the budget: ask for fewer ``draws`` or ``chains``, a larger ``thin``, or
        ``topic_effects=False``.

    Returns
    -------
    CrossedPosterior
        The draws (``posterior``, ``sample_stats``, ``observed_data``; ``to_arviz()`` for
        arviz) and the labelled answers: ``pairs()``, ``prob_best()``,
        ``rank_probabilities()``, ``system_effects()``, ``variance_components()``,
        ``summary()``, ``plot()``.

    Warns
    -----
    ScorestdWarning
        When the chains have not converged: any system effect, μ or sampled sd with
        rank-normalised R-hat > 1.01 or bulk or tail ESS < 400 (named, with their
        values). Run longer (``draws``, ``warmup``) or revise the model.

    Raises
    ------
    ScoreDataError
        Fewer than 2 topics or systems, a topic or system with no score, several
        measures and no ``measure``.
    OptionError
        An invalid count, prior, ``errors`` or ``nu``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 8))
    >>> fit = scorestd.bayes_crossed(ap, chains=2, draws=500, warmup=200, seed=1)
    >>> fit.posterior["system_effect"].dims
    ('chain', 'draw', 'system')
    >>> best = fit.prob_best()
    >>> str(best.idxmax().item()), round(float(best.sum()), 6)
    ('run2', 1.0)
    >>> pairs = fit.pairs(rope=0.01)
    >>> pairs.sizes["pair"], float(pairs.prob_greater.min()) >= 0
    (28, True)
    """
    chains = check_count("chains", chains)
    draws = check_count("draws", draws)
    warmup = check_count("warmup", warmup, 0)
    thin = check_count("thin", thin)
    check_option(errors, ErrorDistribution, "errors")
    likelihood = check_likelihood(likelihood, errors, bool(heteroscedastic))
    nu_value = check_positive("nu", nu) if errors == "student_t" else None
    if chain_batch is not None:
        chain_batch = check_count("chain_batch", chain_batch)
    cube = validate(scores)
    check_scores(cube, "bayes_crossed")
    one = one_measure(cube, measure)
    y = np.asarray(one.values, dtype=float)
    measure_name = str(one["measure"].values) if "measure" in one.coords else ""
    if likelihood != "normal":
        check_bounded_scores(one, measure_name, likelihood)
    check_fits_memory(
        fit_bytes(chains, draws, *y.shape, topic_effects=bool(topic_effects),
                  heteroscedastic=bool(heteroscedastic), likelihood=likelihood),
        memory, f"the draws of {chains} chains × {draws} draws ({y.shape[0]} topics × "
        f"{y.shape[1]} systems, {likelihood} likelihood)",
        instead="ask for fewer draws or chains, topic_effects=False")
    resolved = resolve_priors(priors, _model_scale(y, likelihood))
    root = root_sequence(seed)
    with progress_bar(chains * (warmup + draws * thin), "bayes_crossed", show=progress,
                      unit="it") as job:
        common = {"chains": chains, "draws": draws, "warmup": warmup, "thin": thin,
                  "seed": root, "keep_topics": bool(topic_effects), "progress": job.advance}
        if likelihood == "censored":
            out = sample_censored(y, resolved, **common)
        elif likelihood == "hurdle":
            out = sample_hurdle(y, resolved, zero_part=bool(np.any(y == 0.0)),
                                one_part=bool(np.any(y == 1.0)), **common)
        else:
            out = sample_crossed(y, resolved, nu=nu_value,
                                 heteroscedastic=bool(heteroscedastic),
                                 chain_batch=chain_batch, **common)
    attrs = {
        "model": MODELS[likelihood],
        "likelihood": likelihood,
        "system_score": SYSTEM_SCORE[likelihood],
        "measure": measure_name,
        "collection": str(one.attrs.get("collection", "")),
        "errors": errors, "nu": nu_value if nu_value is not None else "none",
        "heteroscedastic": int(bool(heteroscedastic)),
        "prior_system": resolved.system.describe(), "prior_topic": resolved.topic.describe(),
        "prior_residual": resolved.residual.describe(),
        "prior_mu": "flat" if resolved.mu is None else f"N{resolved.mu}",
        "chains": chains, "draws": draws, "warmup": warmup, "thin": thin,
        "seed": str(seed_record(root)), "sampler": "blocked Gibbs",
        "inference_library": "scorestd",
    }
    fit = _posterior(out, one, attrs, resolved)
    _gate(fit)
    return fit


def fit_bytes(chains: int, draws: int, n_topics: int, n_systems: int, *,
              topic_effects: bool = True, heteroscedastic: bool = False,
              likelihood: str = "normal") -> int:
    """Bytes a crossed fit holds: its draws (twice: the sampler's and the posterior's)
    and the sampler's per-cell arrays (latent scores of the bounded likelihoods).

    Examples
    --------
    >>> fit_bytes(4, 2000, 50, 129) / 2**20  # adhoc8 AP, the defaults
    39.605712890625
    """
    hurdle = likelihood == "hurdle"
    per_draw = (n_systems * (2 + int(heteroscedastic) + 2 * int(hurdle))
                + int(topic_effects) * n_topics * (1 + int(hurdle)) + 10)
    cells = n_topics * n_systems * (4 if likelihood == "normal" else 8)
    return 8 * chains * (2 * draws * per_draw + cells)


def _posterior(out: dict[str, np.ndarray], one: xr.DataArray, attrs: dict,
               priors: CrossedPriors) -> CrossedPosterior:
    n_chains, n_draws = out["mu"].shape
    coords = {"chain": np.arange(n_chains), "draw": np.arange(n_draws),
              SYSTEM: one[SYSTEM].values, TOPIC: one[TOPIC].values}
    cd = ("chain", "draw")
    resid = out["var_residual"]
    data = {
        "mu": (cd, out["mu"]),
        "system_effect": ((*cd, SYSTEM), out["alpha"]),
        "sigma_system": (cd, np.sqrt(out["var_system"])),
        "sigma_topic": (cd, np.sqrt(out["var_topic"])),
        "sigma": ((*cd, SYSTEM) if resid.ndim == 3 else cd, np.sqrt(resid)),
    }
    if "beta" in out:
        data["topic_effect"] = ((*cd, TOPIC), out["beta"])
    if "zero_mu" in out:
        data["zero_mu"] = (cd, out["zero_mu"])
        data["zero_system_effect"] = ((*cd, SYSTEM), out["zero_alpha"])
        data["zero_sigma_system"] = (cd, np.sqrt(out["zero_var_system"]))
        data["zero_sigma_topic"] = (cd, np.sqrt(out["zero_var_topic"]))
        if "zero_beta" in out:
            data["zero_topic_effect"] = ((*cd, TOPIC), out["zero_beta"])
    if "one_prob" in out:
        data["one_prob"] = (cd, out["one_prob"])
    flat = {k: v.reshape(n_chains * n_draws, *v.shape[2:]) for k, v in data_arrays(
        data).items()}
    data["system_score"] = ((*cd, SYSTEM), system_scores(
        attrs["likelihood"], flat).reshape(n_chains, n_draws, -1))
    post = xr.Dataset(data, coords={k: v for k, v in coords.items()
                                    if k != TOPIC or "beta" in out}, attrs=attrs)
    stats = xr.Dataset({"lp": (cd, out["lp"])}, coords={"chain": coords["chain"],
                                                        "draw": coords["draw"]})
    observed = xr.Dataset({"score": ((TOPIC, SYSTEM), np.asarray(one.values, dtype=float))},
                          coords={TOPIC: coords[TOPIC], SYSTEM: coords[SYSTEM]})
    gated = ["system_effect", "mu"]
    gated += [name for name, prior in (("sigma_system", priors.system),
                                       ("sigma_topic", priors.topic))
              if prior.fixed is None]
    gated.append("sigma")
    # the expected scores: gated where they are a new quantity; μ + α (normal) is
    # covered by the gate of μ and α, and only reported
    scores = ["system_score"]
    if attrs["likelihood"] != "normal":
        gated, scores = [*gated, "system_score"], []
    zero = [name for name in ("zero_system_effect", "zero_mu", "zero_sigma_system",
                              "zero_sigma_topic") if name in post]
    diag = diagnostics(post, gated + scores + zero)
    diag.attrs = {"gated": gated, "zero_part": zero}
    return CrossedPosterior(post, stats, observed, diag)


def data_arrays(data: dict) -> dict[str, np.ndarray]:
    """The draws of a ``{name: (dims, array)}`` dict by the names that the likelihoods of
    :mod:`scorestd.bayes.likelihoods` read (``alpha``, ``beta``, …)."""
    rename = {"system_effect": "alpha", "topic_effect": "beta",
              "zero_system_effect": "zero_alpha", "zero_topic_effect": "zero_beta"}
    return {rename.get(k, k): np.asarray(v[1]) for k, v in data.items()}


def _failing(d: xr.Dataset, names: list[str]) -> list[str]:
    """The parameters among ``names`` that fail the gate, with their R-hat and ESS."""
    failing = []
    for name in names:
        rhat = d[f"{name}_rhat"]
        bulk, tail = d[f"{name}_ess_bulk"], d[f"{name}_ess_tail"]
        bad = ((rhat > CONVERGENCE["rhat"]) | (bulk < CONVERGENCE["ess"])
               | (tail < CONVERGENCE["ess"]) | rhat.isnull())
        for index in zip(*np.nonzero(np.atleast_1d(bad.values)), strict=True):
            label = name
            if rhat.ndim:
                label += f"[{rhat[rhat.dims[0]].values[index[0]]}]"
            r, b, t = (float(np.atleast_1d(v.values)[index]) for v in (rhat, bulk, tail))
            failing.append(f"{label} (R-hat {r:.3f}, ESS bulk {b:.0f}, tail {t:.0f})")
    return failing


def _shown(failing: list[str]) -> str:
    return "; ".join(failing[:10]) + (f"; and {len(failing) - 10} more"
                                      if len(failing) > 10 else "")


def _bimodal_hint(fit: CrossedPosterior) -> str:
    """What to try when Student-t errors and per-system variances fail to converge."""
    attrs = fit.posterior.attrs
    if attrs.get("errors") != "student_t" or not int(attrs.get("heteroscedastic", 0)):
        return ""
    return (" With Student-t errors and one variance per system the posterior can have two "
            "modes on few topics (heavy tails and per-system variances can each take the "
            "place of the topic effects), and chains then stay in different modes whatever "
            "their length: fit with one of the two options.")


def _gate(fit: CrossedPosterior) -> None:
    """Warn, naming them, about the parameters that fail the convergence gate."""
    d = fit.diagnostics
    failing = _failing(d, d.attrs["gated"])
    if failing:
        warn(f"bayes_crossed: the chains have not converged for {len(failing)} "
             f"parameter(s) (R-hat > {CONVERGENCE['rhat']} or bulk/tail ESS < "
             f"{CONVERGENCE['ess']}): {_shown(failing)}. Run more draws or a longer warm-up "
             f"(draws=, warmup=), or revise the model." + _bimodal_hint(fit))
    zero = _failing(d, d.attrs.get("zero_part", []))
    if zero:
        y = fit.observed_data["score"].values
        zeros = int(np.sum(y == 0.0))
        warn(f"bayes_crossed(likelihood='hurdle'): the zero part mixes slowly "
             f"({zeros} zeros in {int(np.sum(~np.isnan(y)))} scores: latent-variable "
             f"moves are short when zeros are rare): {_shown(zero)}. Its effects are "
             f"uncertain beyond what their draws show; the system scores and the logit "
             f"part passed the gate"
             + ("" if not failing else " only where not listed above")
             + ". Run more draws to read the zero part itself.")
