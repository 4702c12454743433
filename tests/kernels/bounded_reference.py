"""Numpy references of the compiled steps of :mod:`scorestd.kernels.bounded_gibbs`: the
probit part's moves as the hurdle sampler made them with numpy arrays over chains before
they were compiled (same formulas, other code), the latent steps written with arrays (the
uniform of a rejected cell made from its normal), and the balanced-design step is
:class:`scorestd.bayes.gibbs._FastStep` itself. Each function takes the state as the
compiled steps do (see that module's docstring) and returns a new one."""

from __future__ import annotations

import numpy as np
from scipy import special


def truncated_normal(a, b, u):
    """Standard normal ``u``-quantiles conditioned on [a, b] (arrays)."""
    a, b, u = np.asarray(a, float), np.asarray(b, float), np.asarray(u, float)
    flip = a > -b
    lo, hi = np.where(flip, -b, a), np.where(flip, -a, b)
    u = np.where(flip, 1.0 - u, u)
    p_lo = special.ndtr(lo)
    x = special.ndtri(p_lo + u * (special.ndtr(hi) - p_lo))
    far = hi < -35.0
    if far.any():
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            rate = np.abs(hi)
            tail = hi + np.log(u + (1.0 - u) * np.exp(rate * (lo - hi))) / rate
        x = np.where(far, tail, x)
    x = np.minimum(np.maximum(x, lo), hi)
    return np.where(flip, -x, x)


def truncated_gamma(shape, lo, hi, u):
    """Gamma(shape, 1) ``u``-quantiles conditioned on [lo, hi] (arrays)."""
    lo, hi, u = np.asarray(lo, float), np.asarray(hi, float), np.asarray(u, float)
    p_lo, p_hi = special.gammainc(shape, lo), special.gammainc(shape, hi)
    upper = p_lo > 0.5
    q_lo, q_hi = special.gammaincc(shape, lo), special.gammaincc(shape, hi)
    with np.errstate(invalid="ignore"):
        x = np.where(upper, special.gammainccinv(shape, q_lo - u * (q_lo - q_hi)),
                     special.gammaincinv(shape, p_lo + u * (p_hi - p_lo)))
    return np.minimum(np.maximum(x, lo), hi)


def latent_step(mu, alpha, beta, eps, kind):
    """Latent values given η from the candidates ``eps``: returns z (−∞ at the zeros and
    missing cells), the zeros' z and ε's row sums, column sums and sum of squares."""
    c, n_s = alpha.shape
    n_t = beta.shape[1]
    eta = (mu[:, None, None] + beta[:, :, None] + alpha[:, None, :]).reshape(c, -1)
    e = eps.copy()
    sigma = np.where(kind > 0, 1.0, -1.0)
    bad = (kind != 0) & ((eta + e > 0) != (kind > 0))
    b, w = sigma * eta, -sigma * e
    with np.errstate(divide="ignore", invalid="ignore"):  # (the cells kept: any value)
        u = np.minimum(special.ndtr(-w) / special.ndtr(-b), 1.0)
        far = b + np.log(u) / np.abs(b)
        new = np.where(b < -35.0, far, special.ndtri(u * special.ndtr(b)))
    e = np.where(bad, -sigma * np.minimum(new, b), e)
    z = eta + e
    e3 = e.reshape(c, n_t, n_s)
    others = np.where(kind < 0, z, -np.inf)
    return (others, z[:, kind > 0], e3.sum(axis=2), e3.sum(axis=1), np.sum(e * e, axis=1),
            others.reshape(c, n_t, n_s).max(axis=2))


def component_latent(mu, alpha, beta, ve, normals, sign, bound, t_idx, s_idx):
    """The latent cells of a crossed normal component (free, above or below a bound)."""
    eta = mu[:, None] + alpha[:, s_idx] + beta[:, t_idx]
    sd = np.sqrt(ve)[:, None]
    flip = np.where(sign == 0, 1.0, sign)
    v = normals * flip
    a = sign * (bound - eta) / sd
    bad = (sign != 0) & (v < a)
    with np.errstate(divide="ignore", invalid="ignore"):  # (the cells kept: any value)
        u = np.minimum(special.ndtr(v) / special.ndtr(a), 1.0)
        b = -a
        far = b + np.log(u) / np.abs(b)
        new = -np.minimum(np.where(b < -35.0, far, special.ndtri(u * special.ndtr(b))), b)
    return eta + sd * (flip * np.where(bad, new, v))


