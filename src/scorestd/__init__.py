"""scorestd: statistics of information-retrieval evaluation.

Scores live in labelled cubes (``xarray.DataArray`` with dims topic × system ×
measure); every function takes such a cube, or a 2-D (topic, system) array.

>>> import scorestd
>>> ap = scorestd.datasets.load("adhoc8_ap")
>>> ap.dims
('topic', 'system', 'measure')
"""

from . import accessor, datasets, experiments, io, models  # accessor: ``scores.scorestd``
from .aggregation import aggregate, rank_systems
from .correlation import correlation
from .cube import cube, validate
from .describe import describe
from .dims import MEASURE, SYSTEM, TOPIC
from .errors import ScoreDataError, ScorestdError, ScorestdWarning
from .factors import read_factors, standardization_factors, write_factors
from .hardness import topic_hardness, topic_split
from .io import (
    from_dataframe,
    load,
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
from .models import compare_models
from .multiple_comparisons import adjust_pvalues, randomised_tukey_hsd, tukey_hsd
from .report import standardization_report
from .significance import compare, compare_unpaired, fraction_significant
from .smoothing import smooth
from .standardization_plots import plot_mapping, plot_standardization, plot_topic_distributions
from .standardize import standardize

__version__ = "0.1.0.dev0"

__all__ = [
    "MEASURE",
    "SYSTEM",
    "TOPIC",
    "ScoreDataError",
    "ScorestdError",
    "ScorestdWarning",
    "__version__",
    "accessor",
    "adjust_pvalues",
    "aggregate",
    "compare",
    "compare_models",
    "compare_unpaired",
    "correlation",
    "cube",
    "datasets",
    "describe",
    "experiments",
    "fraction_significant",
    "from_dataframe",
    "io",
    "load",
    "models",
    "plot_mapping",
    "plot_standardization",
    "plot_topic_distributions",
    "randomised_tukey_hsd",
    "rank_systems",
    "read_factors",
    "read_long_csv",
    "read_matrix_csv",
    "read_netcdf",
    "read_trec_eval",
    "save",
    "smooth",
    "standardization_factors",
    "standardization_report",
    "standardize",
    "to_dataframe",
    "topic_hardness",
    "topic_split",
    "tukey_hsd",
    "validate",
    "write_factors",
    "write_long_csv",
    "write_matrix_csv",
    "write_netcdf",
]
