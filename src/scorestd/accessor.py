"""``scores.scorestd.<name>(...)``: the package's functions as methods of any DataArray.

Importing :mod:`scorestd` registers the ``scorestd`` accessor on ``xarray.DataArray``.
Each method only delegates: ``scores.scorestd.standardize("normal")`` is
``scorestd.standardize(scores, "normal")``, so chains read left to right in a notebook.
The methods, and the functions they call, are listed in :data:`METHODS`.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import xarray as xr

__all__ = ["METHODS", "ScoreCubeAccessor"]

#: Accessor method → the function it calls with the array as first argument.
METHODS: dict[str, str] = {
    # the cube and its files
    "validate": "scorestd.cube.validate",
    "describe": "scorestd.describe.describe",
    "to_dataframe": "scorestd.io.to_dataframe",
    "save": "scorestd.io.save",
    # standardization
    "standardize": "scorestd.standardize.standardize",
    "standardization_factors": "scorestd.factors.standardization_factors",
    "compare_models": "scorestd.models.compare_models",
    "standardization_report": "scorestd.report.standardization_report",
    "plot_standardization": "scorestd.standardization_plots.plot_standardization",
    "plot_mapping": "scorestd.standardization_plots.plot_mapping",
    "plot_topic_distributions": "scorestd.standardization_plots.plot_topic_distributions",
    # smoothing, aggregation, topics
    "smooth": "scorestd.smoothing.smooth",
    "aggregate": "scorestd.aggregation.aggregate",
    "rank_systems": "scorestd.aggregation.rank_systems",
    "topic_hardness": "scorestd.hardness.topic_hardness",
    "topic_split": "scorestd.hardness.topic_split",
    # correlation and significance
    "correlation": "scorestd.correlation.correlation",
    "compare": "scorestd.significance.compare",
    "compare_unpaired": "scorestd.significance.compare_unpaired",
    "fraction_significant": "scorestd.significance.fraction_significant",
    "adjust_pvalues": "scorestd.multiple_comparisons.adjust_pvalues",
    "tukey_hsd": "scorestd.multiple_comparisons.tukey_hsd",
    "randomised_tukey_hsd": "scorestd.multiple_comparisons.randomised_tukey_hsd",
    # power and collection design
    "estimate_variance": "scorestd.variance.estimate_variance",
    "design_variance": "scorestd.power.design_variance",
    "solve_power": "scorestd.power.solve_power",
    "topic_set_size": "scorestd.topic_set_size.topic_set_size",
    "discriminative_power": "scorestd.discriminative_power.discriminative_power",
    "swap_rate": "scorestd.swap_rate.swap_rate",
    "leave_one_out": "scorestd.leave_one_out.leave_one_out",
    # resampling experiments
    "within_collection": "scorestd.experiments.within_collection",
    "between_collection": "scorestd.experiments.between_collection",
    "split_half": "scorestd.experiments.split_half",
    "smoothing_experiment": "scorestd.experiments.smoothing",
}


def _function(path: str) -> Callable[..., Any]:
    module, _, name = path.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _method(name: str, path: str) -> Callable[..., Any]:
    """A method that calls the function at ``path`` with the accessor's array first."""
    function = _function(path)

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
                      f":func:`{path}` with ``scores`` as its first argument "
                      f"({parameters[0].name!r}).")
    return method


@xr.register_dataarray_accessor("scorestd")
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


for _name, _path in METHODS.items():
    setattr(ScoreCubeAccessor, _name, _method(_name, _path))
del _name, _path
