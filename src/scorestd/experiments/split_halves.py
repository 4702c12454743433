"""Split-half consistency of aggregation methods (Ravana & Moffat 2009, section 4).

Each trial splits the topics into two random halves; every system is scored on each
half by an aggregation method (arithmetic mean, ε-adjusted geometric mean, trec_eval's
thresholded GM, …) and the two system orderings are compared with Kendall's τ (τ_b,
equal to τ_a when there are no ties) and Pearson's ρ. The more similar the orderings,
the more self-consistent the method. The same is done on standardized scores (the
paper's SP is the ``"N"`` scheme: z-scores through the normal cdf, factors from all
systems on each topic) and on two deterministic splits by topic hardness (Eq. 2,
computed on the scores being aggregated): Hard/Easy and Middle/Rest.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._options import AggregationMethod, check_option
from ..kernels.aggregate import aggregate_kernel
from ..kernels.correlation import kendall_tau_b, pearson
from ..kernels.seeds import seed_record
from ..mapping import maps_extra_dims
from ..models.schemes import check_schemes, standardized_stack
from ..stats.hardness import topic_split
from ._common import shared_parameters, subset_bytes, topic_subsets
from .engine import draw_trials, experiment_root, run_batches
from .result import Experiment, finish_figure, single_measure, trial_dataset

__all__ = ["SplitHalf", "split_half"]


#: The deterministic splits and their column names in Ravana & Moffat's Table 3.
FIXED_SPLITS = {"hard_easy": "Hard/Easy", "middle_rest": "Middle/Rest"}


class SplitHalf(Experiment):
    """Result of :func:`split_half`.

    ``data`` holds ``tau`` and ``pearson`` over trial × scheme × aggregation (random halves)
    and ``fixed_tau``, ``fixed_pearson`` over split × scheme × aggregation (the Hard/Easy and
    Middle/Rest splits).
    """

    def summary(self, statistic: Literal["tau", "pearson"] = "tau") -> pd.DataFrame:
        """Ravana & Moffat's Table 3: mean over random splits, and the fixed splits.

        Rows are aggregation methods, columns (scheme, split) with split ``Random``,
        ``Hard/Easy`` and ``Middle/Rest``.

        Examples
        --------
        >>> import scorestd
        >>> res = split_half(scorestd.datasets.load("adhoc8_ap"), trials=3, seed=1,
        ...                  schemes=["raw"], methods=["am"])
        >>> res.summary().columns.tolist()
        [('raw', 'Random'), ('raw', 'Hard/Easy'), ('raw', 'Middle/Rest')]
        """
        if statistic not in ("tau", "pearson"):
            raise ValueError(f"statistic must be 'tau' or 'pearson', got {statistic!r}")
        random = self.data[statistic].mean("trial")
        fixed = self.data[f"fixed_{statistic}"]
        columns = {}
        for scheme in self.data["scheme"].values.tolist():
            columns[(scheme, "Random")] = random.sel(scheme=scheme).to_series()
            for split in fixed["split"].values:
                columns[(scheme, FIXED_SPLITS[split])] = fixed.sel(
                    scheme=scheme, split=split).to_series()
        frame = pd.DataFrame(columns)
        frame.columns = pd.MultiIndex.from_tuples(frame.columns, names=["scheme", "split"])
        what = "Kendall's τ" if statistic == "tau" else "Pearson's r"
        frame.attrs["columns"] = {
            "(values)": f"{what} between the system rankings (scores) of the two halves",
            "Random": "mean over the random splits",
            "Hard/Easy, Middle/Rest": "the fixed splits by topic hardness (Equation 2)",
        }
        return frame.loc[list(self.data["aggregation"].values)]

    def plot(self, path: Any = None, statistic: Literal["tau", "pearson"] = "tau",
             **kwargs: Any):
        """Ravana & Moffat's Figures 2 and 11: densities of τ (or ρ) over random splits.

        One panel per scheme, one curve per method, dotted lines at the means.
        """
        import matplotlib.pyplot as plt
        from scipy.stats import gaussian_kde

        schemes = list(self.data["scheme"].values)
        fig, axes = plt.subplots(1, len(schemes), squeeze=False,
                                 figsize=kwargs.pop("figsize", (5 * len(schemes), 4)), **kwargs)
        values = self.data[statistic]
        finite = values.values[np.isfinite(values.values)]
        grid = np.linspace(finite.min() - 0.02, min(1.0, finite.max() + 0.02), 256)
        for ax, scheme in zip(axes[0], schemes, strict=True):
            for method in self.data["aggregation"].values:
                v = values.sel(scheme=scheme, aggregation=method).values
                v = v[np.isfinite(v)]
                if v.size > 1 and np.ptp(v) > 0:
                    (line,) = ax.plot(grid, gaussian_kde(v)(grid), label=method)
                    ax.axvline(v.mean(), color=line.get_color(), linestyle=":")
            ax.set_title(f"scores: {scheme}")
            ax.set_xlabel("Kendall's τ" if statistic == "tau" else "Pearson's ρ")
            ax.set_ylabel("density")
            ax.legend(fontsize="small")
        return finish_figure(fig, self.data, path)


@maps_extra_dims()
@shared_parameters
def split_half(
    scores: Any,
    *,
    measure: str | None = None,
    schemes: Sequence[str] = ("raw", "N"),
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    methods: Sequence[AggregationMethod] = ("am", "egm", "gm_trec_eval"),
    trials: int = 10_000,
    seed: int = 0,
    batch_size: int | None = None,
    memory: int | str | None = None,
    progress: bool | None = None,
    client: Any = None,
) -> SplitHalf:
    """Split-half consistency of aggregation methods (Ravana & Moffat 2009, §4).

    Parameters
    ----------
    {scores}
    schemes : sequence of str
        Scores to aggregate: ``"raw"`` and standardization schemes (``"N"`` is the
        paper's SP; see :mod:`scorestd.models.schemes`).
    {scheme_options}
    methods : sequence of str
        Aggregation methods of :func:`scorestd.kernels.aggregate.aggregate_kernel`
        (with their default ε: 0.01 for ``egm``/``ehm``, 10⁻⁵ for ``gm_trec_eval``).
    trials : int
        Number of random splits (the paper runs 10,000).
    {seed}
    {engine}

    Returns
    -------
    SplitHalf
        ``.data`` is an :class:`xarray.Dataset`; ``summary()`` gives Table 3.

    Notes
    -----
    With an odd number of topics each half has ``T // 2`` topics and one topic is left
    out of the trial. τ is NaN when one ordering is constant (e.g. ``gm`` with zero
    scores on every system).

    Examples
    --------
    >>> import scorestd
    >>> res = split_half(scorestd.datasets.load("adhoc8_ap"), trials=4, seed=1,
    ...                  schemes=["raw"], methods=["am", "egm"])
    >>> res.data["tau"].dims
    ('trial', 'scheme', 'aggregation')
    """
    cube = single_measure(scores, measure)
    schemes = check_schemes(schemes, scheme_options)
    methods = _check_methods(methods)
    total = cube.sizes["topic"]
    if total < 4:
        raise ValueError(f"split-half needs at least 4 topics, the cube has {total}")
    half = total // 2
    stack = standardized_stack(cube, schemes, scheme_options)
    root = experiment_root(seed)
    topics = draw_trials(root, trials, functools.partial(_halves, total, half), lazy=True)
    # two halves and the temporaries of an aggregation over them
    stats = run_batches(_batch, topics, data=(stack, methods), batch_size=batch_size,
                        trial_bytes=subset_bytes(stack, half, 6), memory=memory,
                        progress=progress, client=client, desc="split-half")
    fixed = _fixed_splits(cube, stack, methods)
    fixed_dims = ("split", "scheme", "aggregation")
    data = trial_dataset(cube, "split-half", stats, schemes=schemes, trials=trials, seed=seed_record(root),
                         coords={"aggregation": list(methods)}, n_topics=half)
    data = data.assign(fixed_tau=(fixed_dims, fixed["tau"]),
                       fixed_pearson=(fixed_dims, fixed["pearson"]))
    return SplitHalf(data.assign_coords(split=list(FIXED_SPLITS)))


def _halves(total: int, half: int, rng: np.random.Generator) -> np.ndarray:
    """One trial: two disjoint random halves ``(2, half)`` of the topics."""
    return rng.permutation(total)[: 2 * half].reshape(2, half)


def _check_methods(methods: Sequence[str]) -> tuple[str, ...]:
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    if not methods:
        raise ValueError("methods must name at least one aggregation method")
    for m in methods:
        check_option(m, AggregationMethod, "method")
    return methods


def _batch(data, topics):
    """τ and ρ for a batch of splits; ``topics`` is (batch, 2, half)."""
    stack, methods = data
    halves = [topic_subsets(stack, topics[:, h]) for h in (0, 1)]  # (b, scheme, n, s)
    scores = [
        np.stack([aggregate_kernel(x, m, axis=-2) for m in methods], axis=-2)
        for x in halves
    ]  # (batch, scheme, method, system)
    return {"tau": kendall_tau_b(scores[0], scores[1]),
            "pearson": pearson(scores[0], scores[1])}


def _fixed_splits(cube: xr.DataArray, stack: np.ndarray, methods) -> dict[str, np.ndarray]:
    """τ and ρ for the Hard/Easy and Middle/Rest splits.

    Topic hardness (Eq. 2) is computed on the scores being aggregated, raw or
    standardized: this reproduces every fixed-split SP entry of Ravana & Moffat's
    Table 3(c) but one, where hardness from raw AP reproduces none of them.
    """
    position = {t: i for i, t in enumerate(cube["topic"].values.tolist())}
    out = {"tau": [], "pearson": []}
    for kind in FIXED_SPLITS:
        taus, rhos = [], []
        for layer in stack:
            halves = topic_split(cube.copy(data=layer[:, :, None]), kind=kind)
            s1, s2 = (
                np.stack([aggregate_kernel(layer[[position[str(t)] for t in half]], m, axis=-2)
                          for m in methods])
                for half in halves
            )
            taus.append(kendall_tau_b(s1, s2))
            rhos.append(pearson(s1, s2))
        out["tau"].append(taus)
        out["pearson"].append(rhos)
    return {k: np.asarray(v) for k, v in out.items()}
