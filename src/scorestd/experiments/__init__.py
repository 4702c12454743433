"""Resampling experiments: the studies of the source papers, vectorised over trials.

Every experiment draws the index sets of all its trials up front
(:func:`~scorestd.experiments.engine.draw_trials`), computes its statistics for batches of
trials with the numpy kernels (:func:`~scorestd.experiments.engine.run_batches`, optionally
on a ``dask.distributed`` cluster) and returns an :class:`Experiment` whose ``data`` is an
:class:`xarray.Dataset` with ``summary()`` (the paper's table) and ``plot()`` (its figure).

- :func:`within_collection`, :func:`between_collection`: Urbano, Lima & Hanjalic (2019).
- :func:`split_half`: Ravana & Moffat (2009).
- :func:`smoothing_experiment`: Ravana, Park & Moffat (2009).
- :func:`error_rates`: Type I, II and III errors by simulation, Urbano, Lima & Hanjalic
  (SIGIR 2019), :func:`compare_error_rates` beside published rates; :func:`topic_set_validation`, :func:`estd_stability`: simulation studies.
- :func:`discriminative_power`, :func:`swap_rate`, :func:`leave_one_out`: Sakai's
  evaluation suite.

Each function is also a top-level function of :mod:`scorestd`.
"""

import warnings

from . import engine
from .between import BetweenCollection, between_collection
from .discrimination import DiscriminativePower, discriminative_power
from .error_rate_comparison import agreement_counts, compare_error_rates
from .error_rate_pool import ErrorRatePool
from .leave_out import LeaveOneOut, leave_one_out
from .prior_smoothing import SmoothingExperiment, smoothing_experiment
from .result import ALPHAS, Experiment
from .significance_errors import ErrorRates, error_rates
from .simulation_studies import (
    EstdStability,
    TopicSetValidation,
    estd_stability,
    topic_set_validation,
)
from .split_halves import SplitHalf, split_half
from .swap_rates import SwapRate, swap_rate
from .within import WithinCollection, within_collection

__all__ = [
    "ALPHAS",
    "BetweenCollection",
    "DiscriminativePower",
    "ErrorRatePool",
    "ErrorRates",
    "EstdStability",
    "Experiment",
    "LeaveOneOut",
    "SmoothingExperiment",
    "SplitHalf",
    "SwapRate",
    "TopicSetValidation",
    "WithinCollection",
    "agreement_counts",
    "between_collection",
    "compare_error_rates",
    "discriminative_power",
    "engine",
    "error_rates",
    "estd_stability",
    "leave_one_out",
    "smoothing_experiment",
    "split_half",
    "swap_rate",
    "topic_set_validation",
    "within_collection",
]

#: Names of earlier releases, read for one release with a DeprecationWarning.
_RENAMED = {"smoothing": "smoothing_experiment", "Smoothing": "SmoothingExperiment"}


def __getattr__(name: str):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"scorestd.experiments.{name} is now {new}; the old name will be removed "
                      "in the next release", DeprecationWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
