"""A comparison of a cube with extra dims (the trials of a simulated collection) summed up
over its slices: how often each pair is significant, its mean difference, and how often the
observed direction is the true one."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import xarray as xr

from ..dims import SYSTEM
from .significance import fraction_significant

__all__ = ["significance_across_slices"]


def significance_across_slices(result: xr.Dataset, extra: Sequence[Hashable], *,
                               alpha: float = 0.05, adjusted: bool = True,
                               true_mean: xr.DataArray | None = None) -> xr.Dataset:
    """Each pair of a :func:`scorestd.compare` result over the slices of the dims ``extra``.

    Parameters
    ----------
    result : xarray.Dataset
        ``compare(cube, ...)`` of a cube with the extra dims ``extra``.
    extra : sequence of hashable
        The dims summed up over (e.g. ``["trial"]``).
    alpha : float
        Significance level.
    adjusted : bool
        Count ``p_adjusted`` (the correction's) rather than ``p_value``.
    true_mean : xarray.DataArray, optional
        Each system's true mean (the ``true_mean`` coord of :func:`scorestd.simulate`'s
        cube): adds the true difference and how often the observed one has its sign.

    Returns
    -------
    xarray.Dataset
        Over ``measure`` × ``pair``: ``significant`` (share of the slices with a p-value
        below ``alpha``; slices without a p-value left out), ``mean_diff`` and ``sd_diff``
        (mean and sd over the slices of the mean difference), ``slices`` (how many have a
        p-value) and, with ``true_mean``, ``true_diff`` and ``agree`` (share of the slices
        whose mean difference has the sign of the true one; a true tie agrees with none).
        Each variable says what it is in ``attrs["description"]``.

    Examples
    --------
    >>> import numpy as np, xarray as xr, scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    >>> sims = xr.concat([ap, ap ** 1.5], dim="trial")
    >>> res = scorestd.compare(sims, correction="holm")
    >>> s = significance_across_slices(res, ["trial"], true_mean=ap.mean("topic").sel(measure="ap"))
    >>> s["significant"].sel(measure="ap").values.tolist()
    [1.0, 1.0, 1.0]
    >>> s["agree"].sel(measure="ap").values.tolist()
    [1.0, 1.0, 1.0]
    """
    extra = list(extra)
    p = result["p_adjusted" if adjusted else "p_value"]
    diff = result["mean_diff"]
    which = "an adjusted p-value" if adjusted else "a p-value"
    where = f"{extra[0]}s" if len(extra) == 1 else f"slices over {' × '.join(map(str, extra))}"
    out = xr.Dataset({
        "significant": fraction_significant(p, [alpha], dim=extra).isel(alpha=0, drop=True)
        .assign_attrs(description=f"share of the {where} with {which} < {alpha:g}"),
        "mean_diff": diff.mean(extra).assign_attrs(
            description=f"mean over the {where} of the mean difference system − "
                        "system2"),
        "sd_diff": diff.std(extra, ddof=1).assign_attrs(
            description=f"sd over the {where} of that mean difference"),
        "slices": p.notnull().sum(extra).assign_attrs(
            description=f"{where} with {which}"),
    })
    if true_mean is not None:
        first = true_mean.sel({SYSTEM: result[SYSTEM].values}).values
        second = true_mean.sel({SYSTEM: result["system2"].values}).values
        truth = xr.DataArray(first - second, dims="pair", coords={"pair": result["pair"]})
        same = (np.sign(diff) == np.sign(truth)) & (truth != 0)
        out["true_diff"] = truth.assign_attrs(
            description="true mean of system − true mean of system2 (the simulated margins)")
        out["agree"] = same.where(diff.notnull()).mean(extra).assign_attrs(
            description=f"share of the {where} whose mean difference has the sign "
                        "of the true one")
    names = ["significant", "mean_diff", "sd_diff", "true_diff", "agree", "slices"]
    out = out[[n for n in names if n in out]]
    return out.transpose(..., "pair")
