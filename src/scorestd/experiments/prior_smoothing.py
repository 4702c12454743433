"""Scoring with partial prior information (Ravana, Park & Moffat 2009, section 3).

Each trial draws three disjoint topic sets Q_a, Q_b, Q_c of ``n_topics`` topics and
splits the systems at random into halves S_x and S_y. S_x was evaluated on Q_a and S_y
on Q_b (the prior experiments); all systems are now evaluated on Q_c. A system's score
on each topic of Q_c is smoothed towards its prior mean (Eq. 1:
``α·score + (1 − α)·prior``), the smoothed scores are averaged over Q_c, and the
resulting ranking of all systems is compared (Kendall τ_b) with the "whole population"
ranking by mean over every topic. ``α = 1`` uses Q_c alone, ``α = 0`` the prior alone;
the baseline ranks all systems on Q_a ∪ Q_c (``2·n_topics`` complete topics).

For a standardized scheme the factors come from the topics and systems used in each
case: S_x on Q_a, S_y on Q_b, all systems on Q_c, on Q_a ∪ Q_c and on all topics.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._options import check_count
from ..kernels.correlation import kendall_tau_b
from ..kernels.seeds import seed_record
from ..kernels.smoothing import smooth_kernel
from ..mapping import maps_extra_dims
from ..models._base import Model
from ..models.schemes import RAW, check_schemes, scheme_model, standardized_stack
from ._common import shared_parameters, topic_means
from .engine import draw_trials, experiment_root, run_batches
from .result import (
    Experiment,
    density_panel,
    finish_figure,
    single_measure,
    trial_dataset,
)

__all__ = ["SmoothingExperiment", "smoothing_experiment"]

#: The α values of the paper's figures.
PAPER_ALPHAS = (0.0, 0.5, 0.8, 1.0)


class SmoothingExperiment(Experiment):
    """Result of :func:`smoothing`.

    ``data`` holds ``tau`` (trial × scheme × alpha: smoothed ranking against the
    all-topics ranking) and ``tau_baseline`` (trial × scheme: ranking on Q_a ∪ Q_c).
    """

    def summary(self) -> pd.DataFrame:
        """Mean τ over trials: one row per scheme, one column per α and the baseline.

        Examples
        --------
        >>> import scorestd
        >>> res = smoothing_experiment(scorestd.datasets.load("robust2004"), measure="ap", trials=3,
        ...                 seed=1, alphas=[0, 0.8, 1], schemes=["raw"])
        >>> res.summary().columns.tolist()
        ['α=0', 'α=0.8', 'α=1', 'S×(Qa∪Qc)']
        """
        tau = self.data["tau"].mean("trial")
        frame = pd.DataFrame(
            tau.values, index=pd.Index(self.data["scheme"].values, name="scheme"),
            columns=[f"α={a:g}" for a in self.data["alpha"].values])
        frame["S×(Qa∪Qc)"] = self.data["tau_baseline"].mean("trial").values
        return frame

    def plot(self, path: Any = None, alphas: Sequence[float] = PAPER_ALPHAS, **kwargs: Any):
        """Figures 2 and 3 of the paper: densities of τ for some α and the baseline.

        One panel per scheme (raw scores: Figure 2; standardized: Figure 3).
        """
        import matplotlib.pyplot as plt

        schemes = list(self.data["scheme"].values)
        fig, axes = plt.subplots(1, len(schemes), squeeze=False,
                                 figsize=kwargs.pop("figsize", (5 * len(schemes), 4)), **kwargs)
        for ax, scheme in zip(axes[0], schemes, strict=True):
            tau = self.data["tau"].sel(scheme=scheme)
            samples = {f"α={a:g}": tau.sel(alpha=a, method="nearest").values for a in alphas}
            samples["S×(Qa∪Qc)"] = self.data["tau_baseline"].sel(scheme=scheme).values
            density_panel(ax, samples, "τ to the all-topics ranking")
            ax.set_title(f"scores: {scheme}")
        return finish_figure(fig, self.data, path)


@maps_extra_dims()
@shared_parameters
def smoothing_experiment(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = ("raw", "N"),
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    alphas: Sequence[float] = tuple(np.round(np.linspace(0, 1, 11), 2)),
    n_topics: int = 25,
    trials: int = 10_000,
    seed: int = 0,
    batch_size: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> SmoothingExperiment:
    """Smoothing with partial prior information (Ravana, Park & Moffat 2009).

    Parameters
    ----------
    {scores}
    schemes : sequence of str
        ``"raw"`` and standardization schemes (``"z"``, ``"N"`` — the paper's
        standardized AP —, ``"U"``, ``"E"``).
    {scheme_options}
    alphas : sequence of float
        Smoothing weights in [0, 1] (the paper plots 0, 0.5, 0.8 and 1).
    n_topics : int
        Topics in each of Q_a, Q_b and Q_c (the paper uses 25).
    trials : int
        Number of trials (the paper runs 10,000).
    {seed}
    {engine}

    Returns
    -------
    SmoothingExperiment
        ``.data`` is an :class:`xarray.Dataset` over trial × scheme × alpha.

    Notes
    -----
    A topic on which the reference systems of a trial all score the same cannot be
    standardized; it is left unstandardized, as :func:`scorestd.standardize` does by
    default (μ=0, σ=1 for ``"z"``, ``"N"`` and ``"U"``; the raw score for ``"E"``),
    without a warning per trial.

    Examples
    --------
    >>> import scorestd
    >>> res = smoothing_experiment(scorestd.datasets.load("robust2004"), measure="ap", trials=4,
    ...                 seed=1, alphas=[0, 0.5, 1], schemes=["raw", "N"])
    >>> res.data["tau"].dims
    ('trial', 'scheme', 'alpha')
    """
    cube = single_measure(scores, measure)
    schemes = check_schemes(schemes, scheme_options)
    alphas = np.asarray(alphas, dtype=np.float64)
    if alphas.ndim != 1 or alphas.size == 0 or ((alphas < 0) | (alphas > 1)).any():
        raise ValueError(f"alphas must be a non-empty list of values in [0, 1], got {alphas}")
    n_topics = check_count("n_topics", n_topics, 2)
    n_total, n_systems = cube.sizes["topic"], cube.sizes["system"]
    if 3 * n_topics > n_total:
        raise ValueError(f"three disjoint sets of n_topics={n_topics} need {3 * n_topics} "
                         f"topics; the cube has {n_total}")
    if n_systems < 4:
        raise ValueError(f"smoothing needs at least 4 systems, the cube has {n_systems}")
    raw = standardized_stack(cube, [RAW])[0]

    root = experiment_root(seed)
    # drawn batch by batch: memory does not grow with the trials
    indices = draw_trials(root, trials, functools.partial(_draw, n_total, n_topics, n_systems),
                          lazy=True)
    # the whole-population ranking of each scheme: the same for every trial
    models = [scheme_model(s, scheme_options) for s in schemes]
    truths = [topic_means(_standardize(model, raw)) for model in models]
    data = (raw, models, truths, alphas)
    # per trial: the three topic sets, their standardized copies and the smoothed scores
    # at every alpha, over all systems
    trial_bytes = 8 * n_topics * n_systems * (2 * alphas.size + 8)
    stats = run_batches(_batch, indices, data=data, batch_size=batch_size,
                        trial_bytes=trial_bytes, memory=memory,
                        progress=progress, client=client, desc="smoothing")
    return SmoothingExperiment(trial_dataset(
        cube, "smoothing", stats, schemes=schemes, trials=trials, seed=seed_record(root),
        coords={"alpha": alphas}, n_topics=n_topics))


def _draw(n_total: int, n_topics: int, n_systems: int, rng: np.random.Generator):
    """One trial: three disjoint topic sets of ``n_topics`` and an order of the systems."""
    topics = rng.permutation(n_total)[: 3 * n_topics].reshape(3, n_topics)
    return topics, rng.permutation(n_systems)


def _standardize(model: Model | None, x: np.ndarray) -> np.ndarray:
    """Scores ``x`` (..., topic, system) standardized per topic against themselves."""
    return x if model is None else model.transform(x)


def _batch(data, topics, systems):
    """τ for a batch of trials; ``topics`` is (batch, 3, n), ``systems`` (batch, S)."""
    raw, models, truths, alphas = data
    n_x = systems.shape[1] // 2
    groups = ((topics[:, 0], systems[:, :n_x]), (topics[:, 1], systems[:, n_x:]))
    q_c = raw[topics[:, 2]]  # (batch, n, S): all systems on Q_c
    both = raw[np.concatenate([topics[:, 0], topics[:, 2]], axis=1)]
    tau, baseline = [], []
    for model, truth in zip(models, truths, strict=True):
        truth = truth[None, None, :]
        prior = np.empty(systems.shape)
        for q, s in groups:  # S_x's means on Q_a and S_y's on Q_b, factors from them only
            part = raw[q[:, :, None], s[:, None, :]]  # (batch, n, |s|)
            np.put_along_axis(prior, s, topic_means(_standardize(model, part)), axis=1)
        new = _standardize(model, q_c)[:, None]  # (batch, 1, n, S)
        smoothed = smooth_kernel(new, prior[:, None, :], alphas[:, None])  # Eq. 1
        smoothed = topic_means(smoothed)
        tau.append(kendall_tau_b(smoothed, np.broadcast_to(truth, smoothed.shape)))
        base = topic_means(_standardize(model, both))
        baseline.append(kendall_tau_b(base, np.broadcast_to(truth[:, 0], base.shape)))
    return {"tau": np.stack(tau, axis=1), "tau_baseline": np.stack(baseline, axis=1)}
