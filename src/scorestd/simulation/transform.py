"""The mean transform of simIReff: ``G(x) = F_Beta(F(x); a, b)`` with ``E_G`` = a target.

A margin ``F`` on [0, 1] (or on a discrete support) becomes ``G = I_F(a, b)``, the
regularised incomplete beta function of ``F``, with ``a, b ≥ 1``; ``a = b = 1`` is the
identity. Raising the mean takes ``b = 1`` and ``a ≥ 1`` (``G = F^a``, mass moves up);
lowering it takes ``a = 1`` and ``b ≥ 1`` (``G = 1 − (1 − F)^b``). On either path the
mean is strictly monotone in the parameter, so the target fixes it uniquely; it is
solved by safeguarded Newton steps in ``log a`` (or ``log b``) on the tabulated cdf,
for many margins at once. (simIReff lets an optimiser move both shapes from (1, 1); one
equation does not determine two shapes, so its answer depends on the optimiser; the
one-parameter paths are a deterministic choice within the same family of transforms.)

The mean of a tabulated margin is ``E = c − Σ_k v_k G_k``: on the continuous grid
``c = 1`` and ``v`` the trapezoid weights (``E = ∫ (1 − G)``); on a support
``s_0 < … < s_K``, ``c = s_K`` and ``v_k = s_{k+1} − s_k`` (summation by parts).
"""

from __future__ import annotations

import numpy as np

from ..models import _grid

__all__ = ["apply_transform", "solve_mean_transform"]

#: Largest shape tried: a target beyond the mean reached with it is unreachable.
MAX_SHAPE = 1e7
_TOL = 1e-10


def _weights(support: np.ndarray | None) -> tuple[float, np.ndarray]:
    if support is None:
        return 1.0, _grid.WEIGHTS
    return float(support[-1]), np.append(np.diff(support), 0.0)


def apply_transform(cdf: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``I_F(a, b)`` of cdf rows ``(…, K)`` with one ``(a, b)`` per row (one of them 1).

    Examples
    --------
    >>> apply_transform(np.array([[0.25, 1.0]]), np.array([2.0]), np.array([1.0])).tolist()
    [[0.0625, 1.0]]
    """
    a, b = np.asarray(a, float)[..., np.newaxis], np.asarray(b, float)[..., np.newaxis]
    up = np.power(cdf, a)
    down = 1.0 - np.power(1.0 - cdf, b)
    return np.where(b == 1.0, up, down)


def solve_mean_transform(cdf: np.ndarray, target: np.ndarray,
                         support: np.ndarray | None = None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shapes ``(a, b)`` giving each tabulated margin the mean ``target``.

    Parameters
    ----------
    cdf : numpy.ndarray
        ``(M, K)`` cdf tables (on :data:`scorestd.models._grid.X`, or on ``support``).
    target : numpy.ndarray
        ``(M,)`` target means.
    support : numpy.ndarray, optional
        The support of discrete margins.

    Returns
    -------
    a, b : numpy.ndarray
        ``(M,)`` shapes (``NaN`` where the target cannot be reached).
    reached : numpy.ndarray
        ``(M,)`` whether the target was reached (to 1e-10).

    Examples
    --------
    >>> from scorestd.models import _grid
    >>> a, b, ok = solve_mean_transform(_grid.X[np.newaxis], np.array([2 / 3]))
    >>> round(float(a[0]), 6), float(b[0]), bool(ok[0])  # uniform → density 2x
    (2.0, 1.0, True)
    """
    cdf = np.asarray(cdf, dtype=np.float64)
    target = np.asarray(target, dtype=np.float64)
    c, v = _weights(support)
    base = c - cdf @ v
    up = target >= base
    # Work with H = F (raise the mean, G = H^a) or H = 1 − F (lower it, G = 1 − H^b):
    # mean(t) = c − Σ v F^e (up) or c − Σ v (1 − H^e) (down), e = exp(t).
    h = np.where(up[:, np.newaxis], cdf, 1.0 - cdf)
    logh = np.log(np.where(h > 0, h, 1.0))
    goal = np.where(up, c - target, target - c + v.sum())  # Σ v H^e must equal this

    def value_and_slope(t, rows=slice(None)):
        e = np.exp(t)[:, np.newaxis]
        he = np.where(h[rows] > 0, np.exp(e * logh[rows]), 0.0)
        s = he @ v
        return s, (he * logh[rows] * e) @ v  # d/dt Σ v H^e (≤ 0)

    lo, hi = np.zeros(len(target)), np.full(len(target), np.log(MAX_SHAPE))
    s_hi, _ = value_and_slope(hi)
    reachable = s_hi <= goal + _TOL  # Σ v H^e decreases from its value at e = 1
    t = np.zeros(len(target))
    done = ~reachable | (np.abs(value_and_slope(t)[0] - goal) <= _TOL)
    for _ in range(200):
        active = ~done
        if not active.any():
            break
        s, slope = value_and_slope(t[active], active)
        err = s - goal[active]
        ok = np.abs(err) <= _TOL
        # keep the bracket: Σ v H^e is decreasing in t
        lo_a, hi_a = lo[active], hi[active]
        lo_a = np.where(err > 0, t[active], lo_a)
        hi_a = np.where(err < 0, t[active], hi_a)
        with np.errstate(divide="ignore", invalid="ignore"):
            newton = t[active] - err / slope
        inside = np.isfinite(newton) & (newton > lo_a) & (newton < hi_a)
        nxt = np.where(inside, newton, (lo_a + hi_a) / 2)
        idx = np.flatnonzero(active)
        lo[idx], hi[idx] = lo_a, hi_a
        t[idx] = np.where(ok, t[idx], nxt)
        done[idx] = ok | (hi_a - lo_a < 1e-14)
    shape = np.exp(t)
    a = np.where(reachable, np.where(up, shape, 1.0), np.nan)
    b = np.where(reachable, np.where(up, 1.0, shape), np.nan)
    return a, b, reachable
