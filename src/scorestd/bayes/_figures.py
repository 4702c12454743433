"""Figures of posteriors (matplotlib imported inside each function).

The public functions are :mod:`scorestd.plots.bayes`; ``CrossedPosterior.plot`` draws
the forest plot from here, since results never import the front ends above them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import xarray as xr

from ..dims import MEASURE, SYSTEM
from ..errors import ScoreDataError
from ..io.figures import save_figure
from ..kernels import posterior as kp

__all__ = ["differences_figure", "pair_probability_figure", "predictive_checks_figure",
           "ranks_figure", "system_differences_figure", "system_effects_figure"]


def _title(fit, what: str) -> str:
    measure = fit.posterior.attrs.get("measure", "")
    return f"{what}" + (f" ({measure})" if measure else "")


def system_effects_figure(fit, *, ci_prob: float = 0.95, ci_kind: str = "hdi",
                          top: int | None = None, ax: Any = None, path: Any = None):
    """Forest plot: each system's effect, posterior mean and ``ci_prob`` interval, best on
    top; for the bounded likelihoods (whose effects are logits or latent values) each
    system's expected score, which is what they compare systems by."""
    import matplotlib.pyplot as plt

    eff = fit.system_effects(ci_prob=ci_prob, ci_kind=ci_kind)
    order = np.argsort(-eff["mean"].values, kind="stable")
    if top is not None:
        order = order[:top]
    n = order.size
    if ax is None:
        _, ax = plt.subplots(figsize=(6, max(2.5, 0.16 * n + 1)))
    ypos = np.arange(n)[::-1]
    mean = eff["mean"].values[order]
    ax.hlines(ypos, eff["ci_low"].values[order], eff["ci_high"].values[order],
              color="C0", lw=1.5)
    ax.plot(mean, ypos, "o", color="C0", ms=3)
    ax.set_yticks(ypos)
    ax.set_yticklabels(eff[SYSTEM].values[order], fontsize=6 if n > 40 else 8)
    ax.set_ylim(-1, n)
    interval = f"(mean, {ci_prob:.0%} {ci_kind.upper()} of each"
    if eff.attrs.get("variable") == "system_score":
        ax.set_xlabel(f"expected score over the topic population, {fit.likelihood} "
                      f"likelihood {interval} score, not of differences)", fontsize=8)
        ax.set_title(_title(fit, "Expected scores"))
    else:
        ax.axvline(0.0, color="0.6", lw=0.8, ls="--")
        mu = float(fit.posterior["mu"].mean())
        ax.set_xlabel(f"system effect α relative to μ = {mu:.3g} {interval} effect, not "
                      f"of differences)", fontsize=8)
        ax.set_title(_title(fit, "System effects"))
    ax.figure.tight_layout()
    save_figure(ax.figure, path)
    return ax


def _pair_matrix(pairs: xr.Dataset) -> tuple[np.ndarray, np.ndarray]:
    """P(row > column) as an S × S matrix from a ``pair`` Dataset (both directions)."""
    if MEASURE in pairs.dims:
        if pairs.sizes[MEASURE] != 1:
            raise ScoreDataError("select one measure before plotting (e.g. .sel(measure=...))")
        pairs = pairs.isel({MEASURE: 0})
    first = pairs[SYSTEM].values.astype(str)
    second = pairs["system2"].values.astype(str)
    systems = list(dict.fromkeys([*first, *second]))
    index = {s: k for k, s in enumerate(systems)}
    m = np.full((len(systems), len(systems)), np.nan)
    p = pairs["prob_greater"].values
    rows = np.array([index[s] for s in first])
    cols = np.array([index[s] for s in second])
    m[rows, cols] = p
    m[cols, rows] = 1.0 - p
    return m, np.array(systems)


