"""Fitted models as netCDF files: a reference population fitted once, applied anywhere."""

from __future__ import annotations

import os
from pathlib import Path
from typing import get_args

import numpy as np
import xarray as xr

from .._options import Degenerate
from ..errors import ScoreDataError
from ..io.atomic import atomic_netcdf
from ..io.paths import check_output_path
from ._base import FittedModel
from .registry import get_model

__all__ = ["read_fitted", "write_fitted"]


def write_fitted(fitted: FittedModel, path: str | os.PathLike) -> Path:
    """Write a fitted model's parameters, name and options to a netCDF file.

    Parameters
    ----------
    fitted : FittedModel
        E.g. ``get_model("empirical").fit(reference)``.
    path : str or os.PathLike
        The netCDF file to write (``.nc``), whole or not at all: an error or Ctrl-C
        leaves the previous file as it was.

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import pathlib, tempfile, scorestd
    >>> from scorestd.models import get_model
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> fitted = get_model("uniform")(A=0.2).fit(ap.isel(system=slice(0, 60)))
    >>> path = write_fitted(fitted, pathlib.Path(tempfile.mkdtemp()) / "reference.nc")
    >>> read_fitted(path).model
    Uniform(A=0.2, B=0.5)
    """
    path = check_output_path(path, "netcdf")
    params = fitted.params.copy()
    # The options of this fit win over any copied from the parameters it was built from.
    params.attrs = {**params.attrs, "model": fitted.name,
                    **{k: v for k, v in fitted.model.options.items() if v is not None}}
    return atomic_netcdf(params, path)


def read_fitted(path: str | os.PathLike) -> FittedModel:
    """Read a fitted model written by :func:`write_fitted` (or ``params.to_netcdf``).

    The model is looked up by the name in the file (a model of your own must be
    registered first), with the options and the degenerate-topic policy it was
    fitted with.

    Parameters
    ----------
    path : str or os.PathLike
        The netCDF file.

    Returns
    -------
    FittedModel
        Ready to apply: ``read_fitted(path).cdf(new_runs)`` or
        ``scorestd.standardize(new_runs, reference=read_fitted(path))``.

    Raises
    ------
    ScoreDataError
        If the file names no model or the model's parameters are missing (the message
        names the file).
    ScorestdError
        If the model it names is not registered.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> fitted = scorestd.models.get_model("uniform")(A=0.2).fit(ap)
    >>> path = write_fitted(fitted, pathlib.Path(tempfile.mkdtemp()) / "u.nc")
    >>> back = read_fitted(path)
    >>> back.model, bool((back.cdf(ap) == fitted.cdf(ap)).all())
    (Uniform(A=0.2, B=0.5), True)
    """
    with xr.open_dataset(path) as opened:
        params = opened.load()
    name = params.attrs.get("model")
    if not isinstance(name, str):
        raise ScoreDataError("not a fitted model: no 'model' attribute", path=path)
    cls = get_model(name)
    # (netCDF gives numbers back as numpy scalars: plain Python values, as the user gave)
    options = {k: np.asarray(params.attrs[k]).item() for k in cls.defaults()
               if k in params.attrs}
    policy = params.attrs.get("degenerate_policy", "unstandardized")
    if policy not in get_args(Degenerate):
        raise ScoreDataError(f"unknown degenerate_policy {policy!r}", path=path)
    try:
        return cls(**options).from_params(params, degenerate=policy)
    except ScoreDataError as error:
        raise ScoreDataError(error.message, path=path) from None
