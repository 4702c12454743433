"""Bivariate (pair) copulas in numpy: h-functions and their inverses, many copulas at once.

The parametric families of ``pyvinecopulib`` (and of R's ``VineCopula``), with their
parameters as there, so that copulas fitted by ``pyvinecopulib`` are sampled here
without one library call per copula: every point carries its own family code,
rotation and parameters, and the points of one family are computed in one vectorised
pass, whatever the copula each belongs to.

``h(v | u) = P(V ≤ v | U = u) = ∂C(u, v)/∂u`` (``pyvinecopulib``'s ``hfunc1``);
a draw is ``(u, h⁻¹(w | u))`` with ``u, w`` independent uniforms. Closed forms for the
independence, Gaussian, Student t, Clayton and Frank copulas; the Gumbel, Joe, BB1,
BB6, BB7 and BB8 families through their Archimedean generator
(``h = φ'(u) / φ'(C(u, v))``) and the Tawn family through its Pickands dependence
function, inverted by a bracketed secant search (Illinois) to 1e-12 in ``v``.
Rotations by 90, 180 and 270 degrees turn a draw ``(u, v)`` of the unrotated copula
into ``(1 − v, u)``, ``(1 − u, 1 − v)``, ``(v, 1 − u)``, as ``vinecopulib`` rotates.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["FAMILIES", "NUMPY_FAMILIES", "family_code", "hfunc", "hinv", "sample"]

#: Family names, in the order of their integer codes.
FAMILIES: tuple[str, ...] = ("indep", "gaussian", "student", "clayton", "gumbel", "frank",
                             "joe", "bb1", "bb6", "bb7", "bb8", "tawn")
#: Families sampled here (all of them; others need ``pyvinecopulib``).
NUMPY_FAMILIES: frozenset[str] = frozenset(FAMILIES)
_ARCHIMEDEAN = ("gumbel", "joe", "bb1", "bb6", "bb7", "bb8")
_EPS = 1e-15
_TOL = 1e-9  # in z = Φ⁻¹(v)
_DZ = 1e-6
_RTOL = 1e-10  # relative to the tail probability min(w, 1 − w)
_SECANT_STEPS = 4
_ZMAX = 8.3  # Φ(±8.3) is within 1e-16 of 0 and 1


def family_code(name: str) -> int:
    """The integer code of a family name (``FAMILIES.index``).

    Examples
    --------
    >>> family_code("gumbel")
    4
    """
    return FAMILIES.index(str(name))


# -- Archimedean generators: φ, its inverse ψ and φ' ----------------------------------

def _generator(family: str, t: np.ndarray, p1: np.ndarray, p2: np.ndarray) -> np.ndarray:
    if family == "gumbel":
        return (-np.log(t)) ** p1
    if family == "joe":
        return -np.log1p(-(1 - t) ** p1)
    if family == "bb1":
        return (t ** -p1 - 1) ** p2
    if family == "bb6":
        return (-np.log1p(-(1 - t) ** p1)) ** p2
    if family == "bb7":
        return (1 - (1 - t) ** p1) ** -p2 - 1
    # bb8
    return -np.log((1 - (1 - p2 * t) ** p1) / (1 - (1 - p2) ** p1))


def _generator_inverse(family: str, s: np.ndarray, p1: np.ndarray, p2: np.ndarray
                       ) -> np.ndarray:
    if family == "gumbel":
        return np.exp(-s ** (1 / p1))
    if family == "joe":
        return 1 - (-np.expm1(-s)) ** (1 / p1)
    if family == "bb1":
        return (1 + s ** (1 / p2)) ** (-1 / p1)
    if family == "bb6":
        return 1 - (-np.expm1(-s ** (1 / p2))) ** (1 / p1)
    if family == "bb7":
        return 1 - (1 - (1 + s) ** (-1 / p2)) ** (1 / p1)
    return (1 - (1 - (1 - (1 - p2) ** p1) * np.exp(-s)) ** (1 / p1)) / p2


def _generator_slope(family: str, t: np.ndarray, p1: np.ndarray, p2: np.ndarray
                     ) -> np.ndarray:
    """φ'(t) (negative)."""
    if family == "gumbel":
        return -p1 * (-np.log(t)) ** (p1 - 1) / t
    if family == "joe":
        return -p1 * (1 - t) ** (p1 - 1) / (1 - (1 - t) ** p1)
    if family == "bb1":
        return -p2 * p1 * (t ** -p1 - 1) ** (p2 - 1) * t ** (-p1 - 1)
    if family == "bb6":
        inner = 1 - (1 - t) ** p1
        return -p2 * (-np.log(inner)) ** (p2 - 1) * p1 * (1 - t) ** (p1 - 1) / inner
    if family == "bb7":
        inner = 1 - (1 - t) ** p1
        return -p2 * p1 * inner ** (-p2 - 1) * (1 - t) ** (p1 - 1)
    inner = 1 - (1 - p2 * t) ** p1
    return -p1 * p2 * (1 - p2 * t) ** (p1 - 1) / inner


