"""Bayesian analyses of score cubes: posterior system comparisons, standardization, design.

- :func:`bayes_compare`: closed-form posterior of the mean difference of every pair of
  systems (the Bayesian reading of the paired t-test);
- :func:`bayes_crossed`: the crossed random-effects model of systems and topics, by a
  blocked Gibbs sampler in numpy, with arviz output (:class:`CrossedPosterior`);
- :func:`compare_likelihoods`: normal, censored and hurdle likelihoods of the crossed
  model compared by PSIS-LOO, with posterior predictive checks
  (:meth:`CrossedPosterior.predictive_checks`) and simulation-based calibration
  (:func:`simulation_based_calibration`);
- :func:`bayes_standardize`: Bayesian-bootstrap uncertainty of standardized scores;
- :func:`assurance`, :func:`assurance_topic_set_size`: topic set size design averaged
  over the posterior (or a prior) of the residual variance.

Every function here is also a top-level function of :mod:`scorestd`.
"""

from .calibration import CalibrationResult, simulation_based_calibration
from .comparison import (
    LikelihoodComparison,
    PredictiveChecks,
    compare_likelihoods,
    predictive_checks,
)
from .crossed import CrossedPosterior, bayes_crossed
from .design import assurance, assurance_topic_set_size
from .paired import bayes_compare
from .standardization import bayes_standardize

__all__ = [
    "CalibrationResult",
    "CrossedPosterior",
    "LikelihoodComparison",
    "PredictiveChecks",
    "assurance",
    "assurance_topic_set_size",
    "bayes_compare",
    "bayes_crossed",
    "bayes_standardize",
    "compare_likelihoods",
    "predictive_checks",
    "simulation_based_calibration",
]
