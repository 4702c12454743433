"""A pair copula selected as R's ``VineCopula::BiCopSelect`` selects it, by default.

Urbano, Lima & Hanjalic (2019) fit the copula of every pair of runs with
``BiCopSelect(u1, u2, selectioncrit = "AIC")`` (VineCopula; every other argument at its
default). Its family set is not ``pyvinecopulib``'s:

- **Tawn**: two two-parameter types instead of one three-parameter family. Type 1
  (VineCopula's families 104, 114, 124, 134) is ``pyvinecopulib``'s Tawn with
  ``ψ₂ = 1``; type 2 (204, 214, 224, 234) the one with ``ψ₁ = 1`` (its transpose). Both
  are fitted by maximum likelihood inside VineCopula's box: ``θ ∈ [1.001, 20]`` and the
  asymmetry ``ψ ∈ [max(τ̂ − 0.1, 10⁻⁴), min(τ̂ + 0.2, 0.99)]`` around the empirical
  Kendall τ̂ (``|τ̂|`` for the 90° and 270° rotations), from ``θ = 1 + 6|τ̂|``,
  ``ψ = min(|τ̂| + 0.1, 0.999)`` (``MLE_intern_Tawn``).
- **Preselection** (``presel = TRUE``): the candidates depend on the sign of τ̂ and on
  the difference of the normal scores' correlations in the two tails of that sign
  (more than 0.05 or 0.3 apart: only the families with the heavier tail there, with
  the Student t and, below 0.3, the Gaussian and Frank copulas);
- **independence** is always a candidate (AIC 0); no independence test
  (``indeptest = FALSE``).

The other families (Gaussian, Student t, Clayton, Gumbel, Frank, Joe, BB1, BB6, BB7,
BB8 and their rotations) are fitted by ``pyvinecopulib`` (maximum likelihood within its
own bounds: the Student t's degrees of freedom up to 50 where VineCopula stops at 30;
the BB families' bounds differ slightly too). A pair's AIC is ``−2 ℓ + 2 k`` (``k`` =
0, 1 or 2), the least wins, ties to the first candidate in VineCopula's order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special

from .._options import TawnBounds, check_option
from ..kernels.blas import limited_blas
from ..kernels.correlation import kendall_tau_b

__all__ = ["BicopCandidate", "bicopselect", "bicopselect_candidates", "fit_tawn_type",
           "fitted_candidates", "least_aic", "preselected_families", "vinecopula_family"]

#: VineCopula's family codes (``allfams``).
ALL_FAMILIES = (0, *range(1, 11), 13, 14, *range(16, 21), 23, 24, *range(26, 31), 33, 34,
                *range(36, 41), 104, 114, 124, 134, 204, 214, 224, 234)
_POSITIVE = (*range(1, 11), 13, 14, *range(16, 21), 104, 114, 204, 214)
_NEGATIVE = (1, 2, 5, 23, 24, *range(26, 31), 33, 34, *range(36, 41), 124, 134, 224, 234)
# families with more dependence near (1, 1), (0, 0), (1, 0) and (0, 1) (VineCopula's sets)
_NEAR_11 = (13, 4, 6, 7, 17, 8, 9, 19, 10, 104, 204)
_NEAR_00 = (3, 14, 16, 7, 17, 18, 9, 19, 20, 114, 214)
_NEAR_10 = (23, 34, 36, 27, 37, 38, 29, 39, 40, 134, 234)
_NEAR_01 = (33, 24, 26, 27, 37, 28, 29, 39, 30, 124, 224)
_BASE = {1: "gaussian", 2: "student", 3: "clayton", 4: "gumbel", 5: "frank", 6: "joe",
         7: "bb1", 8: "bb6", 9: "bb7", 10: "bb8"}
# VineCopula's rotations: the tens digit. Its 90° and 270° rotations reflect one margin;
# for the exchangeable families that is pyvinecopulib's rotation, and its rotated Tawns
# are rotated as pyvinecopulib rotates (c(v, 1 − u) at 90°, c(1 − v, u) at 270°).
_ROTATION = {0: 0, 1: 180, 2: 90, 3: 270}
_THETA_BOUNDS = (1.001, 20.0)
_PSI_BOUNDS = (1e-4, 0.99)


def vinecopula_family(code: int) -> tuple[str, int, int]:
    """``(pyvinecopulib family, rotation, Tawn type)`` of a VineCopula family code (the
    Tawn type is 0 for the other families).

    Examples
    --------
    >>> vinecopula_family(124), vinecopula_family(36), vinecopula_family(2)
    (('tawn', 90, 1), ('joe', 270, 0), ('student', 0, 0))
    """
    if code == 0:
        return "indep", 0, 0
    if code > 100:
        return "tawn", _ROTATION[(code % 100) // 10], code // 100
    if code in (1, 2, 5):
        return _BASE[code], 0, 0
    return _BASE[code % 10 or 10], _ROTATION[(code - 1) // 10], 0


def preselected_families(u: np.ndarray, tau: float | None = None) -> list[int]:
    """VineCopula's candidate families of the pseudo-observations ``u`` ``(N, 2)``
    (``BiCopSelect(presel = TRUE)``), in its order.

    Examples
    --------
    >>> from scipy import stats
    >>> rng = np.random.default_rng(0)
    >>> z = rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 200)
    >>> fams = preselected_families(stats.norm.cdf(z))
    >>> 0 in fams, 104 in fams or 114 in fams, 124 in fams
    (True, True, False)
    """
    u = np.asarray(u, dtype=np.float64)
    if tau is None:
        tau = _empirical_tau(u)
    if tau == 0 or not np.isfinite(tau):
        return list(ALL_FAMILIES)
    x = special.ndtri(u)  # stats.norm.ppf's numbers, without its checks
    if tau > 0:
        upper, lower = _quadrant_corr(x, 1, 1), _quadrant_corr(x, -1, -1)
        if np.isnan(upper) or np.isnan(lower):
            todo = (0, *_POSITIVE)
        elif upper - lower > 0.3:
            todo = (0, 2, *_NEAR_11)
        elif upper - lower > 0.05:
            todo = (0, 1, 2, 5, 20, *_NEAR_11)
        elif upper - lower < -0.3:
            todo = (0, 2, *_NEAR_00)
        elif upper - lower < -0.05:
            todo = (0, 1, 2, 5, 10, *_NEAR_00)
        else:
            todo = (0, *_POSITIVE)
    else:
        c10, c01 = _quadrant_corr(x, 1, -1), _quadrant_corr(x, -1, 1)
        if np.isnan(c10) or np.isnan(c01):
            todo = (0, *_NEGATIVE)
        elif c10 - c01 < -0.3:
            todo = (0, 2, *_NEAR_10)
        elif c10 - c01 < -0.05:
            todo = (0, 1, 2, 5, 30, *_NEAR_10)
        elif c10 - c01 > 0.3:
            todo = (0, 2, *_NEAR_01)
        elif c10 - c01 > 0.05:
            todo = (0, 1, 2, 5, 40, *_NEAR_01)
        else:
            todo = (0, *_NEGATIVE)
    return list(todo)


def _quadrant_corr(x: np.ndarray, s1: int, s2: int) -> float:
    """Pearson correlation of the normal scores in one quadrant (``NaN`` where R's
    ``cor`` gives ``NA`` or fails: fewer than 2 points or a constant column)."""
    keep = (s1 * x[:, 0] > 0) & (s2 * x[:, 1] > 0)
    q = x[keep].T.copy()  # (2, m), as np.corrcoef stacks its two arguments
    if q.shape[1] < 2 or np.ptp(q[0]) == 0 or np.ptp(q[1]) == 0:
        return np.nan
    # np.corrcoef's operations in its order (the same number, without its checks)
    q -= q.mean(axis=1)[:, None]
    c = np.dot(q, q.T)
    c *= np.true_divide(1, np.float64(q.shape[1]) - 1)
    sd = np.sqrt(np.diag(c))
    return float(np.clip(c[0, 1] / sd[0] / sd[1], -1, 1))


def _empirical_tau(u: np.ndarray) -> float:
    """Kendall's τ_b of the two columns of ``u`` ``(N, 2)``, ``scipy.stats.kendalltau``'s
    number bit for bit (:func:`scorestd.kernels.correlation.kendall_tau_b`); NaN below
    two rows or with a NaN."""
    return float(kendall_tau_b(u[:, 0], u[:, 1])) if len(u) >= 2 else np.nan


def _tawn(pv: Any, tawn_type: int, rotation: int, theta: float, psi: float) -> Any:
    params = [psi, 1.0, theta] if tawn_type == 1 else [1.0, psi, theta]
    return pv.Bicop(family=pv.BicopFamily.tawn, rotation=rotation,
                    parameters=np.array(params, dtype=np.float64).reshape(3, 1))


@limited_blas  # tiny BLAS calls in L-BFGS-B: one thread (kernels.blas)
def fit_tawn_type(u: np.ndarray, tawn_type: int, rotation: int, *, tau: float | None = None,
                  bounds: TawnBounds = "vinecopula") -> Any:
    """A Tawn copula of one type (1: ``ψ₂ = 1``, 2: ``ψ₁ = 1``) and rotation fitted to
    ``u`` ``(N, 2)`` by maximum likelihood (L-BFGS-B on ``pyvinecopulib``'s density).

    Parameters
    ----------
    u : numpy.ndarray
        Pseudo-observations.
    tawn_type : {1, 2}
        Which asymmetry parameter is fixed at 1.
    rotation : {0, 90, 180, 270}
        Rotation, as ``pyvinecopulib`` rotates.
    tau : float, optional
        The empirical Kendall τ of ``u`` (computed if not given).
    bounds : {"vinecopula", "full"}
        VineCopula's box (``θ ∈ [1.001, 20]``, ``ψ`` within ``[|τ̂| − 0.1, |τ̂| + 0.2]``
        of ``[10⁻⁴, 0.99]``) and starting point, or the whole parameter space of
        ``pyvinecopulib`` (``θ ∈ [1, 60]``, ``ψ ∈ [0, 1]``; same start).

    Returns
    -------
    pyvinecopulib.Bicop
        The fitted copula (a Tawn with the other ψ at 1).

    Examples
    --------
    >>> import pyvinecopulib as pv
    >>> true = pv.Bicop(family=pv.BicopFamily.tawn, parameters=np.array([[0.6], [1], [4.0]]))
    >>> u = true.sample(3000, seeds=[1, 2, 3])
    >>> fit = fit_tawn_type(u, 1, 0, bounds="full")
    >>> np.round(fit.parameters.ravel(), 1).tolist()
    [0.6, 1.0, 4.0]
    """
    from .copula import _vine_module

    check_option(bounds, TawnBounds, "bounds")
    pv = _vine_module()
    u = np.asfortranarray(np.asarray(u, dtype=np.float64))
    if tau is None:
        tau = _empirical_tau(u)
    a = abs(tau)
    if bounds == "vinecopula":
        box = [_THETA_BOUNDS, (max(a - 0.1, _PSI_BOUNDS[0]), min(a + 0.2, _PSI_BOUNDS[1]))]
    else:
        box = [(1.0, 60.0), (0.0, 1.0)]
    start = np.clip([1 + 6 * a, min(a + 0.1, 0.999)], [b[0] for b in box], [b[1] for b in box])

    copula = _tawn(pv, tawn_type, rotation, start[0], start[1])
    params = copula.parameters  # (3, 1): ψ₁, ψ₂, θ; the fitted ψ and θ set in place
    at = (0, 2) if tawn_type == 1 else (1, 2)

    def negative_loglik(p: np.ndarray) -> float:
        params[at[0], 0], params[at[1], 0] = p[1], p[0]
        copula.parameters = params
        ll = copula.loglik(u)
        return -ll if np.isfinite(ll) else 1e250  # as VineCopula: a failed point is worst

    upper = np.array([b[1] for b in box])
    best = optimize.minimize(_with_forward_difference(negative_loglik, upper), start,
                             jac=True, method="L-BFGS-B", bounds=box)
    return _tawn(pv, tawn_type, rotation, *best.x)


#: L-BFGS-B's default absolute step of its forward-difference gradient (``eps``).
_GRADIENT_STEP = 1e-8


def _with_forward_difference(fun: Any, upper: np.ndarray) -> Any:
    """``fun`` and its forward-difference gradient, the very numbers scipy's L-BFGS-B
    computes when given no gradient (absolute step :data:`_GRADIENT_STEP`, backward
    where the forward step would leave the box; the boxes here are far wider than the
    step), without scipy's general finite-difference machinery: the optimizer takes the
    same path to the same optimum at half the cost of a Tawn fit."""

    def value_and_gradient(x: np.ndarray) -> tuple[float, np.ndarray]:
        f0 = fun(x)
        gradient = np.empty(len(x))
        for i in range(len(x)):
            step = -_GRADIENT_STEP if x[i] + _GRADIENT_STEP > upper[i] else _GRADIENT_STEP
            moved = x.copy()
            moved[i] = x[i] + step
            gradient[i] = (fun(moved) - f0) / ((x[i] + step) - x[i])
        return f0, gradient

    return value_and_gradient


@dataclass(frozen=True)
class BicopCandidate:
    """One candidate of :func:`bicopselect_candidates`: its VineCopula code, the fitted
    ``pyvinecopulib.Bicop``, its log-likelihood, number of parameters and AIC."""

    code: int
    copula: Any
    loglik: float
    npars: int

    @property
    def aic(self) -> float:
        """``−2 ℓ + 2 k``."""
        return -2 * self.loglik + 2 * self.npars


def bicopselect_candidates(u: np.ndarray, *, tawn_bounds: TawnBounds = "vinecopula"
                           ) -> list[BicopCandidate]:
    """Every candidate of ``BiCopSelect`` on ``u`` ``(N, 2)``, fitted (VineCopula's
    preselection and order; a family that fails to fit is left out).

    Examples
    --------
    >>> from scipy import stats
    >>> rng = np.random.default_rng(0)
    >>> z = rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 200)
    >>> cands = bicopselect_candidates(stats.norm.cdf(z))
    >>> cands[0].code, cands[0].aic
    (0, 0.0)
    """
    return fitted_candidates(u, tawn_bounds=tawn_bounds)[0]


@limited_blas
def fitted_candidates(u: np.ndarray, *, tawn_bounds: TawnBounds = "vinecopula"
                      ) -> tuple[list[BicopCandidate], int]:
    """:func:`bicopselect_candidates` and how many preselected candidates there were (the
    difference: the families that failed to fit and were left out), from one
    preselection.

    Examples
    --------
    >>> from scipy import stats
    >>> rng = np.random.default_rng(0)
    >>> z = rng.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], 200)
    >>> cands, preselected = fitted_candidates(stats.norm.cdf(z))
    >>> len(cands) == preselected
    True
    """
    from .copula import _vine_module

    # checked here: a fit's ValueError only leaves its family out of the candidates
    check_option(tawn_bounds, TawnBounds, "tawn_bounds")
    pv = _vine_module()
    u = np.asfortranarray(np.asarray(u, dtype=np.float64))
    tau = _empirical_tau(u)
    controls = pv.FitControlsBicop(parametric_method="mle", num_threads=1)
    out = []
    preselected = preselected_families(u, tau)
    for code in preselected:
        family, rotation, tawn_type = vinecopula_family(code)
        if code == 0:
            out.append(BicopCandidate(0, pv.Bicop(), 0.0, 0))
            continue
        try:
            if tawn_type:
                cop = fit_tawn_type(u, tawn_type, rotation, tau=tau, bounds=tawn_bounds)
                npars = 2
            else:
                cop = pv.Bicop(family=getattr(pv.BicopFamily, family), rotation=rotation)
                cop.fit(u, controls=controls)
                npars = int(np.asarray(cop.parameters).size)
            loglik = float(cop.loglik(u))
        except (RuntimeError, ValueError):
            continue
        if np.isfinite(loglik) and np.all(np.isfinite(np.asarray(cop.parameters))):
            out.append(BicopCandidate(code, cop, loglik, npars))
    return out, len(preselected)


def bicopselect(u: np.ndarray, *, tawn_bounds: TawnBounds = "vinecopula") -> BicopCandidate:
    """The copula ``BiCopSelect(u1, u2, selectioncrit = "AIC")`` selects for ``u``
    ``(N, 2)``: the candidate of least AIC (:func:`bicopselect_candidates`).

    Examples
    --------
    >>> import pyvinecopulib as pv
    >>> true = pv.Bicop(family=pv.BicopFamily.tawn, rotation=180,
    ...                 parameters=np.array([[1.0], [0.7], [3.0]]))
    >>> best = bicopselect(true.sample(2000, seeds=[4, 5, 6]))
    >>> best.code  # the survival Tawn of type 2
    214
    """
    return least_aic(bicopselect_candidates(u, tawn_bounds=tawn_bounds))


def least_aic(candidates: list[BicopCandidate]) -> BicopCandidate:
    """The candidate of least AIC, the first of equal ones (as R's ``which.min``).

    Examples
    --------
    >>> least_aic([BicopCandidate(0, None, 0.0, 0), BicopCandidate(1, None, 3.0, 1)]).code
    1
    """
    return min(candidates, key=lambda c: c.aic)
