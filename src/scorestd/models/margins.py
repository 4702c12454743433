"""The margin protocol: a score distribution of one system over topics.

A margin family is a :class:`scorestd.models.Model` (the per-topic standardization
protocol) whose numpy functions work on ``(…, n)`` arrays of any leading shape: fitted
across the systems of a topic it is a standardizer (``Model.fit(cube)``,
``Model.standardize``), fitted across the topics of a system it is a margin of the
simulator (:func:`scorestd.fit_margins`). On top of the model protocol a family adds

- ``discrete`` (and, if so, a ``support`` option: the sorted values a score can take);
- ``_eff_df(values, **params)``: the effective degrees of freedom of the fit (the
  number of parameters for a parametric family, the trace of the smoother for a kernel
  density), used by AIC and BIC;
- ``_tabulate(**params)``: the cdf on the grid of :mod:`._grid` (continuous) or on the
  support (discrete), from which moments, draws and the mean transform are computed.

Rows a family cannot fit get ``NaN`` parameters (``_fit_ok`` says which); the
selection skips them with a warning naming the system.

Families register by name with :func:`register_margin` (and as models with
:func:`scorestd.models.register_model`), so ``families=["truncnorm", "mine"]`` works.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..errors import ScoreDataError, ScorestdError
from . import _grid
from ._base import Model
from .registry import model_names as _model_names
from .registry import register_model

__all__ = [
    "ContinuousMargin",
    "DiscreteMargin",
    "MarginFamily",
    "get_margin",
    "margin_names",
    "nearest_index",
    "register_margin",
]

#: Scores matched to a discrete support within this distance (as simIReff does).
SUPPORT_TOLERANCE = 1e-4


class MarginFamily(Model):
    """Base class of the margin families (a :class:`~scorestd.models.Model`)."""

    bounded: ClassVar[bool] = True
    #: Whether the family is a distribution on a finite support.
    discrete: ClassVar[bool] = False

    @property
    def label(self) -> str:
        """Name with the options that differ from the defaults, e.g. ``dkde(multiplier=2)``."""
        changed = {k: v for k, v in self.options.items()
                   if k != "support" and v != self.defaults().get(k)}
        return self.name + (
            "(" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")" if changed else "")

    def _eff_df(self, values: np.ndarray, **params: np.ndarray) -> np.ndarray:
        """Effective degrees of freedom per row (default: ``n_params``)."""
        return np.full(values.shape[:-1], float(self.n_params or 0))

    def _fit_ok(self, params: dict[str, np.ndarray]) -> np.ndarray:
        """Rows whose parameters are all finite."""
        ok = None
        for value in params.values():
            finite = np.isfinite(value) if value.dtype.kind == "f" else np.ones(value.shape, bool)
            lead = finite.reshape(*finite.shape[: _lead_ndim(params)], -1).all(axis=-1)
            ok = lead if ok is None else ok & lead
        return ok

    def _tabulate(self, **params: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _inapplicable(self, params: dict[str, np.ndarray]) -> np.ndarray | None:
        """Rows the family does not apply to by design (skipped without a warning, e.g.
        a multiplied kernel bandwidth beyond its range); ``None``: none."""
        return None

    def _check_complete(self, values: np.ndarray) -> None:
        if np.isnan(values).any():
            raise ScoreDataError(f"margin family {self.name!r} needs complete scores; "
                                 "drop or impute the missing ones first")

    def loglik(self, values: np.ndarray, params: dict[str, np.ndarray]) -> np.ndarray:
        """Log-likelihood of each row of ``values`` under its fitted parameters."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return self._logpdf(values, **expand(params, values.ndim)).sum(axis=-1)


class ContinuousMargin(MarginFamily):
    """A margin with a density on [0, 1]."""

    def _tabulate(self, **params: np.ndarray) -> np.ndarray:
        lead = _lead_shape(params)
        x = np.broadcast_to(_grid.X, (*lead, _grid.X.size))
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            cdf = self._cdf(x, **expand(params, x.ndim))
        cdf = np.clip(cdf, 0.0, 1.0)
        cdf[..., 0], cdf[..., -1] = 0.0, 1.0
        return np.maximum.accumulate(cdf, axis=-1)


