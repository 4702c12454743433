"""What every experiment shares: its input checks, its α grid and its result type."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..io.figures import save_figure
from ..measures import find_measure
from ..score_cube import validate

__all__ = ["ALPHAS", "Experiment", "data_label", "single_measure"]

#: Significance levels of Urbano et al. (2019): 0.001…0.009, 0.01…0.09 and 0.1.
ALPHAS = np.round(np.concatenate([np.arange(1, 10) * 0.001, np.arange(1, 10) * 0.01, [0.1]]), 3)


def single_measure(scores: Any, measure: str | None) -> xr.DataArray:
    """The validated ``(topic, system, measure)`` cube of one measure, with no missing score.

    Resampling experiments compare means over topic subsets, which a missing score
    would silently bias, so missing scores are an error here.
    """
    cube = validate(scores)
    measure = find_measure(measure, cube[MEASURE].values)  # any usual spelling
    one = cube.sel({MEASURE: [measure]}).transpose(TOPIC, SYSTEM, MEASURE)
    if hasattr(one.data, "compute"):  # a dask-backed cube: the engine needs its values
        one = one.compute()
    missing = np.isnan(one.values[:, :, 0])
    if missing.any():
        t, s = np.argwhere(missing)[0]
        raise ScoreDataError(
            f"{int(missing.sum())} missing scores for measure {measure!r} (first: topic "
            f"{str(one[TOPIC].values[t])!r}, system {str(one[SYSTEM].values[s])!r}); resampling "
            f"experiments need a complete topic × system matrix"
        )
    return one


@dataclass(frozen=True)
class Experiment:
    """The outcome of a resampling experiment.

    Attributes
    ----------
    data : xarray.Dataset
        Every statistic of every trial (dims such as ``trial``, ``scheme``, ``alpha``);
        ``attrs`` record the design (data, measure, sizes, seed, trials).
    """

    data: xr.Dataset

    def summary(self) -> pd.DataFrame:  # pragma: no cover - defined by each experiment
        """The paper's table: one row per scheme (or method), means over trials."""
        raise NotImplementedError

    def plot(self, path: Any = None, **kwargs: Any):  # pragma: no cover
        """The paper's figure (a :class:`matplotlib.figure.Figure`)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        design = ", ".join(f"{k}={v}" for k, v in self.data.attrs.items())
        return f"{type(self).__name__}({design})\n{self.summary().round(4).to_string()}"


def finish_figure(fig, data: xr.Dataset, path: Any):
    """Title ``fig`` after the experiment in ``data``, lay it out, save it to ``path``."""
    fig.suptitle(title(data))
    fig.tight_layout()
    save_figure(fig, path)
    return fig


def density_panel(ax, samples: dict[str, np.ndarray], xlabel: str) -> None:
    """Kernel density of each sample with a rug at its mean (Urbano et al.'s panels)."""
    from scipy.stats import gaussian_kde

    values = np.concatenate([v[np.isfinite(v)] for v in samples.values()])
    lo, hi = values.min(), values.max()
    pad = 0.05 * (hi - lo) if hi > lo else 0.01
    grid = np.linspace(lo - pad, hi + pad, 256)
    for label, v in samples.items():
        v = v[np.isfinite(v)]
        if v.size > 1 and np.ptp(v) > 0:
            (line,) = ax.plot(grid, gaussian_kde(v)(grid), label=label)
        else:
            line = ax.axvline(v.mean() if v.size else np.nan, label=label)
        ax.plot([v.mean()], [0], "|", color=line.get_color(), markersize=14)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.legend(fontsize="small")


def data_label(cube: xr.DataArray) -> str:
    """What an experiment ran on, in words: the collection (a bundled dataset's name, a
    file's stem), else the file read, else ``"scores"``; a simulated collection says
    so, and the slice of a file with extra dims (``--select trial=3``) follows.

    Examples
    --------
    >>> import scorestd
    >>> data_label(scorestd.datasets.load("adhoc8_ap"))
    'adhoc8'
    >>> data_label(scorestd.cube([[0.5]], attrs={"simulated": "scorestd.simulate",
    ...                                          "source": "adhoc8", "slice": "trial 3"}))
    'simulated from adhoc8 (trial 3)'
    """
    attrs = cube.attrs
    label = str(attrs.get("collection") or "")
    if not label and attrs.get("source"):
        label = f"{'simulated from ' if attrs.get('simulated') else ''}{attrs['source']}"
    label = label or "scores"
    return f"{label} ({attrs['slice']})" if attrs.get("slice") else label


def design_attrs(cube: xr.DataArray, name: str, **sizes: Any) -> dict[str, Any]:
    """The attrs recording what an experiment ran on."""
    return {
        "experiment": name,
        "data": data_label(cube),
        "measure": str(cube["measure"].values[0]),
        "n_systems": int(cube.sizes["system"]),
        **sizes,
    }


def trial_dataset(
    cube: xr.DataArray,
    name: str,
    stats: dict[str, np.ndarray],
    *,
    schemes: Sequence[str],
    trials: int,
    seed: Any,
    coords: dict[str, Any],
    **sizes: Any,
) -> xr.Dataset:
    """The statistics of every trial as a Dataset over trial × scheme × the ``coords``.

    A statistic's dims are the first ``ndim`` of ``("trial", "scheme", *coords)``;
    ``attrs`` are :func:`design_attrs` with ``sizes``, ``trials`` and ``seed``.
    """
    dims = ("trial", "scheme", *coords)
    return xr.Dataset(
        {var: (dims[: values.ndim], values) for var, values in stats.items()},
        coords={"trial": np.arange(trials), "scheme": list(schemes), **coords},
        attrs=design_attrs(cube, name, **sizes, trials=trials, seed=seed),
    )


def title(data: xr.Dataset) -> str:
    """Figure title naming the experiment, data and measure."""
    return f"{data.attrs['experiment']}: {data.attrs['data']} {data.attrs['measure']}"
