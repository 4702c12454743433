"""N-std: the normal cdf with the per-topic mean and sd (Webber, Moffat & Zobel 2008)."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from scipy import special

from ..kernels.standardize import normal_cdf
from ._location_scale import LocationScaleModel

__all__ = ["Normal"]

_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


class Normal(LocationScaleModel):
    """Normal distribution per topic: N-std, ``y = Φ((x − μ) / σ)``.

    μ is the sample mean and σ the ``n − 1`` standard deviation of the reference
    scores of the topic. Reference: W. Webber, A. Moffat & J. Zobel (2008), "Score
    standardization for inter-collection comparison of retrieval systems", SIGIR;
    Urbano, Lima & Hanjalic (2019), Eq. 5.

    Examples
    --------
    >>> import scorestd
    >>> ref = scorestd.cube([[0.1, 0.3, 0.5]])
    >>> Normal.fit(ref).cdf(ref).values[..., 0].round(4).tolist()
    [[0.1587, 0.5, 0.8413]]
    """

    name: ClassVar[str] = "normal"
    reference: ClassVar[str] = "Webber, Moffat & Zobel (2008), SIGIR"

    def _cdf(self, x, *, mean, sd):
        return normal_cdf(x, mean, sd)

    def _icdf(self, p, *, mean, sd):
        return mean + sd * special.ndtri(p)

    def _logpdf(self, x, *, mean, sd):
        z = (x - mean) / sd
        return -0.5 * z * z - np.log(sd) - _LOG_SQRT_2PI
