"""Aggregation of per-topic scores into system scores, and system rankings.

Labelled front end of :mod:`scorestd.kernels.aggregate` (Ravana & Moffat 2009):
``aggregate(cube, method="egm")`` reduces the ``topic`` dim (or any other by
``dim=``) and :func:`rank_systems` ranks the systems by the result.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import xarray as xr

from .._options import AggregationMethod, TieRule, ZeroPolicy, check_flag, check_option
from ..dims import CUBE_DIMS, MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, ScorestdWarning, warn
from ..kernels.aggregate import DEFAULT_EPS, aggregate_kernel
from ..kernels.ranking import rank_descending
from ..mapping import maps_extra_dims
from ..score_cube import _is_dask, first_cell, match_input_dims, outer_where, validate

__all__ = ["aggregate", "rank_systems"]

#: Methods that take logarithms or reciprocals and so reject negative scores.
_NONNEGATIVE = frozenset({"gm", "egm", "gm_trec_eval", "hm", "ehm"})


@maps_extra_dims(vectorized=True)
def aggregate(
    scores: Any,
    method: AggregationMethod = "am",
    *,
    dim: str = TOPIC,
    eps: float | None = None,
    skipna: bool = False,
    zeros: ZeroPolicy = "raise",
) -> xr.DataArray:
    """Aggregate scores over topics (or another dim) into one score per system.

    Parameters
    ----------
    scores : xarray.DataArray or pandas.DataFrame
        A score cube or a 2-D ``(topic, system)`` array.
    method : {"am", "gm", "egm", "gm_trec_eval", "hm", "ehm", "md"}, default "am"
        Arithmetic mean, geometric mean, additive ε-adjusted geometric mean
        (``exp(mean(log(x+ε))) − ε``), trec_eval's thresholded geometric mean
        (``exp(mean(log(max(x, ε))))``), harmonic mean, ε-adjusted harmonic mean and
        median, exactly as in Ravana & Moffat (2009); the kernels of the same names in
        :mod:`scorestd.kernels.aggregate` are the array versions.
    dim : str, default "topic"
        The dim to reduce.
    eps : float, optional
        ε of ``egm`` and ``ehm`` (default 0.01) and of ``gm_trec_eval`` (default 1e-5).
    skipna : bool, default False
        Missing (``NaN``) scores: the package default ``False`` makes the aggregate of a
        system with any missing topic ``NaN``; ``True`` aggregates the present scores
        only (``NaN`` if there are none).
    zeros : {"raise", "nan"}, default "raise"
        For ``method="hm"`` only: a system with a zero score has no harmonic mean;
        raise, or give it ``NaN`` with a :class:`~scorestd.errors.ScorestdWarning`.

    Returns
    -------
    xarray.DataArray
        ``scores`` without ``dim`` (a 2-D input gives a result without ``measure``),
        named after the method, with attrs ``aggregation``, ``eps`` (if used),
        ``skipna`` and ``description`` (what the numbers are, in words). It stays a
        DataArray (it keeps extra dims and takes arithmetic); ``print(scorestd.table(
        result))`` shows it as a labelled table (systems down, measures across, extra
        dims leading) under its description, and ``.to_pandas()`` gives the frame.

    Raises
    ------
    ScoreDataError
        A negative score for ``gm``, ``egm``, ``gm_trec_eval``, ``hm`` or ``ehm``, or a
        zero score for ``hm`` with ``zeros="raise"``; the message names the systems and
        the first topic at fault.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> gmap = aggregate(ap, "egm", eps=0.01)
    >>> gmap.dims
    ('system', 'measure')
    >>> gmap.attrs["description"]
    'ε-adjusted geometric mean exp(mean(log(x + ε))) − ε, ε = 0.01, over topics (NaN for a system with a missing score)'
    >>> gmap.sel(measure="ap").to_series().head(2)  # doctest: +NORMALIZE_WHITESPACE
    system
    run1    0.003101
    run2    0.245749
    Name: egm, dtype: float64
    >>> round(float(gmap.sel(system="run1", measure="ap")), 4) < round(
    ...     float(aggregate(ap).sel(system="run1", measure="ap")), 4)
    True
    >>> print(scorestd.table(aggregate(ap.isel(system=slice(0, 2)))))
    Arithmetic mean, over topics (NaN for a system with a missing score).
    <BLANKLINE>
    | system   |    ap |
    |:---------|------:|
    | run1     | 0.004 |
    | run2     | 0.335 |
    """
    cube = validate(scores, extra_dims=True)
    method = check_option(method, AggregationMethod, "method")
    skipna = check_flag("skipna", skipna)
    if dim not in CUBE_DIMS:
        raise ValueError(f"dim must be one of {', '.join(map(repr, CUBE_DIMS))}; got {dim!r}")
    zeros = check_option(zeros, ZeroPolicy, "zeros")
    labelled_warning = False
    if not _is_dask(cube.data):  # a dask cube is checked by the kernel, by position
        if method in _NONNEGATIVE:
            _refuse(cube, cube.values < 0, f"{method} needs non-negative scores")
        if method == "hm" and zeros == "raise":
            _refuse(cube, cube.values == 0,
                    "hm: the harmonic mean is undefined for scores containing a zero "
                    "(use ehm, or zeros='nan')")
        if method == "hm" and zeros == "nan":
            labelled_warning = _warn_undefined_hm(cube, dim)
    with warnings.catch_warnings():
        if labelled_warning:  # said above with labels; the kernel would say it by position
            warnings.simplefilter("ignore", ScorestdWarning)
        result = xr.apply_ufunc(
            aggregate_kernel,
            cube,
            input_core_dims=[[dim]],
            kwargs={"method": method, "axis": -1, "eps": eps, "skipna": skipna, "zeros": zeros},
            dask="parallelized",
            output_dtypes=[np.float64],
            dask_gufunc_kwargs={"allow_rechunk": True},
        )
    attrs = dict(cube.attrs)
    attrs.update(aggregation=method, skipna=int(skipna))
    if method in DEFAULT_EPS:
        attrs["eps"] = DEFAULT_EPS[method] if eps is None else float(eps)
    attrs["description"] = _describe(method, attrs.get("eps"), dim, skipna,
                                     cube.attrs.get("standardization"))
    result = result.assign_attrs(attrs).rename(method)
    return match_input_dims(result, scores)


@maps_extra_dims(vectorized=True)
def rank_systems(
    scores: Any,
    method: AggregationMethod = "am",
    *,
    dim: str = TOPIC,
    eps: float | None = None,
    skipna: bool = False,
    zeros: ZeroPolicy = "raise",
    ties: TieRule = "min",
) -> xr.DataArray:
    """Rank systems by their aggregate score; rank 1 is the best (highest) system.

    Parameters
    ----------
    scores : xarray.DataArray or pandas.DataFrame
        A score cube or 2-D ``(topic, system)`` array, aggregated with
        :func:`aggregate` first; or already aggregated system scores (an
        ``xarray.DataArray`` with a ``system`` dim but no ``dim`` dim).
    method, dim, eps, skipna, zeros
        As in :func:`aggregate`.
    ties : {"min", "average", "max", "dense", "ordinal"}, default "min"
        Tie rule. The default "min" is competition ranking: systems with equal
        aggregate scores share the best of their ranks (1, 2, 2, 4); "average" gives
        them the mean rank (1, 2.5, 2.5, 4); "ordinal" breaks ties by system order.

    Returns
    -------
    xarray.DataArray
        float64 ranks over ``system`` (and ``measure``), named ``"rank"``, with attrs
        ``ties`` and those of the aggregate. A system whose aggregate is ``NaN`` gets
        rank ``NaN`` and takes no rank from the others. ``print(scorestd.table(result))``
        shows it as a labelled table of whole ranks under its description.

    Examples
    --------
    >>> import xarray as xr
    >>> s = xr.DataArray([[0.1, 0.4, 0.1], [0.3, 0.2, 0.3]], dims=("topic", "system"),
    ...                  coords={"topic": ["q1", "q2"], "system": ["a", "b", "c"]})
    >>> rank_systems(s).values.tolist()  # a and c tie (mean 0.2): both rank 2
    [2.0, 1.0, 2.0]
    >>> rank_systems(s, ties="average").values.tolist()
    [2.5, 1.0, 2.5]
    """
    ties = check_option(ties, TieRule, "ties")
    skipna = check_flag("skipna", skipna)
    if isinstance(scores, xr.DataArray) and dim not in scores.dims and SYSTEM in scores.dims:
        system_scores = scores
    else:
        system_scores = aggregate(scores, method, dim=dim, eps=eps, skipna=skipna, zeros=zeros)
    if SYSTEM not in system_scores.dims:
        raise ValueError(f"cannot rank systems after aggregating over {dim!r}")
    ranks = xr.apply_ufunc(
        rank_descending,
        system_scores,
        input_core_dims=[[SYSTEM]],
        output_core_dims=[[SYSTEM]],
        kwargs={"axis": -1, "ties": ties},
        dask="parallelized",
        output_dtypes=[np.float64],
        dask_gufunc_kwargs={"allow_rechunk": True},
    )
    ranks = ranks.transpose(*system_scores.dims)
    what = system_scores.attrs.get("description", f"{system_scores.name or 'score'}")
    return ranks.assign_attrs({**system_scores.attrs, "ties": ties,
                               "description": f"rank by {what}; 1 = best, ties: {ties}"}
                              ).rename("rank")


def _warn_undefined_hm(cube: xr.DataArray, dim: str) -> bool:
    undefined = (cube == 0).any(dim)
    if not bool(undefined.any()):
        return False
    where = "; ".join(
        f"{d}s {_some(undefined[d].values[undefined.any([o for o in undefined.dims if o != d])])}"
        for d in undefined.dims
    )
    warn(
        f"hm: the harmonic mean is undefined (a zero score) for {int(undefined.sum())} "
        f"aggregate(s), left NaN: {where}")
    return True


def _refuse(cube: xr.DataArray, bad: np.ndarray, what: str) -> None:
    """Raise naming the systems (and the first topic and measure) where ``bad``."""
    if not bad.any():
        return
    s, *outer, t, m = first_cell(np.moveaxis(bad, -2, 0))  # first system at fault
    labels = {dim: cube[dim].values.astype(str).tolist() for dim in CUBE_DIMS}
    others = tuple(axis for axis in range(bad.ndim) if axis != bad.ndim - 2)
    systems = np.asarray(labels[SYSTEM])[bad.any(axis=others)]
    raise ScoreDataError(
        f"{what}: system {labels[SYSTEM][s]!r} has {float(cube.values[(*outer, t, s, m)])!r} "
        f"at {outer_where(cube, outer)}topic {labels[TOPIC][t]!r}, measure "
        f"{labels[MEASURE][m]!r} (systems at fault: {_some(systems)})"
    )


def _some(labels: Any, most: int = 5) -> str:
    """The first labels, and how many more."""
    labels = [str(v) for v in labels]
    more = f" and {len(labels) - most} more" if len(labels) > most else ""
    return ", ".join(labels[:most]) + more


_METHOD_WORDS = {
    "am": "arithmetic mean",
    "gm": "geometric mean",
    "egm": "ε-adjusted geometric mean exp(mean(log(x + ε))) − ε",
    "gm_trec_eval": "trec_eval's geometric mean exp(mean(log(max(x, ε))))",
    "hm": "harmonic mean",
    "ehm": "ε-adjusted harmonic mean 1 / mean(1 / (x + ε)) − ε",
    "md": "median",
}


def _describe(method: str, eps: float | None, dim: str, skipna: bool,
              standardization: str | None = None) -> str:
    """An aggregate in words, for ``attrs["description"]``."""
    missing = ("missing scores left out" if skipna
               else f"NaN for a {SYSTEM if dim == TOPIC else 'cell'} with a missing score")
    with_eps = f", ε = {eps:g}" if eps is not None else ""
    of = f" of the scores standardized by {standardization}" if standardization else ""
    return f"{_METHOD_WORDS[method]}{with_eps}{of}, over {dim}s ({missing})"
