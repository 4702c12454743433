"""What a standardization is fitted on: reference scores, parameters or a fitted model."""

from __future__ import annotations

from typing import Any

import xarray as xr

from .._options import Degenerate, check_option
from ..mapping import fold_topics, maps_extra_dims, unfold_topic_dataset
from ..score_cube import extra_dims_of, validate
from ._base import FittedModel, Model
from .registry import instantiate

__all__ = ["fit_reference"]


@maps_extra_dims(vectorized=True)
def fit_reference(reference: Any, model: str | type[Model] | Model = "empirical", *,
                  degenerate: Degenerate = "unstandardized", **options: Any) -> FittedModel:
    """The fitted model a reference stands for, whatever form it comes in.

    Parameters
    ----------
    reference : xarray.DataArray, xarray.Dataset or FittedModel
        Reference scores (the model is fitted on them; with extra dims, ``trial`` …, each
        slice's topics on their own: the parameters keep the extra dims, and the cdf of
        scores with the same extra dims applies each slice's fit to its slice), the
        model's parameters (e.g.
        factors read with :func:`scorestd.read_factors`) or an already fitted model
        (returned as it is; ``model`` and ``options`` must then not be given).
    model : str, Model subclass or Model instance
        The model, as in :func:`scorestd.standardize`.
    degenerate : {"unstandardized", "nan", "raise"}
        The degenerate-topic policy, as in :func:`scorestd.standardize`.
    **options
        Options of the model.

    Returns
    -------
    FittedModel

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> fitted = fit_reference(ap, "normal")
    >>> fit_reference(fitted) is fitted
    True
    >>> again = fit_reference(fitted.params, "normal")
    >>> bool((again.cdf(ap) == fitted.cdf(ap)).all())
    True
    """
    check_option(degenerate, Degenerate, "degenerate")
    if isinstance(reference, FittedModel):
        if options:
            raise TypeError("model options cannot be given with an already fitted reference")
        return reference
    instance = instantiate(model, **options)
    if isinstance(reference, xr.Dataset):
        return instance.from_params(reference, degenerate=degenerate)
    if isinstance(reference, xr.DataArray) and extra_dims_of(reference):
        # every topic of every slice is fitted on its own: one fit over the folded rows
        cube = validate(reference, what="reference", copy=False, extra_dims=True)
        folded = instance.fit(fold_topics(cube), degenerate=degenerate)
        return FittedModel(instance, unfold_topic_dataset(folded.params, cube))
    return instance.fit(reference, degenerate=degenerate)
