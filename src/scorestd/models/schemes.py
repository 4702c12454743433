"""Scoring schemes compared by the experiments: raw scores and standardization models.

A scheme is ``"raw"`` (the scores as they are) or a standardization model: the short
names of Urbano et al. (2019) — ``"z"`` (z-std), ``"N"`` (N-std), ``"U"`` (U-std),
``"E"`` (E-std) — or the name of any model registered with
:func:`scorestd.models.register_model`, including a user's own. Experiments keep the name
given as the label of their ``scheme`` coordinate. Every scheme standardizes through its
registered model (:meth:`~scorestd.models.Model.standardize`,
:meth:`~scorestd.models.Model.transform`), so model options such as U-std's ``A`` and
``B`` pass through ``options``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScorestdError
from ._base import Model
from .registry import get_model, instantiate

__all__ = ["RAW", "URBANO2019_SCHEMES", "model_name", "scheme_kernel", "scheme_model",
           "standardized_stack"]

RAW = "raw"

#: The paper's short scheme names and the models behind them.
ALIASES = {"z": "z", "N": "normal", "U": "uniform", "E": "empirical"}

#: The five schemes of Urbano, Lima & Hanjalic (2019).
URBANO2019_SCHEMES = ("raw", "z", "N", "U", "E")


def model_name(scheme: str) -> str | None:
    """The registered model behind ``scheme`` (``None`` for raw scores).

    Raises
    ------
    ScorestdError
        If ``scheme`` is neither ``"raw"``, a short name nor a registered model.

    Examples
    --------
    >>> model_name("E"), model_name("raw")
    ('empirical', None)
    """
    if scheme == RAW:
        return None
    name = ALIASES.get(scheme, scheme)
    try:
        get_model(name)
    except (KeyError, ValueError, ScorestdError) as exc:
        raise ScorestdError(
            f"unknown scheme {scheme!r}: use 'raw', one of {sorted(ALIASES)} or a "
            f"registered model name ({exc})"
        ) from exc
    return name


def check_schemes(schemes: Sequence[str],
                  options: Mapping[str, Mapping[str, Any]] | None = None) -> tuple[str, ...]:
    """Validate a list of scheme names (non-empty, no repeats, each known) and their options.

    ``options`` maps a scheme of ``schemes`` to the options of its model (e.g.
    ``{"U": {"A": 0.2, "B": 0.5}}``); a scheme it does not name, or an option its model
    does not have, is an error.

    Examples
    --------
    >>> check_schemes(["raw", "U"], {"U": {"A": 0.2}})
    ('raw', 'U')
    >>> check_schemes(["raw", "U"], {"N": {"A": 0.2}})
    Traceback (most recent call last):
    ...
    scorestd.errors.ScorestdError: scheme_options names schemes that are not in schemes: ['N']
    """
    if isinstance(schemes, str):
        schemes = (schemes,)
    schemes = tuple(schemes)
    if not schemes:
        raise ScorestdError("schemes must name at least one scheme")
    if len(set(schemes)) != len(schemes):
        raise ScorestdError(f"schemes repeat a name: {list(schemes)}")
    for s in schemes:
        model_name(s)
    unknown = sorted(set(options or {}) - set(schemes))
    if unknown:
        raise ScorestdError(f"scheme_options names schemes that are not in schemes: {unknown}")
    for s in options or {}:
        if model_name(s) is None:
            raise ScorestdError(f"scheme {s!r} (raw scores) takes no options")
        scheme_model(s, options)  # an option the model does not have is a TypeError
    return schemes


def standardized_stack(cube: xr.DataArray, schemes: Sequence[str],
                       options: Mapping[str, Mapping[str, Any]] | None = None) -> np.ndarray:
    """Scores of one measure under every scheme, as a ``(scheme, topic, system)`` array.

    Standardization is fitted per topic on all systems of ``cube`` (the paper's
    "standardization systems" are the systems in the collection), so a topic subset
    of the standardized cube equals standardizing that subset.

    Parameters
    ----------
    cube : xarray.DataArray
        A validated cube with a single measure.
    schemes : sequence of str
        Scheme names (see the module docstring).
    options : mapping, optional
        Scheme name → options of its model (e.g. ``{"U": {"A": 0.2}}``).

    Examples
    --------
    >>> import scorestd
    >>> c = scorestd.datasets.load("adhoc8_ap")
    >>> standardized_stack(c, ["raw", "E"]).shape
    (2, 50, 129)
    """
    layers = []
    for scheme in schemes:
        model = scheme_model(scheme, options)
        layer = cube if model is None else model.standardize(cube)
        layer = layer.isel({MEASURE: 0}).transpose(TOPIC, SYSTEM)
        layers.append(np.asarray(layer.values, dtype=np.float64))
    return np.stack(layers)


def scheme_model(scheme: str, options: Mapping[str, Mapping[str, Any]] | None = None
                 ) -> Model | None:
    """The model instance behind ``scheme`` with its ``options`` (``None`` for raw scores).

    Examples
    --------
    >>> scheme_model("U", {"U": {"A": 0.2}})
    Uniform(A=0.2, B=0.5)
    >>> scheme_model("raw") is None
    True
    """
    name = model_name(scheme)
    if name is None:
        return None
    return instantiate(name, **dict((options or {}).get(scheme, {})))


def scheme_kernel(scheme: str, options: Mapping[str, Mapping[str, Any]] | None = None
                  ) -> Callable[[np.ndarray, np.ndarray], np.ndarray] | None:
    """The numpy function ``f(x, ref)`` standardizing ``x`` per row against ``ref``.

    Used where the standardization systems change from trial to trial (the smoothing
    experiment): the registered model's :meth:`~scorestd.models.Model.transform`, so any
    model works. ``None`` for raw scores.

    Examples
    --------
    >>> import numpy as np
    >>> scheme_kernel("raw") is None
    True
    >>> scheme_kernel("N")(np.array([[0.3]]), np.array([[0.1, 0.3, 0.5]])).tolist()
    [[0.5]]
    """
    model = scheme_model(scheme, options)
    if model is None:
        return None
    return lambda x, ref: model.transform(ref, x)
