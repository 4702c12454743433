"""Figure 1 of Urbano, Lima & Hanjalic (2019): what a standardization does to the scores.

Top: the raw → standardized mapping of every topic (lines: the full fitted cdf;
points: the observed systems). Bottom: per-topic score distributions without and with
standardization, topics sorted by mean raw score, solid points at the per-topic means.
Matplotlib is imported inside the functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..mapping import maps_extra_dims
from ..measures import find_measure
from ..models._base import Model
from ..models.reference import fit_reference
from ..models.registry import instantiate
from ..score_cube import validate
from ..stats.standardization import standardize

__all__ = ["plot_mapping", "plot_standardization", "plot_topic_distributions"]

FIGURE1_MODELS: tuple[str, ...] = ("normal", "uniform", "empirical")
_GRID = 101


def _one_measure(scores: Any, measure: str | None) -> xr.DataArray:
    cube = validate(scores)
    if measure is None:
        measure = str(cube[MEASURE].values[0])
    else:
        measure = find_measure(measure, cube[MEASURE].values)  # any usual spelling
    return cube.sel({MEASURE: [measure]})


def _topic_order(cube: xr.DataArray) -> np.ndarray:
    """Topics by increasing mean raw score (the paper's order)."""
    return np.argsort(cube.mean(SYSTEM).values[:, 0], kind="stable")


@maps_extra_dims("scores", "reference", one_per_call=("ax",))
def plot_mapping(
    scores: Any,
    model: str | type[Model] | Model = "empirical",
    *,
    measure: str | None = None,
    reference: Any = None,
    ax: Any = None,
    **model_kwargs: Any,
) -> Any:
    """Draw the raw → standardized mapping of every topic for one model.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D array.
    model : str, Model class or instance
        The model (see :func:`scorestd.standardize`).
    measure : str, optional
        The measure to draw (default: the first).
    reference : optional
        Reference systems, as in :func:`scorestd.standardize`.
    ax : matplotlib.axes.Axes, optional
        Where to draw (default: a new figure).

    Returns
    -------
    matplotlib.axes.Axes
        Lines are coloured from easy (light) to hard (dark) topics by mean raw score.

    Examples
    --------
    >>> import scorestd
    >>> ax = plot_mapping(scorestd.datasets.load("adhoc8_ap"), "normal")
    >>> ax.get_title()
    'normal'
    """
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection

    cube = _one_measure(scores, measure)
    fitted = fit_reference(cube if reference is None else _one_measure(reference, measure),
                           model, **model_kwargs)
    instance = fitted.model
    low = min(0.0, float(np.nanmin(cube.values)))
    high = max(1.0, float(np.nanmax(cube.values)))
    grid_values = np.linspace(low, high, _GRID)
    if instance.bounded:
        grid_values = np.linspace(0.0, 1.0, _GRID)
    grid = xr.DataArray(
        np.broadcast_to(grid_values[None, :, None], (cube.sizes[TOPIC], _GRID, 1)),
        dims=(TOPIC, SYSTEM, MEASURE),
        coords={TOPIC: cube[TOPIC], SYSTEM: [f"g{i}" for i in range(_GRID)],
                MEASURE: cube[MEASURE]})
    lines = fitted.cdf(grid).values[:, :, 0]
    observed = fitted.cdf(cube).values[:, :, 0]
    if ax is None:
        _, ax = plt.subplots(figsize=(4, 3.5))
    means = cube.mean(SYSTEM).values[:, 0]
    colours = plt.get_cmap("viridis_r")((means - means.min()) / (np.ptp(means) or 1.0))
    segments = np.stack([np.broadcast_to(grid_values, lines.shape), lines], axis=-1)
    ax.add_collection(LineCollection(segments, colors=colours, linewidths=0.6, alpha=0.6))
    raw = cube.values[:, :, 0]
    ax.scatter(raw.ravel(), observed.ravel(), s=3, c=np.repeat(colours, raw.shape[1], axis=0),
               linewidths=0)
    ax.set_xlim(grid_values[0], grid_values[-1])
    finite = lines[np.isfinite(lines)]
    if finite.size:
        pad = 0.02 * (finite.max() - finite.min() or 1.0)
        ax.set_ylim(finite.min() - pad, finite.max() + pad)
    ax.set_xlabel(f"raw {cube[MEASURE].values[0]}")
    ax.set_ylabel("standardized")
    ax.set_title(instance.name)
    return ax


#: The key of the topic distributions: one row, small, no frame.
_KEY = {"ncol": 3, "fontsize": "small", "frameon": False, "handlelength": 1.5,
        "columnspacing": 1.2}


@maps_extra_dims(one_per_call=("ax",))
def plot_topic_distributions(
    scores: Any, *, measure: str | None = None, order: Sequence[int] | None = None,
    ax: Any = None, title: str | None = None, key: bool = True,
) -> Any:
    """Draw each topic's score distribution (box of the quartiles, whiskers 5–95 %)
    with its mean as a solid point, topics left to right in ``order``.

    Parameters
    ----------
    scores : xarray.DataArray
        Raw or standardized scores; ``NaN`` is skipped.
    measure : str, optional
        The measure to draw (default: the first).
    order : sequence of int, optional
        Topic positions left to right (default: increasing mean of ``scores``).
    ax : matplotlib.axes.Axes, optional
    title : str, optional
    key : bool
        A key under the axis saying what the dot, the box and the whiskers are.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import scorestd
    >>> ax = plot_topic_distributions(scorestd.datasets.load("adhoc8_ap"), title="raw")
    >>> len(ax.collections[-1].get_offsets())  # one mean per topic
    50
    """
    import matplotlib.pyplot as plt

    cube = _one_measure(scores, measure)
    values = cube.values[:, :, 0]
    order = _topic_order(cube) if order is None else np.asarray(order)
    values = values[order]
    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3))
    position = np.arange(1, values.shape[0] + 1)
    q05, q25, q75, q95 = np.nanpercentile(values, [5, 25, 75, 95], axis=1)
    ax.vlines(position, q05, q95, color="0.6", linewidth=0.6, label="5–95 % of systems")
    ax.vlines(position, q25, q75, color="tab:blue", linewidth=2.2, label="25–75 %")
    ax.scatter(position, np.nanmean(values, axis=1), s=6, color="black", zorder=3,
               label="mean")
    if key:  # what dot, box and whiskers are, under the axis so it hides no topic
        ax.legend(**_KEY, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    ax.set_xlabel("topic (by mean raw score)")
    ax.set_ylabel(str(cube[MEASURE].values[0]))
    ax.set_xticks([])
    if title is not None:
        ax.set_title(title)
    return ax


@maps_extra_dims("scores", "reference")
def plot_standardization(
    scores: Any,
    models: Sequence[str | type[Model] | Model] = FIGURE1_MODELS,
    *,
    measure: str | None = None,
    reference: Any = None,
    degenerate: str = "unstandardized",
) -> Any:
    """Figure 1 of Urbano, Lima & Hanjalic (2019) for any models.

    Top row: :func:`plot_mapping` for each model. Bottom row: per-topic
    distributions (:func:`plot_topic_distributions`) of the raw scores and of each
    standardization, topics in the same order (by mean raw score).

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D array.
    models : sequence
        Models to show (default N-std, U-std, E-std as in the paper).
    measure : str, optional
        The measure to draw (default: the first).
    reference : optional
        Reference systems, as in :func:`scorestd.standardize`.
    degenerate : {"unstandardized", "nan", "raise"}
        Degenerate-topic policy, as in :func:`scorestd.standardize`.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import scorestd
    >>> fig = plot_standardization(scorestd.datasets.load("adhoc8_ap"))
    >>> [ax.get_title() or ax.get_ylabel() for ax in fig.axes]  # and the colour key
    ['normal', 'uniform', 'empirical', 'raw', 'normal', 'uniform', 'empirical', 'topic mean raw ap']
    """
    import matplotlib.pyplot as plt

    cube = _one_measure(scores, measure)
    ref = None if reference is None else _one_measure(reference, measure)
    instances = [instantiate(m) for m in models]
    width = 3.2 * (len(instances) + 1)
    fig = plt.figure(figsize=(width, 6.6))
    top, bottom = fig.subfigures(2, 1)
    top_axes = np.atleast_1d(top.subplots(1, len(instances)))
    bottom_axes = np.atleast_1d(bottom.subplots(1, len(instances) + 1, sharey=False))
    # Fixed margins (a layout engine would cost more than the drawing itself), set in
    # inches so that a figure of one model has room for its y labels and for the colour
    # bar with its label on the right, as one of three does. The top row leaves room for
    # the figure's title above the panel titles.
    left = 0.77 / width
    top.subplots_adjust(left=left, right=1 - 1.28 / width, bottom=0.16, top=0.8, wspace=0.3)
    bottom.subplots_adjust(left=left, right=1 - 0.26 / width, bottom=0.2, top=0.88,
                           wspace=0.3)
    for ax, model in zip(top_axes, instances, strict=True):
        plot_mapping(cube, model, reference=ref, ax=ax)
    colour_bar = (1 - 1.02 / width, 0.16, 0.154 / width, 0.64)
    _topic_colour_bar(top, cube, top.add_axes(colour_bar))
    order = _topic_order(cube)
    plot_topic_distributions(cube, order=order, ax=bottom_axes[0], title="raw", key=False)
    for ax, model in zip(bottom_axes[1:], instances, strict=True):
        std = standardize(cube, model, reference=ref, degenerate=degenerate)
        plot_topic_distributions(std, order=order, ax=ax, title=model.name, key=False)
        ax.set_ylabel("standardized")
    # one key for the row of distributions
    bottom.legend(*bottom_axes[0].get_legend_handles_labels(), **_KEY, loc="lower center",
                  bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(f"Standardization of {cube.attrs.get('dataset', 'the scores')} "
                 f"({cube[MEASURE].values[0]})", y=0.99)
    return fig


def _topic_colour_bar(fig: Any, cube: xr.DataArray, cax: Any) -> None:
    """The key of :func:`plot_mapping`'s colours: each topic's mean raw score."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    means = cube.mean(SYSTEM).values[:, 0]
    high = means.max() if np.ptp(means) else means.min() + 1.0
    bar = fig.colorbar(ScalarMappable(Normalize(means.min(), high), cmap="viridis_r"), cax=cax)
    bar.set_label(f"topic mean raw {cube[MEASURE].values[0]}")
