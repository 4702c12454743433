"""Comparing distributional assumptions: which model describes each topic best."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._options import Degenerate, FitDistance, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScorestdError
from ..mapping import fold_topics, maps_extra_dims, unfold_topic_dataset
from ..score_cube import extra_dims_of, validate
from ._base import Model
from ._bounded import squeeze
from .registry import instantiate

__all__ = ["GoodnessOfFit", "goodness_of_fit"]

#: Models compared by default: the registered families with a density.
DEFAULT_MODELS: tuple[str, ...] = ("normal", "uniform", "beta", "kde", "truncnorm")


@dataclass(frozen=True)
class GoodnessOfFit:
    """Per-topic goodness of fit of several models, from :func:`goodness_of_fit`.

    Attributes
    ----------
    data : xarray.Dataset
        ``loglik``, ``aic``, ``params`` (the ``k`` of the AIC) and ``distance`` over
        ``model`` × topic × measure (after the extra dims of the scores, if any);
        ``attrs["distance"]`` says which distance to the ecdf.
    """

    data: xr.Dataset

    def wins(self, criterion: Literal["aic", "distance"] = "aic") -> xr.DataArray:
        """How many topics each model fits best (lowest AIC or distance), per measure.

        Topics where every model's criterion is ``NaN`` count for none.
        """
        check_option(criterion, ("aic", "distance"), "criterion")
        values = self.data[criterion]
        finite = values.notnull().any("model")
        best = values.fillna(np.inf).argmin("model").where(finite)
        counts = [(best == i).sum(TOPIC) for i in range(values.sizes["model"])]
        out = xr.concat(counts, dim="model").assign_coords(model=values["model"])
        return out.transpose(*(d for d in values.dims if d != TOPIC))  # extra dims first

    def summary(self) -> pd.DataFrame:
        """One row per model and measure: total log-likelihood, mean AIC, mean and
        median distance, and the number of topics each model wins by AIC and by
        distance.

        Examples
        --------
        >>> import scorestd
        >>> c = goodness_of_fit(scorestd.datasets.load("adhoc8_ap"), ["normal", "beta"])
        >>> c.summary()[["wins_aic", "wins_distance"]]
                        wins_aic  wins_distance
        model  measure
        normal ap             20             34
        beta   ap             30             16
        """
        d = self.data
        frame = pd.DataFrame({
            "loglik": d["loglik"].sum(TOPIC, skipna=False).to_series(),
            "mean_params": d["params"].mean(TOPIC).to_series(),
            "mean_aic": d["aic"].mean(TOPIC).to_series(),
            "mean_distance": d["distance"].mean(TOPIC).to_series(),
            "median_distance": d["distance"].median(TOPIC).to_series(),
            "wins_aic": self.wins("aic").to_series(),
            "wins_distance": self.wins("distance").to_series(),
        })
        frame["note"] = [_note(ll) or ("k: the effective number of parameters (trace of the "
                                       "smoothing matrix)" if k % 1 else "")
                         for ll, k in zip(frame["loglik"], frame["mean_params"].fillna(0),
                                          strict=True)]
        frame.attrs["columns"] = {
            "loglik": "log-likelihood of every score, summed over topics",
            "mean_params": "mean over topics of k, the parameters AIC charges: the family's "
                           "free parameters, or for kde the effective number, the trace of "
                           "its smoothing matrix",
            "mean_aic": "mean over topics of AIC = 2k − 2 loglik (lower is better)",
            "mean_distance": f"mean over topics of the {d.attrs.get('distance', 'ks')} "
                             "distance between the fitted cdf and the ecdf",
            "median_distance": "median over topics of that distance",
            "wins_aic": "topics where the model has the lowest AIC",
            "wins_distance": "topics where the model has the smallest distance",
            "note": "why a likelihood is -inf or NaN (then AIC is inf or NaN)",
        }
        return frame


def _note(loglik: float) -> str:
    if np.isneginf(loglik):
        return ("support does not cover the scores: some score has density 0 under the "
                "fitted model (e.g. uniform fitted on the reference's range)")
    if np.isnan(loglik):
        return "no density (the model has no logpdf, or a topic could not be fitted)"
    return ""


@maps_extra_dims(vectorized=True)
def goodness_of_fit(
    scores: Any,
    models: Sequence[str | type[Model] | Model] = DEFAULT_MODELS,
    *,
    distance: FitDistance = "ks",
    degenerate: Degenerate = "nan",
) -> GoodnessOfFit:
    """Fit several models per topic and measure and compare how well each describes the scores.

    For each model, topic and measure: the log-likelihood of the scores under the
    fitted density (for scores in [0, 1], at the scores squeezed off the bounds by
    ``(x (n − 1) + 1/2) / n``, the same for every model, since a density may vanish or
    diverge at exact 0 and 1, as the beta's does) and ``AIC = 2 k − 2 loglik``. ``k`` is
    the family's ``n_params``; for ``kde``, whose in-sample likelihood is optimistic (each
    score sits on its own kernel), it is the effective number of parameters: the trace
    of the smoothing matrix, ``Σ_i K_h(x_i, x_i) / Σ_j K_h(x_i, x_j)`` (the share of each
    score's own reflected kernel in the density at it; between 1 and n, as the degrees of
    freedom of a linear smoother); ``NaN`` for a model with no density or no count. Then a distance between the fitted cdf and the
    ecdf of the same scores: Kolmogorov–Smirnov ``sup |F̂ − ecdf|`` or Cramér–von
    Mises ``W² = 1/(12n) + Σ (F̂(x_(i)) − (2i − 1)/(2n))²``.

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D array; ``NaN`` scores are skipped. Extra dims (``trial`` …) are
        kept (first), each slice's topics fitted on their own.
    models : sequence of str, Model class or instance
        Models to compare (each must be a cdf model; the z-score is not).
    distance : {"ks", "cvm"}
        Distance to the ecdf.
    degenerate : {"unstandardized", "nan", "raise"}
        Policy for topics whose scores are all equal; the default ``"nan"`` leaves
        them out of the comparison.

    Returns
    -------
    GoodnessOfFit

    Examples
    --------
    >>> import scorestd
    >>> c = goodness_of_fit(scorestd.datasets.load("adhoc8_ap"), ["normal", "uniform", "beta"])
    >>> c.data["aic"].dims
    ('model', 'topic', 'measure')
    >>> c.wins("aic").sel(measure="ap").to_series().to_dict()
    {'normal': ..., 'uniform': ..., 'beta': ...}
    """
    check_option(distance, FitDistance, "distance")
    if isinstance(scores, xr.DataArray) and extra_dims_of(scores):
        # every topic of every slice is fitted on its own: one pass over the folded rows,
        # each slice squeezed or not by its own scores' range, as it would be alone
        cube = validate(scores, extra_dims=True)
        extra = extra_dims_of(cube)
        unit = ((cube.min((TOPIC, SYSTEM, MEASURE)) >= 0)
                & (cube.max((TOPIC, SYSTEM, MEASURE)) <= 1)).transpose(*extra).values
        folded = _goodness(fold_topics(cube), models, distance, degenerate,
                           np.repeat(unit.ravel(), cube.sizes[TOPIC]))
        data = unfold_topic_dataset(folded, cube)
        return GoodnessOfFit(data.transpose(*extra, "model", TOPIC, MEASURE))
    cube = validate(scores)
    return GoodnessOfFit(_goodness(cube, models, distance, degenerate,
                                   np.full(cube.sizes[TOPIC], _in_unit_interval(cube))))


def _goodness(cube: xr.DataArray, models: Sequence[str | type[Model] | Model],
              distance: str, degenerate: Degenerate, unit_rows: np.ndarray) -> xr.Dataset:
    """The comparison of :func:`goodness_of_fit` on a cube without extra dims; the topics
    flagged in ``unit_rows`` (scores in [0, 1]) have their densities taken at squeezed
    scores."""
    # Sorted scores per topic (NaN last), the order statistics the distances use.
    ordered = cube.copy(data=np.sort(cube.values, axis=1))
    n = cube.count(SYSTEM)
    position = xr.DataArray(np.arange(1, cube.sizes[SYSTEM] + 1, dtype=float), dims=SYSTEM,
                            coords={SYSTEM: cube[SYSTEM]})
    # Densities are compared at scores moved off 0 and 1 (the same for every model),
    # where a density may vanish or diverge (the beta's does).
    squeezed = cube
    if unit_rows.any():
        moved = squeeze(cube.transpose(TOPIC, MEASURE, SYSTEM).values).transpose(0, 2, 1)
        squeezed = cube.copy(data=np.where(unit_rows[:, None, None], moved, cube.values))
        # Squeezed P@k or RR are off their measure's support by construction: not raw scores.
        squeezed.attrs = {**cube.attrs, "generated_by": "scorestd.goodness_of_fit (squeezed)"}
    names, loglik, aic, dist, params = [], [], [], [], []
    for spec in models:
        model = instantiate(spec)
        if not model.is_cdf:
            raise ScorestdError(f"model {model.name!r} is not a cdf and cannot be compared")
        fitted = model.fit(cube, degenerate=degenerate)
        names.append(model.name)
        if model._logpdf is not None:
            ll = fitted.logpdf(squeezed).sum(SYSTEM, min_count=1)
        else:
            ll = xr.full_like(n, np.nan, dtype=float)
        loglik.append(ll)
        k = _parameter_count(model, fitted, squeezed, ll)
        params.append(k)
        aic.append(2 * k - 2 * ll)
        f = fitted.cdf(ordered)
        if distance == "ks":
            gap = np.maximum(position / n - f, f - (position - 1) / n)
            dist.append(gap.max(SYSTEM, skipna=True))
        else:
            dist.append(1 / (12 * n) + ((f - (2 * position - 1) / (2 * n)) ** 2).sum(SYSTEM))
        dist[-1] = dist[-1].where(~fitted.params["degenerate"].sel(
            {TOPIC: cube[TOPIC], MEASURE: cube[MEASURE]}))
    model_dim = pd.Index(names, name="model")
    data = xr.Dataset({
        "loglik": xr.concat(loglik, dim=model_dim),
        "aic": xr.concat(aic, dim=model_dim),
        "params": xr.concat(params, dim=model_dim),
        "distance": xr.concat(dist, dim=model_dim),
    }, attrs={"distance": distance})
    data = data.drop_vars([c for c in data.coords if c not in (TOPIC, MEASURE, "model")])
    return data.transpose("model", TOPIC, MEASURE)


def _parameter_count(model: Model, fitted: Any, squeezed: xr.DataArray,
                     loglik: xr.DataArray) -> xr.DataArray:
    """The ``k`` of each topic's AIC: the family's free parameters, or for a kernel
    density the trace of its smoothing matrix (``NaN`` for a model with neither)."""
    if model.n_params is not None:
        return xr.full_like(loglik, float(model.n_params))
    weight = getattr(model, "_self_weight", None)
    if weight is None or model._logpdf is None:
        return xr.full_like(loglik, np.nan)
    shares = fitted._apply(weight, squeezed, squeezed, fallback=lambda v: np.full_like(v, np.nan),
                           bounded_input=model.bounded, what="scores")
    return shares.sum(SYSTEM, min_count=1).where(loglik.notnull())


def _in_unit_interval(cube: xr.DataArray) -> bool:
    values = cube.values
    return bool(np.nanmin(values) >= 0 and np.nanmax(values) <= 1)
