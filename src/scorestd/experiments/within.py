"""Within-collection comparisons (Urbano, Lima & Hanjalic 2019, section 3.1).

Each trial samples ``n_topics`` topics without replacement. For every scheme the
systems are ranked by their mean score over those topics and compared with the ranking
by raw mean scores (Kendall τ_b, τ_AP,b and Pearson r: lower means the scheme says
something the raw scores do not); then a two-sided paired t-test is run between every
pair of systems and the power is the fraction of pairs significant at each α (every
null hypothesis is taken to be false). Standardization factors come from all topics and
systems of the collection, so the full cube is standardized once per scheme and trials
only select topics.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._options import check_count
from ..kernels.seeds import seed_record
from ..kernels.t_decisions import paired_t_counts
from ..kernels.workspace import workspace
from ..mapping import maps_extra_dims
from ..models.schemes import RAW, URBANO2019_SCHEMES, check_schemes, standardized_stack
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

__all__ = ["WithinCollection", "within_collection"]


class WithinCollection(Experiment):
    """Result of :func:`within_collection`.

    ``data`` holds ``tau_b``, ``tau_ap_b`` and ``pearson`` (trial × scheme; correlation
    of each scheme's ranking with the raw ranking) and ``power`` (trial × scheme ×
    alpha; fraction of system pairs with a significant paired t-test).
    """

    def summary(self, alphas: Sequence[float] = (0.01, 0.05, 0.1)) -> pd.DataFrame:
        """Mean of each statistic over trials, one row per scheme.

        Examples
        --------
        >>> import scorestd
        >>> res = within_collection(scorestd.datasets.load("adhoc8_ap"), trials=3, seed=1,
        ...                         schemes=["raw", "E"])
        >>> list(res.summary().columns)
        ['tau_b', 'tau_ap_b', 'pearson', 'power@0.01', 'power@0.05', 'power@0.1']
        """
        return agreement_summary(
            self.data, {"power": "fraction of system pairs with a significant two-sided "
                                 "paired t-test"}, alphas,
            compared="the scheme's ranking with the raw ranking")

    @shared_parameters
    def plot(self, path: Any = None, **kwargs: Any):
        """Figure 2 of the paper: τ and τ_AP densities (rugs at means) and power against α.

        Parameters
        ----------
        {figure}
        """
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(3, 1, figsize=kwargs.pop("figsize", (5, 9)), **kwargs)
        schemes = [s for s in self.data["scheme"].values if s != RAW]
        for ax, var, label in ((axes[0], "tau_b", "τ to raw ranking"),
                               (axes[1], "tau_ap_b", "τ_AP to raw ranking")):
            density_panel(ax, {s: self.data[var].sel(scheme=s).values for s in schemes}, label)
        power = self.data["power"].mean("trial")
        if RAW in self.data["scheme"].values:  # black, so the schemes keep their τ colours
            axes[2].plot(power["alpha"], power.sel(scheme=RAW), marker=".", color="black",
                         label=RAW)
        for s in schemes:
            axes[2].plot(power["alpha"], power.sel(scheme=s), marker=".", label=s)
        axes[2].set_xscale("log")
        axes[2].set_xlabel("significance level α")
        axes[2].set_ylabel("power (paired t-test)")
        axes[2].legend(fontsize="small")
        return finish_figure(fig, self.data, path)


@maps_extra_dims()
@shared_parameters
def within_collection(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = URBANO2019_SCHEMES,
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    n_topics: int = 50,
    trials: int = 10_000,
    seed: int = 0,
    alphas: Sequence[float] = ALPHAS,
    batch_size: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> WithinCollection:
    """Within-collection comparison of scoring schemes (Urbano et al. 2019, §3.1).

    Parameters
    ----------
    {scores}
    schemes : sequence of str
        ``"raw"``, ``"z"``, ``"N"``, ``"U"``, ``"E"`` or registered model names.
    {scheme_options}
    n_topics : int
        Topics sampled per trial (without replacement; the paper uses 50).
    trials : int
        Number of trials (the paper runs 10,000).
    {seed}
    alphas : sequence of float
        Significance levels of the power curves.
    {engine}

    Returns
    -------
    WithinCollection
        ``.data`` is an :class:`xarray.Dataset` over trial × scheme (× alpha).

    Notes
    -----
    A trial's τ or r is NaN when a ranking is constant. Two systems with identical
    scores on the sampled topics are a pair that is not significant. The paired t-tests
    are decided from their statistics and critical values
    (:func:`scorestd.kernels.t_decisions.paired_t_counts`), which gives the same
    decisions as comparing p-values with α, much faster.

    Examples
    --------
    >>> import scorestd
    >>> res = within_collection(scorestd.datasets.load("adhoc8_ap"), trials=4, seed=1,
    ...                         schemes=["raw", "N"])
    >>> res.data["power"].dims
    ('trial', 'scheme', 'alpha')
    >>> float(res.data["tau_b"].sel(scheme="raw").min())
    1.0
    """
    cube = single_measure(scores, measure)
    schemes = check_schemes(schemes, scheme_options)
    n_topics_total = cube.sizes["topic"]
    n_topics = check_count("n_topics", n_topics, 2)
    if n_topics > n_topics_total:
        raise ValueError(f"n_topics={n_topics} but the cube has {n_topics_total} topics")
    alphas = np.asarray(alphas, dtype=np.float64)
    stack = standardized_stack(cube, schemes, scheme_options)
    raw = standardized_stack(cube, [RAW])[0]
    # drawn batch by batch (on the workers of a cluster)
    root = experiment_root(seed)
    topics = draw_trials(root, trials, functools.partial(_topic_sample, n_topics_total,
                                                         n_topics), lazy=True)
    stats = run_batches(_batch, topics, data=(raw, stack, alphas), batch_size=batch_size,
                        trial_bytes=subset_bytes(stack, n_topics, 1.5), memory=memory,
                        progress=progress, client=client, desc="within-collection")
    return WithinCollection(trial_dataset(
        cube, "within-collection", stats, schemes=schemes, trials=trials, seed=seed_record(root),
        coords={"alpha": alphas}, n_topics=n_topics))


def _topic_sample(total: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """A trial's topics: n of the collection's, without replacement."""
    return rng.choice(total, n, replace=False)


def _batch(data, topics):
    """Statistics of a batch of trials; ``topics`` is (batch, n)."""
    raw, stack, alphas = data
    x = scheme_subsets(stack, topics)  # (scheme, batch, n, system)
    means = topic_means(x)  # (scheme, batch, system)
    raw_means = topic_means(np.take(raw, topics, axis=0,
                                    out=workspace().array("raw_subsets", (*topics.shape,
                                                                          raw.shape[-1]))))
    # decisions from t and critical values: p-values would dominate the run time
    counts = paired_t_counts(x, alphas, centre=means)  # (scheme, batch, alpha)
    n_sys = x.shape[-1]
    return {
        **ranking_agreement(means.transpose(1, 0, 2), raw_means[:, None, :]),
        "power": counts.transpose(1, 0, 2) / (n_sys * (n_sys - 1) // 2),
    }

