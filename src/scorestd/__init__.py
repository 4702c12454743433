"""scorestd: statistics of information-retrieval evaluation.

Scores live in labelled cubes (``xarray.DataArray`` with dims topic × system ×
measure); every function takes such a cube, or a 2-D (topic, system) array.

Every public capability is a function of this one flat namespace (``scorestd.standardize``,
``scorestd.compare``, ``scorestd.topic_set_size``, ``scorestd.within_collection`` …); the
subpackages hold them by layer (see ``docs/architecture.rst``) and stay importable:

- :mod:`scorestd.io`, :mod:`scorestd.datasets`: files in and out, bundled data;
- :mod:`scorestd.kernels`: numpy-only kernels;
- :mod:`scorestd.models`: distribution models, their registry and files, the schemes;
- :mod:`scorestd.stats`: labelled statistics of cubes;
- :mod:`scorestd.design`: variance, power and topic set size;
- :mod:`scorestd.bayes`: Bayesian comparisons, standardization and design;
- :mod:`scorestd.simulation`: simulated collections with known true means;
- :mod:`scorestd.experiments`: resampling and simulation studies;
- :mod:`scorestd.plots`, :mod:`scorestd.cli`: front ends.

>>> import scorestd
>>> ap = scorestd.datasets.load("adhoc8_ap")
>>> ap.dims
('topic', 'system', 'measure')
"""

import importlib
import importlib.util
import sys
import warnings

# Light names, imported at once (re-exported: in __all__)
from ._version import __version__  # noqa: F401
from .dims import MEASURE, SYSTEM, TOPIC  # noqa: F401
from .errors import (  # noqa: F401
    OptionError,
    ScoreDataError,
    ScorestdError,
    ScorestdWarning,
    UnreachableTargetError,
)

#: Where each public function lives: its subpackage or module. They are imported on first
#: use (PEP 562), so ``import scorestd`` and ``scorestd --help`` do not pay for scipy,
#: xarray and pandas before they are needed.
_LOCATIONS: dict[str, tuple[str, ...]] = {
    "bayes": ("assurance", "assurance_topic_set_size", "bayes_compare", "bayes_crossed",
              "bayes_standardize", "compare_likelihoods", "simulation_based_calibration"),
    "design": ("anova_residual", "ci_expected_width", "design_variance", "estimate_variance",
               "power_function", "sakai_power_anova", "sakai_power_paired_t", "solve_power",
               "topic_set_size"),
    "experiments": ("between_collection", "compare_error_rates", "discriminative_power",
                    "error_rates",
                    "estd_stability", "leave_one_out", "smoothing_experiment", "split_half",
                    "swap_rate", "topic_set_validation", "within_collection"),
    "kernels.blas": ("blas_threads",),
    "io": ("evaluate", "from_dataframe", "from_ir_measures", "from_ranx", "load",
           "read_groups", "read_long_csv", "read_matrix_csv", "read_netcdf", "read_parquet",
           "read_trec_eval", "save", "to_dataframe", "write_long_csv", "write_matrix_csv",
           "write_netcdf", "write_parquet"),
    "mapping": ("PerSlice",),
    "measures": ("measure_info", "register_measure"),
    "models": ("fit_reference", "get_model", "goodness_of_fit", "model_names", "read_factors",
               "read_fitted", "register_model", "standardization_factors", "write_factors",
               "write_fitted"),
    "plots": ("plot_error_rates", "plot_mapping", "plot_pair_probabilities",
              "plot_posterior_differences", "plot_posterior_ranks", "plot_predictive_checks",
              "plot_standardization", "plot_system_differences", "plot_system_effects",
              "plot_topic_distributions", "plot_topic_set_size", "standardization_report"),
    "score_cube": ("cube", "validate"),
    "simulation": ("fit_margins", "fit_simulator", "simulate", "simulation_diagnostics"),
    "tables": ("table",),
    "stats": ("adjust_pvalues", "aggregate", "compare", "compare_unpaired", "correlation",
              "describe", "fraction_significant", "randomised_tukey_hsd", "rank_systems",
              "smooth", "standardize", "topic_hardness", "topic_split", "tukey_hsd"),
}
_MODULE_OF = {name: module for module, names in _LOCATIONS.items() for name in names}
_SUBPACKAGES = ("accessor", "bayes", "datasets", "design", "experiments", "io", "kernels",
                "models", "plots", "simulation", "stats", "tables")

__all__ = sorted(
    ["MEASURE", "SYSTEM", "TOPIC", "OptionError", "ScoreDataError", "ScorestdError",
     "ScorestdWarning", "UnreachableTargetError", "__version__", *_SUBPACKAGES, *_MODULE_OF],
    key=lambda name: (not name.isupper(), not name[0].isupper(), name.lower()),
)

#: Names of earlier releases, read for one release with a DeprecationWarning: old → new.
_RENAMED = {"compare_models": "goodness_of_fit"}


def __getattr__(name: str):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"scorestd.{name} is now scorestd.{new}; the old name will be removed "
                      "in the next release", DeprecationWarning, stacklevel=2)
        return __getattr__(new)
    if name in _SUBPACKAGES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _MODULE_OF:
        value = getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


def _lookup(name: str):
    """The public function ``name``, for the accessor's methods (resolved on first use)."""
    return __getattr__(name)


def _register_accessor() -> None:
    from . import accessor

    accessor.register_methods(_lookup)


class _AfterXarray:
    """Registers the ``.scorestd`` accessor as soon as xarray has been imported.

    ``import scorestd`` does not import xarray (a command line that only prints its help
    should not wait for it); a DataArray, though, can only exist once xarray is imported,
    and at that moment this finder's loader adds the accessor.
    """

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "xarray":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec("xarray")
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister:
    """A loader that runs the real one, then registers the accessor."""

    def __init__(self, loader) -> None:
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        module.__loader__ = module.__spec__.loader = self._loader
        self._loader.exec_module(module)
        _register_accessor()

    def __getattr__(self, name: str):
        return getattr(self._loader, name)


if "xarray" in sys.modules:
    _register_accessor()
else:
    sys.meta_path.insert(0, _AfterXarray())