# -- Tawn: the extreme-value copula of Tawn (1988) -------------------------------------

def _pickands(t: np.ndarray, psi1: np.ndarray, psi2: np.ndarray, theta: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """``A(t)`` and ``A'(t)``."""
    a, b = psi1 * (1 - t), psi2 * t
    s = a ** theta + b ** theta
    root = s ** (1 / theta)
    slope = root / s * (b ** theta / np.maximum(t, _EPS) - a ** theta / np.maximum(1 - t, _EPS))
    return (1 - psi1) * (1 - t) + (1 - psi2) * t + root, psi1 - psi2 + slope


def _h_tawn(u: np.ndarray, v: np.ndarray, p: np.ndarray) -> np.ndarray:
    x, y = -np.log(u), -np.log(v)
    s = x + y
    t = y / s
    a, da = _pickands(t, p[0], p[1], p[2])
    return np.exp(-s * a) / u * (a - t * da)


def _given_u(family: str, u: np.ndarray, p: np.ndarray) -> tuple[np.ndarray, ...]:
    """What ``h(· | u)`` of a generator or Tawn family needs of ``u`` (computed once per
    search, not at every step)."""
    if family == "tawn":
        return (-np.log(u), 1 / u)
    return (_generator(family, u, p[0], p[1]), _generator_slope(family, u, p[0], p[1]))


def _h_given(family: str, given: tuple[np.ndarray, ...], v: np.ndarray, p: np.ndarray
             ) -> np.ndarray:
    """``h(v | u)`` from :func:`_given_u` (the families :func:`_solve` inverts)."""
    if family == "tawn":
        x, inv_u = given
        y = -np.log(v)
        s = x + y
        t = y / s
        a, da = _pickands(t, p[0], p[1], p[2])
        return np.exp(-s * a) * inv_u * (a - t * da)
    phi_u, slope_u = given
    c = _generator_inverse(family, phi_u + _generator(family, v, p[0], p[1]), p[0], p[1])
    return slope_u / _generator_slope(family, c, p[0], p[1])


# -- h-functions ------------------------------------------------------------------------

def _h(family: str, u: np.ndarray, v: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``h(v | u)`` of the unrotated family; ``p`` is ``(3, n)``."""
    if family == "indep":
        return v
    if family == "gaussian":
        rho = p[0]
        return special.ndtr((special.ndtri(v) - rho * special.ndtri(u)) / np.sqrt(1 - rho * rho))
    if family == "student":
        rho, nu = p[0], p[1]
        x, y = special.stdtrit(nu, u), special.stdtrit(nu, v)
        scale = np.sqrt((nu + x * x) * (1 - rho * rho) / (nu + 1))
        return special.stdtr(nu + 1, (y - rho * x) / scale)
    if family == "clayton":
        th = p[0]
        return u ** (-th - 1) * (u ** -th + v ** -th - 1) ** (-1 / th - 1)
    if family == "frank":
        th = p[0]
        a, b = np.expm1(-th * u), np.expm1(-th * v)
        return (a + 1) * b / (np.expm1(-th) + a * b)
    if family == "tawn":
        return _h_tawn(u, v, p)
    s = _generator(family, u, p[0], p[1]) + _generator(family, v, p[0], p[1])
    c = _generator_inverse(family, s, p[0], p[1])
    return _generator_slope(family, u, p[0], p[1]) / _generator_slope(family, c, p[0], p[1])


def _hinv(family: str, u: np.ndarray, w: np.ndarray, p: np.ndarray) -> np.ndarray:
    """``h⁻¹(w | u)`` of the unrotated family."""
    if family == "indep":
        return w
    if family == "gaussian":
        rho = p[0]
        return special.ndtr(rho * special.ndtri(u) + np.sqrt(1 - rho * rho) * special.ndtri(w))
    if family == "student":
        rho, nu = p[0], p[1]
        x = special.stdtrit(nu, u)
        scale = np.sqrt((nu + x * x) * (1 - rho * rho) / (nu + 1))
        return special.stdtr(nu, special.stdtrit(nu + 1, w) * scale + rho * x)
    if family == "clayton":
        th = p[0]
        return ((w ** (-th / (1 + th)) - 1) * u ** -th + 1) ** (-1 / th)
    if family == "frank":
        th = p[0]
        a = np.exp(-th * u)
        return -np.log1p(w * np.expm1(-th) / (a + w * (1 - a))) / th
    return _solve(family, u, w, p[:3], p[3] if len(p) > 3 else None)


def _solve(family: str, u: np.ndarray, w: np.ndarray, p: np.ndarray,
           start: np.ndarray | None = None) -> np.ndarray:
    """``v`` with ``h(v | u) = w``, searched on the normal scale ``z = Φ⁻¹(v)``.

    There ``h`` is a smooth, increasing, cdf-like function of ``z``. The search starts
    from the Gaussian copula with the same Kendall τ (``start`` holds its ``ρ``) and
    takes :data:`_SECANT_STEPS` secant steps on all points at once (one evaluation of
    ``h`` each, no bookkeeping); points not yet within :data:`_TOL` then take
    safeguarded Newton steps inside the bracket they keep (bisection when a step
    leaves it), so the search ends whatever the copula.
    """
    rho = np.zeros(u.shape) if start is None else np.clip(start, -0.99, 0.99)
    z0 = rho * special.ndtri(u) + np.sqrt(1 - rho * rho) * special.ndtri(w)
    lo, hi = np.full(u.shape, -_ZMAX), np.full(u.shape, _ZMAX)

    with np.errstate(all="ignore"):
        given = _given_u(family, u, p)

    def resid(z, gg=given, ww=w, pp=p):
        with np.errstate(all="ignore"):
            f = _h_given(family, gg, special.ndtr(z), pp) - ww
        return np.where(np.isnan(f), 0.0, f)

    f0 = resid(z0)
    z1 = z0 - np.sign(f0) * 0.05
    for _ in range(_SECANT_STEPS):
        f1 = resid(z1)
        lo = np.where(f1 < 0, np.maximum(lo, z1), lo)
        hi = np.where(f1 > 0, np.minimum(hi, z1), hi)
        with np.errstate(all="ignore"):
            z2 = z1 - f1 * (z1 - z0) / (f1 - f0)
        z2 = np.where(np.isfinite(z2) & (z2 > lo) & (z2 < hi), z2, (lo + hi) / 2)
        z0, f0, z1 = z1, f1, np.where(f1 == 0, z1, z2)
    # solved: h within a relative 1e-10 of w or of 1 − w (the tail probability)
    close = _RTOL * np.minimum(w, 1 - w)
    settled = np.abs(f0) <= close  # z0 solves it (z1 may be a degenerate step)
    out = np.where(settled, z0, z1)
    todo = np.flatnonzero((np.abs(z1 - z0) > _TOL) & ~settled)
    close = close[todo]
    z, lo, hi, ww, pp = z1[todo], lo[todo], hi[todo], w[todo], p[:, todo]
    gg = tuple(g[todo] for g in given)
    for _ in range(100):
        if not len(todo):
            break
        f = resid(z, gg, ww, pp)
        slope = (resid(z + _DZ, gg, ww, pp) - f) / _DZ
        lo, hi = np.where(f < 0, z, lo), np.where(f > 0, z, hi)
        with np.errstate(all="ignore"):
            nxt = z - f / slope
        nxt = np.where(np.isfinite(nxt) & (nxt > lo) & (nxt < hi), nxt, (lo + hi) / 2)
        solved = np.abs(f) <= close
        done = solved | (np.abs(nxt - z) <= _TOL) | (hi - lo <= _TOL)
        out[todo[done]] = np.where(solved, z, nxt)[done]
        keep = ~done
        todo, z, lo, hi, ww, pp = todo[keep], nxt[keep], lo[keep], hi[keep], ww[keep], pp[:, keep]
        close = close[keep]
        gg = tuple(g[keep] for g in gg)
    out[todo] = z
    return special.ndtr(out)


def _by_family(func, codes: np.ndarray, rotation: np.ndarray, params: np.ndarray,
               a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    a, b = np.broadcast_to(a, out.shape), np.broadcast_to(b, out.shape)
    codes = np.broadcast_to(codes, out.shape)
    params = np.broadcast_to(params, (params.shape[0], *out.shape))
    for code in np.unique(codes):
        sel = codes == code
        with np.errstate(all="ignore"):
            out[sel] = func(FAMILIES[int(code)], a[sel], b[sel], params[:, sel])
    return out


def hfunc(codes, params, u, v) -> np.ndarray:
    """``h(v | u)`` of unrotated copulas, one per point.

    Parameters
    ----------
    codes : array_like of int
        Family code of each point (:func:`family_code`), broadcast against ``u``.
    params : array_like
        ``(3, …)`` parameters (unused ones ignored), as ``pyvinecopulib`` orders them.
    u, v : array_like
        Points in (0, 1).

    Examples
    --------
    >>> float(hfunc(family_code("indep"), np.zeros(3), 0.3, 0.7))
    0.7
    """
    u, v = np.asarray(u, dtype=np.float64), np.asarray(v, dtype=np.float64)
    params = np.asarray(params, dtype=np.float64)
    params = params.reshape(3, *params.shape[1:]) if params.ndim else params
    return _by_family(_h, np.asarray(codes), None, params, u, v)


def hinv(codes, params, u, w) -> np.ndarray:
    """``h⁻¹(w | u)`` of unrotated copulas, one per point (see :func:`hfunc`).

    Examples
    --------
    >>> c = family_code("clayton")
    >>> v = hinv(c, [2.0, 0, 0], 0.4, 0.8)
    >>> round(float(hfunc(c, [2.0, 0, 0], 0.4, v)), 12)
    0.8
    """
    u, w = np.asarray(u, dtype=np.float64), np.asarray(w, dtype=np.float64)
    params = np.asarray(params, dtype=np.float64)
    return _by_family(_hinv, np.asarray(codes), None, params, u, w)


def sample(codes, rotations, params, uniforms: np.ndarray, tau=None) -> np.ndarray:
    """Draws of pair copulas from independent uniforms, one copula per row.

    Parameters
    ----------
    codes, rotations : array_like of int
        ``(N,)`` family codes and rotations (0, 90, 180 or 270 degrees).
    params : array_like
        ``(N, 3)`` parameters.
    uniforms : numpy.ndarray
        ``(N, T, 2)`` independent uniforms.
    tau : array_like, optional
        ``(N,)`` Kendall's τ of the unrotated copulas: the numerical inversions start
        from the Gaussian copula with that τ (fewer steps; the same draws to 1e-9).

    Returns
    -------
    numpy.ndarray
        ``(N, T, 2)`` draws: row ``k`` holds ``T`` draws of copula ``k``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = sample([family_code("gumbel")], [180], [[3.0, 0, 0]], rng.random((1, 4000, 2)))
    >>> from scipy.stats import kendalltau
    >>> round(float(kendalltau(x[0, :, 0], x[0, :, 1]).statistic), 1)  # 1 - 1/θ
    0.7
    """
    uniforms = np.asarray(uniforms, dtype=np.float64)
    n, t = uniforms.shape[:2]
    params = np.asarray(params, dtype=np.float64).reshape(n, 3)
    start = (np.zeros(n) if tau is None
             else np.sin(np.pi / 2 * np.abs(np.asarray(tau, dtype=np.float64))))
    p = np.broadcast_to(np.vstack([params.T, start])[:, :, None], (4, n, t))
    codes = np.broadcast_to(np.asarray(codes)[:, None], (n, t))
    u = np.clip(uniforms[..., 0], _EPS, 1 - _EPS)
    w = np.clip(uniforms[..., 1], _EPS, 1 - _EPS)
    v = _by_family(_hinv, codes, None, p, u, w)
    # (u, v) ~ C; the rotated copula has density c(u2, 1 − u1) (90°), c(1 − u1, 1 − u2)
    # (180°), c(1 − u2, u1) (270°), as vinecopulib rotates data
    rot = np.asarray(rotations)[:, None]
    first = np.select([rot == 90, rot == 180, rot == 270], [1 - v, 1 - u, v], u)
    second = np.select([rot == 90, rot == 180, rot == 270], [u, 1 - v, 1 - u], v)
    return np.stack([first, second], axis=-1)