def expand(state, gamma, uniform, priors):
    """The parameter-expanded rescaling; ``state``: dict of the arrays of the module's
    state; ``priors``: (mu_sd, system_scale, topic_scale)."""
    mu_sd, b_s, b_t = priors
    big_a = state["rss"] + (state["mu"] / mu_sd) ** 2
    big_b = b_s / state["vs"] + b_t / state["vt"]
    u = 2.0 * gamma / big_a
    accept = np.log(uniform) < big_b * (1.0 - 1.0 / u)
    g = np.where(accept, np.sqrt(u), 1.0)
    out = dict(state)
    for key in ("scale", "mu", "rss", "vs", "vt"):
        out[key] = state[key] * (g * g if key in ("rss", "vs", "vt") else g)
    for key in ("z_zero", "e_row", "e_col", "alpha", "beta"):
        out[key] = state[key] * g[:, None]
    return out


def _group_min(values, groups, size):
    out = np.full((values.shape[0], size), np.inf)
    for j, k in enumerate(groups):
        out[:, k] = np.minimum(out[:, k], values[:, j])
    return out


def truncated_standard(a, b, u, rngs):
    """Standard normals conditioned on [a, b] (``(C, k)`` or ``(C,)`` arrays), chain c's
    from ``rngs[c]`` effect by effect in order: plain normals until one falls inside where
    the interval surely holds ≥ 30% of the mass (a half-line beyond ∓0.5, or width ≥ 1
    around 0); uniform points x kept with probability exp(−(x² − m²)/2) on a finite
    interval where (max(a², b²) − m²)/2 ≤ 1 (m the point nearest 0); elsewhere the
    ``u``-quantile."""
    a, b, u = (np.array(np.broadcast_to(v, np.broadcast_shapes(
        np.shape(a), np.shape(b), np.shape(u))), dtype=float) for v in (a, b, u))
    x = truncated_normal(a, b, u)
    a2, b2, x2 = a.reshape(len(rngs), -1), b.reshape(len(rngs), -1), x.reshape(len(rngs), -1)
    wide = np.where(a2 == -np.inf, b2 >= -0.5,
                    np.where(b2 == np.inf, a2 <= 0.5, (a2 <= 0) & (b2 >= 0) & (b2 - a2 >= 1)))
    peak = np.where(a2 > 0, a2 ** 2, np.where(b2 < 0, b2 ** 2, 0.0))
    with np.errstate(invalid="ignore"):
        flat = (np.isfinite(a2) & np.isfinite(b2)
                & (np.maximum(a2 ** 2, b2 ** 2) - peak <= 2.0) & ~wide)
    for c, rng in enumerate(rngs):
        for k in np.flatnonzero(wide[c] | flat[c]):
            while True:
                if wide[c, k]:
                    v = rng.standard_normal()
                    if a2[c, k] <= v <= b2[c, k]:
                        break
                else:
                    v = a2[c, k] + (b2[c, k] - a2[c, k]) * rng.random()
                    if rng.random() < np.exp(-0.5 * (v * v - peak[c, k])):
                        v = min(v, b2[c, k])
                        break
            x2[c, k] = v
    return x2.reshape(x.shape)


def truncated_gamma_draw(shape, lo, hi, u, rngs):
    """Gamma(shape, 1) conditioned on [lo, hi] per chain (``(C,)`` arrays): two plain
    draws from ``rngs[c]``, the first inside kept, else the ``u``-quantile."""
    x = truncated_gamma(shape, lo, hi, u)
    if shape > 1.0:
        for c, rng in enumerate(rngs):
            for _ in range(2):
                g = rng.standard_gamma(shape)
                if lo[c] <= g <= hi[c]:
                    x[c] = g
                    break
    return x


def _draw_effects(old, sd, lo, hi, u, rngs):
    return sd * truncated_standard((old - lo) / sd, (old - hi) / sd, u, rngs)


