"""Figures of collection design: topics needed against the design parameters."""

from __future__ import annotations

from typing import Any

import xarray as xr

__all__ = ["plot_topic_set_size"]

_AXIS_LABELS = {"min_diff": "minimum detectable difference (minD)", "alpha": "α", "beta": "β",
                "n_systems": "systems compared (m)"}


def plot_topic_set_size(sizes: xr.DataArray, *, x: str = "min_diff", hue: str | None = None,
                        ax: Any = None, title: str | None = None) -> Any:
    """Plot n (topics needed) against ``x``, one line per value of ``hue``.

    Parameters
    ----------
    sizes : xarray.DataArray
        Output of :func:`scorestd.topic_set_size` with an ``x`` dim; any dims other than ``x``
        and ``hue`` must have size 1.
    x : str
        The dim on the horizontal axis.
    hue : str, optional
        The dim drawn as separate lines (e.g. ``"scheme"``); default: the first other
        dim of size > 1.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure otherwise (laid out when drawn, so a title or
        labels set afterwards still fit in the saved file).
    title : str, optional
        Default: the design, e.g. "topics needed: paired_t (α = 0.05, β = 0.2)".

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import xarray as xr
    >>> from scorestd import topic_set_size
    >>> sizes = topic_set_size(variance=xr.DataArray([0.02, 0.04], dims="scheme",
    ...     coords={"scheme": ["a", "b"]}), min_diff=[0.05, 0.1, 0.2])
    >>> ax = plot_topic_set_size(sizes, hue="scheme")
    >>> len(ax.lines), ax.get_title()
    (2, 'topics needed: paired_t (α = 0.05, β = 0.2)')
    """
    import matplotlib.pyplot as plt

    if x not in sizes.dims:
        raise ValueError(f"sizes has no {x!r} dim; its dims are {sizes.dims}")
    others = [d for d in sizes.dims if d != x and sizes.sizes[d] > 1]
    if hue is None and others:
        hue = others[0]
    extra = [d for d in others if d != hue]
    if extra:
        raise ValueError(f"select a single value of {extra} before plotting (e.g. .sel())")
    data = sizes.squeeze([d for d in sizes.dims if d not in (x, hue)], drop=True)
    if ax is None:
        # constrained layout runs at every draw: a title set by the caller still fits
        _, ax = plt.subplots(figsize=(5, 3.5), layout="constrained")
    groups = [(None, data)] if hue is None else [(v, data.sel({hue: v}))
                                                 for v in data[hue].values]
    for label, line in groups:
        ax.plot(line[x].values, line.values, marker="o", label=None if label is None else str(label))
    ax.set_xlabel(_AXIS_LABELS.get(x, x))
    ax.set_ylabel("topics needed")
    ax.set_yscale("log")
    if hue is not None:
        ax.legend(title=hue)
    ax.set_title(_design_title(sizes, x) if title is None else title)
    ax.title.set_wrap(True)  # a long title, set now or later, wraps inside the figure
    return ax


def _design_title(sizes: xr.DataArray, x: str) -> str:
    """The design the sizes are for, from their attrs (the parameters not on the x axis)."""
    a = sizes.attrs
    fixed = [f"{sym} = {a[key]:g}" for sym, key in (("α", "alpha"), ("β", "beta"))
             if key != x and isinstance(a.get(key), int | float)
             and not (key == "beta" and a.get("test") == "ci")]
    if a.get("test") == "anova" and x != "n_systems" and isinstance(a.get("n_systems"), int):
        fixed.append(f"m = {a['n_systems']}")
    return f"topics needed: {a.get('test', '')}" + (f" ({', '.join(fixed)})" if fixed else "")
