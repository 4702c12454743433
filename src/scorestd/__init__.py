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
- :mod:`scorestd.simulation`: simulated collections with known true means;
- :mod:`scorestd.experiments`: resampling and simulation studies;
- :mod:`scorestd.plots`, :mod:`scorestd.cli`: front ends.

>>> import scorestd
>>> ap = scorestd.datasets.load("adhoc8_ap")
>>> ap.dims
('topic', 'system', 'measure')
"""

import warnings

from . import (
    accessor,
    datasets,
    design,
    experiments,
    io,
    kernels,
    models,
    plots,
    simulation,
    stats,
)
from .design import (
    anova_residual,
    ci_expected_width,
    design_variance,
    estimate_variance,
    power_function,
    sakai_power_anova,
    sakai_power_paired_t,
    solve_power,
    topic_set_size,
)
from .dims import MEASURE, SYSTEM, TOPIC
from .errors import (
    OptionError,
    ScoreDataError,
    ScorestdError,
    ScorestdWarning,
    UnreachableTargetError,
)
from .experiments import (
    between_collection,
    discriminative_power,
    error_rates,
    estd_stability,
    leave_one_out,
    smoothing_experiment,
    split_half,
    swap_rate,
    topic_set_validation,
    within_collection,
)
from .io import (
    from_dataframe,
    load,
    read_groups,
    read_long_csv,
    read_matrix_csv,
    read_netcdf,
    read_trec_eval,
    save,
    to_dataframe,
    write_long_csv,
    write_matrix_csv,
    write_netcdf,
)
from .models import (
    get_model,
    goodness_of_fit,
    model_names,
    read_factors,
    read_fitted,
    register_model,
    standardization_factors,
    write_factors,
    write_fitted,
)
from .plots import (
    plot_mapping,
    plot_standardization,
    plot_topic_distributions,
    plot_topic_set_size,
    standardization_report,
)
from .score_cube import cube, validate
from .simulation import fit_margins, fit_simulator, simulate, simulation_diagnostics
from .stats import (
    adjust_pvalues,
    aggregate,
    compare,
    compare_unpaired,
    correlation,
    describe,
    fraction_significant,
    randomised_tukey_hsd,
    rank_systems,
    smooth,
    standardize,
    topic_hardness,
    topic_split,
    tukey_hsd,
)

__version__ = "0.1.0.dev0"

__all__ = [
    "MEASURE",
    "SYSTEM",
    "TOPIC",
    "OptionError",
    "ScoreDataError",
    "ScorestdError",
    "ScorestdWarning",
    "UnreachableTargetError",
    "__version__",
    "accessor",
    "adjust_pvalues",
    "aggregate",
    "anova_residual",
    "between_collection",
    "ci_expected_width",
    "compare",
    "compare_unpaired",
    "correlation",
    "cube",
    "datasets",
    "describe",
    "design",
    "design_variance",
    "discriminative_power",
    "error_rates",
    "estd_stability",
    "estimate_variance",
    "experiments",
    "fit_margins",
    "fit_simulator",
    "fraction_significant",
    "from_dataframe",
    "get_model",
    "goodness_of_fit",
    "io",
    "kernels",
    "leave_one_out",
    "load",
    "model_names",
    "models",
    "plot_mapping",
    "plot_standardization",
    "plot_topic_distributions",
    "plot_topic_set_size",
    "plots",
    "power_function",
    "randomised_tukey_hsd",
    "rank_systems",
    "read_factors",
    "read_fitted",
    "read_groups",
    "read_long_csv",
    "read_matrix_csv",
    "read_netcdf",
    "read_trec_eval",
    "register_model",
    "sakai_power_anova",
    "sakai_power_paired_t",
    "save",
    "simulate",
    "simulation",
    "simulation_diagnostics",
    "smooth",
    "smoothing_experiment",
    "solve_power",
    "split_half",
    "standardization_factors",
    "standardization_report",
    "standardize",
    "stats",
    "swap_rate",
    "to_dataframe",
    "topic_hardness",
    "topic_set_size",
    "topic_set_validation",
    "topic_split",
    "tukey_hsd",
    "validate",
    "within_collection",
    "write_factors",
    "write_fitted",
    "write_long_csv",
    "write_matrix_csv",
    "write_netcdf",
]

accessor.register_methods(globals())

#: Names of earlier releases, read for one release with a DeprecationWarning: old → new.
_RENAMED = {"compare_models": "goodness_of_fit"}


def __getattr__(name: str):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"scorestd.{name} is now scorestd.{new}; the old name will be removed "
                      "in the next release", DeprecationWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
