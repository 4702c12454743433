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
from ..kernels.multiple import two_way_anova_mse
from ..kernels.variance import paired_difference_ss, within_system_ss
from ..mapping import maps_extra_dims
from ..models.schemes import check_schemes, scheme_model
from ..score_cube import validate

__all__ = ["anova_residual", "estimate_variance"]


def _two_way_residual_ss(x: np.ndarray) -> tuple[np.ndarray, int]:
    mse, df = two_way_anova_mse(x)
    return mse * df, df


_KERNELS = {
    "residual": _two_way_residual_ss,
    "paired_difference": paired_difference_ss,
    "within_system": within_system_ss,
}


@maps_extra_dims()
def anova_residual(scores: Any) -> xr.Dataset:
    """Two-way ANOVA without replication (topic × system) per measure.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array. Topics with a missing score on any
        system are left out (the design must be complete), with a
        :class:`~scorestd.ScorestdWarning` saying how many.

    Returns
    -------
    xarray.Dataset
        Over ``measure``: ``ss`` (S_E), ``df`` (φ_E = (T−1)(S−1)), ``variance``
        (V_E = S_E / φ_E) and ``n_topics`` (the complete topics used).

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
    c = validate(scores)
    rows = [_residual_one(c.sel({MEASURE: m}), str(m), "residual", _where(c))
            for m in c[MEASURE].values]
    ss, df, n = (np.array([r[i] for r in rows]) for i in range(3))
    coords = {MEASURE: c[MEASURE].values}
    return xr.Dataset(
        {
            "ss": (MEASURE, ss),
            "df": (MEASURE, df),
            "variance": (MEASURE, ss / df),
            "n_topics": (MEASURE, n),
        },
        coords=coords,
        attrs={"model": "score ~ C(topic) + C(system)"},
    )


@maps_extra_dims()
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
        ``Σ SS / Σ df``, per measure over the collections that have it); or a mapping
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
    return out.assign_coords(scheme=list(per_scheme)).assign_attrs(parts[0].attrs)


def _collections(scores: Any, *, raw: bool = True) -> list[xr.DataArray]:
    if isinstance(scores, xr.DataArray) or not isinstance(scores, Sequence):
        return [validate(scores, check_range=raw)]
    if not scores:
        raise ScoreDataError("no collections given")
    return [validate(s, what=f"collection {i}", check_range=raw) for i, s in enumerate(scores)]


def _squeeze_single_2d(result: xr.DataArray, original: Any) -> xr.DataArray:
    if isinstance(original, xr.DataArray) and MEASURE not in original.dims:
        return result.squeeze(MEASURE, drop=True)
    return result


def _standardized(c: xr.DataArray, scheme: str,
                  options: Mapping[str, Mapping[str, Any]] | None) -> xr.DataArray:
    model = scheme_model(scheme, options)
    # standardized values, not scores of the measure: no range to check
    return c if model is None else validate(model.standardize(c), check_range=False)


def _pooled(collections: list[xr.DataArray], kind: str) -> xr.DataArray:
    totals: dict[str, list[float]] = {}
    for c in collections:
        where = _where(c)
        for m in c[MEASURE].values:
            ss, df, _ = _residual_one(c.sel({MEASURE: m}), str(m), kind, where)
            acc = totals.setdefault(str(m), [0.0, 0])
            acc[0] += ss
            acc[1] += df
    measures = list(totals)
    ss = np.array([totals[m][0] for m in measures])
    df = np.array([totals[m][1] for m in measures], dtype=np.int64)
    return xr.DataArray(
        ss / df,
        dims=MEASURE,
        coords={MEASURE: measures, "df": (MEASURE, df)},
        name="variance",
        attrs={"kind": kind, "pooled": "sum of squares / degrees of freedom"},
    )


def _where(c: xr.DataArray) -> str:
    name = c.attrs.get("collection") or c.attrs.get("source")
    return f"collection {name!r}" if name else "the scores"


def _residual_one(x2d: xr.DataArray, measure: str, kind: str, where: str) -> tuple[float, int, int]:
    x = x2d.transpose(TOPIC, SYSTEM).values
    if x.shape[1] < 2:
        raise ScoreDataError(f"{where}, measure {measure!r}: a variance estimate needs at least "
                             f"two systems, got {x.shape[1]}")
    if kind == "residual":
        complete = ~np.isnan(x).any(axis=1)
        if not complete.all():
            warn(
                f"{where}, measure {measure!r}: {int((~complete).sum())} topic(s) with missing "
                "scores left out of the two-way ANOVA")
            x = x[complete]
    n_topics = int((~np.isnan(x)).any(axis=1).sum())
    if n_topics < 2:
        raise ScoreDataError(f"{where}, measure {measure!r}: a variance estimate needs at least "
                             f"two topics with scores, got {n_topics}")
    ss, df = _KERNELS[kind](x)
    if int(df) < 1:
        raise ScoreDataError(f"{where}, measure {measure!r}: no degrees of freedom left for "
                             f"the {kind} variance")
    return float(ss), int(df), n_topics
