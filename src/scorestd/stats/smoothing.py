"""Smoothing new scores against partial prior scores (Ravana, Park & Moffat 2009).

Equation 1: the smoothed score of system s on a new topic q is
α·x[q, s] + (1 − α)·prior_mean[s], where prior_mean[s] is the mean of the system's
scores on a prior topic set that may differ from system to system. Aggregating the
smoothed scores (e.g. :func:`scorestd.aggregate`) gives the paper's mean smoothed AP.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import xarray as xr

from .._options import MissingPrior, check_flag, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, warn
from ..kernels.smoothing import prior_mean, smooth_kernel
from ..mapping import maps_extra_dims
from ..measures import find_measure, same_measure
from ..score_cube import check_same_collection, extra_dims_of, match_input_dims, validate

__all__ = ["smooth"]



@maps_extra_dims("scores", "prior", vectorized=True)
def smooth(
    scores: Any,
    prior: Any,
    alpha: float | Mapping[str, float] | xr.DataArray,
    *,
    missing_prior: MissingPrior = "raise",
    cross_collection: bool = False,
) -> xr.DataArray:
    """Smooth each system's scores towards its mean on prior topics (Equation 1).

    Parameters
    ----------
    scores : xarray.DataArray or pandas.DataFrame
        New scores: a cube or 2-D ``(topic, system)`` array, all systems on the same
        new topics. Raw or standardized: the paper smooths both AP and standardized AP
        (standardize the new and the prior scores each on their own topics first,
        e.g. with ``scorestd.standardize``, then smooth).
    prior : xarray.DataArray or pandas.DataFrame
        Prior scores on other topics, ``NaN`` where a system was not run on a prior
        topic, so each system may have its own prior topic set. It needs the measures
        of ``scores`` (a single measure on each side is matched whatever its label).
    alpha : float, mapping or xarray.DataArray
        Weight α in [0, 1] of the new scores: one number, or one per measure (a
        ``{measure: α}`` mapping, measures under any usual spelling, or a DataArray over
        ``measure``). α = 1 returns the
        scores unchanged, α = 0 replaces every score by the system's prior mean. The
        paper found α ≈ 0.8 best for AP and 0.5 for standardized AP.
    missing_prior : {"raise", "unsmoothed"}, default "raise"
        A system of ``scores`` with no prior score (absent from ``prior`` or all
        ``NaN`` there) for a measure: raise :class:`ScoreDataError` naming the systems,
        or leave its scores unsmoothed (α = 1 for that system) with a
        :class:`ScorestdWarning`.
    cross_collection : bool
        Allow a ``prior`` whose ``attrs["collection"]`` differs from that of ``scores``
        (by default an error: the systems' prior means would come from another
        collection's topics while its topic labels look alike).

    Returns
    -------
    xarray.DataArray
        The smoothed scores, with the dims and labels of ``scores`` and attrs
        ``smoothing_alpha`` (per measure) and ``smoothed_systems``. A missing (``NaN``)
        new score stays missing whatever α.

    Warns
    -----
    ScorestdWarning
        If ``prior`` has systems that ``scores`` lacks (they are ignored), or with
        ``missing_prior="unsmoothed"`` for the systems left unsmoothed.

    Examples
    --------
    >>> import xarray as xr
    >>> new = xr.DataArray([[0.5, 0.1], [0.3, 0.0]], dims=("topic", "system"),
    ...                    coords={"topic": ["q1", "q2"], "system": ["a", "b"]})
    >>> old = xr.DataArray([[0.2, float("nan")], [0.2, 0.4]], dims=("topic", "system"),
    ...                    coords={"topic": ["p1", "p2"], "system": ["a", "b"]})
    >>> smooth(new, old, alpha=0.8).round(3).values.tolist()
    [[0.44, 0.16], [0.28, 0.08]]
    """
    new = validate(scores, what="scores", extra_dims=True)
    cross_collection = check_flag("cross_collection", cross_collection)
    check_same_collection(new, prior, what="prior", allowed=cross_collection)
    old = _prior_on_measures(validate(prior, what="prior", extra_dims=True), new)
    if extra_dims_of(old) and set(extra_dims_of(old)) != set(extra_dims_of(new)):
        raise ScoreDataError(f"the prior's extra dims {extra_dims_of(old)} differ from the "
                             f"scores' {extra_dims_of(new)}: a prior has none, or the same")
    missing_prior = check_option(missing_prior, MissingPrior, "missing_prior")
    extra = np.setdiff1d(old[SYSTEM].values, new[SYSTEM].values)
    if extra.size:
        warn(
            f"prior systems not in the scores are ignored: {_listed(extra)}")
    old = old.reindex({SYSTEM: new[SYSTEM].values})  # systems without prior: all NaN
    means = xr.apply_ufunc(prior_mean, old, input_core_dims=[[TOPIC, SYSTEM]],
                           output_core_dims=[[SYSTEM]], kwargs={"axis": -2},
                           dask="parallelized", output_dtypes=[np.float64],
                           dask_gufunc_kwargs={"allow_rechunk": True})
    weights = _alpha_per_measure(alpha, new).broadcast_like(means).copy()
    unsmoothed = means.isnull()
    if bool(unsmoothed.any()):
        by_system = unsmoothed.any([d for d in unsmoothed.dims if d != SYSTEM])
        systems = new[SYSTEM].values[by_system.values]
        if missing_prior == "raise":
            raise ScoreDataError(
                f"no prior scores for systems {_listed(systems)}; give them prior scores, "
                "or smooth with missing_prior='unsmoothed' to leave them as they are"
            )
        warn(
            f"no prior scores for systems {_listed(systems)}: left unsmoothed (alpha = 1)")
        weights = weights.where(~unsmoothed, 1.0)
        means = means.fillna(0.0)  # weighted by 1 − α = 0
    result = xr.apply_ufunc(
        smooth_kernel,
        new,
        means,
        weights,
        input_core_dims=[[TOPIC, SYSTEM], [SYSTEM], [SYSTEM]],
        output_core_dims=[[TOPIC, SYSTEM]],
        dask="parallelized",
        output_dtypes=[np.float64],
        dask_gufunc_kwargs={"allow_rechunk": True},
    ).transpose(*new.dims)
    attrs = dict(new.attrs)
    attrs["smoothing_alpha"] = [float(a) for a in _alpha_per_measure(alpha, new).values]
    attrs["smoothed_systems"] = int((~unsmoothed).all(
        [d for d in unsmoothed.dims if d != SYSTEM]).sum())
    return match_input_dims(result.assign_attrs(attrs).rename(new.name), scores)


def _prior_on_measures(old: xr.DataArray, new: xr.DataArray) -> xr.DataArray:
    """The prior restricted to (and labelled like) the measures of the new scores."""
    if old.sizes[MEASURE] == 1 and new.sizes[MEASURE] == 1:
        before, after = str(old[MEASURE].values[0]), str(new[MEASURE].values[0])
        if not same_measure(before, after):  # never smooth AP towards an nDCG prior
            raise ScoreDataError(f"the prior is of measure {before!r}, the scores of "
                                 f"{after!r}; give a prior of the same measure")
        return old.assign_coords({MEASURE: new[MEASURE].values})
    lacking = np.setdiff1d(new[MEASURE].values, old[MEASURE].values)
    if lacking.size:
        raise ScoreDataError(f"prior has no scores for measures {_listed(lacking)}")
    return old.sel({MEASURE: new[MEASURE].values})


def _alpha_per_measure(alpha: Any, new: xr.DataArray) -> xr.DataArray:
    measures = new[MEASURE].values
    if isinstance(alpha, xr.DataArray) and alpha.ndim:
        if alpha.dims != (MEASURE,):
            raise ValueError(f"alpha may vary by measure only, got dims {alpha.dims}")
        alpha = dict(zip(alpha[MEASURE].values.astype(str).tolist(), alpha.values, strict=True))
    if isinstance(alpha, Mapping):  # keys: any usual spelling of the measures
        given = {str(k): v for k, v in alpha.items()}
        keys = [find_measure(str(m), list(given), what="alpha", required=False)
                for m in measures]
        lacking = [m for m, k in zip(measures, keys, strict=True) if k is None]
        if lacking:
            raise ValueError(f"alpha has no value for measures {_listed(lacking)}")
        values = np.array([float(given[k]) for k in keys])
    else:
        values = np.full(len(measures), float(alpha))
    bad = ~((values >= 0) & (values <= 1))
    if bad.any():
        raise ValueError(
            f"alpha must be in [0, 1], got {values[bad][0]} for measure {str(measures[bad][0])!r}"
        )
    return xr.DataArray(values, dims=(MEASURE,), coords={MEASURE: measures})


def _listed(labels: Any) -> str:
    labels = [str(v) for v in labels]
    return ", ".join(labels[:10]) + (f" and {len(labels) - 10} more" if len(labels) > 10 else "")
