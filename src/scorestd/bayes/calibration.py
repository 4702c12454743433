"""Simulation-based calibration of the crossed model's samplers (Talts et al. 2018).

For each simulation: draw the parameters from the prior, scores from the model given
them, fit the model to those scores with the sampler, and record the rank of each true
parameter among (thinned) posterior draws. When the sampler draws from the posterior, each
rank is uniform on {0, …, L}; a histogram that is not uniform shows the bias (a slope) or
the over- or under-dispersion (a ∪ or ∩) of the posterior the sampler returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special, stats

from .._options import check_count, check_fits_memory, check_likelihood, check_positive
from ..kernels.seeds import root_sequence
from .bounded import PROBIT_PRIORS, sample_censored, sample_hurdle
from .crossed import fit_bytes
from .gibbs import CrossedPriors, VariancePrior, sample_crossed

__all__ = ["CALIBRATION_PRIORS", "CalibrationResult", "simulation_based_calibration"]

#: Proper priors of the calibration runs (on the scale of scores around 0.3, sds ~0.1-0.2).
CALIBRATION_PRIORS = CrossedPriors(VariancePrior(3.0, 0.02), VariancePrior(3.0, 0.04),
                                   VariancePrior(3.0, 0.02), mu=(0.3, 0.1))
#: The same for the logit part of the hurdle model (logits around −0.8, sds ~0.5).
LOGIT_PRIORS = CrossedPriors(VariancePrior(3.0, 0.5), VariancePrior(3.0, 1.0),
                             VariancePrior(3.0, 0.5), mu=(-0.8, 0.5))


@dataclass(frozen=True)
class CalibrationResult:
    """Ranks of the true parameters among posterior draws, and their uniformity.

    Attributes
    ----------
    ranks : pandas.DataFrame
        One row per simulation, one column per parameter: the rank in {0, …, ``draws``}.
    draws : int
        Posterior draws each rank is among (ranks take ``draws + 1`` values).
    tests : pandas.DataFrame
        Per parameter: the χ² statistic of the rank histogram over ``bins`` equal bins,
        its p-value, and the p-value of the Kolmogorov–Smirnov test of the ranks (jittered
        to continuous: (rank + U)/(draws + 1) against the uniform).
    bins : int
    """

    ranks: pd.DataFrame
    draws: int
    tests: pd.DataFrame
    bins: int

    def __repr__(self) -> str:
        worst = float(self.tests["chi2_p"].min())
        return (f"CalibrationResult({len(self.ranks)} simulations, {self.ranks.shape[1]} "
                f"parameters, ranks among {self.draws} draws; smallest χ² p = {worst:.3g})")


def _prior_draw(rng: np.random.Generator, p: CrossedPriors, n_t: int, n_s: int,
                hetero: bool) -> dict[str, Any]:
    def ig(prior: VariancePrior, size=None):
        return prior.scale / rng.gamma(prior.shape, 1.0, size)

    vs, vt = ig(p.system), ig(p.topic)
    ve = ig(p.residual, n_s) if hetero else ig(p.residual)
    return {"mu": rng.normal(p.mu[0], p.mu[1]), "var_system": vs, "var_topic": vt,
            "var_residual": ve, "alpha": rng.normal(0, np.sqrt(vs), n_s),
            "beta": rng.normal(0, np.sqrt(vt), n_t)}


def _simulate(likelihood: str, rng, n_t, n_s, nu, hetero):
    if likelihood == "hurdle":
        truth = _prior_draw(rng, LOGIT_PRIORS, n_t, n_s, False)
        zero = _prior_draw(rng, PROBIT_PRIORS, n_t, n_s, False)
        truth.update({f"zero_{k}": v for k, v in zero.items() if k != "var_residual"})
    else:
        truth = _prior_draw(rng, CALIBRATION_PRIORS, n_t, n_s, hetero)
    eta = truth["mu"] + truth["alpha"][None, :] + truth["beta"][:, None]
    sd = np.sqrt(truth["var_residual"])
    noise = rng.standard_normal((n_t, n_s))
    if nu is not None:
        noise = noise / np.sqrt(rng.gamma(nu / 2, 2 / nu, (n_t, n_s)))
    y = eta + sd * noise
    if likelihood == "censored":
        y = np.clip(y, 0.0, 1.0)
    elif likelihood == "hurdle":
        y = special.expit(y)
        eta0 = truth["zero_mu"] + truth["zero_alpha"][None, :] + truth["zero_beta"][:, None]
        y = np.where(rng.standard_normal((n_t, n_s)) < eta0, 0.0, y)
    return truth, y


def _scalars(values: dict[str, Any], prefixes: tuple[str, ...],
             hetero: bool) -> dict[str, Any]:
    """The calibrated scalars: μ, the first system and topic effects, the variances."""
    out = {}
    for pre in prefixes:
        out[f"{pre}mu"] = values[f"{pre}mu"]
        out[f"{pre}system_effect[0]"] = values[f"{pre}alpha"][..., 0]
        out[f"{pre}topic_effect[0]"] = values[f"{pre}beta"][..., 0]
        out[f"{pre}var_system"] = values[f"{pre}var_system"]
        out[f"{pre}var_topic"] = values[f"{pre}var_topic"]
        if pre == "":  # (the first system's, when per system)
            v = values["var_residual"]
            out["var_residual"] = v[..., 0] if hetero else v
    return out


def simulation_based_calibration(
    likelihood: str = "normal",
    *,
    simulations: int = 200,
    n_topics: int = 10,
    n_systems: int = 4,
    draws: int = 99,
    thin: int = 5,
    warmup: int = 200,
    errors: str = "normal",
    nu: float = 4.0,
    heteroscedastic: bool = False,
    bins: int = 10,
    seed: Any = 0,
    memory: int | str | None = None,
) -> CalibrationResult:
    """Simulation-based calibration of the crossed model's sampler for one likelihood.

    Priors are proper and fixed (:data:`CALIBRATION_PRIORS`; the hurdle model's logit
    part :data:`LOGIT_PRIORS` and zero part
    :data:`scorestd.bayes.bounded.PROBIT_PRIORS`).

    Parameters
    ----------
    likelihood : {"normal", "censored", "hurdle"}
    simulations : int
        Data sets simulated from the prior (each fitted once, one chain).
    n_topics, n_systems : int
        Size of each simulated topic × system matrix.
    draws, thin, warmup : int
        Each rank is among ``draws`` posterior draws, kept every ``thin`` iterations
        (so that they are nearly independent) after ``warmup``.
    errors, nu, heteroscedastic
        The options of the normal likelihood (Student-t errors, per-system variances).
    bins : int
        Bins of the χ² test of uniformity (``draws + 1`` must be a multiple).
    seed : int or numpy.random.SeedSequence
    memory : int or str, optional
        Memory budget of one fit's draws (as :func:`scorestd.bayes_crossed`), checked
        before any simulation.

    Returns
    -------
    CalibrationResult

    Examples
    --------
    >>> res = simulation_based_calibration(simulations=40, draws=19, bins=4, seed=1)
    >>> res.ranks.shape, int(res.ranks.values.max()) <= 19
    ((40, 6), True)
    """
    likelihood = check_likelihood(likelihood, errors, bool(heteroscedastic))
    simulations = check_count("simulations", simulations)
    n_topics = check_count("n_topics", n_topics, 2)
    n_systems = check_count("n_systems", n_systems, 2)
    draws = check_count("draws", draws)
    thin = check_count("thin", thin)
    warmup = check_count("warmup", warmup, 0)
    bins = check_count("bins", bins, 2)
    if (draws + 1) % bins:
        from ..errors import OptionError

        raise OptionError(f"bins={bins} must divide draws + 1 = {draws + 1} (ranks take "
                          f"draws + 1 values)")
    nu_value = check_positive("nu", nu) if errors == "student_t" else None
    check_fits_memory(fit_bytes(1, draws, n_topics, n_systems,
                                heteroscedastic=bool(heteroscedastic), likelihood=likelihood)
                      + 8 * simulations * (2 * n_systems + 8), memory,
                      f"the draws of one fit ({draws} draws, {n_topics} topics × "
                      f"{n_systems} systems) and the ranks of {simulations} simulations",
                      instead="ask for fewer draws or simulations")
    root = root_sequence(seed)
    prefixes = ("", "zero_") if likelihood == "hurdle" else ("",)
    rows = []
    for child in root.spawn(simulations):
        data_seq, fit_seq = child.spawn(2)
        truth, y = _simulate(likelihood, np.random.default_rng(data_seq), n_topics,
                             n_systems, nu_value, heteroscedastic)
        opts = {"chains": 1, "draws": draws, "warmup": warmup, "thin": thin,
                "seed": fit_seq}
        if likelihood == "censored":
            out = sample_censored(y, CALIBRATION_PRIORS, **opts)
        elif likelihood == "hurdle":
            out = sample_hurdle(y, LOGIT_PRIORS, zero_part=True, **opts)
        else:
            out = sample_crossed(y, CALIBRATION_PRIORS, nu=nu_value,
                                 heteroscedastic=heteroscedastic, **opts)
        post = {k: v[0] for k, v in out.items()}  # (draws, ...)
        true = _scalars(truth, prefixes, heteroscedastic)
        fitted = _scalars(post, prefixes, heteroscedastic)
        rows.append({name: int(np.sum(fitted[name] < true[name])) for name in true})
    ranks = pd.DataFrame(rows)
    tests = {}
    jitter = np.random.default_rng(root.spawn(1)[0]).random(ranks.shape)
    for k, name in enumerate(ranks.columns):
        r = ranks[name].to_numpy()
        counts = np.bincount(r * bins // (draws + 1), minlength=bins)
        chi2 = stats.chisquare(counts)
        ks = stats.kstest((r + jitter[:, k]) / (draws + 1), "uniform")
        tests[name] = {"chi2": float(chi2.statistic), "chi2_p": float(chi2.pvalue),
                       "ks_p": float(ks.pvalue)}
    return CalibrationResult(ranks, draws, pd.DataFrame.from_dict(tests, orient="index"),
                             bins)