def pair_probability_figure(pairs: xr.Dataset, *, order: Sequence[str] | None = None,
                            ax: Any = None, path: Any = None):
    """Heat map of P(row system > column system) from a ``pair`` Dataset."""
    import matplotlib.pyplot as plt

    m, systems = _pair_matrix(pairs)
    if order is None:  # by how often a system wins: the best first
        order_idx = np.argsort(-np.nanmean(m, axis=1), kind="stable")
    else:
        where = {s: k for k, s in enumerate(systems)}
        order_idx = np.array([where[str(s)] for s in order])
    m = m[np.ix_(order_idx, order_idx)]
    labels = systems[order_idx]
    n = labels.size
    if ax is None:
        size = min(12.0, max(4.0, 0.12 * n + 2))
        _, ax = plt.subplots(figsize=(size + 1, size))
    image = ax.imshow(m, cmap="RdBu_r", vmin=0.0, vmax=1.0, interpolation="nearest")
    ticks = np.arange(n) if n <= 60 else np.arange(0, n, max(1, n // 30))
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels[ticks], rotation=90, fontsize=6 if n > 30 else 8)
    ax.set_yticks(ticks)
    ax.set_yticklabels(labels[ticks], fontsize=6 if n > 30 else 8)
    ax.set_xlabel("system B")
    ax.set_ylabel("system A")
    ax.figure.colorbar(image, ax=ax, label="P(A > B)")
    measure = pairs.attrs.get("measure", "")
    ax.set_title("Pairwise posterior probabilities" + (f" ({measure})" if measure else ""))
    ax.figure.tight_layout()
    save_figure(ax.figure, path)
    return ax


def differences_figure(fit, pairs: Sequence[tuple[str, str]] | None = None, *,
                       rope: tuple[float, float] | None = None,
                       closed_form: xr.Dataset | None = None, ax: Any = None,
                       path: Any = None):
    """Posterior densities of α_A − α_B for ``pairs`` (default: the best system against
    the next four), with the ROPE shaded and, optionally, the closed-form Student-t
    posterior of the same pairs (from :func:`scorestd.bayes_compare`) dashed."""
    import matplotlib.pyplot as plt
    from scipy import stats

    systems = [str(s) for s in fit.systems]
    a = fit._effects()
    if pairs is None:
        order = np.argsort(-a.mean(axis=0), kind="stable")
        pairs = [(systems[order[0]], systems[k]) for k in order[1:5]]
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5))
    for k, (first, second) in enumerate(pairs):
        for label in (first, second):
            if label not in systems:
                raise ScoreDataError(f"{label!r} is not a system of the posterior")
        d = a[:, systems.index(first)] - a[:, systems.index(second)]
        grid = np.linspace(*np.quantile(d, [0.0005, 0.9995]), 200)
        kde = stats.gaussian_kde(d)
        ax.plot(grid, kde(grid), color=f"C{k}", label=f"{first} − {second}")
        if closed_form is not None:
            row = _closed_form_row(closed_form, first, second)
            if row is not None:
                loc, scale, df = row
                ax.plot(grid, stats.t.pdf(grid, df, loc, scale), color=f"C{k}", ls="--",
                        lw=1)
    if rope is not None:
        ax.axvspan(rope[0], rope[1], color="0.85", zorder=0, label="ROPE")
    ax.axvline(0.0, color="0.5", lw=0.8)
    ax.set_xlabel("difference of system effects")
    ax.set_ylabel("posterior density")
    title = "Posterior of differences" + (" (dashed: closed-form paired)"
                                          if closed_form is not None else "")
    ax.set_title(_title(fit, title))
    ax.legend(fontsize="small")
    ax.figure.tight_layout()
    save_figure(ax.figure, path)
    return ax


def _closed_form_row(res: xr.Dataset, first: str, second: str):
    if MEASURE in res.dims:
        res = res.isel({MEASURE: 0})
    s1, s2 = res[SYSTEM].values.astype(str), res["system2"].values.astype(str)
    for sign, (a, b) in ((1.0, (first, second)), (-1.0, (second, first))):
        hit = np.nonzero((s1 == a) & (s2 == b))[0]
        if hit.size:
            k = hit[0]
            return (sign * float(res["loc"].values[k]), float(res["scale"].values[k]),
                    float(res["df"].values[k]))
    return None


def ranks_figure(fit, *, top: int | None = None, ax: Any = None, path: Any = None):
    """Heat map of P(system has rank r), systems by mean rank (best on top); with ``top``,
    only those systems and the ranks they take with probability above 0.001."""
    import matplotlib.pyplot as plt

    probs = kp.rank_probabilities(fit._effects())
    n = probs.shape[0]
    mean_rank = probs @ np.arange(1, n + 1)
    order = np.argsort(mean_rank, kind="stable")
    if top is not None:
        order = order[:top]
    shown = probs[order]
    if top is not None:  # only the ranks the shown systems can take
        reached = np.nonzero((shown > 1e-3).any(axis=0))[0]
        shown = shown[:, : int(reached.max()) + 1 if reached.size else n]
    labels = np.asarray(fit.systems)[order]
    if ax is None:
        _, ax = plt.subplots(figsize=(7, max(2.5, 0.16 * order.size + 1)))
    image = ax.imshow(shown, aspect="auto", cmap="viridis", interpolation="nearest",
                      extent=(0.5, shown.shape[1] + 0.5, order.size - 0.5, -0.5))
    ax.set_yticks(np.arange(order.size))
    ax.set_yticklabels(labels, fontsize=6 if order.size > 40 else 8)
    ax.set_xlabel("rank (1 = best)")
    ax.figure.colorbar(image, ax=ax, label="posterior probability")
    ax.set_title(_title(fit, "Posterior of ranks"))
    ax.figure.tight_layout()
    save_figure(ax.figure, path)
    return ax


