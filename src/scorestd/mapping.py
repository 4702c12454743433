"""Functions of one collection mapped over the extra dims of a cube.

A cube may carry dims besides ``topic``, ``system`` and ``measure``: the ``trial`` of a
simulated collection, a ``collection``, a ``fold``. A public function marked with
:func:`maps_extra_dims` accepts such a cube and returns its result with those dims kept
(first, in their order), equal to calling it on each slice.

Two routes lead there:

- ``vectorized=True``: the function itself works on the whole cube, its labelled
  operations broadcasting over the extra dims (``xarray.apply_ufunc`` with ``topic``/
  ``system`` as core dims feeds them to the batch-first kernels as leading axes); the
  decorator only records that the function maps.
- otherwise the decorator stacks the extra dims into one and calls the function on each
  slice, then joins the results (a DataArray or Dataset along the extra dims, a
  DataFrame with the extra dims as leading index levels, any other object — a fitted
  simulator, a Bayesian fit, an experiment's result, a figure — in a
  :class:`~scorestd.PerSlice` keyed by the slice labels). This is for the functions whose
  work per slice (fitting models, building tables, simulating) dwarfs the loop.

:data:`MAPPED` records which public functions map, for the documentation and the test
that every function taking a cube says what it does with extra dims.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd
import xarray as xr

from .dims import MEASURE, SYSTEM, TOPIC
from .errors import OptionError
from .score_cube import extra_dims_of

__all__ = ["MAPPED", "PerSlice", "check_shared_extra_dims", "fold_topics", "map_slices",
           "maps_extra_dims", "name_slice", "slice_labels", "unfold_topic_dataset", "unfold_topics"]

F = TypeVar("F", bound=Callable[..., Any])

#: Name of a mapped function → ``"vectorized"`` or ``"per slice"``.
MAPPED: dict[str, str] = {}

_SLICE = "__slice__"


_SHOWN = 6  # slices listed by repr before "…"


class PerSlice(Mapping):
    """The results of a function of one collection on every slice of a cube's extra dims.

    Keys are the slice labels: the label itself for one extra dim (``sims.trial`` values),
    a tuple of labels in the order of :attr:`dims` for several. :meth:`sel` selects by dim
    name. ``scorestd.table`` of a ``PerSlice`` stacks the table of each result, one block
    of rows per slice.

    Parameters
    ----------
    dims : sequence of hashable
        The extra dims, in the order of the cube.
    results : mapping
        Slice labels (as the keys above) → result on that slice.
    function : str
        The function that made the results (named by the repr).

    Examples
    --------
    >>> results = PerSlice(["trial"], {0: "a", 1: "b"}, function="demo")
    >>> results[1], results.sel(trial=0), list(results)
    ('b', 'a', [0, 1])
    >>> results
    PerSlice of demo over trial (2 slices):
      trial=0: 'a'
      trial=1: 'b'
    >>> two = PerSlice(["fold", "trial"], {("x", 0): 1.0, ("x", 1): 2.0})
    >>> two["x", 1], two.sel(fold="x")
    (2.0, PerSlice over trial (2 slices):
      trial=0: 1.0
      trial=1: 2.0)
    """

    def __init__(self, dims: Sequence[Hashable], results: Mapping[Any, Any], *,
                 function: str | None = None) -> None:
        self.dims: tuple[Hashable, ...] = tuple(dims)
        if not self.dims:
            raise ValueError("PerSlice needs at least one extra dim")
        self.function = function
        self._results = dict(results)
        for key in self._results:
            if len(self._key_tuple(key)) != len(self.dims):
                raise ValueError(f"slice key {key!r} does not match the dims {self.dims}")

    def _key_tuple(self, key: Any) -> tuple:
        return key if isinstance(key, tuple) and len(self.dims) > 1 else (key,)

    def __getitem__(self, key: Any) -> Any:
        try:
            return self._results[key]
        except KeyError:
            shown = ", ".join(map(repr, list(self._results)[:_SHOWN]))
            raise KeyError(f"no slice {key!r} over {self._dims_text()} (slices: {shown}"
                           f"{' …' if len(self) > _SHOWN else ''})") from None

    def __iter__(self) -> Iterator[Any]:
        return iter(self._results)

    def __len__(self) -> int:
        return len(self._results)

    def sel(self, labels: Mapping[Hashable, Any] | None = None, **by_dim: Any) -> Any:
        """The result of one slice (every extra dim given), or a ``PerSlice`` over the
        dims not given.

        Examples
        --------
        >>> PerSlice(["trial"], {3: "x"}).sel({"trial": 3})
        'x'
        """
        where = {**(labels or {}), **by_dim}
        unknown = [dim for dim in where if dim not in self.dims]
        if unknown:
            raise KeyError(f"{', '.join(map(repr, unknown))}: not an extra dim of these "
                           f"results ({self._dims_text()})")
        if len(where) == len(self.dims):
            key = tuple(where[dim] for dim in self.dims)
            return self[key if len(key) > 1 else key[0]]
        rest = [k for k, dim in enumerate(self.dims) if dim not in where]
        fixed = {k: where[dim] for k, dim in enumerate(self.dims) if dim in where}
        picked = {}
        for key, value in self._results.items():
            labels_ = self._key_tuple(key)
            if all(labels_[k] == label for k, label in fixed.items()):
                left = tuple(labels_[k] for k in rest)
                picked[left if len(left) > 1 else left[0]] = value
        if not picked:
            raise KeyError(f"no slice at {where}")
        return PerSlice([self.dims[k] for k in rest], picked, function=self.function)

    def map(self, func: Callable[[Any], Any]) -> PerSlice:
        """``func`` applied to the result of every slice, keeping the labels.

        Examples
        --------
        >>> PerSlice(["trial"], {0: 2, 1: 3}).map(lambda x: x * 10)[1]
        30
        """
        return PerSlice(self.dims, {key: func(value) for key, value in self.items()},
                        function=self.function)

    def where(self, key: Any) -> dict[Hashable, Any]:
        """The ``{dim: label}`` of a key, as :meth:`sel` and ``cube.sel`` take it.

        Examples
        --------
        >>> PerSlice(["fold", "trial"], {("x", 0): 1}).where(("x", 0))
        {'fold': 'x', 'trial': 0}
        """
        return dict(zip(self.dims, self._key_tuple(key), strict=True))

    def _dims_text(self) -> str:
        return " × ".join(map(str, self.dims))

    def __repr__(self) -> str:
        head = (f"PerSlice{' of ' + self.function if self.function else ''} over "
                f"{self._dims_text()} ({len(self)} slice{'s' if len(self) != 1 else ''}):")
        lines = [head]
        for key in list(self._results)[:_SHOWN]:
            where = ", ".join(f"{dim}={label!r}" for dim, label in self.where(key).items())
            first = (repr(self._results[key]).splitlines() or [""])[0]
            lines.append(f"  {where}: {first[:90]}{'…' if len(first) > 90 else ''}")
        if len(self) > _SHOWN:
            lines.append(f"  … {len(self) - _SHOWN} more")
        return "\n".join(lines)


def maps_extra_dims(*cubes: str, vectorized: bool = False,
                    one_per_call: Sequence[str] = ()) -> Callable[[F], F]:
    """Mark a function of one collection as mapped over the extra dims of its cubes.

    Parameters
    ----------
    *cubes : str
        Names of the parameters holding cubes (default: the first parameter). When several
        have extra dims, they must have the same ones (with the same labels): slice ``k``
        of each goes to call ``k``; a cube without extra dims goes whole to every call.
    vectorized : bool
        The function maps over extra dims itself (it validates with ``extra_dims=True``);
        otherwise it is called once per slice.
    one_per_call : sequence of str
        Parameters that cannot be shared by the calls of several slices (the ``ax`` a
        figure draws on): given with extra dims, they are an error.

    Examples
    --------
    >>> import xarray as xr
    >>> @maps_extra_dims()
    ... def total(scores):
    ...     return scores.sum(("topic", "system"))
    >>> da = xr.DataArray([[[1.0]], [[2.0]]], dims=("trial", "topic", "system"))
    >>> total(da).values.tolist()
    [1.0, 2.0]
    """

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        names = cubes or (next(iter(signature.parameters)),)
        MAPPED[func.__name__] = "vectorized" if vectorized else "per slice"
        if vectorized:
            func.__extra_dims__ = "vectorized"  # type: ignore[attr-defined]
            return func

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            given = {name: bound.arguments[name] for name in names
                     if isinstance(bound.arguments.get(name), xr.DataArray)}
            extra = _common_extra_dims(given, func.__name__)
            if not extra:
                return func(*args, **kwargs)
            shared = [name for name in one_per_call if bound.arguments.get(name) is not None]
            if shared:
                raise OptionError(
                    f"{func.__name__}: {', '.join(shared)} cannot be shared by the slices of "
                    f"the extra dims {', '.join(map(repr, extra))}; leave it out (one result "
                    "per slice) or select one slice")

            def call(slices: dict[str, xr.DataArray]) -> Any:
                bound.arguments.update(slices)
                return func(*bound.args, **bound.kwargs)

            return map_slices(call, given, extra, function=func.__name__)

        wrapper.__extra_dims__ = "per slice"  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]

    return decorate


def _common_extra_dims(given: dict[str, xr.DataArray], function: str) -> tuple[Hashable, ...]:
    found = {name: extra_dims_of(cube) for name, cube in given.items()}
    shapes = {extra for extra in found.values() if extra}
    if len(shapes) > 1:
        listed = "; ".join(f"{name}: {extra}" for name, extra in found.items())
        raise ValueError(f"{function}: the cubes have different extra dims ({listed}); "
                         "they must share them to be mapped together")
    return next(iter(shapes), ())


def check_shared_extra_dims(cubes: dict[str, xr.DataArray], function: str
                            ) -> tuple[Hashable, ...]:
    """The extra dims the cubes share (with the same labels), for a function mapping over
    them in one call; a cube without extra dims goes whole to every slice.

    Examples
    --------
    >>> import xarray as xr
    >>> a = xr.DataArray(np.zeros((2, 1, 1)), dims=("trial", "topic", "system"))
    >>> check_shared_extra_dims({"x": a, "y": a.isel(trial=0)}, "demo")
    ('trial',)
    """
    extra = _common_extra_dims(cubes, function)
    for dim in extra:
        indexes = [(name, cube.indexes[dim]) for name, cube in cubes.items()
                   if dim in cube.indexes]
        for name, index in indexes[1:]:
            if not index.equals(indexes[0][1]):
                raise ValueError(f"{function}: {name}: its labels on {dim!r} differ from "
                                 f"{indexes[0][0]}'s")
    return extra


def map_slices(call: Callable[[dict[str, xr.DataArray]], Any],
               cubes: dict[str, xr.DataArray], extra: Sequence[Hashable], *,
               function: str | None = None) -> Any:
    """``call`` on each slice of ``cubes`` over the dims ``extra``, the results joined.

    DataArrays and Datasets are joined along the extra dims (placed first); DataFrames and
    Series get the extra dims as leading index levels; scalars become an array over the
    extra dims; any other result (one object per collection) goes into a
    :class:`~scorestd.PerSlice` keyed by the slice labels (``function`` names it).

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray(np.arange(4.0).reshape(2, 2), dims=("fold", "topic"),
    ...                   coords={"fold": ["a", "b"]})
    >>> map_slices(lambda c: c["x"].sum("topic"), {"x": da}, ["fold"]).values.tolist()
    [1.0, 5.0]
    """
    extra = list(extra)
    unlabelled = [dim for dim in extra
                  if not any(dim in cube.coords for cube in cubes.values())]
    stacked = {name: cube.stack({_SLICE: extra}) if set(extra) <= set(cube.dims) else cube
               for name, cube in cubes.items()}
    reference = next(cube for cube in stacked.values() if _SLICE in cube.dims)
    index = reference.indexes[_SLICE]
    for name, cube in stacked.items():
        if _SLICE in cube.dims and not cube.indexes[_SLICE].equals(index):
            raise ValueError(f"{name}: its labels on {extra} differ from the other cubes'")
    results = []
    for k in range(len(index)):
        slices = {name: (cube.isel({_SLICE: k}).drop_vars([_SLICE, *extra], errors="ignore")
                         if _SLICE in cube.dims else cube) for name, cube in stacked.items()}
        results.append(call(slices))
    return _joined(results, index, extra, unlabelled, function)


def _joined(results: list[Any], index: pd.MultiIndex, extra: list[Hashable],
            unlabelled: list[Hashable], function: str | None = None) -> Any:
    first = results[0]
    if isinstance(first, xr.DataArray | xr.Dataset):
        out = xr.concat(results, dim=_SLICE, combine_attrs="override")
        out = out.assign_coords(xr.Coordinates.from_pandas_multiindex(index, _SLICE))
        out = out.unstack(_SLICE)
        out = out.transpose(*extra, ...)
        return out.drop_vars(unlabelled, errors="ignore")
    if isinstance(first, pd.DataFrame | pd.Series):
        keys = list(index) if len(extra) > 1 else [key[0] if isinstance(key, tuple) else key
                                                  for key in index]
        out = pd.concat(results, keys=keys, names=extra)
        out.attrs = dict(first.attrs)
        out.attrs["extra_dims"] = [str(dim) for dim in extra]
        return out
    if isinstance(first, int | float | np.number):  # a scalar per slice (a topic set size …)
        values = np.full([len(level) for level in index.levels], np.nan)
        values[tuple(index.codes)] = results
        return xr.DataArray(values, dims=extra,
                            coords={dim: level for dim, level in zip(extra, index.levels,
                                                                      strict=True)
                                    if dim not in unlabelled})
    keys = [tuple(map(_plain, key if isinstance(key, tuple) else (key,))) for key in index]
    for key, result in zip(keys, results, strict=True):
        name_slice(result, dict(zip(extra, key, strict=True)))
    keys = [key[0] if len(extra) == 1 else key for key in keys]
    return PerSlice(extra, dict(zip(keys, results, strict=True)), function=function)


def name_slice(result: Any, where: dict[Hashable, Any]) -> None:
    """Name the slice in the title of a figure (a matplotlib Figure or Axes) drawn for one
    slice of a cube with extra dims: its suptitle, else its title, gets ``"trial 3"``.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.set_title("Topics")
    >>> name_slice(ax, {"trial": 3, "fold": "a"})
    >>> ax.get_title()
    'Topics (trial 3, fold a)'
    >>> plt.close(fig)
    """
    if not type(result).__module__.startswith("matplotlib"):
        return
    label = ", ".join(f"{dim} {value}" for dim, value in where.items())
    figure = getattr(result, "figure", None) if hasattr(result, "get_title") else result
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        suptitle.set_text(_with_label(suptitle.get_text(), label))
    elif hasattr(result, "get_title"):
        result.set_title(_with_label(result.get_title(), label))
    elif hasattr(result, "suptitle"):
        result.suptitle(label)


def _with_label(title: str, label: str) -> str:
    """``"Fit (ap)"`` → ``"Fit (ap, trial 3)"``; ``"Topics"`` → ``"Topics (trial 3)"``."""
    if not title:
        return label
    if title.endswith(")"):
        return f"{title[:-1]}, {label})"
    return f"{title} ({label})"


def _plain(label: Any) -> Any:
    return label.item() if isinstance(label, np.generic) else label


def slice_labels(cube: xr.DataArray) -> list[dict[Hashable, Any]]:
    """The ``.sel`` selector of every slice of a cube over its extra dims.

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray(np.zeros((2, 1, 1)), dims=("trial", "topic", "system"),
    ...                   coords={"trial": [3, 4]})
    >>> slice_labels(da)
    [{'trial': 3}, {'trial': 4}]
    """
    extra = extra_dims_of(cube)
    if not extra:
        return [{}]
    values = [cube[dim].values if dim in cube.coords else np.arange(cube.sizes[dim])
              for dim in extra]
    grid = np.meshgrid(*values, indexing="ij")
    return [{dim: (g.flat[k].item() if isinstance(g.flat[k], np.generic) else g.flat[k])
             for dim, g in zip(extra, grid, strict=True)} for k in range(grid[0].size)]


def fold_topics(cube: xr.DataArray) -> xr.DataArray:
    """A cube without extra dims whose topics are the ``(slice, topic)`` rows of ``cube``.

    For functions that treat every topic on its own (a standardization fitted per topic
    across systems): one call on the folded cube is one call per slice, in one pass. A
    folded topic is labelled ``"t1 (trial 0)"``, which names the slice in messages.
    :func:`unfold_topics` restores the extra dims.

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray(np.zeros((2, 1, 1, 1)), dims=("trial", "topic", "system", "measure"),
    ...                   coords={"trial": [0, 1], "topic": ["q"], "system": ["a"],
    ...                           "measure": ["ap"]})
    >>> fold_topics(da).topic.values.tolist()
    ['q (trial 0)', 'q (trial 1)']
    """
    extra = extra_dims_of(cube)
    cube = cube.transpose(*extra, TOPIC, SYSTEM, MEASURE)
    slices = [", ".join(f"{dim} {label}" for dim, label in where.items())
              for where in slice_labels(cube)]
    topics = [str(t) for t in cube[TOPIC].values.tolist()]
    labels = [f"{topic} ({where})" for where in slices for topic in topics]
    values = np.asarray(cube.data).reshape(len(labels), cube.sizes[SYSTEM], cube.sizes[MEASURE])
    return xr.DataArray(values, dims=(TOPIC, SYSTEM, MEASURE),
                        coords={TOPIC: labels, SYSTEM: cube[SYSTEM].values,
                                MEASURE: cube[MEASURE].values},
                        attrs=dict(cube.attrs), name=cube.name)


def unfold_topics(folded: xr.DataArray, like: xr.DataArray) -> xr.DataArray:
    """The result ``folded`` of a per-topic function on :func:`fold_topics` ``(like)``, back
    in the shape, dims and coordinates of ``like`` (its attrs are the result's).

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray(np.arange(4.0).reshape(2, 2, 1, 1),
    ...                   dims=("trial", "topic", "system", "measure"),
    ...                   coords={"topic": ["q", "r"], "system": ["a"], "measure": ["ap"]})
    >>> unfold_topics(fold_topics(da) * 10, da).values.ravel().tolist()
    [0.0, 10.0, 20.0, 30.0]
    """
    like = like.transpose(*extra_dims_of(like), TOPIC, SYSTEM, MEASURE)
    values = np.asarray(folded.transpose(TOPIC, SYSTEM, MEASURE).data).reshape(like.shape)
    out = like.copy(data=values)
    out.attrs = dict(folded.attrs)
    out.name = folded.name
    return out


def unfold_topic_dataset(folded: xr.Dataset, like: xr.DataArray) -> xr.Dataset:
    """A Dataset over the topics of :func:`fold_topics` ``(like)`` (per-topic parameters,
    factors), with its ``topic`` dim split back into the extra dims of ``like`` and its
    topics, which lead.

    Examples
    --------
    >>> import xarray as xr
    >>> da = xr.DataArray(np.arange(4.0).reshape(2, 2, 1, 1),
    ...                   dims=("trial", "topic", "system", "measure"),
    ...                   coords={"topic": ["q", "r"], "system": ["a"], "measure": ["ap"]})
    >>> per_topic = fold_topics(da).mean("system").to_dataset(name="mean")
    >>> unfold_topic_dataset(per_topic, da)["mean"].dims
    ('trial', 'topic', 'measure')
    """
    extra = extra_dims_of(like)
    sizes = {dim: like.sizes[dim] for dim in extra}
    out = {}
    for name, var in folded.data_vars.items():
        if TOPIC not in var.dims:
            out[name] = var
            continue
        rest = [dim for dim in var.dims if dim != TOPIC]
        values = np.asarray(var.transpose(TOPIC, *rest).data)
        values = values.reshape(*sizes.values(), like.sizes[TOPIC], *values.shape[1:])
        out[name] = ((*extra, TOPIC, *rest), values)
    coords = {dim: like.coords[dim].variable for dim in (*extra, TOPIC) if dim in like.coords}
    coords.update({name: coord.variable for name, coord in folded.coords.items()
                   if TOPIC not in coord.dims})
    return xr.Dataset(out, coords=coords, attrs=dict(folded.attrs))
