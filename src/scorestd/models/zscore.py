"""z-std: the unbounded z-score ``(x − μ) / σ`` (Webber, Moffat & Zobel 2008)."""

from __future__ import annotations

from typing import ClassVar

from ..kernels.standardize import zscore
from ._location_scale import LocationScaleModel

__all__ = ["ZScore"]


class ZScore(LocationScaleModel):
    """The z-score per topic: z-std, ``y = (x − μ) / σ``; not a cdf (unbounded).

    Same fit as :class:`~scorestd.models.normal.Normal` (sample mean, ``n − 1`` sd);
    ``cdf`` returns the z-score so that it plugs into :func:`scorestd.standardize`
    like the cdf models, and ``icdf`` maps a z-score back to the raw score. It has no
    density. Reference: Webber, Moffat & Zobel (2008), SIGIR, the first step of N-std;
    Urbano, Lima & Hanjalic (2019), Eq. 1.

    Examples
    --------
    >>> import scorestd
    >>> ref = scorestd.cube([[0.1, 0.3, 0.5]])
    >>> ZScore.fit(ref).cdf(ref).values[..., 0].round(6).tolist()
    [[-1.0, 0.0, 1.0]]
    """

    name: ClassVar[str] = "z"
    reference: ClassVar[str] = "Webber, Moffat & Zobel (2008), SIGIR"
    is_cdf: ClassVar[bool] = False

    def _cdf(self, x, *, mean, sd):
        return zscore(x, mean, sd)

    def _icdf(self, p, *, mean, sd):
        return mean + sd * p
