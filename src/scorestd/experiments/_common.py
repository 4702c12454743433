"""Pieces the experiment modules share: batch array helpers and parameter docs."""

from __future__ import annotations

import os
import re
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import xarray as xr

from ..kernels.aggregate import aggregate_kernel
from ..kernels.correlation import pearson, rank_agreement
from ..kernels.workspace import workspace

#: The statistics of :func:`ranking_agreement`, in the order the results list them.
AGREEMENT = ("tau_b", "tau_ap_b", "pearson")

#: Parameter descriptions every experiment function documents the same way.
_PARAMETER_DOCS = {
    "scores": """\
scores : array_like or xarray.DataArray
    A score cube (or 2-D topic × system array) without missing scores.
measure : str, optional
    The measure to use when the cube has several.""",
    "scheme_options": """\
scheme_options : mapping, optional
    Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` for U-std with
    another slope and intercept (see :func:`scorestd.models.schemes.check_schemes`).""",
    "seed": """\
seed : int, numpy.random.SeedSequence or Generator
    Root seed; trial ``k`` depends only on ``(seed, k)``. A ``SeedSequence`` is copied,
    never advanced; a ``Generator`` gives 128 bits of entropy. ``attrs["seed"]`` records
    what reproduces the run.""",
    "engine": """\
batch_size, memory, progress, client
    See :func:`scorestd.experiments.engine.run_batches`.""",
    "figure": """\
path : str or path-like, optional
    Also save the figure there.
**kwargs
    Passed to :func:`matplotlib.pyplot.subplots`.""",
}

_MARKER = re.compile(r"^( *)\{(" + "|".join(_PARAMETER_DOCS) + r")\}$", flags=re.MULTILINE)

F = TypeVar("F", bound=Callable)


def shared_parameters(func: F) -> F:
    """Replace the ``{scores}``, ``{scheme_options}``, ``{seed}``, ``{engine}`` and ``{figure}``
    lines of a docstring.

    Each marker stands alone on its line and is replaced, at its indentation, by the
    description of the parameters every experiment shares.
    """
    func.__doc__ = _MARKER.sub(
        lambda m: textwrap.indent(_PARAMETER_DOCS[m.group(2)], m.group(1)), func.__doc__
    )
    return func


def topic_subsets(stack: np.ndarray, topics: np.ndarray) -> np.ndarray:
    """The ``(scheme, topic, system)`` stack on each trial's topics.

    ``topics`` is ``(batch, n)``; the result is ``(batch, scheme, n, system)``.
    """
    return np.moveaxis(stack[:, topics], 0, 1)


def scheme_subsets(stack: np.ndarray, topics: np.ndarray, name: str = "subsets") -> np.ndarray:
    """The ``(scheme, topic, system)`` stack on each trial's topics, scheme first.

    ``topics`` is ``(batch, n)``; the result is a contiguous ``(scheme, batch, n, system)``
    array in a reused buffer of the :mod:`~scorestd.kernels.workspace` (valid until the
    next call with the same ``name``).
    """
    out = workspace().array(name, (stack.shape[0], *topics.shape, stack.shape[-1]))
    return np.take(stack, topics, axis=1, out=out)


def subset_bytes(stack: np.ndarray, n_topics: int, copies: float) -> int:
    """Bytes of ``copies`` float64 arrays of one trial's ``(scheme, n_topics, system)``
    scores: the memory of a batch that grows with its trials."""
    return int(copies * 8 * stack.shape[0] * n_topics * stack.shape[-1])


def topic_means(x: np.ndarray) -> np.ndarray:
    """Mean score of every system over the topics (axis -2 of ``(..., topic, system)``)."""
    return aggregate_kernel(x, "am", axis=-2)


def agreement_summary(
    data: xr.Dataset, rates: dict[str, str], alphas: Sequence[float], *, compared: str
) -> pd.DataFrame:
    """Means over trials of the ranking agreement and of each rate at ``alphas``.

    One row per scheme, in the order of ``data``; a rate's columns are ``"{rate}@{α}"``
    with the α of ``data`` nearest to each of ``alphas``. ``rates`` maps each rate to
    what it is (completed by "at α = …"), ``compared`` says which rankings the
    correlations compare; ``attrs["columns"]`` holds the legend.
    """
    means = data.mean("trial")
    frame = means[list(AGREEMENT)].to_dataframe()
    legend = {"tau_b": f"Kendall τ_b of {compared}",
              "tau_ap_b": f"τ_AP,b (top-weighted Kendall) of {compared}",
              "pearson": f"Pearson r of {compared}"}
    for rate, meaning in rates.items():
        for a in alphas:
            nearest = float(means["alpha"].sel(alpha=a, method="nearest"))
            frame[f"{rate}@{a:g}"] = means[rate].sel(alpha=a, method="nearest").to_series()
            legend[f"{rate}@{a:g}"] = f"{meaning} at α = {nearest:g}"
    frame = frame.loc[list(data["scheme"].values)]
    frame.attrs["columns"] = {**legend, "(all)": f"means over {data.sizes['trial']} trials"}
    return frame


def ranking_agreement(x: np.ndarray, reference: np.ndarray) -> dict[str, np.ndarray]:
    """Kendall τ_b, τ_AP,b and Pearson r of the system scores ``x`` against ``reference``.

    ``reference`` broadcasts against ``x``; one reference shared by several rows of
    ``x`` (size 1 along their axes) is compared once (:func:`rank_agreement`).
    """
    taus = rank_agreement(x, reference)
    return {
        "tau_b": taus.tau_b,
        "tau_ap_b": taus.tau_ap_b,
        "pearson": pearson(x, np.broadcast_to(reference, x.shape)),
    }


def collection_from(source: Any) -> tuple[str | None, Any]:
    """``(name, cube)`` for a study's collection given as a cube, a simulator, a score file
    or a bundled dataset name; the name is the file's stem or the dataset's name (``None``
    for an object, whose ``attrs`` say what it is).

    Examples
    --------
    >>> name, cube = collection_from("adhoc8_ap")
    >>> name, cube.sizes["system"]
    ('adhoc8_ap', 129)
    """
    if isinstance(source, str | os.PathLike):
        from ..io.formats import load

        return collection_name(source), named_collection(load(source), source)
    return None, source


def collection_name(source: str | os.PathLike) -> str:
    """The name of a collection read from ``source``: a bundled dataset's name, a file's
    (or folder's) stem.

    Examples
    --------
    >>> collection_name("adhoc8_ap"), collection_name("results/sims.nc")
    ('adhoc8_ap', 'sims')
    """
    path = Path(source)
    return str(source) if isinstance(source, str) and not path.exists() and not path.suffix \
        else path.stem


def named_collection(cube: Any, source: str | os.PathLike) -> Any:
    """``cube`` read from ``source``, its ``collection`` attr set to
    :func:`collection_name` where it has none (an experiment's results say what they ran
    on)."""
    if "collection" not in cube.attrs:
        cube.attrs["collection"] = collection_name(source)
    return cube
