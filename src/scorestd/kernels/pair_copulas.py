"""Bivariate (pair) copulas in numpy: h-functions and their inverses, many copulas at once.

The parametric families of ``pyvinecopulib`` (and of R's ``VineCopula``), with their
parameters as there, so that copulas fitted by ``pyvinecopulib`` are sampled here
without one library call per copula: every point carries its own family code,
rotation and parameters, and the points of one family are computed in one vectorised
pass, whatever the copula each belongs to.

``h(v | u) = P(V ≤ v | U = u) = ∂C(u, v)/∂u`` (``pyvinecopulib``'s ``hfunc1``);
a conditional draw is ``(u, h⁻¹(w | u))`` with ``u, w`` independent uniforms. Closed
forms for the independence, Gaussian, Student t, Clayton and Frank copulas; the Gumbel,
Joe, BB1, BB6, BB7 and BB8 families through their Archimedean generator
(``h = φ'(u) / φ'(C(u, v))``) and the Tawn family through its Pickands dependence
function, inverted by secant then safeguarded Newton steps on the normal scale.
:func:`sample` draws the Gumbel, Joe, BB7, Tawn and Student t copulas jointly instead
(frailties, Khoudraji's construction, a normal variance mixture), several times faster
than the inversion, when given :data:`UNIFORMS` uniforms a draw.
Rotations by 90, 180 and 270 degrees turn a draw ``(u, v)`` of the unrotated copula
into ``(1 − v, u)``, ``(1 − u, 1 − v)``, ``(v, 1 − u)``, as ``vinecopulib`` rotates.
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["FAMILIES", "NUMPY_FAMILIES", "UNIFORMS", "family_code", "hfunc", "hinv",
           "rotated_hfunc1", "rotated_hinv2", "rotated_hinv2_hfunc1", "sample"]

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
    if family == "gumbel":
        return _hinv_gumbel(u, w, p[0])
    if family == "joe":
        return _hinv_joe(u, w, p[0])
    return _solve(family, u, w, p[:3], p[3] if len(p) > 3 else None)


# Gumbel and Joe: h(v | u) = φ'(u) / φ'(C(u, v)) is solved for c = C(u, v) first, a
# monotone equation in one unknown with cheap terms; then v = φ⁻¹(φ(c) − φ(u)).
_NEWTON_STEPS = 60
_NEWTON_TOL = 1e-15


def _hinv_gumbel(u: np.ndarray, w: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Gumbel: with ``x = −log c``, ``φ'(c) = −θ x^{θ−1} e^x``, so ``x`` solves
    ``x + (θ − 1) log x = L``, ``L = x_u + (θ − 1) log x_u − log w``; in ``s = log x``
    the left side is convex and increasing, and Newton's steps from ``log(x_u − log w)``
    (at or right of the root) fall to it monotonically."""
    xu = -np.log(u)
    lw = -np.log(w)
    target = xu + (theta - 1) * np.log(xu) + lw
    s = np.log(xu + lw)
    active = np.ones(s.shape, dtype=bool)  # a point stops at its own convergence
    for _ in range(_NEWTON_STEPS):
        ex = np.exp(s)
        step = (ex + (theta - 1) * s - target) / (ex + theta - 1)
        s = np.where(active, s - step, s)
        active &= np.abs(step) > _NEWTON_TOL * np.maximum(1.0, np.abs(s))
        if not active.any():
            break
    x = np.exp(s)
    return np.exp(-np.maximum(x**theta - xu**theta, 0.0) ** (1 / theta))


