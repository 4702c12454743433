"""Score standardization ``y = F̂(x)`` with a pluggable per-topic model ``F̂``."""

from __future__ import annotations

from typing import Any

import xarray as xr

from .._options import Degenerate, check_flag, check_option
from ..dims import SYSTEM
from ..errors import ScoreDataError
from ..mapping import fold_topics, maps_extra_dims, unfold_topics
from ..models._base import Model
from ..models.reference import fit_reference
from ..models.registry import instantiate
from ..score_cube import check_same_collection, extra_dims_of, validate

__all__ = ["standardize"]


@maps_extra_dims("scores", "reference", vectorized=True)
def standardize(
    scores: Any,
    model: str | type[Model] | Model = "empirical",
    *,
    reference: Any = None,
    dim: str = SYSTEM,
    degenerate: Degenerate = "unstandardized",
    cross_collection: bool = False,
    **model_kwargs: Any,
) -> xr.DataArray:
    """Standardize scores per topic through the cdf of a model fitted on reference systems.

    Every standardization is ``y = F̂(x)`` where ``F̂`` estimates the topic's score
    distribution across a population of systems (Urbano, Lima & Hanjalic 2019, §2):
    ``"normal"`` is N-std (Webber et al. 2008), ``"uniform"`` U-std (Sakai 2016,
    ``A=0.15``, ``B=0.5``, censored to [0, 1]), ``"empirical"`` E-std (Urbano et al.
    2019), ``"z"`` the unbounded z-score; ``"beta"``, ``"kde"`` and ``"truncnorm"``
    fit bounded families on [0, 1].

    Parameters
    ----------
    scores : xarray.DataArray
        A cube or 2-D ``(topic, system)`` array; every system is standardized,
        including systems the reference never saw.
    model : str, Model subclass or Model instance
        A name from :func:`scorestd.models.model_names`, or a model of your own.
    reference : xarray.DataArray, xarray.Dataset or FittedModel, optional
        The standardization systems the model is fitted on (default: ``scores``
        itself); or parameters, e.g. factors read with :func:`scorestd.read_factors`;
        or an already fitted model. It must cover every topic and measure of
        ``scores``.
    dim : {"system"}
        The dim the model is fitted across.
    degenerate : {"unstandardized", "nan", "raise"}
        What to do with a topic whose reference systems all score the same (or that
        has a single reference score), e.g. a P@10 topic with no relevant document
        retrieved by anyone. ``"unstandardized"`` (default) leaves such a topic
        unstandardized: the location-scale models (z, normal, uniform) take μ=0, σ=1,
        as the published reference code does, so z-std gives the raw score, N-std
        ``Φ(x)``, U-std ``clip(A x + B, 0, 1)``; the models without location and scale
        (empirical, beta, kde, truncnorm, beta1, nkde, bkde) give the raw score ``x``,
        clipped to [0, 1]. ``"nan"`` makes the topic's standardized scores ``NaN``;
        ``"raise"`` raises. The first two emit a
        :class:`~scorestd.errors.ScorestdWarning` naming the topics and saying which.
    cross_collection : bool
        Allow a ``reference`` whose ``attrs["collection"]`` differs from that of
        ``scores``. By default that is an error: the reference is fitted topic by topic,
        and topic labels (``t01`` … in every bundled collection) cannot tell two
        collections apart.
    **model_kwargs
        Options of the model, e.g. ``A=0.2`` for ``"uniform"`` or ``ties="mid"`` for
        ``"empirical"``.

    Returns
    -------
    xarray.DataArray
        Standardized scores with the dims, coordinates and attrs of ``scores`` (a 2-D
        input gives a 2-D result); ``attrs["standardization"]`` names the model and
        ``standardization_<option>`` its options. ``NaN`` scores stay ``NaN``; ``NaN``
        reference scores are skipped when fitting.

    Raises
    ------
    ScoreDataError
        If the reference lacks a topic or measure of ``scores``, has no score for a
        topic, or a bounded model gets a score outside [0, 1] (the message names the
        topic, system and measure).
    ScorestdError
        For an unknown model name (the message lists the registered models).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> e = standardize(ap)                        # E-std on the collection itself
    >>> float(e.mean())                            # uniform by design: mean close to 1/2
    0.5...
    >>> n = standardize(ap, "normal", reference=ap.isel(system=slice(0, 50)))
    >>> n.attrs["standardization"], n.sizes["system"]
    ('normal', 129)
    """
    check_option(dim, (SYSTEM,), "dim")
    check_option(degenerate, Degenerate, "degenerate")
    cross_collection = check_flag("cross_collection", cross_collection)
    extra = extra_dims_of(scores) if isinstance(scores, xr.DataArray) else ()
    if extra and (reference is None or _same_extra_dims(reference, scores)):
        # every topic of every slice is fitted on its own: one pass over the folded rows
        cube = validate(scores, copy=False, extra_dims=True)
        folded_reference = None if reference is None else fold_topics(
            validate(reference, what="reference", copy=False, extra_dims=True))
        out = standardize(fold_topics(cube), model, reference=folded_reference,
                          degenerate=degenerate, cross_collection=cross_collection,
                          **model_kwargs)
        return unfold_topics(out, cube)
    if reference is None:  # fitted on the scores themselves, in one pass where it can
        instance = instantiate(model, **model_kwargs)
        return _record_model(instance.standardize(scores, degenerate=degenerate), instance,
                             scores)
    check_same_collection(scores, reference, what="reference", allowed=cross_collection)
    fitted = fit_reference(reference, model, degenerate=degenerate, **model_kwargs)
    return _record_model(fitted.cdf(scores), fitted.model, scores)  # broadcast over extra dims


def _same_extra_dims(reference: Any, scores: xr.DataArray) -> bool:
    """Whether ``reference`` is a cube with the extra dims (and labels) of ``scores``;
    a reference without extra dims is fitted once and applied to every slice."""
    if not isinstance(reference, xr.DataArray) or not extra_dims_of(reference):
        return False
    extra = extra_dims_of(scores)
    if set(extra_dims_of(reference)) != set(extra) or any(
            not reference.indexes[d].equals(scores.indexes[d]) for d in extra
            if d in reference.indexes and d in scores.indexes):
        raise ScoreDataError(f"the reference's extra dims {extra_dims_of(reference)} (or "
                             f"their labels) differ from the scores' {extra}")
    return True


def _record_model(out: xr.DataArray, model: Model, scores: Any) -> xr.DataArray:
    options = {f"standardization_{k}": v for k, v in model.options.items()}
    out.attrs = {**getattr(scores, "attrs", {}), "standardization": model.name, **options}
    return out
