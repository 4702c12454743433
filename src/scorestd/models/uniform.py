"""U-std: Sakai's linear standardization ``clip(A z + B, 0, 1)`` as a uniform cdf."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..kernels.standardize import uniform_bounds, uniform_cdf
from ._location_scale import LocationScaleModel

__all__ = ["Uniform"]


class Uniform(LocationScaleModel):
    """Uniform distribution per topic: U-std, ``y = clip(A (x − μ) / σ + B, 0, 1)``.

    This is the cdf of the uniform on ``[μ − σB/A, μ + σ(1 − B)/A]`` (Urbano, Lima &
    Hanjalic 2019, Eq. 6), censored to [0, 1] outside it. μ and σ are the sample
    mean and ``n − 1`` sd of the topic's reference scores. Reference: T. Sakai (2016),
    "A simple and effective approach to score standardisation", ICTIR.

    Parameters
    ----------
    A : float
        Slope, default 0.15 (Sakai's choice).
    B : float
        Intercept, default 0.5.

    Examples
    --------
    >>> import scorestd
    >>> ref = scorestd.cube([[0.1, 0.3, 0.5]])
    >>> Uniform.fit(ref).cdf(ref).values[..., 0].round(4).tolist()
    [[0.35, 0.5, 0.65]]
    >>> Uniform(A=0.5).fit(ref).cdf(scorestd.cube([[0.0, 0.9]])).values[..., 0].round(4).tolist()
    [[0.0, 1.0]]
    """

    name: ClassVar[str] = "uniform"
    reference: ClassVar[str] = "Sakai (2016), ICTIR"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        uniform_bounds(0.0, 1.0, self.options["A"], self.options["B"])  # validates A, B

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"A": 0.15, "B": 0.5}

    def _bounds(self, mean, sd):
        return uniform_bounds(mean, sd, self.options["A"], self.options["B"])

    def _cdf(self, x, *, mean, sd):
        return uniform_cdf(x, mean, sd, self.options["A"], self.options["B"])

    def _icdf(self, p, *, mean, sd):
        a, b = self._bounds(mean, sd)
        return a + p * (b - a)

    def _logpdf(self, x, *, mean, sd):
        a, b = self._bounds(mean, sd)
        inside = (x >= a) & (x <= b)
        return np.where(inside, -np.log(b - a), -np.inf)
