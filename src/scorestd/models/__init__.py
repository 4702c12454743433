"""Per-topic score-distribution models: N-std, U-std, E-std, z-std and more.

Every standardization is ``y = F̂(x)`` for an estimate ``F̂`` of a topic's score
distribution across reference systems (Urbano, Lima & Hanjalic 2019, §2); a model is
that ``F̂``. Models register by name; :func:`get_model` finds them.

>>> from scorestd import models
>>> models.model_names()
['normal', 'uniform', 'empirical', 'z', 'beta', 'kde', 'truncnorm']
"""

from ._base import DEGENERATE, FittedModel, Model
from .beta import Beta
from .compare import ModelComparison, compare_models
from .empirical import Empirical
from .kde import KDE
from .normal import Normal
from .persist import read_fitted, write_fitted
from .registry import get_model, model_names, register_model
from .truncnorm import TruncNormal
from .uniform import Uniform
from .zscore import ZScore

for _cls in (Normal, Uniform, Empirical, ZScore, Beta, KDE, TruncNormal):
    register_model(_cls.name, _cls)
del _cls

__all__ = [
    "DEGENERATE",
    "KDE",
    "Beta",
    "Empirical",
    "FittedModel",
    "Model",
    "ModelComparison",
    "Normal",
    "TruncNormal",
    "Uniform",
    "ZScore",
    "compare_models",
    "get_model",
    "model_names",
    "read_fitted",
    "register_model",
    "write_fitted",
]