def _rescale_free(x, var, prior, free, room, u, rngs):
    if not free.any():
        return x, var
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.maximum(room, 0.0) / np.abs(x)
    g_lo = np.max(np.where(free & (x < 0), 1.0 - ratio, 0.0), axis=1, initial=0.0)
    g_hi = np.min(np.where(free & (x > 0), 1.0 + ratio, np.inf), axis=1, initial=np.inf)
    fixed = ~free
    shape = prior[0] + 0.5 * fixed.sum()
    rate = prior[1] + 0.5 * np.sum(x[:, fixed] ** 2, axis=1)
    with np.errstate(divide="ignore"):
        w = truncated_gamma_draw(shape, rate * (1.0 / (g_hi ** 2 * var)),
                                 rate * (1.0 / (g_lo ** 2 * var)), u, rngs) / rate
    new_var = 1.0 / w
    g = np.sqrt(new_var / var)
    return np.where(free, x * g[:, None], x), new_var


def _level_move(mu, effects, var, mu_prior, free, room, u, rngs):
    if not free.any() or free.all():
        return mu, effects, np.zeros_like(mu)
    m0, s0 = mu_prior
    held = ~free
    precision = 1.0 / s0 ** 2 + held.sum() / var
    linear = (mu - m0) / s0 ** 2 - np.sum(effects[:, held], axis=1) / var
    sd = 1.0 / np.sqrt(precision)
    mean = linear / precision
    bound = -np.min(np.where(free, np.maximum(room, 0.0), np.inf), axis=1)
    d = mean + sd * truncated_standard((bound - mean) / sd, np.inf, u, rngs)
    return mu - d, np.where(held, effects + d[:, None], effects), d


def _ancillary_block(st, effects, variance, prior, mu_prior, free, zero_group, size, top, zz,
                     uniforms, rounds, rngs):
    x, mu = st[effects], st["mu"]
    k = x.shape[1]
    shift = np.zeros_like(x)
    for r in range(rounds):
        u = uniforms[:, r * (k + 2):(r + 1) * (k + 2)]
        sd = np.sqrt(st[variance])[:, None]
        new = _draw_effects(x, sd, _group_min(zz + shift[:, zero_group], zero_group, size),
                            top + shift, u[:, :k], rngs)
        shift += new - x
        rescaled, st[variance] = _rescale_free(new, st[variance], prior, free,
                                               -(top + shift), u[:, k], rngs)
        shift += rescaled - new
        mu, x, d = _level_move(mu, rescaled, st[variance], mu_prior, free, -(top + shift),
                               u[:, k + 1], rngs)
        shift += x - rescaled - d[:, None]
    st[effects], st["mu"] = x, mu
    return shift


def interweave(state, zero_t, zero_s, free_s, free_t, uniforms, rounds, system_prior,
               topic_prior, mu_prior, rngs):
    """The interweaving moves (topics, then systems, then the intercept; chain c's normals
    from ``rngs[c]``); returns the new state (``z_zero`` moved, ``ss_a``, ``ss_b``)."""
    st = {key: np.array(value, dtype=float) for key, value in state.items()}
    c, n_s = st["alpha"].shape
    n_t = st["beta"].shape[1]
    g = st["scale"]
    z3 = st["z"].reshape(c, n_t, n_s)
    used = rounds * (n_t + 2)
    zz = st["z_zero"]
    shift_t = _ancillary_block(st, "beta", "vt", topic_prior, mu_prior, free_t, zero_t, n_t,
                               z3.max(axis=2) * g[:, None], zz, uniforms[:, :used], rounds,
                               rngs)
    zz = zz + shift_t[:, zero_t]
    top = (z3 + (shift_t / g[:, None])[:, :, None]).max(axis=1) * g[:, None]
    shift_s = _ancillary_block(st, "alpha", "vs", system_prior, mu_prior, free_s, zero_s, n_s,
                               top, zz, uniforms[:, used:-1], rounds, rngs)
    zz = zz + shift_s[:, zero_s]
    m0, s0 = mu_prior
    low = zz.min(axis=1, initial=np.inf)
    high = (top + shift_s).max(axis=1)
    st["mu"] = m0 + _draw_effects(st["mu"] - m0, s0, low, high, uniforms[:, -1], rngs)
    st["z_zero"] = zz
    st["ss_a"] = np.sum(st["alpha"] ** 2, axis=1)
    st["ss_b"] = np.sum(st["beta"] ** 2, axis=1)
    return st
