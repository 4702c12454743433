"""Labelled helpers shared by the significance and multiple-comparison functions:
checking a cube for pairwise tests, choosing the system pairs, running a
pairwise kernel with ``xr.apply_ufunc`` and labelling the ``pair`` dim."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._options import NanPolicy, check_option
from ..dims import MEASURE, SYSTEM, TOPIC
from ..errors import ScoreDataError
from ..kernels.paired import pair_indices
from ..score_cube import cell_label, extra_dims_of, first_cell

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
    cube = cube.transpose(*extra_dims_of(cube), TOPIC, SYSTEM, MEASURE)
    missing = np.isnan(cube.values)
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
    """Coordinates of the ``pair`` dim: a ``"a vs b"`` label and the two systems.

    The labels and their index are built once per set of systems and pairs (and kept
    for the next call on them: they cost more than the tests of a few thousand pairs).
    """
    systems = tuple(str(s) for s in systems)
    i, j = np.asarray(i, dtype=np.intp), np.asarray(j, dtype=np.intp)
    return dict(_pair_coords(systems, i.tobytes(), j.tobytes()))


@functools.lru_cache(maxsize=16)
def _pair_coords(systems: tuple[str, ...], i: bytes, j: bytes) -> tuple:
    names = np.asarray(systems, dtype=str)
    first = names[np.frombuffer(i, dtype=np.intp)]
    second = names[np.frombuffer(j, dtype=np.intp)]
    labels = pd.Index(np.strings.add(np.strings.add(first, " vs "), second), name=PAIR)
    for array in (first, second):
        array.flags.writeable = False
    return ((PAIR, labels), (SYSTEM, (PAIR, first)), (SYSTEM2, (PAIR, second)))


def apply_pairwise(
    cube: xr.DataArray, kernel: Callable, fields: Sequence[str], n_pairs: int,
    coords: dict | None = None, integers: Sequence[str] = (),
) -> xr.Dataset:
    """Run ``kernel(x)`` ((..., T, S) → tuple of (..., P) arrays) on a cube.

    The outputs become the named variables of a Dataset over ``measure`` × ``pair``
    (float64, int64 for the fields named in ``integers``), with the ``pair``
    coordinates ``coords`` (:func:`pair_coords`). A numpy-backed cube goes to the
    kernel directly, its extra dims (``trial`` …) and measures as the kernel's leading
    batch axes; a dask-backed one through one ``xr.apply_ufunc`` call with one output
    per field (topics and systems are core dims).
    """

    def as_float(x):
        return tuple(np.asarray(v, dtype=float) for v in kernel(x))

    if not type(cube.data).__module__.startswith("dask"):
        batch = (*extra_dims_of(cube), MEASURE)
        x = np.asarray(cube.transpose(*batch, TOPIC, SYSTEM).data)
        outputs = as_float(x)
        keep = {name: c for name, c in cube.coords.items() if set(c.dims) <= set(batch)}
        # the cube's coordinates first, as apply_ufunc orders them (to_dataframe's columns)
        return xr.Dataset(
            {**keep, **{name: ((*batch, PAIR), v.astype(np.int64) if name in integers else v)
                        for name, v in zip(fields, outputs, strict=True)}},
            coords=coords or {}).set_coords(list(keep))
    out = xr.apply_ufunc(
        as_float,
        cube,
        input_core_dims=[[TOPIC, SYSTEM]],
        output_core_dims=[[PAIR]] * len(fields),
        dask="parallelized",
        output_dtypes=[float] * len(fields),
        dask_gufunc_kwargs={"output_sizes": {PAIR: n_pairs}, "allow_rechunk": True},
    )
    res = xr.Dataset({name: v.astype(np.int64) if name in integers else v
                      for name, v in zip(fields, out, strict=True)})
    return res.assign_coords(coords) if coords else res


DESCRIBE_FIELDS = ("mean_diff", "ci_low", "ci_high", "effect_size", "glass_delta", "n")

