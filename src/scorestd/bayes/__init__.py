"""Bayesian analyses of score cubes: posterior system comparisons, standardization, design.

- :func:`bayes_compare`: closed-form posterior of the mean difference of every pair of
  systems (the Bayesian reading of the paired t-test);
- :func:`bayes_crossed`: the crossed random-effects model of systems and topics, by a
  blocked Gibbs sampler in numpy, with arviz output (:class:`CrossedPosterior`);
- :func:`bayes_standardize`: Bayesian-bootstrap uncertainty of standardized scores;
- :func:`assurance`, :func:`assurance_topic_set_size`: topic set size design averaged
  over the posterior (or a prior) of the residual variance.

Every function here is also a top-level function of :mod:`scorestd`.
"""

from .crossed import CrossedPosterior, bayes_crossed
from .design import assurance, assurance_topic_set_size
from .paired import bayes_compare
from .standardization import bayes_standardize

__all__ = [
    "CrossedPosterior",
    "assurance",
    "assurance_topic_set_size",
    "bayes_compare",
    "bayes_crossed",
    "bayes_standardize",
]
