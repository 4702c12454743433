"""``scores.scorestd.<name>(...)``: the package's functions as methods of any DataArray.

Importing :mod:`scorestd` registers the ``scorestd`` accessor on ``xarray.DataArray`` (at
once when xarray is already imported, otherwise as soon as it is).
Each method only delegates: ``scores.scorestd.standardize("normal")`` is
``scorestd.standardize(scores, "normal")``, so chains read left to right in a notebook.
The methods, and the functions they call, are listed in :data:`METHODS`.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["METHODS", "ScoreCubeAccessor"]

#: Accessor methods, each the top-level function ``scorestd.<name>`` with the array first.
METHODS: tuple[str, ...] = (
    # the cube and its files
    "validate", "describe", "to_dataframe", "save",
    # standardization
    "standardize", "fit_reference", "standardization_factors", "goodness_of_fit",
    "standardization_report",
    "plot_standardization", "plot_mapping", "plot_topic_distributions",
    # smoothing, aggregation, topics
    "smooth", "aggregate", "rank_systems", "topic_hardness", "topic_split",
    # correlation and significance
    "correlation", "compare", "compare_unpaired", "fraction_significant", "adjust_pvalues",
    "tukey_hsd", "randomised_tukey_hsd",
    # power and collection design
    "estimate_variance", "anova_residual", "design_variance", "solve_power", "topic_set_size",
    # resampling experiments
    "within_collection", "between_collection", "split_half", "smoothing_experiment",
    "discriminative_power", "swap_rate", "leave_one_out",
    # Bayesian analyses
    "bayes_compare", "bayes_crossed", "bayes_standardize", "compare_likelihoods", "assurance",
    "assurance_topic_set_size",
    # simulation
    "fit_margins", "fit_simulator", "topic_set_validation", "estd_stability",
)


def _method(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
    """A method that calls ``function`` (``scorestd.<name>``) with the accessor's array first."""

    def method(self: ScoreCubeAccessor, *args: Any, **kwargs: Any) -> Any:
        return function(self._obj, *args, **kwargs)

    signature = inspect.signature(function)
    parameters = list(signature.parameters.values())
    method.__name__ = name
    method.__qualname__ = f"ScoreCubeAccessor.{name}"
    method.__signature__ = signature.replace(  # type: ignore[attr-defined]
        parameters=[inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY),
                    *parameters[1:]])
    summary = (inspect.getdoc(function) or "").split("\n\n", 1)[0]
    method.__doc__ = (f"{summary}\n\n``scores.scorestd.{name}(...)`` is "
                      f":func:`scorestd.{name}` with ``scores`` as its first argument "
                      f"({parameters[0].name!r}).")
    return method


class ScoreCubeAccessor:
    """The ``scorestd`` functions as methods of a score cube (or of any DataArray they take).

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> e = ap.scorestd.standardize("empirical")
    >>> e.equals(scorestd.standardize(ap, "empirical"))
    True
    >>> ranks = e.scorestd.rank_systems()
    >>> int(ranks.sel(measure="ap").min())
    1
    """

    def __init__(self, obj: xr.DataArray) -> None:
        self._obj = obj

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *METHODS})


class _LazyMethod:
    """A method built on first access: its function is imported only when first used."""

    def __init__(self, name: str, lookup: Callable[[str], Callable[..., Any]]) -> None:
        self.name, self.lookup = name, lookup

    def __get__(self, obj: Any, owner: type) -> Any:
        method = _method(self.name, self.lookup(self.name))
        setattr(owner, self.name, method)  # from now on a plain method
        return method.__get__(obj, owner)


def register_methods(
    namespace: Mapping[str, Callable[..., Any]] | Callable[[str], Callable[..., Any]],
) -> None:
    """Register ``scores.scorestd`` on ``xarray.DataArray``, one method per name of
    :data:`METHODS`, calling ``namespace[name]``.

    The package root calls this once, when xarray is (or has just been) imported, with a
    function that looks its names up (importing each on first use), so that the accessor
    needs no import of the root (imports in the package only go down) and registering it
    imports nothing heavy. This module itself does not import xarray: importing it never
    sets off the registration hook from inside itself.
    """
    import xarray as xr

    lookup = namespace.__getitem__ if isinstance(namespace, Mapping) else namespace
    for name in METHODS:
        setattr(ScoreCubeAccessor, name, _LazyMethod(name, lookup))
    if getattr(xr.DataArray, "scorestd", None) is not ScoreCubeAccessor:
        xr.register_dataarray_accessor("scorestd")(ScoreCubeAccessor)