def _hinv_joe(u: np.ndarray, w: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Joe: with ``q = θ log(1 − c)``, ``−φ'(c) = θ e^{q(θ−1)/θ} / (1 − e^q)``, so ``q``
    solves ``q (θ − 1)/θ − log(1 − e^q) = C``; at ``q_u = θ log(1 − u)`` (``c ≤ u``) the
    left side is ``C + log w ≤ C``, and since ``1 − e^q ≤ −q`` it is ``≥ C`` at
    ``q₀ = −exp(q_u (θ − 1)/θ − C)``. Solved in ``y = log(−q)``, where it is nearly linear
    near ``q₀``: Newton's steps inside that bracket, bisection where a step leaves it."""
    qu = theta * np.log1p(-u)
    k = (theta - 1) / theta
    const = k * qu - np.log(-np.expm1(qu)) - np.log(w)
    lo = k * qu - const  # y at q₀: the left side ≥ C (y's direction is q's reversed)
    hi = np.log(-qu)  # y at q_u: ≤ C
    # Newton's steps on the points not converged yet only: each point takes the steps
    # it would take if all were stepped together, those converged kept
    shape = lo.shape
    y = lo.ravel().copy()
    k = np.broadcast_to(k, shape).ravel()
    todo = np.arange(y.size)
    yt, lo, hi, k, const = y, lo.ravel(), hi.ravel(), k, np.broadcast_to(const, shape).ravel()
    for _ in range(_NEWTON_STEPS):
        q = -np.exp(yt)
        em1 = -np.expm1(q)  # 1 − e^q
        f = k * q - np.log(em1) - const  # decreasing in y
        lo = np.where(f > 0, yt, lo)
        hi = np.where(f < 0, yt, hi)
        nxt = yt - f / (q * (k + (1 - em1) / em1))
        nxt = np.where((nxt >= lo) & (nxt <= hi), nxt, (lo + hi) / 2)
        moved = np.abs(nxt - yt) > 1e-14 * np.maximum(1.0, np.abs(yt))
        y[todo] = nxt
        if not moved.all():
            todo, lo, hi, k, const = todo[moved], lo[moved], hi[moved], k[moved], const[moved]
            if not todo.size:
                break
        yt = nxt[moved]
    y = y.reshape(shape)
    # φ(c) − φ(u) = log((1 − r_u)/(1 − r)), r = e^q: v = 1 − ((r − r_u)/(1 − r_u))^{1/θ}
    ratio = np.clip((np.exp(-np.exp(y)) - np.exp(qu)) / -np.expm1(qu), 0.0, 1.0)
    return 1 - ratio ** (1 / theta)


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


# -- rotated copulas, one at a time (the edges of a vine) --------------------------------
#
# (A, B) ~ C gives the rotated copulas (1 − B, A) (90°), (1 − A, 1 − B) (180°),
# (B, 1 − A) (270°). Their conditional distributions are those of C or of its transpose
# C^T(a, b) = C(b, a): with h(b | a) of C and h^T of C^T,
#   hfunc1(u1, u2) = h(u2 | u1), h^T(u2 | 1 − u1), 1 − h(1 − u2 | 1 − u1), 1 − h^T(1 − u2 | u1)
#   hfunc2(u1, u2) = h^T(u1 | u2), 1 − h(1 − u1 | u2), 1 − h^T(1 − u1 | 1 − u2), h(u1 | 1 − u2)
# for 0, 90, 180 and 270 degrees; hinv2 inverts hfunc2 in u1.

def _transposed(family: str, p: np.ndarray) -> np.ndarray:
    """Parameters of ``C^T``: Tawn's two asymmetry parameters swap; the other families
    are exchangeable."""
    if family == "tawn":
        return np.concatenate([p[1:2], p[0:1], p[2:]])
    return p


def _one_copula_params(family: str, params, n: int, tau: float | None) -> np.ndarray:
    p = np.zeros(4)
    values = np.asarray(params, dtype=np.float64).ravel()
    p[:len(values)] = values
    p[3] = np.sin(np.pi / 2 * abs(tau)) if tau is not None else 0.0  # the solver's start
    if family in ("gaussian", "student", "clayton", "frank", "indep"):
        return p[:, None]  # closed forms broadcast
    return np.broadcast_to(p[:, None], (4, n))


def _clip(x: np.ndarray) -> np.ndarray:
    # as vinecopulib: conditional probabilities stay inside [1e-10, 1 − 1e-10]
    return np.clip(x, 1e-10, 1 - 1e-10)


def rotated_hfunc1(family: str, rotation: int, params, u1, u2) -> np.ndarray:
    """``P(U₂ ≤ u₂ | U₁ = u₁)`` of one rotated copula (``pyvinecopulib``'s ``hfunc1``).

    Parameters
    ----------
    family : str
        A name of :data:`FAMILIES`.
    rotation : {0, 90, 180, 270}
        Rotation in degrees, as ``pyvinecopulib`` rotates.
    params : array_like
        The family's parameters (up to 3), as ``pyvinecopulib`` orders them.
    u1, u2 : numpy.ndarray
        Points in (0, 1).

    Examples
    --------
    >>> round(float(rotated_hfunc1("clayton", 90, [2.0], np.array([0.3]), np.array([0.6]))[0]), 6)
    0.390706
    """
    u1, u2 = np.asarray(u1, dtype=np.float64), np.asarray(u2, dtype=np.float64)
    p = _one_copula_params(family, params, u1.size, None)
    with np.errstate(all="ignore"):
        if rotation == 0:
            out = _h(family, u1, u2, p)
        elif rotation == 90:
            out = _h(family, 1 - u1, u2, _transposed(family, p))
        elif rotation == 180:
            out = 1 - _h(family, 1 - u1, 1 - u2, p)
        else:
            out = 1 - _h(family, u1, 1 - u2, _transposed(family, p))
    return _clip(out)


def rotated_hinv2(family: str, rotation: int, params, u2, w, tau: float | None = None
                  ) -> np.ndarray:
    """``u₁`` with ``P(U₁ ≤ u₁ | U₂ = u₂) = w`` for one rotated copula (``pyvinecopulib``'s
    ``hinv2``: its first argument is ``w``, its second ``u₂``).

    Parameters
    ----------
    family, rotation, params
        As :func:`rotated_hfunc1`.
    u2, w : numpy.ndarray
        The conditioning value and the probability, in (0, 1).
    tau : float, optional
        Kendall's τ of the copula: the numerical inversions start from the Gaussian
        copula with that τ (fewer steps).

    Examples
    --------
    >>> float(rotated_hinv2("gaussian", 0, [0.5], np.array([0.5]), np.array([0.5]))[0])
    0.5
    """
    u2, w = np.asarray(u2, dtype=np.float64), np.asarray(w, dtype=np.float64)
    p = _one_copula_params(family, params, u2.size, tau)
    with np.errstate(all="ignore"):
        if rotation == 0:
            out = _hinv(family, u2, w, _transposed(family, p))
        elif rotation == 90:
            out = 1 - _hinv(family, u2, 1 - w, p)
        elif rotation == 180:
            out = 1 - _hinv(family, 1 - u2, 1 - w, _transposed(family, p))
        else:
            out = _hinv(family, 1 - u2, w, p)
    return _clip(out)


def rotated_hinv2_hfunc1(family: str, rotation: int, params, u2, w,
                         tau: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``u₁ = hinv2(w | u₂)`` and then ``hfunc1(u₁, u₂)``, the two steps of a vine's
    edge (:func:`rotated_hinv2`, :func:`rotated_hfunc1`). The Student t copula shares
    its quantiles between the two (a third of its cost, its quantile function being
    the dear part).

    Examples
    --------
    >>> u2, w = np.array([0.3, 0.8]), np.array([0.6, 0.1])
    >>> v, h = rotated_hinv2_hfunc1("student", 0, [0.5, 4.0], u2, w)
    >>> bool(np.allclose(h, rotated_hfunc1("student", 0, [0.5, 4.0], v, u2)))
    True
    """
    if family != "student" or rotation != 0:
        v = rotated_hinv2(family, rotation, params, u2, w, tau=tau)
        return v, rotated_hfunc1(family, rotation, params, v, u2)
    rho, nu = (float(x) for x in np.asarray(params, dtype=np.float64).ravel()[:2])
    u2, w = np.asarray(u2, dtype=np.float64), np.asarray(w, dtype=np.float64)
    with np.errstate(all="ignore"):
        x = special.stdtrit(nu, u2)
        y = special.stdtrit(nu + 1, w) * np.sqrt((nu + x * x) * (1 - rho * rho) / (nu + 1)) \
            + rho * x
        # as rotated_hinv2 then rotated_hfunc1 would: u₁ clipped, its quantile kept
        # (the cdf once; the quantile again only where the clip moved u₁)
        unclipped = special.stdtr(nu, y)
        v = _clip(unclipped)
        moved = v != unclipped
        if moved.any():
            y[moved] = special.stdtrit(nu, v[moved])
        h = special.stdtr(nu + 1, (x - rho * y) / np.sqrt((nu + y * y) * (1 - rho * rho)
                                                           / (nu + 1)))
    return v, _clip(h)


# -- joint draws by frailty (Marshall and Olkin, 1988) ---------------------------------

def _log_positive_stable(alpha: np.ndarray, u: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``α log S`` of a positive stable ``S`` with Laplace transform ``exp(−s^α)``, from two
    uniforms by Kanter's (1975) representation
    ``S = sin(αΘ) / sin(Θ)^{1/α} · (sin((1 − α)Θ) / E)^{(1 − α)/α}``, ``Θ = πu``,
    ``E = −log w`` (in logs: no overflow for small ``α``)."""
    angle = np.pi * u
    rest = np.log(np.sin((1 - alpha) * angle)) - np.log(-np.log(w))
    return (alpha * np.log(np.sin(alpha * angle)) - np.log(np.sin(angle))
            + np.where(alpha < 1, (1 - alpha) * rest, 0.0))


def _gumbel_logs(theta: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log U, log V)`` of a Gumbel draw: ``U = ψ(E₁/S)`` with ``ψ(s) = exp(−s^{1/θ})``."""
    alpha = 1 / theta
    scale = _log_positive_stable(alpha, x[..., 2], x[..., 3])
    return (-np.exp(alpha * np.log(-np.log(x[..., 0])) - scale),
            -np.exp(alpha * np.log(-np.log(x[..., 1])) - scale))


def _sibuya(alpha: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Sibuya(α) frailty of the Joe copula (``α = 1/θ``) by inversion of ``w``: the least
    ``k ≥ 1`` with ``P(V > k) = Γ(k + 1 − α) / (Γ(k + 1) Γ(1 − α)) ≤ 1 − w``.

    Started from the tail ``P(V > k) ≈ k^{−α} / Γ(1 − α)`` and corrected by whole steps;
    beyond 1e8 the tail's solution itself (relative error below 1e-6, where the log-gamma
    difference would lose more than that).
    """
    alpha, w = np.broadcast_arrays(alpha, w)
    lg = special.gammaln(1 - alpha)
    target = np.log1p(-w)
    # Γ(k + 1 − α) / Γ(k + 1) ≈ (k + (1 − α)/2)^{−α} (to O(k^{−2})): k to within a step
    out = np.exp(-(target + lg) / alpha) - (1 - alpha) / 2
    out[w <= alpha] = 1.0
    todo = np.flatnonzero((w > alpha) & (out < 1e8))  # the others keep the tail's solution
    a, lg, target = alpha.ravel()[todo], lg.ravel()[todo], target.ravel()[todo]
    k = np.maximum(np.ceil(out.ravel()[todo]), 1.0)
    flat = out.reshape(-1)
    flat[todo] = k
    for _ in range(64):  # the points whose k is not yet the least one: a step each time
        tail = special.gammaln(k + 1 - a) - special.gammaln(k + 1) - lg
        up = tail > target
        down = ~up & (k > 1)
        down[down] = (special.gammaln(k[down] - a[down]) - special.gammaln(k[down])
                      - lg[down]) <= target[down]
        move = up | down
        if not move.any():
            break
        k = k + up - down
        flat[todo] = k
        todo, k, a, lg, target = todo[move], k[move], a[move], lg[move], target[move]
    return out


def _joe_logs(theta: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log U, log V)`` of a Joe draw: ``U = ψ(E₁/V)`` with ``ψ(s) = 1 − (1 − e^{−s})^{1/θ}``."""
    frailty = _sibuya(1 / theta, x[..., 2])

    def log_psi(e):
        return np.log1p(-np.exp(np.log(-np.expm1(e / frailty)) / theta))

    return log_psi(np.log(x[..., 0])), log_psi(np.log(x[..., 1]))


def _tawn_logs(p: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(log U, log V)`` of a Tawn draw. Its copula is
    ``C(u, v) = u^{1−ψ₁} v^{1−ψ₂} C_G(u^{ψ₁}, v^{ψ₂})`` with ``C_G`` Gumbel's (the
    Pickands function above), the law of ``U = max(A^{1/(1−ψ₁)}, G₁^{1/ψ₁})``,
    ``V = max(B^{1/(1−ψ₂)}, G₂^{1/ψ₂})`` with ``A, B`` uniform and ``(G₁, G₂)`` Gumbel,
    all independent (Khoudraji's construction)."""
    g1, g2 = _gumbel_logs(p[2], x)
    return (np.fmax(np.log(x[..., 4]) / (1 - p[0]), g1 / p[0]),
            np.fmax(np.log(x[..., 5]) / (1 - p[1]), g2 / p[1]))


def _gamma(shape: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Gamma(``shape``) variates from the uniforms ``x[..., 3:9]``: Marsaglia and Tsang's
    (2000) squeeze-free rejection for ``shape + 1`` (two candidates ``(x₄, x₅)``,
    ``(x₆, x₇)``, the first accepted; each is accepted with probability above 0.95),
    times ``x₃^{1/shape}``; the rare pairs of rejections (below 0.25%) by the inverse cdf
    of ``x₈``. Any ``shape > 0``."""
    d = shape + 1 - 1 / 3
    c = 1 / np.sqrt(9 * d)
    out = np.full(np.broadcast_shapes(d.shape, x.shape[:-1]), np.nan)
    for col in (6, 4):  # the first candidate last: it wins where both are accepted
        z = special.ndtri(x[..., col])
        v = (1 + c * z) ** 3
        accept = (v > 0) & (np.log(x[..., col + 1]) < z * z / 2 + d - d * v + d * np.log(v))
        out = np.where(accept, d * v, out)
    rejected = np.isnan(out)
    if rejected.any():
        b = np.broadcast_to(shape + 1, out.shape)[rejected]
        out[rejected] = special.gammaincinv(b, x[..., 8][rejected])
    return out * x[..., 3] ** (1 / shape)


def _bb7_uv(p: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A BB7 draw: ``ψ(s) = 1 − (1 − (1 + s)^{−1/δ})^{1/θ}`` is Joe's ``ψ_J(log(1 + s)/δ)``,
    the Laplace transform of ``V ~ Gamma(V₀/δ)`` with ``V₀ ~ Sibuya(1/θ)``."""
    theta, delta = p[0], p[1]
    frailty = _gamma(_sibuya(1 / theta, x[..., 2]) / delta, x)

    def psi(col):
        e = -np.log(x[..., col]) / frailty
        return -np.expm1(np.log(-np.expm1(-np.log1p(e) / delta)) / theta)

    return psi(0), psi(1)


def _student_uv(p: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A Student t draw: ``t_ν`` of ``(Z₁, ρZ₁ + √(1 − ρ²) Z₂) / √(W/ν)``, ``W ~ χ²_ν``."""
    rho, nu = p[0], p[1]
    z1, z2 = special.ndtri(x[..., 0]), special.ndtri(x[..., 1])
    scale = np.sqrt(nu / (2 * _gamma(nu / 2, x)))
    return (special.stdtr(nu, z1 * scale),
            special.stdtr(nu, (rho * z1 + np.sqrt(1 - rho * rho) * z2) * scale))


def _exp_both(logs: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    return np.exp(logs[0]), np.exp(logs[1])


# Families drawn jointly by sample() from UNIFORMS uniforms a draw.
_JOINT = {"gumbel": lambda p, x: _exp_both(_gumbel_logs(p[0], x)),
          "joe": lambda p, x: _exp_both(_joe_logs(p[0], x)),
          "tawn": lambda p, x: _exp_both(_tawn_logs(p, x)),
          "bb7": _bb7_uv, "student": _student_uv}
#: Uniforms a draw of :func:`sample` uses at most (its joint draws).
UNIFORMS = 9


def sample(codes, rotations, params, uniforms: np.ndarray, tau=None) -> np.ndarray:
    """Draws of pair copulas from independent uniforms, one copula per row.

    With two uniforms ``(u, w)`` a draw, every family by the conditional inverse
    ``(u, h⁻¹(w | u))``. With :data:`UNIFORMS` (9) a draw, the Gumbel, Joe, BB7 and
    Tawn families, whose h-functions have no closed-form inverse, are drawn jointly
    instead, by their frailty (Marshall and Olkin, 1988: ``U = ψ(E₁/V)``,
    ``V = ψ(E₂/V)``; a positive stable ``V`` for Gumbel, a Sibuya one for Joe, a gamma
    one of Sibuya shape for BB7) and, for Tawn, by Khoudraji's construction over a
    Gumbel draw; the Student t copula as a normal variance mixture: 3 to 15 times
    faster than the numerical inversion, the same law. The other families use the
    first two columns.

    Parameters
    ----------
    codes, rotations : array_like of int
        ``(N,)`` family codes and rotations (0, 90, 180 or 270 degrees).
    params : array_like
        ``(N, 3)`` parameters.
    uniforms : numpy.ndarray
        ``(N, T, 2)`` or ``(N, T, UNIFORMS)`` independent uniforms.
    tau : array_like, optional
        ``(N,)`` Kendall's τ of the unrotated copulas: the numerical inversions start
        from the Gaussian copula with that τ (fewer steps; the same draws to 1e-9).

    Returns
    -------
    numpy.ndarray
        ``(N, T, 2)`` draws: row ``k`` holds ``T`` draws of copula ``k``; each draw is a
        function of its own uniforms only (the same whatever the other rows).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = sample([family_code("gumbel")], [180], [[3.0, 0, 0]], rng.random((1, 4000, 2)))
    >>> from scipy.stats import kendalltau
    >>> round(float(kendalltau(x[0, :, 0], x[0, :, 1]).statistic), 1)  # 1 - 1/θ
    0.7
    >>> y = sample([family_code("gumbel")], [180], [[3.0, 0, 0]],
    ...            rng.random((1, 4000, UNIFORMS)))
    >>> round(float(kendalltau(y[0, :, 0], y[0, :, 1]).statistic), 1)
    0.7
    """
    uniforms = np.clip(np.asarray(uniforms, dtype=np.float64), _EPS, 1 - _EPS)
    n, t, k = uniforms.shape
    if k not in (2, UNIFORMS):
        raise ValueError(f"uniforms must have 2 or {UNIFORMS} columns a draw, not {k}")
    params = np.asarray(params, dtype=np.float64).reshape(n, 3)
    codes = np.asarray(codes).astype(np.int64).reshape(n)
    start = (np.zeros(n) if tau is None
             else np.sin(np.pi / 2 * np.abs(np.asarray(tau, dtype=np.float64))))
    u, v = np.empty((n, t)), np.empty((n, t))
    for code in np.unique(codes):  # one vectorised pass per family, over its rows
        rows = np.flatnonzero(codes == code)
        family, x = FAMILIES[int(code)], uniforms[rows]
        with np.errstate(all="ignore"):
            if k == UNIFORMS and family in _JOINT:
                u[rows], v[rows] = _JOINT[family](params[rows].T[:, :, None], x)
                continue
            p = np.repeat(np.vstack([params[rows].T, start[rows]]), t, axis=1)
            u[rows] = x[..., 0]
            v[rows] = _hinv(family, x[..., 0].ravel(), x[..., 1].ravel(), p).reshape(len(rows), t)
    u, v = np.clip(u, _EPS, 1 - _EPS), np.clip(v, _EPS, 1 - _EPS)
    # (u, v) ~ C; the rotated copula has density c(u2, 1 − u1) (90°), c(1 − u1, 1 − u2)
    # (180°), c(1 − u2, u1) (270°), as vinecopulib rotates data
    rot = np.asarray(rotations)[:, None]
    first = np.select([rot == 90, rot == 180, rot == 270], [1 - v, 1 - u, v], u)
    second = np.select([rot == 90, rot == 180, rot == 270], [u, 1 - v, 1 - u], v)
    return np.stack([first, second], axis=-1)
