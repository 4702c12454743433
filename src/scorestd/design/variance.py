"""Variance estimates for power analysis and topic set size design.

Three estimates, each pooled over collections as ``Σ SS / Σ df`` (Sakai, "Topic set
size design", IRJ 19(3), 2016, pools the residual variance as Σ S_E / Σ φ_E):

``"residual"``
    the residual mean square V_E of the two-way ANOVA without replication
    (topic × system). It is the σ² of the one-way ANOVA design and, doubled, the
    variance of paired differences under the additive model.
``"paired_difference"``
    the variance of the per-topic difference between two systems, pooled over every
    system pair. On one complete collection it equals ``2 V_E`` exactly (pooled over
    several collections it weights each by its number of pairs, so it differs from
    ``2 Σ S_E / Σ φ_E``); with missing scores it uses, for each pair, the topics where
    both are present.
``"within_system"``
    the within-system mean square of the one-way ANOVA (systems as groups, topic
    effects left in): the variance for comparing systems on *different* topic sets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from .._options import VarianceKind, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError, ScorestdError, warn
from ..kernels.variance import paired_difference_ss, residual_ss, within_system_ss
from ..mapping import fold_topics, maps_extra_dims, unfold_topics
from ..models.schemes import check_schemes, scheme_model
from ..score_cube import extra_dims_of, validate

__all__ = ["anova_residual", "estimate_variance"]


_KERNELS = {
    "paired_difference": paired_difference_ss,
    "within_system": within_system_ss,
}


@maps_extra_dims(vectorized=True)
def anova_residual(scores: Any) -> xr.Dataset:
    """Two-way ANOVA without replication (topic × system) per measure.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array; extra dims (``trial`` …) are kept, each
        slice analysed on its own. Topics with a missing score on any system are left out
        (the design must be complete), with a :class:`~scorestd.ScorestdWarning` saying
        how many.

    Returns
    -------
    xarray.Dataset
        Over ``measure`` (after any extra dims): ``ss`` (S_E), ``df`` (φ_E = (T−1)(S−1)),
        ``variance`` (V_E = S_E / φ_E) and ``n_topics`` (the complete topics used).

    Raises
    ------
    ScoreDataError
        If fewer than two systems, or fewer than two complete topics, remain.

    Examples
    --------
    >>> from scorestd import cube
    >>> res = anova_residual(cube([[1.0, 2.0], [2.0, 4.0], [3.0, 3.0]])).sel(measure="score")
    >>> float(res["ss"]), int(res["df"]), float(res["variance"])
    (1.0, 2, 0.5)
    """
    res = _sums_of_squares(validate(scores, extra_dims=True), "residual")
    res["variance"] = res["ss"] / res["df"]
    return res[["ss", "df", "variance", "n_topics"]].assign_attrs(
        model="score ~ C(topic) + C(system)")


@maps_extra_dims(vectorized=True)
def estimate_variance(
    scores: Any,
    *,
    kind: VarianceKind = "residual",
    schemes: Sequence[str] | None = None,
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
) -> xr.DataArray:
    """Estimate the variance a power analysis or topic set size design needs.

    Parameters
    ----------
    scores : cube, sequence of cubes, or mapping of scheme label to cube(s)
        One collection; several collections (the estimate is pooled,
        ``Σ SS / Σ df``, per measure over the collections that have it); extra dims
        (``trial`` …) are kept, one estimate per slice (collections with the same extra
        dims are pooled slice by slice); or a mapping
        ``{scheme: cube or cubes}`` of already-standardized scores, which gives the
        result a ``scheme`` dim in the mapping's order.
    kind : {"residual", "paired_difference", "within_system"}
        Which estimate (see the module docstring). ``"residual"`` drops topics with a
        missing score (with a warning); the other two leave out missing scores.
    schemes : sequence of str, optional
        Standardize each collection (against its own systems) under these schemes
        first, giving a ``scheme`` dim: ``"raw"``, the short names ``"z"``, ``"N"``
        (N-std), ``"U"`` (U-std), ``"E"`` (E-std), or any registered model name (see
        :mod:`scorestd.models.schemes`). Not allowed with a mapping.
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` (see
        :func:`scorestd.models.schemes.check_schemes`).

    Returns
    -------
    xarray.DataArray
        The pooled variance over ``measure`` (and ``scheme``), with coordinate
        ``df`` (pooled degrees of freedom) and ``attrs["kind"]``. A single 2-D input
        gives a 0-d result.

    Raises
    ------
    ScoreDataError
        If a collection has fewer than two systems or topics (named in the message).

    Examples
    --------
    >>> from scorestd import cube
    >>> x = cube([[1.0, 2.0], [2.0, 4.0], [3.0, 3.0]], measures=["gain"])
    >>> float(estimate_variance(x).sel(measure="gain"))
    0.5
    >>> float(estimate_variance(x, kind="paired_difference").sel(measure="gain"))
    1.0
    >>> both = estimate_variance({"raw": x, "doubled": 2 * x})
    >>> both.sel(measure="gain").values.tolist()
    [0.5, 2.0]
    """
    check_option(kind, VarianceKind, "kind")
    if isinstance(scores, Mapping):
        if schemes is not None:
            raise ScorestdError("give either a mapping of standardized scores or schemes=, not both")
        # already standardized: not range-checked as raw measures
        per_scheme = {str(k): _collections(v, raw=False) for k, v in scores.items()}
    else:
        collections = _collections(scores)
        if schemes is None:
            result = _pooled(collections, kind)
            return _squeeze_single_2d(result, scores)
        per_scheme = {str(s): [_standardized(c, s, scheme_options) for c in collections]
                      for s in check_schemes(schemes, scheme_options)}
    parts = [_pooled(cols, kind) for cols in per_scheme.values()]
    out = xr.concat(parts, dim="scheme", join="outer", coords="different", compat="equals")
    extra = [d for d in out.dims if d not in ("scheme", MEASURE)]  # the extra dims lead
    return out.transpose(*extra, ...).assign_coords(scheme=list(per_scheme)).assign_attrs(
        parts[0].attrs)


def _collections(scores: Any, *, raw: bool = True) -> list[xr.DataArray]:
    if isinstance(scores, xr.DataArray) or not isinstance(scores, Sequence):
        return [validate(scores, check_range=raw, extra_dims=True)]
    if not scores:
        raise ScoreDataError("no collections given")
    return [validate(s, what=f"collection {i}", check_range=raw, extra_dims=True)
            for i, s in enumerate(scores)]


def _squeeze_single_2d(result: xr.DataArray, original: Any) -> xr.DataArray:
    if isinstance(original, xr.DataArray) and MEASURE not in original.dims:
        return result.squeeze(MEASURE, drop=True)
    return result


def _standardized(c: xr.DataArray, scheme: str,
                  options: Mapping[str, Mapping[str, Any]] | None) -> xr.DataArray:
    model = scheme_model(scheme, options)
    # standardized values, not scores of the measure: no range to check
    if model is None:
        return c
    if not extra_dims_of(c):
        return validate(model.standardize(c), check_range=False)
    # every topic of every slice is standardized on its own: one call on the folded rows
    return unfold_topics(model.standardize(fold_topics(c)), c)


def _pooled(collections: list[xr.DataArray], kind: str) -> xr.DataArray:
    parts = [_sums_of_squares(c, kind) for c in collections]
    measures = list(dict.fromkeys(str(m) for part in parts for m in part[MEASURE].values))
    if len(parts) == 1:
        total = parts[0]
    else:  # a measure missing from a collection adds nothing to its sums
        total = xr.concat([part.reindex({MEASURE: measures}, fill_value=0) for part in parts],
                          dim="_collection", join="outer", fill_value=0).sum("_collection")
    df = total["df"].astype(np.int64)
    return (total["ss"] / df).assign_coords(df=df).rename("variance").assign_attrs(
        kind=kind, pooled="sum of squares / degrees of freedom")


def _where(c: xr.DataArray) -> str:
    name = c.attrs.get("collection") or c.attrs.get("source")
    return f"collection {name!r}" if name else "the scores"


def _sums_of_squares(c: xr.DataArray, kind: str) -> xr.Dataset:
    """``ss``, ``df`` and ``n_topics`` of estimate ``kind`` over the extra dims and
    measures of ``c``, by one kernel call on the whole cube."""
    extra = extra_dims_of(c)
    x = c.transpose(*extra, MEASURE, TOPIC, SYSTEM)
    where = _where(c)
    measures = [str(m) for m in c[MEASURE].values]
    if c.sizes[SYSTEM] < 2:
        raise ScoreDataError(f"{where}, measure {measures[0]!r}: a variance estimate needs at "
                             f"least two systems, got {c.sizes[SYSTEM]}")
    values = np.asarray(x.values, dtype=np.float64)
    if kind == "residual":
        ss, df, n_topics = residual_ss(values)
        dropped = np.isnan(values).any(axis=-1).sum(axis=-1)
        for k, m in enumerate(measures):
            counts = dropped[..., k]
            if counts.any():
                warn(f"{where}, measure {m!r}: {_count_over_slices(counts, x)} with missing "
                     "scores left out of the two-way ANOVA")
    else:
        ss, df = _KERNELS[kind](values)
        n_topics = (~np.isnan(values)).any(axis=-1).sum(axis=-1)
    for bad, text in ((n_topics < 2, "a variance estimate needs at least two topics with "
                                     "scores, got {n}"),
                      (df < 1, f"no degrees of freedom left for the {kind} variance")):
        if bad.any():
            first = np.argwhere(bad)[0]
            at = _slice_name(x, first[:-1])
            raise ScoreDataError(f"{where}{at}, measure {measures[first[-1]]!r}: "
                                 + text.format(n=int(n_topics[tuple(first)])))
    dims = (*extra, MEASURE)
    coords = {d: x.coords[d] for d in dims if d in x.coords}
    return xr.Dataset({"ss": (dims, ss), "df": (dims, df.astype(np.int64)),
                       "n_topics": (dims, n_topics.astype(np.int64))}, coords=coords)


def _slice_name(x: xr.DataArray, position: np.ndarray) -> str:
    """``", trial 3"``: the slice at ``position`` of the extra dims ("" without them)."""
    extra = extra_dims_of(x)
    return "".join(f", {dim} {x[dim].values[k] if dim in x.coords else k}"
                   for dim, k in zip(extra, position, strict=True))


def _count_over_slices(counts: np.ndarray, x: xr.DataArray) -> str:
    if counts.ndim == 0:
        return f"{int(counts)} topic(s)"
    first = np.argwhere(counts > 0)[0]
    return (f"{int(counts.sum())} topic(s) in {int((counts > 0).sum())} of {counts.size} "
            f"slices (first{_slice_name(x, first)})")
