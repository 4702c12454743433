"""Checks shared by the Bayesian analyses: the scores, a ROPE, the interval options."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import xarray as xr

from .._options import CIKind, check_option, check_probability
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import OptionError, ScoreDataError
from ..measures import find_measure
from ..score_cube import first_cell

__all__ = ["check_interval", "check_rope", "check_same_data", "check_scores", "one_measure"]


def check_scores(cube: xr.DataArray, what: str) -> None:
    """At least 2 topics and 2 systems, and no system or topic without a score.

    ``what`` names the analysis in the messages. Infinite scores are refused by
    :func:`scorestd.validate` already; ``NaN`` (a missing score) is allowed.
    """
    for dim in (TOPIC, SYSTEM):
        if cube.sizes[dim] < 2:
            raise ScoreDataError(f"{what} needs at least 2 {dim}s, got {cube.sizes[dim]}")
    if cube.chunks is not None:  # a dask cube: its values are read when computed
        return
    present = ~np.isnan(cube.transpose(TOPIC, SYSTEM, MEASURE).values)
    for dim, axis in ((SYSTEM, 0), (TOPIC, 1)):
        empty = ~present.any(axis=axis)  # (this dim, measure): no score at all
        if empty.any():
            k, m = first_cell(empty)
            label = str(cube[dim].values[k])
            raise ScoreDataError(
                f"{what}: {dim} {label!r} has no score for measure "
                f"{str(cube[MEASURE].values[m])!r} (every {dim} needs at least one; "
                f"drop it with .drop_sel({dim}=[{label!r}]))")


def one_measure(cube: xr.DataArray, measure: str | None) -> xr.DataArray:
    """The ``(topic, system)`` scores of one measure (``measure`` may be omitted when the
    cube has only one; any usual spelling, :func:`scorestd.measures.find_measure`)."""
    measure = find_measure(measure, cube[MEASURE].values)
    one = cube.sel({MEASURE: measure}).transpose(TOPIC, SYSTEM)
    return one.compute() if one.chunks is not None else one


def check_rope(rope: Any) -> tuple[float, float] | None:
    """``None``, a half-width r > 0 (the ROPE [−r, r]) or a pair ``(low, high)``, low < high.

    Examples
    --------
    >>> check_rope(0.01)
    (-0.01, 0.01)
    >>> check_rope((0.0, 0.02))
    (0.0, 0.02)
    """
    if rope is None:
        return None
    message = (f"rope must be a half-width r > 0 (the interval [-r, r]) or a pair "
               f"(low, high) of finite numbers with low < high; got {rope!r}")
    if isinstance(rope, bool) or isinstance(rope, str):
        raise OptionError(message)
    if np.ndim(rope) == 0:
        try:
            r = float(rope)
        except (TypeError, ValueError):
            raise OptionError(message) from None
        if not (math.isfinite(r) and r > 0):
            raise OptionError(message)
        return (-r, r)
    try:
        low, high = (float(v) for v in rope)
    except (TypeError, ValueError):
        raise OptionError(message) from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise OptionError(message)
    return (low, high)


def check_interval(ci_prob: Any, ci_kind: str) -> float:
    """The interval probability in (0, 1) and its kind (``"eti"`` or ``"hdi"``)."""
    check_option(ci_kind, CIKind, "ci_kind")
    return check_probability("ci_prob", ci_prob)


def check_same_data(fits: Any, what: str) -> None:
    """Refuse fits (``{name: CrossedPosterior}``) of different data: the first difference
    named, in the order collection, measure, topics, systems, scores.

    Comparing fits of different data (another measure, a subset of the topics, a system
    left out, edited scores) gives a LOO difference, rankings and agreements that say
    nothing about the likelihoods.
    """
    names = list(fits)
    first, base = names[0], fits[names[0]]
    y0 = base.observed_data["score"]
    for name in names[1:]:
        fit = fits[name]
        y = fit.observed_data["score"]
        prefix = f"{what}: fits[{name!r}] and fits[{first!r}] were fitted to different data"
        for attr in ("collection", "measure"):
            a, b = base.posterior.attrs.get(attr, ""), fit.posterior.attrs.get(attr, "")
            if a and b and a != b:
                raise ScoreDataError(f"{prefix}: {attr} {b!r} against {a!r}")
        for dim in (TOPIC, SYSTEM):
            a, b = y0[dim].values.astype(str).tolist(), y[dim].values.astype(str).tolist()
            if a != b:
                only = [v for v in b if v not in set(a)] or [v for v in a if v not in set(b)]
                if not only:
                    raise ScoreDataError(f"{prefix}: the same {dim}s in another order")
                count = (f"{len(b)} {dim}s against {len(a)}" if len(a) != len(b)
                         else f"other {dim}s")
                raise ScoreDataError(f"{prefix}: {count}; e.g. {dim} {only[0]!r} is in "
                                     "one only")
        differ = ~((y.values == y0.values) | (np.isnan(y.values) & np.isnan(y0.values)))
        if differ.any():
            t, s = first_cell(differ)
            raise ScoreDataError(
                f"{prefix}: {int(differ.sum())} scores differ, e.g. topic "
                f"{str(y0[TOPIC].values[t])!r}, system {str(y0[SYSTEM].values[s])!r}: "
                f"{float(y.values[t, s])!r} against {float(y0.values[t, s])!r}")
