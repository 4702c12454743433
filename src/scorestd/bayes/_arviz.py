"""The edge to arviz: one ``xr.Dataset`` per group in, arviz's own data type out.

The package builds posterior draws as plain ``xr.Dataset`` groups (``posterior``,
``sample_stats``, ``observed_data``; dims ``chain``, ``draw``, …) and joins them with
``xarray.DataTree.from_dict``. That tree *is* the data type of arviz ≥ 1.0
(arviz-base/arviz-stats/arviz-plots work on ``DataTree``); arviz 0.x (the only line that
installs on Python 3.11) wraps it with ``arviz.from_datatree`` into an ``InferenceData``.
Diagnostics call ``arviz.rhat`` and ``arviz.ess`` on the ``posterior`` Dataset with
explicit ``method=``: both lines accept that call. arviz is imported only here, and only
when needed (it takes a couple of seconds to import).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import metadata

import xarray as xr

__all__ = ["arviz_major", "diagnostics", "to_arviz", "to_datatree"]


def arviz_major() -> int:
    """Major version of the installed arviz (0 or 1, …).

    Examples
    --------
    >>> arviz_major() in (0, 1, 2)
    True
    """
    return int(metadata.version("arviz").split(".")[0])


def to_datatree(groups: Mapping[str, xr.Dataset]) -> xr.DataTree:
    """The groups as one ``xarray.DataTree`` (each group a child node).

    Examples
    --------
    >>> import numpy as np
    >>> post = xr.Dataset({"mu": (("chain", "draw"), np.zeros((2, 3)))})
    >>> sorted(to_datatree({"posterior": post}).children)
    ['posterior']
    """
    return xr.DataTree.from_dict({f"/{name}": ds for name, ds in groups.items()})


def to_arviz(groups: Mapping[str, xr.Dataset]):
    """arviz's data object for the groups: ``DataTree`` (arviz ≥ 1) or ``InferenceData`` (0.x).

    Examples
    --------
    >>> import numpy as np
    >>> post = xr.Dataset({"mu": (("chain", "draw"), np.zeros((2, 3)))})
    >>> data = to_arviz({"posterior": post})
    >>> data["posterior"]["mu"].shape
    (2, 3)
    """
    tree = to_datatree(groups)
    if arviz_major() >= 1:
        return tree
    import arviz

    return arviz.from_datatree(tree)


def diagnostics(posterior: xr.Dataset, var_names: Sequence[str]) -> xr.Dataset:
    """Rank-normalised split R-hat, bulk and tail ESS of ``var_names``, from arviz.

    Returns a Dataset with variables ``<name>_rhat``, ``<name>_ess_bulk`` and
    ``<name>_ess_tail`` over each variable's non-sample dims.
    """
    import warnings

    import arviz

    names = list(var_names)
    subset = posterior[names]
    with warnings.catch_warnings():
        # arviz warns about shapes it finds odd (e.g. a single chain); the gate reports it
        warnings.simplefilter("ignore")
        rhat = arviz.rhat(subset, var_names=names, method="rank")
        bulk = arviz.ess(subset, var_names=names, method="bulk")
        tail = arviz.ess(subset, var_names=names, method="tail")
    out = {}
    for name in names:
        out[f"{name}_rhat"] = rhat[name]
        out[f"{name}_ess_bulk"] = bulk[name]
        out[f"{name}_ess_tail"] = tail[name]
    return xr.Dataset(out)
