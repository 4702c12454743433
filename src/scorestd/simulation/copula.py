"""Dependence between systems: a copula on the pseudo-observations of their scores.

Systems are evaluated on the same topics, so their scores are correlated (an easy
topic is easy for every system). The simulator keeps the margins and the dependence
apart (Sklar's theorem): the scores of system ``s`` on a simulated topic are
``F_s⁻¹(U_s)`` with ``U`` drawn from a copula fitted on the pseudo-observations
``u_ts = rank_t(x_ts) / (T + 1)`` (ties get average ranks).

- :class:`GaussianCopula` (default, numpy only): the correlation matrix ``R`` of the
  normal scores ``Φ⁻¹(u)``; draws are ``Φ(Z)`` with ``Z ~ N(0, R)``. Kendall's τ between
  two systems is ``2/π · asin(ρ)``.
- :class:`VineCopula`: an R-vine from ``pyvinecopulib`` (``pip install
  "scorestd[vine]"``), with a family set and a selection criterion; what simIReff's
  ``effcop`` uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import special, stats

from .._options import MarginCriterion, check_count, check_option
from ..errors import ScorestdError

__all__ = ["GaussianCopula", "VineCopula", "pseudo_observations"]


def pseudo_observations(x: np.ndarray) -> np.ndarray:
    """Ranks scaled into (0, 1) per column: ``rank / (T + 1)`` (average ranks for ties).

    Examples
    --------
    >>> pseudo_observations(np.array([[0.1], [0.5], [0.3]])).ravel().tolist()
    [0.25, 0.75, 0.5]
    """
    return stats.rankdata(x, axis=0) / (x.shape[0] + 1)


class GaussianCopula:
    """Gaussian copula fitted by the correlation of the normal scores.

    Parameters
    ----------
    corr : numpy.ndarray
        ``(S, S)`` correlation matrix (positive semi-definite).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], size=5000)
    >>> round(float(GaussianCopula.fit(z).corr[0, 1]), 1)
    0.6
    """

    name = "gaussian"

    def __init__(self, corr: np.ndarray) -> None:
        corr = np.asarray(corr, dtype=np.float64)
        if corr.ndim != 2 or corr.shape[0] != corr.shape[1]:
            raise ValueError(f"corr must be a square matrix; got shape {corr.shape}")
        self.corr = corr
        vals, vecs = np.linalg.eigh((corr + corr.T) / 2)
        factor = vecs * np.sqrt(np.clip(vals, 0.0, None))
        norms = np.sqrt((factor * factor).sum(axis=1, keepdims=True))
        self.factor = factor / np.where(norms > 0, norms, 1.0)  # rows of unit length

    @classmethod
    def fit(cls, x: np.ndarray) -> GaussianCopula:
        """Fit to scores ``(T, S)`` (topics × systems)."""
        z = special.ndtri(pseudo_observations(np.asarray(x, dtype=np.float64)))
        z = z - z.mean(axis=0)
        sd = np.sqrt((z * z).mean(axis=0))
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = (z.T @ z) / z.shape[0] / np.outer(sd, sd)
        corr = np.where(np.isfinite(corr), corr, 0.0)
        np.fill_diagonal(corr, 1.0)
        return cls(corr)

    @property
    def kendall_tau(self) -> np.ndarray:
        """Kendall's τ implied by the copula between every pair, ``2/π asin(ρ)``."""
        return 2.0 / np.pi * np.arcsin(np.clip(self.corr, -1.0, 1.0))

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` draws ``(n, S)`` of the copula (uniform margins)."""
        z = rng.standard_normal((int(n), self.factor.shape[1])) @ self.factor.T
        return special.ndtr(z)


def _vine_module():
    try:
        import pyvinecopulib
    except ImportError:
        raise ScorestdError(
            'vine copulas need the optional package pyvinecopulib: pip install "scorestd[vine]"'
        ) from None
    return pyvinecopulib


class VineCopula:
    """An R-vine copula of ``pyvinecopulib`` (optional extra ``scorestd[vine]``).

    Parameters
    ----------
    vine : pyvinecopulib.Vinecop
        The fitted vine.
    """

    name = "vine"

    def __init__(self, vine: Any) -> None:
        self.vine = vine

    @classmethod
    def fit(cls, x: np.ndarray, *, family_set: Sequence[str] | None = None,
            criterion: MarginCriterion = "aic", trunc_lvl: int | None = None) -> VineCopula:
        """Fit to scores ``(T, S)``: structure, pair families and parameters.

        Parameters
        ----------
        family_set : sequence of str, optional
            Pair-copula families (``pyvinecopulib.BicopFamily`` names such as
            ``"gaussian"``, ``"clayton"``, ``"tll"``); default: all parametric ones.
        criterion : {"aic", "bic", "loglik"}
            Selection criterion of the pair families.
        trunc_lvl : int, optional
            Truncation level (independence beyond it): keeps large vines fast.
        """
        pv = _vine_module()
        check_option(criterion, MarginCriterion, "criterion")
        families = _families(pv, family_set)
        kwargs = {"family_set": families, "selection_criterion": criterion}
        if trunc_lvl is not None:
            kwargs["trunc_lvl"] = int(trunc_lvl)
        controls = pv.FitControlsVinecop(**kwargs)
        u = np.asfortranarray(pseudo_observations(np.asarray(x, dtype=np.float64)))
        return cls(pv.Vinecop.from_data(u, controls=controls))

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` draws ``(n, S)``, seeded from ``rng``."""
        seeds = [int(s) for s in rng.integers(0, 2**31 - 1, size=4)]
        draw = getattr(self.vine, "sample", None) or self.vine.simulate
        return np.asarray(draw(int(n), seeds=seeds))


def _families(pv: Any, family_set: Sequence[str] | None) -> list:
    if family_set is None:
        return list(getattr(getattr(pv, "families", None), "parametric", None)
                    or pv.parametric)
    return [getattr(pv.BicopFamily, str(f)) for f in family_set]


def fit_pair_copulas(x: np.ndarray, *, family_set: Sequence[str] | None = None,
                     criterion: MarginCriterion = "aic", method: str = "itau",
                     threads: int = 1) -> np.ndarray:
    """A bivariate copula (``pyvinecopulib.Bicop``) for every pair of columns of ``x``.

    Each pair's family (and rotation) is selected by ``criterion`` among ``family_set``
    (default: every parametric family) on the pseudo-observations, as Urbano, Lima &
    Hanjalic (2019) do with R's ``VineCopula::BiCopSelect``; ``method`` fits the
    parameters (``"itau"``: inversion of Kendall's τ, fast; ``"mle"``). ``threads``
    fit the candidate families of a pair in parallel (the same selection).

    Returns
    -------
    numpy.ndarray
        ``(S, S)`` object array: entry ``[i, j]`` (``i < j``) is the copula of columns
        ``(i, j)``; the other entries are ``None``.
    """
    pv = _vine_module()
    check_option(method, ("itau", "mle"), "method")
    controls = pv.FitControlsBicop(family_set=_families(pv, family_set),
                                   selection_criterion=criterion, parametric_method=method,
                                   num_threads=check_count("threads", threads))
    u = pseudo_observations(np.asarray(x, dtype=np.float64))
    out = np.empty((u.shape[1], u.shape[1]), dtype=object)
    for i in range(u.shape[1]):
        for j in range(i + 1, u.shape[1]):
            out[i, j] = pv.Bicop.from_data(np.asfortranarray(u[:, [i, j]]), controls=controls)
    return out


def sample_pair(copula: Any, n: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` draws ``(n, 2)`` of a ``pyvinecopulib.Bicop`` seeded from ``rng``."""
    seeds = [int(s) for s in rng.integers(0, 2**31 - 1, size=2)]
    draw = getattr(copula, "sample", None) or copula.simulate
    return np.asarray(draw(int(n), seeds=seeds))


def check_vine_available() -> None:
    """Raise the error naming the extra when ``pyvinecopulib`` is missing."""
    _vine_module()
