"""Rank and linear correlation between two rankings of systems (labelled layer).

Wraps :mod:`scorestd.kernels.correlation` with ``xr.apply_ufunc`` over the
``system`` dim, so extra dims (measure, trial, …) are batch dims and dask-backed
inputs stay lazy.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from .._options import CorrelationMethod, check_option
from ..dims import SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..kernels import correlation as kc
from ..mapping import maps_extra_dims

__all__ = ["CORRELATIONS", "correlation"]

#: Correlation coefficients by name.
CORRELATIONS = {
    "kendall": kc.kendall_tau,
    "tau_a": kc.kendall_tau_a,
    "tau_b": kc.kendall_tau_b,
    "tau_ap": kc.tau_ap,
    "tau_ap_a": kc.tau_ap_a,
    "tau_ap_b": kc.tau_ap_b,
    "pearson": kc.pearson,
    "spearman": kc.spearman,
}


def _system_scores(obj, name: str) -> xr.DataArray:
    if not isinstance(obj, xr.DataArray):
        raise TypeError(f"{name} must be an xarray.DataArray, got {type(obj).__name__}")
    if SYSTEM not in obj.dims:
        raise ScoreDataError(f"{name} has no {SYSTEM!r} dim (dims: {obj.dims})")
    if TOPIC in obj.dims:  # per-topic scores: rank the systems by their mean
        obj = obj.mean(TOPIC, skipna=False)
    return obj


@maps_extra_dims("estimate", "reference", vectorized=True)
def correlation(
    estimate: xr.DataArray, reference: xr.DataArray, method: CorrelationMethod = "tau_b", *, dim: str = SYSTEM
) -> xr.DataArray:
    """Correlation between two rankings of the same systems.

    Parameters
    ----------
    estimate, reference : xarray.DataArray
        Scores of the systems (higher is better) with a ``dim`` dim and any other
        dims (measure, trial, …) as batch dims. Per-topic scores (with a ``topic``
        dim) are first averaged over topics (a missing score makes the mean NaN).
        The systems are matched by label.
    method : {"kendall", "tau_a", "tau_b", "tau_ap", "tau_ap_a", "tau_ap_b", "pearson", "spearman"}
        Kendall's τ (= τ_b), τ_a, τ_b (as ``scipy.stats.kendalltau``), Yilmaz et
        al.'s τ_AP (no ties), Urbano & Marrero's τ_AP,a (ties in the estimate) and
        τ_AP,b (ties anywhere; symmetric), Pearson's r, Spearman's ρ. The AP
        correlations weight the top of the ranking: ``estimate``'s positions are
        the ones weighted, ``reference`` is the "true" ranking.
    dim : str
        The dim holding the systems.

    Returns
    -------
    xarray.DataArray
        The coefficient over the remaining dims; NaN where an input has a NaN or
        the coefficient is undefined (a constant ranking; ties for ``tau_ap``, ties
        in ``reference`` for ``tau_ap_a``).

    Raises
    ------
    ScoreDataError
        If the two inputs do not have the same systems.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> first, second = ap.isel(topic=slice(0, 25)), ap.isel(topic=slice(25, 50))
    >>> tau = correlation(first, second, "tau_b")
    >>> tau.dims, bool(0.5 < tau.item() < 1)
    (('measure',), True)
    """
    check_option(method, tuple(CORRELATIONS), "method")
    a = _system_scores(estimate, "estimate") if dim == SYSTEM else estimate
    b = _system_scores(reference, "reference") if dim == SYSTEM else reference
    for obj, name in ((a, "estimate"), (b, "reference")):
        if dim not in obj.dims:
            raise ScoreDataError(f"{name} has no {dim!r} dim (dims: {obj.dims})")
    if dim in a.coords and dim in b.coords:
        only = sorted(set(map(str, a[dim].values)) ^ set(map(str, b[dim].values)))
        if only:
            raise ScoreDataError(f"estimate and reference differ in {dim}s: {only[:10]}")
        b = b.sel({dim: a[dim].values})
    elif a.sizes[dim] != b.sizes[dim]:
        raise ScoreDataError(f"estimate has {a.sizes[dim]} {dim}s, reference {b.sizes[dim]}")
    kernel = CORRELATIONS[method]
    out = xr.apply_ufunc(
        kernel, a, b,
        input_core_dims=[[dim], [dim]],
        dask="parallelized",
        output_dtypes=[np.float64],
        dask_gufunc_kwargs={"allow_rechunk": True},
    )
    out.attrs = {"method": method}
    return out.rename(method)
