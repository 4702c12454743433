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
    check_count,
    check_option,
    check_positive,
)
from .._progress import progress_bar
from ..dims import SYSTEM, TOPIC
from ..errors import OptionError, warn
from ..kernels import posterior as kp
from ..kernels.seeds import root_sequence, seed_record
from ..score_cube import validate
from ..stats._pairs import pair_coords, system_pairs
from ._arviz import diagnostics, to_arviz, to_datatree
from ._checks import check_interval, check_rope, check_scores, one_measure
from .gibbs import CrossedPriors, VariancePrior, sample_crossed

__all__ = ["CONVERGENCE", "CrossedPosterior", "bayes_crossed", "resolve_priors"]

#: The convergence gate: largest R-hat and smallest bulk and tail ESS accepted.
CONVERGENCE = {"rhat": 1.01, "ess": 400}

#: Default prior shape of every variance, and its scale as a share of the scores' variance.
DEFAULT_SHAPE = 1.0
DEFAULT_SCALE_SHARE = 0.1

_PRIOR_KEYS = ("system", "topic", "residual", "mu")


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

    def to_arviz(self):
        """arviz's data object: ``InferenceData`` on arviz 0.x, ``DataTree`` on arviz ≥ 1.0.

        Pass it to ``arviz.summary``, ``arviz.plot_forest``, ``arviz.plot_trace``,
        ``arviz.rhat``, ``arviz.ess``…
        """
        return to_arviz(self.groups())

    # -- derived answers -------------------------------------------------------------
    def _effects(self) -> np.ndarray:
        """System-effect draws with chains pooled, ``(chain·draw, S)``."""
        a = self.posterior["system_effect"].transpose("chain", "draw", SYSTEM).values
        return a.reshape(-1, a.shape[-1])

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
        the diagnostics ``rhat``, ``ess_bulk``, ``ess_tail``."""
        prob = check_interval(ci_prob, ci_kind)
        a = self._effects()
        low, high = kp.interval(a, prob, ci_kind, axis=0)
        ranks = kp.rank_probabilities(a)
        d = self.diagnostics
        res = xr.Dataset(
            {"mean": (SYSTEM, a.mean(axis=0)), "sd": (SYSTEM, a.std(axis=0, ddof=1)),
             "ci_low": (SYSTEM, low), "ci_high": (SYSTEM, high),
             "prob_best": (SYSTEM, ranks[:, 0]),
             "mean_rank": (SYSTEM, ranks @ np.arange(1, a.shape[1] + 1)),
             "rhat": (SYSTEM, d["system_effect_rhat"].values),
             "ess_bulk": (SYSTEM, d["system_effect_ess_bulk"].values),
             "ess_tail": (SYSTEM, d["system_effect_ess_tail"].values)},
            coords={SYSTEM: self.systems})
        res.attrs = {"ci_prob": prob, "ci_kind": ci_kind, "measure": self._measure}
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
        """One row per system, best first: effect mean, sd, interval, P(best), mean rank,
        R-hat and ESS."""
        frame = self.system_effects(ci_prob=ci_prob, ci_kind=ci_kind).to_dataframe()
        return frame.sort_values("mean", ascending=False, kind="stable")

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
    nu_value = check_positive("nu", nu) if errors == "student_t" else None
    if chain_batch is not None:
        chain_batch = check_count("chain_batch", chain_batch)
    cube = validate(scores)
    check_scores(cube, "bayes_crossed")
    one = one_measure(cube, measure)
    y = np.asarray(one.values, dtype=float)
    resolved = resolve_priors(priors, y)
    root = root_sequence(seed)
    with progress_bar(chains * (warmup + draws * thin), "bayes_crossed", show=progress,
                      unit="it") as job:
        out = sample_crossed(y, resolved, chains=chains, draws=draws, warmup=warmup,
                             thin=thin, seed=root, nu=nu_value,
                             heteroscedastic=bool(heteroscedastic),
                             keep_topics=bool(topic_effects), chain_batch=chain_batch,
                             progress=job.advance)
    attrs = {
        "model": "y[t,s] = mu + system_effect[s] + topic_effect[t] + e[t,s]",
        "measure": str(one["measure"].values) if "measure" in one.coords else "",
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
    diag = diagnostics(post, gated)
    diag.attrs = {"gated": gated}
    return CrossedPosterior(post, stats, observed, diag)


def _gate(fit: CrossedPosterior) -> None:
    """Warn, naming them, about the parameters that fail the convergence gate."""
    d = fit.diagnostics
    failing = []
    for name in d.attrs["gated"]:
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
    if failing:
        shown = "; ".join(failing[:10]) + (f"; and {len(failing) - 10} more"
                                          if len(failing) > 10 else "")
        warn(f"bayes_crossed: the chains have not converged for {len(failing)} "
             f"parameter(s) (R-hat > {CONVERGENCE['rhat']} or bulk/tail ESS < "
             f"{CONVERGENCE['ess']}): {shown}. Run more draws or a longer warm-up "
             f"(draws=, warmup=), or revise the model.")
