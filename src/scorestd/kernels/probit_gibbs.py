r"""Compiled Gibbs steps of a crossed probit model (the zero part of the hurdle likelihood).

The model: latent values :math:`z_{ts} = \eta_{ts} + \varepsilon_{ts}`,
:math:`\eta_{ts} = \mu + \alpha_s + \beta_t`, :math:`\varepsilon_{ts} \sim N(0, 1)`, and
a cell's score is 0 iff :math:`z_{ts} > 0` (Albert & Chib 1993);
:mod:`scorestd.bayes.bounded` describes the sampler and draws the locations and variances
given z in numpy. Here, per chain, in loops over the cells that numpy would make into
hundreds of small array operations per iteration:

- :func:`latent_step`: fresh latent values given η, from candidate standard normals;
- :func:`expand`: the parameter-expanded rescaling of the latent values and locations;
- :func:`interweave`: the moves of the effects, their variances and the intercept with
  the residuals ε = z − η held fixed;
- :func:`sweep`: the three in a row (one call an iteration).

Each step is a deterministic function of the random numbers it is given (candidate
normals, gamma and uniform draws), drawn by the caller from the chain's own generators:
the same numbers give the same state, whatever the machine code.

The state of ``C`` chains on a ``T × S`` matrix with ``Z`` zeros (arrays changed in
place): ``mu`` ``(C,)``, ``alpha`` ``(C, S)``, ``beta`` ``(C, T)``, ``vs``, ``vt``
``(C,)`` (the effects' variances), ``z`` ``(C, T·S)`` (latent values of the other scores'
cells, −∞ at the zeros' and missing cells, to be multiplied by ``scale`` ``(C,)``),
``z_zero`` ``(C, Z)`` (the zeros' latent values, scaled), and ε's row sums ``e_row``
``(C, T)``, column sums ``e_col`` ``(C, S)`` and sum of squares ``rss`` ``(C,)``.
``kind`` ``(T·S,)`` is +1 at a zero, −1 at another score, 0 at a missing one.
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import gammainc, gammaincc, gammainccinv, gammaincinv, jit, ndtr, ndtri

__all__ = ["expand", "interweave", "latent_step", "sweep", "truncated_gamma",
           "truncated_normal", "upper_truncated_normal"]

#: Below this bound the normal cdf underflows: the tail is drawn as an exponential.
FAR_TAIL = -35.0


@jit
def truncated_normal(a: float, b: float, u: float) -> float:
    """The ``u``-quantile of the standard normal conditioned on ``a ≤ X ≤ b``.

    The interval is mirrored into the lower half-line (where the cdf keeps its relative
    precision) when it lies mostly above 0. Far in the lower tail (``b < -35``, where the
    cdf underflows) ``b − X`` is exponential with rate ``|b|`` truncated at ``b − a``, to
    within 1/b².

    Examples
    --------
    >>> x = truncated_normal(2.0, np.inf, 0.9)
    >>> bool(x >= 2.0)
    True
    """
    flip = a > -b  # mirrored: −X on [−b, −a] at 1 − u (so that x is the u-quantile)
    if flip:
        lo, hi, u = -b, -a, 1.0 - u
    else:
        lo, hi = a, b
    if hi < FAR_TAIL:
        rate = abs(hi)
        x = hi + math.log(u + (1.0 - u) * math.exp(rate * (lo - hi))) / rate
    else:
        p_lo = ndtr(lo, 0)
        x = ndtri(p_lo + u * (ndtr(hi, 0) - p_lo), 0)
    x = min(max(x, lo), hi)
    return -x if flip else x


@jit
def upper_truncated_normal(b: float, u: float) -> float:
    """The ``u``-quantile of the standard normal conditioned on ``X ≤ b``.

    Examples
    --------
    >>> bool(upper_truncated_normal(-1.0, 0.5) <= -1.0)
    True
    """
    if b < FAR_TAIL:
        x = b + math.log(u) / abs(b)
    else:
        x = ndtri(u * ndtr(b, 0), 0)
    return min(x, b)


@jit
def truncated_gamma(shape: float, lo: float, hi: float, u: float) -> float:
    """The ``u``-quantile of Gamma(shape, 1) conditioned on [``lo``, ``hi``] (``hi`` may
    be ∞); through the upper tail's function where the interval lies above the median,
    where the cdf keeps no relative precision.

    Examples
    --------
    >>> bool(8.0 <= truncated_gamma(3.0, 8.0, np.inf, 0.5))
    True
    """
    p_lo = gammainc(shape, lo, 0)
    if p_lo > 0.5:
        q_lo, q_hi = gammaincc(shape, lo, 0), gammaincc(shape, hi, 0)
        x = gammainccinv(shape, q_lo - u * (q_lo - q_hi), 0)
    else:
        p_hi = gammainc(shape, hi, 0)
        x = gammaincinv(shape, p_lo + u * (p_hi - p_lo), 0)
    return min(max(x, lo), hi)


@jit
def latent_step(mu, alpha, beta, eps, kind, z, z_zero, e_row, e_col, rss, scale):
    """Fresh latent values of every chain given η, from the candidates ``eps`` ``(C,
    T·S)`` (independent standard normals; overwritten).

    A cell keeps ε = its candidate where η + ε has the sign the cell's score requires;
    elsewhere w = −σ·ε (σ = +1 at a zero, −1 at another score) is drawn from N(0, 1)
    below b = σ·η by the inverse cdf at the uniform U = Φ(−w₀)/Φ(−b) made from the
    rejected candidate w₀ (given its rejection, w₀ is N(0, 1) above b, so U is uniform
    and independent of the accepted cells): the mixture of kept and redrawn values has
    exactly the truncated law, from one normal per cell. Writes ``z``, ``z_zero``, ε's
    sums ``e_row``, ``e_col``, ``rss`` and ``scale`` = 1.

    Examples
    --------
    >>> kind = np.array([1, -1, -1, 0], dtype=np.int8)  # a 2 × 2 matrix: a zero first
    >>> z, z_zero = np.empty((1, 4)), np.empty((1, 1))
    >>> e_row, e_col, rss, scale = np.empty((1, 2)), np.empty((1, 2)), np.empty(1), np.empty(1)
    >>> latent_step(np.zeros(1), np.zeros((1, 2)), np.zeros((1, 2)),
    ...             np.array([[-0.5, 0.3, -1.2, 0.7]]), kind, z, z_zero, e_row, e_col, rss,
    ...             scale)
    >>> bool(z_zero[0, 0] > 0), bool(z[0, 1] <= 0 and z[0, 2] == -1.2), float(z[0, 3])
    (True, True, -inf)
    """
    chains, n_s = alpha.shape
    n_t = beta.shape[1]
    for c in range(chains):
        e_col[c, :] = 0.0
        ss = 0.0
        k = 0
        for t in range(n_t):
            level = mu[c] + beta[c, t]
            row = 0.0
            for s in range(n_s):
                i = t * n_s + s
                eta = level + alpha[c, s]
                e = eps[c, i]
                cell = kind[i]
                if cell != 0 and (eta + e > 0.0) != (cell > 0):  # the wrong side of 0
                    sigma = 1.0 if cell > 0 else -1.0
                    b, w = sigma * eta, -sigma * e
                    u = min(ndtr(-w, 0) / ndtr(-b, 0), 1.0)
                    e = -sigma * upper_truncated_normal(b, u)
                row += e
                e_col[c, s] += e
                ss += e * e
                if cell < 0:
                    z[c, i] = eta + e
                else:
                    z[c, i] = -np.inf
                    if cell > 0:
                        z_zero[c, k] = eta + e
                        k += 1
            e_row[c, t] = row
        rss[c] = ss
        scale[c] = 1.0


@jit
def expand(mu, alpha, beta, vs, vt, z_zero, e_row, e_col, rss, scale, gamma, uniform,
           mu_sd, system_scale, topic_scale):
    """Parameter-expanded move of every chain (Liu & Wu 1999; Liu & Sabatti 2000).

    The latent values, the locations and the effects' sds are rescaled together by
    g > 0 (signs, hence the data, unchanged). Given everything else, u = g² has the
    density ∝ u^(p−1) exp(−A u/2 − B/u), p = (N + 1)/2 − a_system − a_topic,
    A = Σ(z − η)² + μ²/s_μ², B = b_system/σ²_system + b_topic/σ²_topic: drawn by
    Metropolis–Hastings with the Gamma(p, A/2) proposal (``gamma``: a standard gamma draw
    of shape p per chain), accepted where log(``uniform``) < B·(1 − 1/u). The prior of μ
    is N(0, ``mu_sd``²), of the effects' variances IG(·, ``system_scale``) and
    IG(·, ``topic_scale``).
    """
    for c in range(mu.shape[0]):
        big_a = rss[c] + (mu[c] / mu_sd) ** 2
        big_b = system_scale / vs[c] + topic_scale / vt[c]
        u = 2.0 * gamma[c] / big_a
        if not math.log(uniform[c]) < big_b * (1.0 - 1.0 / u):  # (u₀ = 1: the current scale)
            continue
        g = math.sqrt(u)
        scale[c] *= g
        z_zero[c, :] *= g
        e_row[c, :] *= g
        e_col[c, :] *= g
        rss[c] *= u
        mu[c] *= g
        alpha[c, :] *= g
        beta[c, :] *= g
        vs[c] *= u
        vt[c] *= u


@jit
def _draw_effect(old, sd, lo, hi, u):
    """N(0, sd²) draw truncated to [old − lo, old − hi]: the effect (or intercept, its
    prior's mean removed) that keeps the latent values ``lo`` above 0 and ``hi`` below."""
    return sd * truncated_normal((old - lo) / sd, (old - hi) / sd, u)


@jit
def _rescale_free(x, var, shape, scale, free, room, u):
    """Gibbs draw of the effects' variance with the ``free`` effects (a system or topic
    without a zero) held as multiples of their sd and ε fixed: the free effects ``x``
    (changed in place) and their sd are rescaled together by g, the others stay; returns
    the variance drawn.

    In those coordinates the free effects' density does not depend on the variance
    (non-centred), so its full conditional is IG(a + n/2, b + Σ x²/2) over the n other
    effects, truncated to the g that keep every latent value's sign: a free effect moves
    its latent values by (g − 1)·effect, which must stay below ``room`` (the gap between 0
    and its highest latent value).
    """
    g_lo, g_hi = 0.0, np.inf
    held, ss = 0, 0.0
    any_free = False
    for k in range(x.size):
        if free[k]:
            any_free = True
            if x[k] < 0.0:
                g_lo = max(g_lo, 1.0 - max(room[k], 0.0) / -x[k])
            elif x[k] > 0.0:
                g_hi = min(g_hi, 1.0 + max(room[k], 0.0) / x[k])
        else:
            held += 1
            ss += x[k] * x[k]
    if not any_free:
        return var
    shape = shape + 0.5 * held
    rate = scale + 0.5 * ss
    # the precision w = 1/(g²·var) ~ Gamma(shape, rate), on [1/(g_hi²·var), 1/(g_lo²·var)]
    lo = rate * (1.0 / (g_hi * g_hi * var))
    hi = rate * (1.0 / (g_lo * g_lo * var)) if g_lo > 0.0 else np.inf
    new_var = rate / truncated_gamma(shape, lo, hi, u)
    g = math.sqrt(new_var / var)
    for k in range(x.size):
        if free[k]:
            x[k] *= g
    return new_var


@jit
def _level_move(mu, x, var, mu_mean, mu_sd, free, room, u):
    """Gibbs draw along μ − d and x + d for the effects x of the systems (or topics)
    with a zero, ε fixed: the latent values of the cells with a zero do not move, those
    of the systems without one move by −d. Its density along d is that of the priors,
    N(m, s²) on μ and N(0, var) on those effects: a normal, truncated below at
    −min(room of the free ones) (their latent values must stay ≤ 0). Changes ``x`` in
    place; returns μ and d."""
    held, total = 0, 0.0
    smallest = np.inf
    for k in range(x.size):
        if free[k]:
            smallest = min(smallest, max(room[k], 0.0))
        else:
            held += 1
            total += x[k]
    if held == 0 or held == x.size:
        return mu, 0.0
    precision = 1.0 / mu_sd ** 2 + held / var
    linear = (mu - mu_mean) / mu_sd ** 2 - total / var
    sd = 1.0 / math.sqrt(precision)
    mean = linear / precision
    d = mean + sd * truncated_normal((-smallest - mean) / sd, np.inf, u)
    for k in range(x.size):
        if not free[k]:
            x[k] += d
    return mu - d, d


@jit
def _ancillary_block(x, var, mu, shape, scale, mu_mean, mu_sd, free, lowest, top, u,
                     rounds, shift):
    """The moves of one kind of effects ``x`` (a chain's systems or topics, changed in
    place) given ε, in ``rounds``: each effect from its prior truncated to the values
    that keep its latent values' signs, then their variance (:func:`_rescale_free`),
    then the intercept against the effects with a zero (:func:`_level_move`). ``lowest``
    and ``top``: the lowest zero's and the highest other score's latent value of each
    system (topic) before the moves (±∞ where there is none); each move shifts a system's
    (topic's) latent values alike, so their bounds follow from these and ``shift`` (its
    output, the total shift of each). Returns the variance and μ."""
    n = x.size
    shift[:] = 0.0
    room = np.empty(n)
    for r in range(rounds):
        first = r * (n + 2)
        sd = math.sqrt(var)
        for k in range(n):
            new = _draw_effect(x[k], sd, lowest[k] + shift[k], top[k] + shift[k],
                               u[first + k])
            shift[k] += new - x[k]
            x[k] = new
        for k in range(n):
            room[k] = -(top[k] + shift[k])
        before = x.copy()
        var = _rescale_free(x, var, shape, scale, free, room, u[first + n])
        for k in range(n):
            shift[k] += x[k] - before[k]
            room[k] = -(top[k] + shift[k])
        before[:] = x
        mu, d = _level_move(mu, x, var, mu_mean, mu_sd, free, room, u[first + n + 1])
        for k in range(n):  # (μ moved by −d: every latent value)
            shift[k] += x[k] - before[k] - d
    return var, mu


@jit
def interweave(mu, alpha, beta, vs, vt, z, z_zero, scale, zero_t, zero_s, free_s, free_t,
               uniforms, rounds, system_prior, topic_prior, mu_prior, ss_a, ss_b):
    """Ancillary moves of every chain's locations and effects' variances (interweaving:
    Yu & Meng 2011).

    With the residuals ε = z − η held fixed instead of the latent values z, each system
    effect's full conditional is its prior N(0, σ²_system) truncated to the values that
    keep every latent value's sign; then σ²_system's with the effects of the systems
    without a zero held as multiples of σ_system; then the intercept against the effects
    of the systems with a zero; these ``rounds`` times; then the topics' alike, then the
    intercept's own (prior N(m, s²)); z moves with them (``z_zero`` is updated; ``z``,
    held for the bounds, is not). Exact Gibbs draws of the joint posterior in the
    (ε, locations) coordinates. ``uniforms``: ``(C, rounds·(S + T + 4) + 1)``; the priors
    as pairs (IG shape, scale) and (mean, sd); writes the effects' sums of squares
    ``ss_a``, ``ss_b``.
    """
    chains, n_s = alpha.shape
    n_t = beta.shape[1]
    used = rounds * (n_s + 2)
    top_s, top_t = np.empty(n_s), np.empty(n_t)
    low_s, low_t = np.empty(n_s), np.empty(n_t)
    shift_s, shift_t = np.empty(n_s), np.empty(n_t)
    zz = np.empty(z_zero.shape[1])
    for c in range(chains):
        g = scale[c]
        top_s[:] = -np.inf
        for t in range(n_t):
            for s in range(n_s):
                top_s[s] = max(top_s[s], z[c, t * n_s + s])
        top_s *= g
        zz[:] = z_zero[c]
        low_s[:] = np.inf
        for j in range(zz.size):
            low_s[zero_s[j]] = min(low_s[zero_s[j]], zz[j])
        vs[c], mu[c] = _ancillary_block(alpha[c], vs[c], mu[c], system_prior[0],
                                        system_prior[1], mu_prior[0], mu_prior[1], free_s,
                                        low_s, top_s, uniforms[c, :used], rounds, shift_s)
        low_t[:] = np.inf
        for j in range(zz.size):
            zz[j] += shift_s[zero_s[j]]
            low_t[zero_t[j]] = min(low_t[zero_t[j]], zz[j])
        # the highest other score's latent value of each topic, systems shifted
        for t in range(n_t):
            best = -np.inf
            for s in range(n_s):
                best = max(best, z[c, t * n_s + s] * g + shift_s[s])
            top_t[t] = best
        vt[c], mu[c] = _ancillary_block(beta[c], vt[c], mu[c], topic_prior[0],
                                        topic_prior[1], mu_prior[0], mu_prior[1], free_t,
                                        low_t, top_t, uniforms[c, used:used + rounds * (n_t + 2)],
                                        rounds, shift_t)
        low, high = np.inf, -np.inf
        for j in range(zz.size):
            zz[j] += shift_t[zero_t[j]]
            low = min(low, zz[j])
            z_zero[c, j] = zz[j]
        for t in range(n_t):
            high = max(high, top_t[t] + shift_t[t])
        m0, s0 = mu_prior
        mu[c] = m0 + _draw_effect(mu[c] - m0, s0, low, high, uniforms[c, -1])
        ss_a[c] = np.sum(alpha[c] ** 2)
        ss_b[c] = np.sum(beta[c] ** 2)


@jit
def sweep(mu, alpha, beta, vs, vt, eps, kind, z, z_zero, e_row, e_col, rss, scale, zero_t,
          zero_s, free_s, free_t, gamma, uniform, uniforms, rounds, system_prior,
          topic_prior, mu_prior, ss_a, ss_b):
    """:func:`latent_step`, :func:`expand` and :func:`interweave` in a row: an iteration
    of the probit part after its locations and variances (one call instead of three)."""
    latent_step(mu, alpha, beta, eps, kind, z, z_zero, e_row, e_col, rss, scale)
    expand(mu, alpha, beta, vs, vt, z_zero, e_row, e_col, rss, scale, gamma, uniform,
           mu_prior[1], system_prior[1], topic_prior[1])
    interweave(mu, alpha, beta, vs, vt, z, z_zero, scale, zero_t, zero_s, free_s, free_t,
               uniforms, rounds, system_prior, topic_prior, mu_prior, ss_a, ss_b)