def system_differences_figure(fit, *, reference: str | None = None, ci_prob: float = 0.95,
                              ci_kind: str = "hdi", top: int | None = None, ax: Any = None,
                              path: Any = None):
    """Forest plot of each system's expected score minus ``reference``'s (default: the
    best system), mean and ``ci_prob`` interval of the difference, with P(system >
    reference) at the right: the comparisons a reader draws from it are the posterior's."""
    import matplotlib.pyplot as plt

    systems = [str(s) for s in fit.systems]
    score = fit.posterior["system_score"].transpose("chain", "draw", SYSTEM).values
    score = score.reshape(-1, score.shape[-1])
    if reference is None:
        reference = systems[int(np.argmax(score.mean(axis=0)))]
    if str(reference) not in systems:
        raise ScoreDataError(f"reference {reference!r} is not a system of the posterior; "
                             f"systems: {systems[:10]}{' …' if len(systems) > 10 else ''}")
    ref = systems.index(str(reference))
    d = np.delete(score - score[:, [ref]], ref, axis=1)
    names = np.delete(np.array(systems), ref)
    low, high = kp.interval(d, ci_prob, ci_kind, axis=0)
    mean, prob = d.mean(axis=0), (d > 0).mean(axis=0)
    order = np.argsort(-mean, kind="stable")
    if top is not None:
        order = order[:top]
    n = order.size
    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, max(2.5, 0.18 * n + 1.2)))
    ypos = np.arange(n)[::-1]
    decided = (prob[order] >= 0.975) | (prob[order] <= 0.025)
    colours = np.where(decided, "C3", "C0")
    ax.hlines(ypos, low[order], high[order], color=colours, lw=1.5)
    ax.scatter(mean[order], ypos, c=colours, s=10, zorder=3)
    ax.axvline(0.0, color="0.4", lw=0.8)
    ax.set_yticks(ypos)
    ax.set_yticklabels(names[order], fontsize=6 if n > 40 else 8)
    ax.set_ylim(-1, n)
    right = ax.secondary_yaxis("right")
    right.set_yticks(ypos)
    right.set_yticklabels([f"{p:.3f}" for p in prob[order]], fontsize=6 if n > 40 else 8)
    right.set_ylabel(f"P(system > {reference})", fontsize=8)
    measure = fit.posterior.attrs.get("measure", "")
    ax.set_xlabel(f"expected {measure or 'score'} minus {reference}'s (mean, {ci_prob:.0%} "
                  f"{ci_kind.upper()}; red: P ≥ 0.975 either way)", fontsize=8)
    ax.set_title(_title(fit, f"Differences from {reference}"))
    ax.figure.tight_layout()
    save_figure(ax.figure, path)
    return ax


def predictive_checks_figure(checks, *, axes: Any = None, path: Any = None):
    """Four panels, observed against replicated: the distribution of scores (with the
    shares of zeros and of scores outside [0, 1]), per-system means, per-system sds and
    per-topic means (each with its 95% predictive interval)."""
    import matplotlib.pyplot as plt

    if axes is None:
        fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    axes = np.asarray(axes).ravel()
    fig = axes[0].figure
    ax = axes[0]
    lo = min(float(np.min(checks.scores)), float(np.quantile(checks.replicated, 0.001)))
    hi = max(float(np.max(checks.scores)), float(np.quantile(checks.replicated, 0.999)))
    bins = np.linspace(lo, hi, 50)
    ax.hist(checks.replicated, bins=bins, density=True, color="C1", alpha=0.5,
            label="replicated")
    ax.hist(checks.scores, bins=bins, density=True, histtype="step", color="k", lw=1.2,
            label="observed")
    ov = checks.overall
    text = "\n".join(
        f"{label}: observed {ov.loc[key, 'observed']:.1%}, replicated "
        f"{ov.loc[key, 'replicated']:.1%}"
        for key, label in (("share_zero", "zeros"), ("share_below_0", "below 0"),
                           ("share_above_1", "above 1")))
    ax.text(0.98, 0.97, text, transform=ax.transAxes, ha="right", va="top", fontsize=7)
    ax.set_xlabel("score")
    ax.set_ylabel("density")
    ax.legend(fontsize="small", loc="center right")
    ax.set_title("Distribution of scores", fontsize=10)
    for ax, data, stat, what in ((axes[1], checks.systems, "mean", "system mean"),
                                 (axes[2], checks.systems, "sd", "system sd"),
                                 (axes[3], checks.topics, "mean", "topic mean")):
        obs = data[f"observed_{stat}"].values
        order = np.argsort(data[stat].values, kind="stable")
        x = np.arange(order.size)
        ax.fill_between(x, data[f"{stat}_low"].values[order],
                        data[f"{stat}_high"].values[order], color="C1", alpha=0.4,
                        label="replicated 95%", step="mid")
        outside = ((obs < data[f"{stat}_low"].values) | (obs > data[f"{stat}_high"].values))
        ax.plot(x, obs[order], ".", color="k", ms=3, label="observed")
        ax.set_xlabel(f"{what.split()[0]}s, by replicated {stat}")
        ax.set_ylabel(what)
        ax.set_title(f"{what.capitalize()}s ({int(outside.sum())} of {obs.size} outside)",
                     fontsize=10)
        ax.legend(fontsize="small")
    title = f"Posterior predictive checks: {checks.likelihood} likelihood"
    fig.suptitle(title + (f" ({checks.measure})" if checks.measure else ""))
    fig.tight_layout()
    save_figure(fig, path)
    return axes
