"""Stochastic simulation of test collections with known true system means.

Urbano & Nagler (2018), "Stochastic simulation of test collections: evaluation
scores", SIGIR (the R package simIReff): a margin per system (:func:`fit_margins`; the
families are distribution models, in :mod:`scorestd.models.continuous_margins` and
:mod:`scorestd.models.discrete_margins`, registered with the other models), a copula between systems
(:mod:`.copula`), new collections from both (:func:`simulate`), the mean transform
that imposes an expected score (:meth:`Margins.transform`) and diagnostics against
the observed data (:func:`simulation_diagnostics`).

>>> from scorestd import simulation
>>> simulation.margin_names()[:6]
['truncnorm', 'beta1', 'nkde', 'bkde', 'betabinom', 'dkde']
"""

from ..models.continuous_margins import (
    Beta1Margin,
    BetaKernelMargin,
    NormalKernelMargin,
    TruncNormalMargin,
)
from ..models.discrete_margins import BetaBinomialMargin, OrderedKernelMargin, support_of
from ..models.margins import (
    ContinuousMargin,
    DiscreteMargin,
    MarginFamily,
    get_margin,
    margin_names,
    register_margin,
)
from .copula import GaussianCopula, VineCopula, fit_pair_copula, pseudo_observations
from .diagnostics import SimulationDiagnostics, simulation_diagnostics
from .fitting import CONTINUOUS_FAMILIES, Margins, discrete_families, fit_margins
from .simulator import Simulator, fit_simulator, simulate
from .transform import apply_transform, solve_mean_transform

__all__ = [
    "CONTINUOUS_FAMILIES",
    "Beta1Margin",
    "BetaBinomialMargin",
    "BetaKernelMargin",
    "ContinuousMargin",
    "DiscreteMargin",
    "GaussianCopula",
    "MarginFamily",
    "Margins",
    "NormalKernelMargin",
    "OrderedKernelMargin",
    "SimulationDiagnostics",
    "Simulator",
    "TruncNormalMargin",
    "VineCopula",
    "apply_transform",
    "discrete_families",
    "fit_margins",
    "fit_pair_copula",
    "fit_simulator",
    "get_margin",
    "margin_names",
    "pseudo_observations",
    "register_margin",
    "simulate",
    "simulation_diagnostics",
    "solve_mean_transform",
    "support_of",
]
