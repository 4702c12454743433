"""The standardization report: system means and ranks under every model, plus plots."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import xarray as xr

from .._options import Degenerate
from .._progress import progress_bar
from ..dims import MEASURE, SYSTEM
from ..io.figures import save_figure
from ..mapping import maps_extra_dims
from ..models.registry import model_names
from ..score_cube import validate
from ..stats.aggregation import aggregate, rank_systems
from ..stats.correlations import correlation
from ..stats.standardization import standardize

__all__ = ["DEFAULT_DATA", "StandardizationReport", "standardization_report"]

#: The collection the report uses by default (Figure 1 of Urbano et al. 2019).
DEFAULT_DATA = "robust2004_ap"


@dataclass(frozen=True)
class StandardizationReport:
    """Result of :func:`standardization_report`.

    Attributes
    ----------
    scores : xarray.DataArray
        The raw cube.
    means : xarray.Dataset
        Per-system mean over topics, one variable per scheme (``raw`` and each model),
        over system × measure.
    tables : dict of pandas.DataFrame
        Per measure: systems (by raw rank) × ``<scheme>`` mean and ``<scheme>#`` rank.
    tau : pandas.DataFrame
        Kendall's τ_b between each model's system ranking and the raw one (index
        ``model`` × columns ``measure``).
    degenerate : str
        The degenerate-topic policy used.
    """

    scores: xr.DataArray
    means: xr.Dataset
    tables: dict[str, pd.DataFrame]
    tau: pd.DataFrame
    degenerate: str = field(default="unstandardized")

    def write_plots(self, folder: str | Path, *, dpi: int = 100) -> list[Path]:
        """Write Figure 1 (N-, U-, E-std) and the mapping of every model, per measure.

        Files: ``figure1_<measure>.png`` and ``mappings_<measure>.png`` in ``folder``
        (created if needed). Returns the paths.
        """
        import matplotlib.pyplot as plt

        from .standardization import FIGURE1_MODELS, plot_mapping, plot_standardization

        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        written = []
        models = [m for m in self.means.data_vars if m != "raw"]
        for measure in self.scores[MEASURE].values.tolist():
            shown = [m for m in FIGURE1_MODELS if m in models] or models[:3]
            fig = plot_standardization(self.scores, shown, measure=measure,
                                       degenerate=self.degenerate)
            written.append(_save(fig, folder / f"figure1_{measure}.png", dpi))
            cols = min(4, len(models))
            rows = -(-len(models) // cols)
            fig, axes = plt.subplots(rows, cols, figsize=(3.3 * cols, 3.0 * rows),
                                     squeeze=False)
            fig.subplots_adjust(left=0.07, right=0.98, bottom=0.1, top=0.94,
                                wspace=0.35, hspace=0.45)
            for ax, model in zip(axes.ravel(), models, strict=False):
                plot_mapping(self.scores, model, measure=measure, ax=ax)
            for ax in axes.ravel()[len(models):]:
                ax.set_visible(False)
            written.append(_save(fig, folder / f"mappings_{measure}.png", dpi))
        return written


def _save(fig: Any, path: Path, dpi: int) -> Path:
    import matplotlib.pyplot as plt

    save_figure(fig, path, dpi=dpi, tight=False)
    plt.close(fig)
    return path


@maps_extra_dims()
def standardization_report(
    scores: Any,
    models: Sequence[str] | None = None,
    *,
    degenerate: Degenerate = "unstandardized",
) -> StandardizationReport:
    """Standardize with several models and compare the system rankings they give.

    Each model is fitted on all systems of ``scores`` (every system is its own
    reference population, as in Urbano, Lima & Hanjalic 2019). A system's mean is
    over the topics it has a score for (``NaN`` skipped, :func:`scorestd.aggregate`);
    rank 1 is the best mean (ties share the lowest rank, :func:`scorestd.rank_systems`);
    τ is Kendall's τ_b (:func:`scorestd.correlation`) between the model's and the raw
    system means.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D array.
    models : sequence of str, optional
        Registered model names (default: all, see :func:`scorestd.models.model_names`).
    degenerate : {"unstandardized", "nan", "raise"}
        Degenerate-topic policy, see :func:`scorestd.standardize`.

    Returns
    -------
    StandardizationReport

    Examples
    --------
    >>> import scorestd
    >>> r = standardization_report(scorestd.datasets.load("adhoc8_ap"), ["normal", "empirical"])
    >>> r.tables["ap"].columns.tolist()
    ['raw', 'raw#', 'normal', 'normal#', 'empirical', 'empirical#']
    >>> bool(r.tau.loc["empirical", "ap"] > 0.8)
    True
    """
    cube = validate(scores)
    names = list(model_names() if models is None else models)
    means = {"raw": aggregate(cube, "am", skipna=True)}
    with progress_bar(len(names), "standardization report", unit="model") as job:
        for name in names:
            means[name] = aggregate(standardize(cube, name, degenerate=degenerate), "am",
                                    skipna=True)
            job.advance()
    ds = xr.Dataset(means)
    ranks = {scheme: rank_systems(ds[scheme], ties="min") for scheme in ds.data_vars}
    tau = pd.DataFrame({scheme: correlation(ds[scheme], ds["raw"], "tau_b").to_pandas()
                        for scheme in names}).T.rename_axis(index="model", columns=MEASURE)
    tables = {}
    for measure in cube[MEASURE].values.tolist():
        frame = pd.DataFrame(index=pd.Index(cube[SYSTEM].values, name=SYSTEM))
        for scheme in ["raw", *names]:
            frame[scheme] = ds[scheme].sel({MEASURE: measure}).values
            frame[f"{scheme}#"] = pd.array(ranks[scheme].sel({MEASURE: measure}).values,
                                           dtype="Int64")
        tables[measure] = frame.sort_values(["raw#", "raw"], ascending=[True, False])
    return StandardizationReport(cube, ds, tables, tau, degenerate)
