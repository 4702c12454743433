"""Multiple-comparison control over the family of system pairs (labelled layer).

The family is a *core* dim (``pair`` by default): every p-value is adjusted
against all the others of its family, never element by element.
"""

from __future__ import annotations

import xarray as xr

from .._options import Correction, check_option
from ..kernels.multiple import adjust_pvalues as _adjust
from ..mapping import maps_extra_dims
from ._pairs import PAIR
from .significance import compare

__all__ = ["adjust_pvalues", "randomised_tukey_hsd", "tukey_hsd"]


def adjust_pvalues(
    p_values: xr.DataArray, method: Correction = "holm", *, dim: str = PAIR
) -> xr.DataArray:
    """Adjust p-values for multiple comparisons over the family along ``dim``.

    Bonferroni, Holm (family-wise error) or Benjamini–Hochberg (false discovery
    rate), equal to statsmodels' ``multipletests``. Other dims (measure, trial,
    …) are separate families. NaN p-values stay NaN and do not count in the family.

    Parameters
    ----------
    p_values : xarray.DataArray
        p-values with a ``dim`` dim.
    method : {"bonferroni", "holm", "bh"}
        Adjustment.
    dim : str
        The dim holding the family.

    Returns
    -------
    xarray.DataArray
        Adjusted p-values, same dims and coords.

    Examples
    --------
    >>> import xarray as xr
    >>> p = xr.DataArray([0.01, 0.04, 0.03, 0.2], dims="pair")
    >>> adjust_pvalues(p, "bonferroni").values.tolist()
    [0.04, 0.16, 0.12, 0.8]
    """
    check_option(method, Correction, "method")
    if dim not in p_values.dims:
        raise ValueError(f"p_values has no dim {dim!r} (dims: {p_values.dims})")
    out = xr.apply_ufunc(
        _adjust, p_values,
        input_core_dims=[[dim]], output_core_dims=[[dim]],
        kwargs={"method": method},
        dask="parallelized", output_dtypes=[float],
        dask_gufunc_kwargs={"allow_rechunk": True},
    )
    out.attrs = {**p_values.attrs, "correction": method}
    return out.transpose(*p_values.dims)


@maps_extra_dims(vectorized=True)  # through compare
def tukey_hsd(scores, *, baseline: str | None = None, conf_level: float = 0.95) -> xr.Dataset:
    """Tukey's HSD test of all system pairs, from the two-way ANOVA without replication.

    Topics are blocks (Sakai's setting for IR): q = abs(x̄_i − x̄_j) / sqrt(MSE / T)
    against the studentized range of S means with (T − 1)(S − 1) df. The p-values
    are adjusted for all S(S − 1)/2 pairs (also when only the pairs against a
    ``baseline`` are reported). Needs complete data.

    Same output as :func:`scorestd.compare` with ``test="tukey_hsd"``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5))
    >>> res = tukey_hsd(ap, baseline="run1")
    >>> res.system.values.tolist()
    ['run2', 'run3', 'run4', 'run5']
    """
    return compare(scores, "tukey_hsd", baseline=baseline, conf_level=conf_level)


@maps_extra_dims(vectorized=True)  # through compare
def randomised_tukey_hsd(
    scores, *, B: int = 10_000, seed=None, baseline: str | None = None, conf_level: float = 0.95
) -> xr.Dataset:
    """Randomised Tukey HSD test of all system pairs (Carterette; Sakai).

    Permutes each topic's scores across systems B times; a pair's p-value is the
    fraction of permutations whose range of system means reaches the pair's
    observed difference. Needs complete data.

    Same output as :func:`scorestd.compare` with ``test="randomised_tukey_hsd"``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    >>> res = randomised_tukey_hsd(ap, B=500, seed=1)
    >>> res.sizes["pair"], res.attrs["B"]
    (6, 500)
    """
    return compare(scores, "randomised_tukey_hsd", baseline=baseline, B=B, seed=seed,
                   conf_level=conf_level)
