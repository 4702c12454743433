"""Scoring schemes compared by the experiments: raw scores and standardization models.

A scheme is ``"raw"`` (the scores as they are) or a standardization model: the short
names of Urbano et al. (2019) — ``"z"`` (z-std), ``"N"`` (N-std), ``"U"`` (U-std),
``"E"`` (E-std) — or the name of any model registered with
:func:`scorestd.models.register_model`. Experiments keep the name given as the label of
their ``scheme`` coordinate.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import xarray as xr

from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScorestdError

__all__ = ["RAW", "URBANO2019_SCHEMES", "model_name", "standardized_stack"]

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
    from ..models import get_model

    name = ALIASES.get(scheme, scheme)
    try:
        get_model(name)
    except (KeyError, ValueError, ScorestdError) as exc:
        raise ScorestdError(
            f"unknown scheme {scheme!r}: use 'raw', one of {sorted(ALIASES)} or a "
            f"registered model name ({exc})"
        ) from exc
    return name


def check_schemes(schemes: Sequence[str]) -> tuple[str, ...]:
    """Validate a list of scheme names (non-empty, no repeats, each known)."""
    if isinstance(schemes, str):
        schemes = (schemes,)
    schemes = tuple(schemes)
    if not schemes:
        raise ScorestdError("schemes must name at least one scheme")
    if len(set(schemes)) != len(schemes):
        raise ScorestdError(f"schemes repeat a name: {list(schemes)}")
    for s in schemes:
        model_name(s)
    return schemes


def standardized_stack(cube: xr.DataArray, schemes: Sequence[str]) -> np.ndarray:
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

    Examples
    --------
    >>> import scorestd
    >>> c = scorestd.datasets.load("adhoc8_ap")
    >>> standardized_stack(c, ["raw", "E"]).shape
    (2, 50, 129)
    """
    from .. import standardize

    layers = []
    for scheme in schemes:
        name = model_name(scheme)
        layer = cube if name is None else standardize(cube, model=name)
        layer = layer.isel({MEASURE: 0}).transpose(TOPIC, SYSTEM)
        layers.append(np.asarray(layer.values, dtype=np.float64))
    return np.stack(layers)


def scheme_kernel(scheme: str):
    """The numpy kernel ``f(x, ref)`` standardizing ``x`` per topic against ``ref``.

    Used where the standardization systems change from trial to trial (the smoothing
    experiment). ``None`` for raw scores.

    Raises
    ------
    ScorestdError
        If the scheme has no reference-based kernel (only z, N, U and E have one).

    Examples
    --------
    >>> scheme_kernel("raw") is None
    True
    """
    if scheme == RAW:
        return None
    from ..kernels import standardize as k

    kernels = {
        "z": k.zscore,
        "normal": k.normal_cdf,
        "uniform": lambda x, ref: k.uniform_cdf(x, ref, 0.15, 0.5),  # Sakai's A and B
        "empirical": k.ecdf,
    }
    name = ALIASES.get(scheme, scheme)
    if name not in kernels:
        raise ScorestdError(
            f"scheme {scheme!r} has no per-trial standardization kernel; use 'raw' or one "
            f"of {sorted(ALIASES)}"
        )
    return kernels[name]
