"""E-std: the empirical cdf of the reference scores (Urbano, Lima & Hanjalic 2019)."""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from .._options import Ties, check_option
from ..kernels.ecdf import self_counts
from ..kernels.standardize import ecdf
from ._base import Model, _RowSummary

__all__ = ["Empirical"]


class Empirical(Model):
    """Empirical distribution per topic: E-std, ``y = #{x_i ≤ x} / n``.

    The cdf is the right-continuous ecdf of the topic's ``n`` non-NaN reference
    scores (Urbano, Lima & Hanjalic 2019, Eq. 7). With ``ties="mid"`` a reference
    score equal to ``x`` counts one half, ``(#{x_i < x} + #{x_i ≤ x}) / (2n)``, so that
    tied systems share the mid-rank and the standardized reference scores average
    exactly 1/2. ``icdf`` is the generalized inverse (the smallest reference score
    whose ecdf reaches ``p``); ``sample`` therefore resamples the reference scores
    (bootstrap). There is no density. ``params["sample"]`` holds the sorted
    reference scores (``NaN``-padded).

    Parameters
    ----------
    ties : {"right", "mid"}
        Right-continuous ecdf (default) or mid-rank ties.

    Examples
    --------
    >>> import scorestd
    >>> ref = scorestd.cube([[0.1, 0.3, 0.3, 0.5]])
    >>> Empirical.fit(ref).cdf(ref).values[..., 0].tolist()
    [[0.25, 0.75, 0.75, 1.0]]
    >>> Empirical(ties="mid").fit(ref).cdf(ref).values[..., 0].tolist()
    [[0.125, 0.5, 0.5, 0.875]]
    """

    name: ClassVar[str] = "empirical"
    reference: ClassVar[str] = "Urbano, Lima & Hanjalic (2019), SIGIR"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        check_option(self.options["ties"], Ties, "ties")

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"ties": "right"}

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("sample",)

    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        return {"sample": np.sort(np.ascontiguousarray(values), axis=-1)}

    def _cdf(self, x, *, sample):
        return ecdf(x, sample, ties=self.options["ties"])

    def _fit_cdf_self(self, values):
        # One sort of the (strided) scores gives the ecdf and the rows' n, min and max.
        ranks = self_counts(values, self.options["ties"], keep_sorted=False, divide=True)
        return ranks.counts, _RowSummary(ranks.n[..., 0], ranks.low, ranks.high,
                                         bool((ranks.n[..., 0] < values.shape[-1]).any()))

    def _icdf(self, p, *, sample):
        n = (~np.isnan(sample)).sum(axis=-1, keepdims=True)
        # Smallest k with k / n >= p (1-based), i.e. ceil(p n), at least 1.
        k = np.clip(np.ceil(p * n), 1, np.maximum(n, 1)).astype(np.intp) - 1
        k = np.where(np.isnan(p), 0, k)
        return np.take_along_axis(np.broadcast_to(sample, (*p.shape[:-1], sample.shape[-1])),
                                  k, axis=-1)
