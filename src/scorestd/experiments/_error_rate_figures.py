"""Figures of the error-rate study (matplotlib imported inside each function).

The public function is :func:`scorestd.plot_error_rates`; ``ErrorRates.plot`` draws from
here too, since results never import the front ends above them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from .._options import (
    ErrorRateFigure,
    check_level_in,
    check_option,
    check_probability,
    check_tails,
)
from ..errors import OptionError
from ..io.figures import save_figure

__all__ = ["error_rate_figure", "figure_kinds"]

#: One colour per test of the study, in the paper's order of the tests.
_COLORS = {"paired_t": "#e41a1c", "wilcoxon": "#377eb8", "sign": "#4daf4a",
           "permutation": "#ff7f00", "bootstrap": "#984ea3"}
#: Keywords of ``Figure.subplots``; the other keywords go to the figure.
_SUBPLOT_KEYWORDS = ("sharex", "sharey", "subplot_kw", "gridspec_kw", "width_ratios",
                     "height_ratios")
_Y_LABELS = {"type1": "Type I error rate", "power": "power", "power_alpha": "power",
             "type3": "Type III error rate"}


def figure_kinds(data: xr.Dataset, kind: str) -> tuple[str, ...]:
    """The blocks of panels that ``kind`` draws for the study in ``data``: ``"auto"`` is
    Type I and power (``"type1_power"``) when the study ran Type II trials, else Type I.

    Examples
    --------
    >>> import xarray as xr
    >>> figure_kinds(xr.Dataset({"type1": 0.05}), "auto")
    ('type1',)
    >>> figure_kinds(xr.Dataset({"type1": 0.05, "power": 0.5}), "auto")
    ('type1', 'power')
    """
    kind = check_option(kind, ErrorRateFigure, "kind")
    type2 = "power" in data
    if kind == "auto":
        return ("type1", "power") if type2 else ("type1",)
    if kind != "type1" and not type2:
        raise OptionError(f"kind={kind!r} needs Type II trials; this study ran none "
                          "(deltas=None)")
    return ("type1", "power") if kind == "type1_power" else (kind,)


def error_rate_figure(data: xr.Dataset, *, kind: str = "auto", tails: int = 2,
                      alpha: float = 0.05, delta: float = 0.05, path: Any = None,
                      **kwargs: Any):
    """The figure of :func:`scorestd.plot_error_rates` (see there) for the rates ``data``."""
    import matplotlib.pyplot as plt

    blocks = figure_kinds(data, kind)
    tails = check_tails(tails)
    # checked whether drawn or not: a slip is said, not ignored
    alpha, delta = check_probability("alpha", alpha), check_probability("delta", delta)
    if any(b in ("power", "type3") for b in blocks):
        try:
            alpha = check_level_in("alpha", alpha, data["alpha"].values)
        except OptionError as exc:
            if kind != "auto":
                raise
            raise OptionError(f"{exc}; the default figure draws power at alpha: pass one "
                              "of the levels computed, or kind='type1'") from None
    if "power_alpha" in blocks:
        delta = check_level_in("delta", delta, data["delta"].values)
    rows, cols = data.sizes["n_topics"], data.sizes["measure"]
    width, height = 4.2 * cols, 3.4 * rows + 0.4
    if len(blocks) == 1:
        fig, axes = plt.subplots(rows, cols, squeeze=False,
                                 figsize=kwargs.pop("figsize", (width, height)), **kwargs)
        zeros = _draw_block(axes, data, blocks[0], tails, alpha, delta)
        axes[0, 0].legend(*_legend(axes[0, 0], zeros, data, "rate 0"), fontsize="x-small")
        fig.suptitle(_heading(blocks[0], tails, alpha, delta), fontsize="medium")
        fig.tight_layout()
    else:
        subplot = {k: kwargs.pop(k) for k in _SUBPLOT_KEYWORDS if k in kwargs}
        # constrained layout: each block's heading, the panels and the legend below
        # them never overlap, whatever the number of panels
        fig = plt.figure(figsize=kwargs.pop("figsize", (width, 2 * height + 0.5)),
                         layout="constrained", **kwargs)
        zeros = False
        first = None
        for sub, block in zip(fig.subfigures(len(blocks), 1), blocks, strict=True):
            axes = sub.subplots(rows, cols, squeeze=False, **subplot)
            zeros |= _draw_block(axes, data, block, tails, alpha, delta)
            sub.suptitle(_heading(block, tails, alpha, delta), fontsize="medium")
            first = axes[0, 0] if first is None else first
        # below the power panels too: say which rate the floor's triangles are
        handles, labels = _legend(first, zeros, data, "Type I rate 0")
        fig.legend(handles, labels, loc="outside lower center", fontsize="x-small",
                   ncols=min(3, len(labels)))
    save_figure(fig, path)
    return fig


def _draw_block(axes: np.ndarray, data: xr.Dataset, kind: str, tails: int, alpha: float,
                delta: float) -> bool:
    """One panel of ``kind`` per measure (column) and topic set size (row) on ``axes``;
    whether any rate of 0 was marked on a log axis's floor."""
    zeros = False
    for r, n in enumerate(data["n_topics"].values):
        for c, m in enumerate(data["measure"].values):
            ax = axes[r, c]
            zeros |= _draw_panel(ax, data.sel(measure=m, n_topics=n), kind, tails, alpha,
                                 delta)
            ax.set_title(f"{m}, {n} topics", fontsize="small")
    for ax in axes[:, 0]:
        ax.set_ylabel(_Y_LABELS[kind])
    return zeros