class DiscreteMargin(MarginFamily):
    """A margin on a finite ``support`` (option): parameters include its ``cdf`` there.

    The cdf is a step function, the quantile is ``min{s_k : F(s_k) ≥ p}``, the density
    is the probability mass of the support point a score matches (within
    :data:`SUPPORT_TOLERANCE`).
    """

    discrete: ClassVar[bool] = True

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        support = self.options.get("support")
        if support is None:
            raise ScorestdError(f"margin family {self.name!r} needs support=: the values a "
                                "score can take (e.g. support_of('p10'))")
        support = np.asarray(support, dtype=np.float64)
        if support.ndim != 1 or support.size < 2 or np.any(np.diff(support) <= 0):
            raise ScorestdError(f"support of {self.name!r} must be a sorted 1-D array of at "
                                "least 2 distinct values")
        self.support = support

    def __repr__(self) -> str:
        return f"{type(self).__name__}(support=<{self.support.size} values>)"

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"support": None}

    def indices(self, values: np.ndarray, *, what: str = "scores") -> np.ndarray:
        """Support index of each value; ``ScoreDataError`` naming a value off the support."""
        idx, on = nearest_index(self.support, values)
        off = ~on
        if off.any():
            where = tuple(int(i) for i in np.argwhere(off)[0])
            raise ScoreDataError(
                f"margin family {self.name!r}: {what} {float(values[where]):g} (at "
                f"{where}) is not on the support ({self.support.size} values from "
                f"{self.support[0]:g} to {self.support[-1]:g})")
        return idx

    def _cdf(self, x, *, cdf, **_):
        idx = np.searchsorted(self.support, x + SUPPORT_TOLERANCE, side="right") - 1
        inside = idx >= 0
        out = np.take_along_axis(np.broadcast_to(cdf, (*x.shape[:-1], cdf.shape[-1])),
                                 np.clip(idx, 0, None), axis=-1)
        return np.where(inside, out, 0.0)

    def _icdf(self, p, *, cdf, **_):
        cdf = np.broadcast_to(cdf, (*p.shape[:-1], cdf.shape[-1]))
        idx = (cdf[..., np.newaxis, :] < p[..., np.newaxis] - 1e-12).sum(axis=-1)
        return np.where(np.isnan(p), np.nan, self.support[np.minimum(idx, self.support.size - 1)])

    def _logpdf(self, x, *, cdf, **_):
        pmf = np.diff(cdf, axis=-1, prepend=0.0)
        pmf = np.broadcast_to(pmf, (*x.shape[:-1], pmf.shape[-1]))
        idx, on = nearest_index(self.support, x)
        with np.errstate(divide="ignore"):
            return np.where(on, np.log(np.take_along_axis(pmf, idx, axis=-1)), -np.inf)

    def _tabulate(self, *, cdf, **_):
        return cdf

    def _fit_ok(self, params):
        return np.isfinite(params["cdf"]).all(axis=-1)


def nearest_index(support: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Index of the support point nearest each value, and whether it is within
    :data:`SUPPORT_TOLERANCE` (``NaN`` is never on the support).

    Examples
    --------
    >>> idx, on = nearest_index(np.array([0.0, 0.5, 1.0]), np.array([0.49999, 0.7]))
    >>> idx.tolist(), on.tolist()
    ([1, 1], [True, False])
    """
    values = np.asarray(values, dtype=np.float64)
    pos = np.clip(np.searchsorted(support, values), 1, support.size - 1)
    left, right = support[pos - 1], support[pos]
    with np.errstate(invalid="ignore"):
        idx = np.where(np.abs(values - left) <= np.abs(right - values), pos - 1, pos)
        on = np.abs(values - support[idx]) <= SUPPORT_TOLERANCE
    return idx, on


def _lead_ndim(params: dict[str, np.ndarray]) -> int:
    return min(v.ndim for v in params.values())


def _lead_shape(params: dict[str, np.ndarray]) -> tuple[int, ...]:
    nd = _lead_ndim(params)
    return next(v.shape for v in params.values() if v.ndim == nd)


def expand(params: dict[str, np.ndarray], ndim: int) -> dict[str, np.ndarray]:
    """Parameters broadcastable against ``(…, n)`` values of ``ndim`` dims: scalar
    parameters (one value per row) get a trailing axis, vector ones keep theirs."""
    nd = _lead_ndim(params)
    return {k: v[..., np.newaxis] if v.ndim == nd and nd < ndim else v
            for k, v in params.items()}


_MARGINS: dict[str, type[MarginFamily]] = {}


def register_margin(name: str, cls: type[MarginFamily]) -> type[MarginFamily]:
    """Register a margin family under ``name``.

    A continuous family is also registered as a standardization model (if the name is
    free), so ``scorestd.standardize(scores, name)`` works; a discrete family needs its
    support, so it standardizes only as an instance (``model=Family(support=…)``).

    Examples
    --------
    >>> from scorestd.simulation import TruncNormalMargin
    >>> class Mine(TruncNormalMargin):
    ...     name = "mine"
    >>> register_margin("mine", Mine) is Mine
    True
    >>> "mine" in margin_names()
    True
    """
    if not (isinstance(cls, type) and issubclass(cls, MarginFamily)):
        raise TypeError(f"a margin family must subclass scorestd.simulation.MarginFamily, "
                        f"got {cls!r}")
    _MARGINS[str(name)] = cls
    if not cls.discrete and str(name) not in _model_names():
        register_model(str(name), cls)
    return cls


def get_margin(name_or_family: str | type[MarginFamily] | MarginFamily, **options: Any
               ) -> MarginFamily:
    """A margin family instance from a registered name, a class or an instance.

    Examples
    --------
    >>> get_margin("beta1")
    Beta1Margin()
    """
    if isinstance(name_or_family, MarginFamily):
        return name_or_family
    if isinstance(name_or_family, type) and issubclass(name_or_family, MarginFamily):
        return name_or_family(**options)
    if isinstance(name_or_family, str) and name_or_family in _MARGINS:
        return _MARGINS[name_or_family](**options)
    raise ScorestdError(f"unknown margin family {name_or_family!r}; choose one of "
                        f"{margin_names()} or pass a scorestd.simulation.MarginFamily")


def margin_names() -> list[str]:
    """Names of the registered margin families.

    Examples
    --------
    >>> margin_names()[:6]
    ['truncnorm', 'beta1', 'nkde', 'bkde', 'betabinom', 'dkde']
    """
    return list(_MARGINS)
