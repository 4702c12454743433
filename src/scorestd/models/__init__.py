"""Per-topic score-distribution models: N-std, U-std, E-std, z-std and more.

Every standardization is ``y = F̂(x)`` for an estimate ``F̂`` of a topic's score
distribution across reference systems (Urbano, Lima & Hanjalic 2019, §2); a model is
that ``F̂``. Models register by name; :func:`get_model` finds them. This package also
holds what is built on the models alone: the standardization schemes of the experiments
(:mod:`scorestd.models.schemes`), goodness of fit, the files of fitted models (netCDF,
and Webber et al.'s factor files), and the margin families of the simulator
(:mod:`scorestd.models.margins`: per-system score distributions, continuous ones
registered as models too).

>>> from scorestd import models
>>> models.model_names()[:10]
['normal', 'uniform', 'empirical', 'z', 'beta', 'kde', 'truncnorm', 'beta1', 'nkde', 'bkde']
"""

import warnings

from ._base import FittedModel, Model
from .beta import Beta
from .continuous_margins import (
    Beta1Margin,
    BetaKernelMargin,
    NormalKernelMargin,
    TruncNormalMargin,
)
from .discrete_margins import BetaBinomialMargin, OrderedKernelMargin
from .empirical import Empirical
from .factors import read_factors, standardization_factors, write_factors
from .goodness import GoodnessOfFit, goodness_of_fit
from .kde import KDE
from .margins import register_margin
from .normal import Normal
from .persist import read_fitted, write_fitted
from .reference import fit_reference
from .registry import get_model, model_names, register_model
from .truncnorm import TruncNormal
from .uniform import Uniform
from .zscore import ZScore

for _cls in (Normal, Uniform, Empirical, ZScore, Beta, KDE, TruncNormal):
    register_model(_cls.name, _cls)
# The margin families of the simulator are distribution models too: the continuous ones
# register as models under the names still free (beta1, nkde, bkde).
for _cls in (TruncNormalMargin, Beta1Margin, NormalKernelMargin, BetaKernelMargin,
             BetaBinomialMargin, OrderedKernelMargin):
    register_margin(_cls.name, _cls)
del _cls

__all__ = [
    "KDE",
    "Beta",
    "Empirical",
    "FittedModel",
    "GoodnessOfFit",
    "Model",
    "Normal",
    "TruncNormal",
    "Uniform",
    "ZScore",
    "fit_reference",
    "get_model",
    "goodness_of_fit",
    "model_names",
    "read_factors",
    "read_fitted",
    "register_model",
    "standardization_factors",
    "write_factors",
    "write_fitted",
]

#: Names of earlier releases, read for one release with a DeprecationWarning: old → new.
_RENAMED = {"compare_models": "goodness_of_fit", "ModelComparison": "GoodnessOfFit"}


def __getattr__(name: str):
    if name in _RENAMED:
        new = _RENAMED[name]
        warnings.warn(f"scorestd.models.{name} is now {new}; the old name will be removed in "
                      "the next release", DeprecationWarning, stacklevel=2)
        return globals()[new]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
