"""Labelled helpers shared by the significance and multiple-comparison functions:
checking a cube for pairwise tests, choosing the system pairs, running a
pairwise kernel with ``xr.apply_ufunc`` and labelling the ``pair`` dim."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import xarray as xr

from .._options import NanPolicy, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..kernels.paired import pair_indices
from ..score_cube import cell_label, first_cell

PAIR = "pair"
SYSTEM2 = "system2"


def check_pairwise_cube(cube: xr.DataArray, *, nan_policy: str = "omit") -> None:
    """At least 2 topics and 2 systems; under ``nan_policy="raise"`` no NaN (named)."""
    check_option(nan_policy, NanPolicy, "nan_policy")
    if cube.sizes[TOPIC] < 2:
        raise ScoreDataError(f"pairwise tests need at least 2 topics, got {cube.sizes[TOPIC]}")
    if cube.sizes[SYSTEM] < 2:
        raise ScoreDataError(f"pairwise tests need at least 2 systems, got {cube.sizes[SYSTEM]}")
    if nan_policy == "raise":
        raise_on_nan(cube, "nan_policy='raise'")


def raise_on_nan(cube: xr.DataArray, why: str) -> None:
    """Raise ScoreDataError naming the first missing score of a cube."""
    missing = np.isnan(cube.transpose(TOPIC, SYSTEM, MEASURE).values)
    if missing.any():
        raise ScoreDataError(
            f"missing score at {cell_label(cube, *first_cell(missing))} ({why}; "
            f"{int(missing.sum())} missing in all)"
        )


def system_pairs(systems: Sequence[str], baseline: str | None = None):
    """Index arrays (i, j) and labels: all pairs i < j, or every system against ``baseline``."""
    systems = [str(s) for s in systems]
    if baseline is None:
        i, j = pair_indices(len(systems))
    else:
        if str(baseline) not in systems:
            shown = ", ".join(repr(s) for s in systems[:10]) + (", …" if len(systems) > 10 else "")
            raise ScoreDataError(f"baseline {baseline!r} is not a system (systems: {shown})")
        b = systems.index(str(baseline))
        i = np.array([k for k in range(len(systems)) if k != b], dtype=np.intp)
        j = np.full(i.shape, b, dtype=np.intp)
    return i, j


def pair_coords(systems: Sequence[str], i: np.ndarray, j: np.ndarray) -> dict:
    """Coordinates of the ``pair`` dim: a ``"a vs b"`` label and the two systems."""
    systems = np.asarray(systems, dtype=str)
    first, second = systems[i], systems[j]
    # python strings: formatting numpy string scalars one by one costs ten times more
    labels = [f"{a} vs {b}" for a, b in zip(first.tolist(), second.tolist(), strict=True)]
    return {PAIR: labels, SYSTEM: (PAIR, first), SYSTEM2: (PAIR, second)}


def apply_pairwise(
    cube: xr.DataArray, kernel: Callable, fields: Sequence[str], n_pairs: int
) -> xr.Dataset:
    """Run ``kernel(x)`` ((..., T, S) → tuple of (..., P) arrays) on a cube.

    One ``xr.apply_ufunc`` call with one output per field (topics and systems are core
    dims, so it works on dask-backed cubes too); the outputs become the named variables of
    a Dataset.
    """

    def as_float(x):
        return tuple(np.asarray(v, dtype=float) for v in kernel(x))

    out = xr.apply_ufunc(
        as_float,
        cube,
        input_core_dims=[[TOPIC, SYSTEM]],
        output_core_dims=[[PAIR]] * len(fields),
        dask="parallelized",
        output_dtypes=[float] * len(fields),
        dask_gufunc_kwargs={"output_sizes": {PAIR: n_pairs}, "allow_rechunk": True},
    )
    return xr.Dataset(dict(zip(fields, out, strict=True)))


DESCRIBE_FIELDS = ("mean_diff", "ci_low", "ci_high", "effect_size", "glass_delta", "n")

