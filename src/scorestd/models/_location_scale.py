"""Shared fit of the location-scale models: per-topic mean and ``n - 1`` sd."""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from ..kernels.standardize import location_scale
from ._base import Model

__all__ = ["LocationScaleModel"]


class LocationScaleModel(Model):
    """A model whose parameters are the per-topic sample mean and ``n - 1`` sd.

    These are Webber et al.'s standardization factors; a degenerate topic (zero sd)
    keeps μ=0, σ=1 under ``degenerate="unstandardized"``, as the published reference
    code does, so exported factors show exactly what was applied.
    """

    n_params: ClassVar[int | None] = 2
    _unstandardized_wording: ClassVar[str] = (
        "left unstandardized (μ=0, σ=1, as the published reference code does)")

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("mean", "sd")

    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        _, mean, sd = location_scale(values)
        mean, sd = mean[..., 0], sd[..., 0]
        return {"mean": np.where(degenerate, 0.0, mean), "sd": np.where(degenerate, 1.0, sd)}

    def _degenerate_params(self, params):
        # Factors written by the published code mark a degenerate topic by μ=0, σ=1 or σ=0.
        return (params["sd"] == 0) | ((params["mean"] == 0) & (params["sd"] == 1))

    def _unstandardized_cdf(self, x: np.ndarray) -> np.ndarray:
        return self._cdf(x, mean=np.float64(0.0), sd=np.float64(1.0))

    def _unstandardized_icdf(self, p: np.ndarray) -> np.ndarray:
        return self._icdf(p, mean=np.float64(0.0), sd=np.float64(1.0))
