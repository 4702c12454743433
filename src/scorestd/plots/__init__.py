"""Figures and reports: the front end that draws (matplotlib is imported inside each function).

Experiment results draw their own figure (``result.plot()``); the figures here take
score cubes, design results, the error-rate study's rates and Bayesian fits. Every function
here is also a top-level function of :mod:`scorestd`.
"""

from .bayes import (
    plot_pair_probabilities,
    plot_posterior_differences,
    plot_posterior_ranks,
    plot_predictive_checks,
    plot_system_differences,
    plot_system_effects,
)
from .design import plot_topic_set_size
from .error_rates import plot_error_rates
from .report import standardization_report
from .standardization import plot_mapping, plot_standardization, plot_topic_distributions

__all__ = [
    "plot_error_rates",
    "plot_mapping",
    "plot_pair_probabilities",
    "plot_posterior_differences",
    "plot_posterior_ranks",
    "plot_predictive_checks",
    "plot_standardization",
    "plot_system_differences",
    "plot_system_effects",
    "plot_topic_distributions",
    "plot_topic_set_size",
    "standardization_report",
]
