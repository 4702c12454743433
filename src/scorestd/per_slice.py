"""One result per slice of a cube's extra dims, for results that are one object per
collection (a fitted simulator, a Bayesian fit, an experiment's result, a topic split, a
figure).

Such a result cannot carry the extra dims the way a labelled array does, so a function
that returns one maps over the extra dims by returning a :class:`PerSlice`: a read-only
mapping from the labels of each slice to the result on that slice.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any

__all__ = ["PerSlice"]

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
