"""The labelled statistics: functions of score cubes over named dims.

Each wraps a numpy kernel of :mod:`scorestd.kernels` (with ``xr.apply_ufunc`` where the
cube may be dask-backed) or a fitted model of :mod:`scorestd.models`:
standardization, smoothing, aggregation and rankings, topic hardness, rank correlations,
paired and unpaired significance tests, multiple comparisons and the description of a
cube. Every function here is also a top-level function of :mod:`scorestd`.
"""

from .aggregation import aggregate, rank_systems
from .correlations import correlation
from .descriptive import describe
from .hardness import topic_hardness, topic_split
from .multiple_comparisons import adjust_pvalues, randomised_tukey_hsd, tukey_hsd
from .significance import compare, compare_unpaired, fraction_significant
from .smoothing import smooth
from .standardization import standardize

__all__ = [
    "adjust_pvalues",
    "aggregate",
    "compare",
    "compare_unpaired",
    "correlation",
    "describe",
    "fraction_significant",
    "randomised_tukey_hsd",
    "rank_systems",
    "smooth",
    "standardize",
    "topic_hardness",
    "topic_split",
    "tukey_hsd",
]
