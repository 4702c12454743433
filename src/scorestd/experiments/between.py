"""Between-collection comparisons (Urbano, Lima & Hanjalic 2019, section 3.2).

Each trial samples two disjoint topic subsets of ``n = min(50, T // 2)`` topics: two
"collections" with different topics from the same population. For every scheme:

- Kendall τ_b, τ_AP,b and Pearson r between the rankings by mean score on the two
  subsets (higher means more stable across collections);
- Type I error: an unpaired two-sided Welch t-test (R's ``t.test`` default) of every
  system on one subset against the same system on the other, where the null hypothesis
  is true by construction; the rate is the fraction significant at each α;
- power: the same test between every system on one subset and every *other* system on
  the other, taking every null hypothesis to be false.

Standardization factors come from all topics and systems, so the cube is standardized
once per scheme and trials only select topics.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._options import check_count
from ..kernels.seeds import seed_record
from ..kernels.t_decisions import welch_t_counts
from ..mapping import maps_extra_dims
from ..models.schemes import URBANO2019_SCHEMES, check_schemes, standardized_stack
from ._common import (
    agreement_summary,
    ranking_agreement,
    scheme_subsets,
    shared_parameters,
    subset_bytes,
    topic_means,
)
from .engine import draw_trials, experiment_root, run_batches
from .result import (
    ALPHAS,
    Experiment,
    density_panel,
    finish_figure,
    single_measure,
    trial_dataset,
)

__all__ = ["BetweenCollection", "between_collection"]


class BetweenCollection(Experiment):
    """Result of :func:`between_collection`.

    ``data`` holds ``tau_b``, ``tau_ap_b`` and ``pearson`` (trial × scheme; agreement of
    the two subsets' rankings), ``type1`` and ``power`` (trial × scheme × alpha;
    fractions of significant unpaired tests between a system and itself, and between
    different systems).
    """

    def summary(self, alphas: Sequence[float] = (0.01, 0.05, 0.1)) -> pd.DataFrame:
        """Mean of each statistic over trials, one row per scheme.

        Examples
        --------
        >>> import scorestd
        >>> res = between_collection(scorestd.datasets.load("adhoc8_ap"), trials=3, seed=1,
        ...                          schemes=["raw", "E"])
        >>> list(res.summary().columns)[:4]
        ['tau_b', 'tau_ap_b', 'pearson', 'type1@0.01']
        """
        return agreement_summary(
            self.data, {"type1": "Type I error rate: fraction of systems significantly "
                                 "different from themselves (two-sided Welch t-test across "
                                 "the two topic sets)",
                        "power": "power: fraction of pairs of different systems significantly "
                                 "different (two-sided Welch t-test across the two topic sets)"},
            alphas, compared="the two topic sets' rankings")

    @shared_parameters
    def plot(self, path: Any = None, **kwargs: Any):
        """Figure 3 of the paper: τ, τ_AP densities, Type I error and power against α.

        Parameters
        ----------
        {figure}
        """
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(4, 1, figsize=kwargs.pop("figsize", (5, 12)), **kwargs)
        schemes = list(self.data["scheme"].values)
        for ax, var, label in ((axes[0], "tau_b", "τ between collections"),
                               (axes[1], "tau_ap_b", "τ_AP between collections")):
            density_panel(ax, {s: self.data[var].sel(scheme=s).values for s in schemes}, label)
        means = self.data[["type1", "power"]].mean("trial")
        alpha = means["alpha"].values
        axes[2].plot(alpha, alpha, color="grey", linestyle=":", label="α")
        for s in schemes:
            axes[2].plot(alpha, means["type1"].sel(scheme=s), marker=".", label=s)
            axes[3].plot(alpha, means["power"].sel(scheme=s), marker=".", label=s)
        for ax, label in ((axes[2], "Type I error rate"), (axes[3], "power (unpaired t-test)")):
            ax.set_xscale("log")
            ax.set_xlabel("significance level α")
            ax.set_ylabel(label)
            ax.legend(fontsize="small")
        axes[2].set_yscale("log")
        return finish_figure(fig, self.data, path)


@maps_extra_dims()
@shared_parameters
def between_collection(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = URBANO2019_SCHEMES,
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    n_topics: int | None = None,
    trials: int = 10_000,
    seed: int = 0,
    alphas: Sequence[float] = ALPHAS,
    batch_size: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> BetweenCollection:
    """Between-collection comparison of scoring schemes (Urbano et al. 2019, §3.2).

    Parameters
    ----------
    {scores}
    schemes : sequence of str
        ``"raw"``, ``"z"``, ``"N"``, ``"U"``, ``"E"`` or registered model names.
    {scheme_options}
    n_topics : int, optional
        Topics in each of the two disjoint subsets; default ``min(50, T // 2)``.
    trials : int
        Number of trials (the paper runs 10,000).
    {seed}
    alphas : sequence of float
        Significance levels.
    {engine}

    Returns
    -------
    BetweenCollection
        ``.data`` is an :class:`xarray.Dataset` over trial × scheme (× alpha).

    Notes
    -----
    A test between two constant samples counts as not significant. Tests are decided
    from their statistics (:func:`scorestd.kernels.t_decisions.welch_t_counts`),
    which gives the same decisions as comparing Welch p-values with α, much faster.

    Examples
    --------
    >>> import scorestd
    >>> res = between_collection(scorestd.datasets.load("adhoc8_ap"), trials=4, seed=1,
    ...                          schemes=["raw", "N"])
    >>> res.data.attrs["n_topics"]
    25
    >>> res.data["type1"].dims
    ('trial', 'scheme', 'alpha')
    """
    cube = single_measure(scores, measure)
    schemes = check_schemes(schemes, scheme_options)
    total = cube.sizes["topic"]
    n_topics = min(50, total // 2) if n_topics is None else n_topics
    n_topics = check_count("n_topics", n_topics, 2)
    if 2 * n_topics > total:
        raise ValueError(f"two disjoint subsets of n_topics={n_topics} need {2 * n_topics} "
                         f"topics; the cube has {total}")
    alphas = np.asarray(alphas, dtype=np.float64)
    stack = standardized_stack(cube, schemes, scheme_options)
    # drawn batch by batch (on the workers of a cluster)
    root = experiment_root(seed)
    topics = draw_trials(root, trials, functools.partial(_disjoint_subsets, total, n_topics),
                         lazy=True)
    stats = run_batches(_batch, topics, data=(stack, alphas), batch_size=batch_size,
                        trial_bytes=subset_bytes(stack, n_topics, 4), memory=memory,
                        progress=progress, client=client, desc="between-collection")
    return BetweenCollection(trial_dataset(
        cube, "between-collection", stats, schemes=schemes, trials=trials, seed=seed_record(root),
        coords={"alpha": alphas}, n_topics=n_topics))


def _disjoint_subsets(total: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """A trial's two collections: two disjoint sets of n of the collection's topics."""
    return rng.permutation(total)[: 2 * n].reshape(2, n)


def _batch(data, topics):
    """Statistics of a batch of trials; ``topics`` is (batch, 2, n)."""
    stack, alphas = data
    x1 = scheme_subsets(stack, topics[:, 0], "subsets_1")  # (scheme, batch, n, system)
    x2 = scheme_subsets(stack, topics[:, 1], "subsets_2")
    same, other = welch_t_counts(x1, x2, alphas)  # (scheme, batch, alpha)
    n_sys = x1.shape[-1]
    return {
        **ranking_agreement(topic_means(x2).transpose(1, 0, 2),
                            topic_means(x1).transpose(1, 0, 2)),
        "type1": same.transpose(1, 0, 2) / n_sys,
        "power": other.transpose(1, 0, 2) / (n_sys * (n_sys - 1)),
    }