def _draw_panel(ax: Any, d: xr.Dataset, kind: str, tails: int, alpha: float,
                delta: float) -> bool:
    """Every test's rate of ``kind`` in the panel ``ax`` of one measure and topic set size."""
    tests = d["test"].values
    zeros = False
    for slot, test in enumerate(tests):
        x, y = _curve(d.sel(test=test), kind, tails, alpha, delta)
        color = _COLORS.get(str(test))
        if kind == "type1":  # log axis: a zero is marked, not drawn
            zeros |= _mark_zero_rates(ax, x, y, color, slot, len(tests))
            y = np.where(y == 0, np.nan, y)
        # a marker at each δ (the design's few effects), and where a line has one point
        marker = "o" if kind in ("power", "type3") or x.size == 1 else None
        ax.plot(x, y, color=color, lw=1, label=str(test), marker=marker, ms=3,
                ls="--" if test == "permutation" else "-")
    if kind == "type1":
        ax.plot(d["alpha"], d["alpha"], color="grey", lw=1)
        ax.set_xscale("log")
        ax.set_yscale("log")
    if kind == "power_alpha":
        ax.set_xscale("log")
    ax.set_xlabel("δ" if kind in ("power", "type3") else "α")
    return zeros


def _curve(dt: xr.Dataset, kind: str, tails: int, alpha: float, delta: float
           ) -> tuple[np.ndarray, np.ndarray]:
    """The x values and rates of one test's line."""
    if kind == "type1":
        x, y = dt["alpha"], dt["type1"].sel(tails=tails)
    elif kind == "power":
        x, y = dt["delta"], dt["power"].sel(tails=tails, alpha=alpha)
    elif kind == "power_alpha":
        x, y = dt["alpha"], dt["power"].sel(tails=tails, delta=delta)
    else:
        x, y = dt["delta"], dt["type3"].sel(alpha=alpha)
    return np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)


def _legend(ax: Any, zeros: bool, data: xr.Dataset, zero: str) -> tuple[list, list]:
    """The tests' lines of ``ax``, and the marker of a rate of 0 (called ``zero``) when
    one was drawn."""
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    if zeros:
        handles.append(Line2D([], [], ls="none", marker="v", color="black", ms=5))
        labels.append(f"{zero} (no rejection in {data.attrs.get('trials', '')} trials)")
    return handles, labels


def _heading(kind: str, tails: int, alpha: float, delta: float) -> str:
    """What a block of panels shows, at which level, effect and tails."""
    sided = f"{'two' if tails == 2 else 'one'}-tailed"
    return {"type1": f"Type I error rate against α ({sided}; grey: nominal)",
            "power": f"power against the true difference δ (α = {alpha:g}, {sided})",
            "power_alpha": f"power against α (δ = {delta:g}, {sided})",
            "type3": f"Type III error rate against δ (α = {alpha:g}, two-tailed)"}[kind]


def _mark_zero_rates(ax: Any, x: np.ndarray, y: np.ndarray, color: Any, slot: int,
                     slots: int) -> bool:
    """Triangles on the floor of a log-scaled ``ax`` at the ``x`` where ``y`` is 0, the
    ``slot``-th of ``slots`` tests 5 points beside the others; whether there were any."""
    from matplotlib.transforms import ScaledTranslation

    zero = y == 0
    if not zero.any():
        return False
    shift = ScaledTranslation((slot - (slots - 1) / 2) * 5 / 72, 0, ax.figure.dpi_scale_trans)
    ax.plot(x[zero], np.zeros(int(zero.sum())), ls="none", marker="v", ms=5, color=color,
            transform=ax.get_xaxis_transform() + shift, clip_on=False, zorder=3)
    return True
