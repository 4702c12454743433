"""Designing test collections: variance estimates, power and topic set size (Sakai).

Built on :mod:`scorestd.stats` (standardization schemes) and statsmodels' power classes.
Every function here is also a top-level function of :mod:`scorestd`.
"""

from .power import design_variance, power_function, solve_power
from .topic_sets import ci_expected_width, sakai_power_anova, sakai_power_paired_t, topic_set_size
from .variance import anova_residual, estimate_variance

__all__ = [
    "anova_residual",
    "ci_expected_width",
    "design_variance",
    "estimate_variance",
    "power_function",
    "sakai_power_anova",
    "sakai_power_paired_t",
    "solve_power",
    "topic_set_size",
]
