r"""Compiled Gibbs steps of the bounded likelihoods of the crossed model
(:mod:`scorestd.bayes.bounded`): each chain's loops over its cells and effects, which
numpy would make into dozens or hundreds of calls on small arrays per iteration.

Each step is a deterministic function of the random numbers it is given (standard
normals, gamma and uniform draws), drawn by the caller from the chain's own generators,
and of the PCG64 states it advances (:func:`latent_step` draws a probit part's latent
normals cell by cell from the chain's own stream, :mod:`.normal_stream`): the same
numbers give the same state. (One module for the steps: numba's cache checks only the
file of a compiled function, so steps that call each other live in one file; after
editing ``normal_stream``, delete the cached code, ``kernels/__pycache__/*.nb[ic]``.)

**A crossed normal component** (the censored model; the logit part of the hurdle model)
on a matrix completed by latent cells: :func:`component_statistics` and
:func:`centred` (its sufficient statistics), :func:`step` (the balanced-design step of
:class:`scorestd.bayes.gibbs._FastStep`: all locations jointly given the variances, then
the variances), :func:`component_latent` (the latent cells given the parameters).

**A crossed probit part** (the zero part of the hurdle model): latent values
:math:`z_{ts} = \eta_{ts} + \varepsilon_{ts}`, :math:`\eta_{ts} = \mu + \alpha_s +
\beta_t`, :math:`\varepsilon_{ts} \sim N(0, 1)`, a cell's score 0 iff
:math:`z_{ts} > 0` (Albert & Chib 1993):

- :func:`latent_step`: fresh latent values given η, from candidate standard normals;
- :func:`expand`: the parameter-expanded rescaling of the latent values and locations;
- :func:`interweave`: the moves of the effects, their variances and the intercept with
  the residuals ε = z − η held fixed;
- :func:`sweep`: the three in a row (one call an iteration).

The state of a probit part's ``C`` chains on a ``T × S`` matrix with ``Z`` zeros (arrays
changed in place): ``mu`` ``(C,)``, ``alpha`` ``(C, S)``, ``beta`` ``(C, T)``, ``vs``,
``vt`` ``(C,)`` (the effects' variances), ``z`` ``(C, T·S)`` (latent values of the other
scores' cells, −∞ at the zeros' and missing cells, to be multiplied by ``scale``
``(C,)``), ``z_zero`` ``(C, Z)`` (the zeros' latent values, scaled), ε's row sums
``e_row`` ``(C, T)``, column sums ``e_col`` ``(C, S)`` and sum of squares ``rss``
``(C,)``, and ``top_t`` ``(C, T)``: the highest latent value of each topic's other
scores (unscaled). ``kind`` ``(T·S,)`` is +1 at a zero, −1 at another score, 0 at a
missing one.

Truncated normals are drawn as "a plain normal, kept where it falls on the right side,
else an inverse-cdf draw from the other side at a uniform made from the rejected normal"
(given its rejection, its cdf within the rejected side is uniform, and independent of
the kept cells): exactly the truncated law, from one normal per cell. The moves of the
effects draw theirs from the chain's stream too, by rejection where the truncation keeps
much of the prior or leaves a nearly flat interval, by the inverse cdf elsewhere
(:func:`truncated_standard`); their variances' truncated gammas likewise
(:func:`truncated_gamma_draw`).
"""

from __future__ import annotations

import math

import numpy as np

from .compiled import gammainc, gammaincc, gammainccinv, gammaincinv, jit, ndtr, ndtri
from .normal_stream import gamma_draw, normal_draw, uniform_draw

__all__ = ["centred", "component_latent", "component_statistics", "expand", "interweave", "latent_step",
           "pack_priors", "step", "sweep", "truncated_gamma", "truncated_gamma_draw",
           "truncated_normal", "truncated_standard", "upper_truncated_normal"]

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


#: Plain gamma draws tried before the inverse cdf by :func:`truncated_gamma_draw`.
GAMMA_TRIES = 2


@jit
def truncated_gamma_draw(shape, lo, hi, u, stream):
    """Gamma(``shape``, 1) conditioned on [``lo``, ``hi``]: up to :data:`GAMMA_TRIES`
    plain draws from a chain's PCG64 state row ``stream`` (advanced in place;
    :func:`.normal_stream.gamma_draw`, shape > 1), the first inside kept; else the
    inverse cdf at the uniform ``u`` (:func:`truncated_gamma`, whose incomplete gamma
    inverses cost about 1.5 µs). Exactly the truncated law: a kept draw has it, and so
    does the fallback.

    Examples
    --------
    >>> from scorestd.kernels.normal_stream import states_of
    >>> stream = states_of([np.random.default_rng(5)])[0]
    >>> bool(20.0 <= truncated_gamma_draw(27.0, 20.0, np.inf, 0.5, stream))
    True
    """
    if shape > 1.0:
        s_hi, s_lo, inc_hi, inc_lo = stream[0], stream[1], stream[2], stream[3]
        for _ in range(GAMMA_TRIES):
            x, s_hi, s_lo = gamma_draw(shape, s_hi, s_lo, inc_hi, inc_lo)
            if lo <= x <= hi:
                stream[0], stream[1] = s_hi, s_lo
                return x
        stream[0], stream[1] = s_hi, s_lo
    return truncated_gamma(shape, lo, hi, u)


@jit
def latent_step(mu, alpha, beta, streams, kind, z, z_zero, e_row, e_col, rss, scale, top_t):
    """Fresh latent values of every chain given η, from candidate standard normals drawn
    cell by cell (row-major) from the chain's PCG64 stream ``streams[c]``
    (:mod:`scorestd.kernels.normal_stream`; advanced in place).

    A cell keeps ε = its candidate where η + ε has the sign the cell's score requires;
    elsewhere w = −σ·ε (σ = +1 at a zero, −1 at another score) is drawn from N(0, 1)
    below b = σ·η by the inverse cdf at the uniform U = Φ(−w₀)/Φ(−b) made from the
    rejected candidate w₀ (given its rejection, w₀ is N(0, 1) above b). Writes ``z``,
    ``z_zero``, ε's sums ``e_row``, ``e_col``, ``rss``, ``top_t`` and ``scale`` = 1.

    Examples
    --------
    >>> from scorestd.kernels.normal_stream import fill, states_of
    >>> kind = np.array([1, -1, -1, 0], dtype=np.int8)  # a 2 × 2 matrix: a zero first
    >>> streams = states_of([np.random.default_rng(3)])
    >>> candidates = np.empty(4)
    >>> fill(streams[0].copy(), candidates)  # (the same normals, for the example)
    >>> [round(float(v), 2) for v in candidates]
    [2.04, -2.56, 0.42, -0.57]
    >>> z, z_zero, top_t = np.empty((1, 4)), np.empty((1, 1)), np.empty((1, 2))
    >>> e_row, e_col, rss, scale = np.empty((1, 2)), np.empty((1, 2)), np.empty(1), np.empty(1)
    >>> latent_step(np.zeros(1), np.zeros((1, 2)), np.zeros((1, 2)), streams, kind, z,
    ...             z_zero, e_row, e_col, rss, scale, top_t)
    >>> bool(z_zero[0, 0] == candidates[0]), bool(z[0, 1] == candidates[1])
    (True, True)
    >>> round(float(z[0, 2]), 2), float(z[0, 3])  # (redrawn below 0; missing)
    (-0.42, -inf)
    >>> top_t.tolist() == [[z[0, 1], z[0, 2]]]
    True
    """
    chains, n_s = alpha.shape
    n_t = beta.shape[1]
    for c in range(chains):
        e_col[c, :] = 0.0
        ss = 0.0
        k = 0
        s_hi, s_lo, inc_hi, inc_lo = streams[c, 0], streams[c, 1], streams[c, 2], streams[c, 3]
        for t in range(n_t):
            level = mu[c] + beta[c, t]
            row, top = 0.0, -np.inf
            for s in range(n_s):
                i = t * n_s + s
                eta = level + alpha[c, s]
                e, s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
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
                    top = max(top, eta + e)
                else:
                    z[c, i] = -np.inf
                    if cell > 0:
                        z_zero[c, k] = eta + e
                        k += 1
            e_row[c, t] = row
            top_t[c, t] = top
        rss[c] = ss
        scale[c] = 1.0
        streams[c, 0], streams[c, 1] = s_hi, s_lo


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
def _holds_much(a, b):
    """Whether [``a``, ``b``] surely holds 30% of the standard normal's mass or more: a
    half-line beyond ∓0.5 (Φ(−0.5) = 0.309) or an interval of width ≥ 1 around 0
    (≥ Φ(1) − Φ(0) = 0.341). False where a bound is NaN."""
    if a == -np.inf:
        return b >= -0.5
    if b == np.inf:
        return a <= 0.5
    return a <= 0.0 <= b and b - a >= 1.0


@jit
def _peak_square(a, b):
    """m² for the point m of [a, b] nearest 0 (where the normal density peaks on it)."""
    if a > 0.0:
        return a * a
    if b < 0.0:
        return b * b
    return 0.0


@jit
def _nearly_flat(a, b):
    """Whether the standard normal density on the finite interval [``a``, ``b``] stays
    within a factor e of its peak there: (max(a², b²) − m²)/2 ≤ 1. False where a bound is
    infinite or NaN."""
    return (abs(a) < np.inf and abs(b) < np.inf
            and max(a * a, b * b) - _peak_square(a, b) <= 2.0)


@jit
def truncated_standard(a, b, u, s_hi, s_lo, inc_hi, inc_lo):
    """A standard normal conditioned on ``a ≤ X ≤ b``: ``(x, s_hi, s_lo)``.

    From a PCG64 state held in scalars (:mod:`.normal_stream`; its new halves returned),
    by whichever of three exact methods suits the bounds:

    - where the interval surely holds ≥ 30% of the mass (:func:`_holds_much`): plain
      normals until one falls inside (≤ 3.2 draws on average, a few ns each);
    - on a finite interval where the density varies by at most a factor e
      (:func:`_nearly_flat`): uniform points x on it, each kept with probability
      exp(−(x² − m²)/2) (m the point nearest 0; ≥ 63% kept on average);
    - elsewhere the inverse cdf at the uniform ``u`` (:func:`truncated_normal`, three
      special functions, several times slower).

    Examples
    --------
    >>> from scorestd.kernels.normal_stream import states_of
    >>> st = states_of([np.random.default_rng(3)])[0]
    >>> x, st[0], st[1] = truncated_standard(-np.inf, 0.0, 0.5, *st)
    >>> bool(x <= 0.0)
    True
    >>> x, st[0], st[1] = truncated_standard(1.2, 1.6, 0.5, *st)  # (uniform points)
    >>> bool(1.2 <= x <= 1.6)
    True
    >>> float(truncated_standard(3.0, 6.0, 0.0, *st)[0])  # (the cdf's, at u = 0)
    3.0
    """
    if _holds_much(a, b):
        x, s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
        while not a <= x <= b:
            x, s_hi, s_lo = normal_draw(s_hi, s_lo, inc_hi, inc_lo)
        return x, s_hi, s_lo
    if _nearly_flat(a, b):
        peak = _peak_square(a, b)
        while True:
            v, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
            w, s_hi, s_lo = uniform_draw(s_hi, s_lo, inc_hi, inc_lo)
            x = a + (b - a) * v
            drop = 0.5 * (x * x - peak)
            if w < 1.0 - drop or w < math.exp(-drop):  # (1 − d ≤ e^(−d): a cheap first test)
                return min(x, b), s_hi, s_lo
    return truncated_normal(a, b, u), s_hi, s_lo


@jit
def _draw_from(stream, a, b, u):
    """:func:`truncated_standard` from a chain's PCG64 state row ``stream`` (advanced in
    place)."""
    x, stream[0], stream[1] = truncated_standard(a, b, u, stream[0], stream[1], stream[2],
                                                 stream[3])
    return x


@jit
def _draw_effects(x, sd, lowest, top, shift, u, stream):
    """Each effect ``x[k]`` (changed in place) from N(0, sd²) truncated to
    [x − lowest − shift, x − top − shift]: the values that keep the latent values of its
    zeros (the lowest, ``lowest[k]``) above 0 and of its other scores (the highest,
    ``top[k]``) below, each already shifted by ``shift[k]`` (which grows by the move).
    From the PCG64 state row ``stream`` (read once) and the uniforms ``u``."""
    s_hi, s_lo, inc_hi, inc_lo = stream[0], stream[1], stream[2], stream[3]
    for k in range(x.size):
        old = x[k]
        v, s_hi, s_lo = truncated_standard((old - (lowest[k] + shift[k])) / sd,
                                           (old - (top[k] + shift[k])) / sd, u[k], s_hi,
                                           s_lo, inc_hi, inc_lo)
        x[k] = sd * v
        shift[k] += x[k] - old
    stream[0], stream[1] = s_hi, s_lo


@jit
def _rescale_free(x, var, shape, scale, free, room, u, stream):
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
    new_var = rate / truncated_gamma_draw(shape, lo, hi, u, stream)
    g = math.sqrt(new_var / var)
    for k in range(x.size):
        if free[k]:
            x[k] *= g
    return new_var


@jit
def _level_move(mu, x, var, mu_mean, mu_sd, free, room, u, stream):
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
    d = mean + sd * _draw_from(stream, (-smallest - mean) / sd, np.inf, u)
    for k in range(x.size):
        if not free[k]:
            x[k] += d
    return mu - d, d


@jit
def _ancillary_block(x, var, mu, shape, scale, mu_mean, mu_sd, free, lowest, top, u,
                     stream, rounds, shift):
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
        _draw_effects(x, math.sqrt(var), lowest, top, shift, u[first:first + n], stream)
        for k in range(n):
            room[k] = -(top[k] + shift[k])
        before = x.copy()
        var = _rescale_free(x, var, shape, scale, free, room, u[first + n], stream)
        for k in range(n):
            shift[k] += x[k] - before[k]
            room[k] = -(top[k] + shift[k])
        before[:] = x
        mu, d = _level_move(mu, x, var, mu_mean, mu_sd, free, room, u[first + n + 1],
                            stream)
        for k in range(n):  # (μ moved by −d: every latent value)
            shift[k] += x[k] - before[k] - d
    return var, mu


@jit
def interweave(mu, alpha, beta, vs, vt, streams, z, z_zero, scale, top_t, zero_t, zero_s,
               free_s, free_t, uniforms, rounds, system_prior, topic_prior, mu_prior, ss_a,
               ss_b):
    """Ancillary moves of every chain's locations and effects' variances (interweaving:
    Yu & Meng 2011).

    With the residuals ε = z − η held fixed instead of the latent values z, each topic
    effect's full conditional is its prior N(0, σ²_topic) truncated to the values that
    keep every latent value's sign; then σ²_topic's with the effects of the topics
    without a zero held as multiples of σ_topic; then the intercept against the effects
    of the topics with a zero; these ``rounds`` times; then the systems' alike, then the
    intercept's own (prior N(m, s²)); z moves with them (``z_zero`` is updated; ``z``
    and ``top_t``, held for the bounds, are not). Exact Gibbs draws of the joint
    posterior in the (ε, locations) coordinates, from the chains' PCG64 streams
    ``streams`` (advanced in place) and, for the narrow truncations, ``uniforms``
    ``(C, rounds·(S + T + 4) + 1)`` (:func:`truncated_standard`). The priors as pairs
    (IG shape, scale) and (mean, sd); writes the effects' sums of squares ``ss_a``,
    ``ss_b``.
    """
    chains, n_s = alpha.shape
    n_t = beta.shape[1]
    used = rounds * (n_t + 2)
    top, top_s = np.empty(n_t), np.empty(n_s)
    low_s, low_t = np.empty(n_s), np.empty(n_t)
    shift_s, shift_t = np.empty(n_s), np.empty(n_t)
    zz = np.empty(z_zero.shape[1])
    for c in range(chains):
        g = scale[c]
        for t in range(n_t):
            top[t] = top_t[c, t] * g
        zz[:] = z_zero[c]
        low_t[:] = np.inf
        for j in range(zz.size):
            low_t[zero_t[j]] = min(low_t[zero_t[j]], zz[j])
        vt[c], mu[c] = _ancillary_block(beta[c], vt[c], mu[c], topic_prior[0],
                                        topic_prior[1], mu_prior[0], mu_prior[1], free_t,
                                        low_t, top, uniforms[c, :used], streams[c], rounds,
                                        shift_t)
        low_s[:] = np.inf
        for j in range(zz.size):
            zz[j] += shift_t[zero_t[j]]
            low_s[zero_s[j]] = min(low_s[zero_s[j]], zz[j])
        # the highest other score's latent value of each system, topics shifted (unscaled
        # in the loop: elementwise over the systems, which the compiler vectorises)
        top_s[:] = -np.inf
        for t in range(n_t):
            lift = shift_t[t] / g
            for s in range(n_s):
                top_s[s] = max(top_s[s], z[c, t * n_s + s] + lift)
        top_s *= g
        vs[c], mu[c] = _ancillary_block(alpha[c], vs[c], mu[c], system_prior[0],
                                        system_prior[1], mu_prior[0], mu_prior[1], free_s,
                                        low_s, top_s, uniforms[c, used:used + rounds * (n_s + 2)],
                                        streams[c], rounds, shift_s)
        low, high = np.inf, -np.inf
        for j in range(zz.size):
            zz[j] += shift_s[zero_s[j]]
            low = min(low, zz[j])
            z_zero[c, j] = zz[j]
        for s in range(n_s):
            high = max(high, top_s[s] + shift_s[s])
        m0, s0 = mu_prior
        old = mu[c] - m0  # (its prior's mean removed: an effect with prior sd s0)
        mu[c] = m0 + s0 * _draw_from(streams[c], (old - low) / s0, (old - high) / s0,
                                     uniforms[c, -1])
        ss_a[c] = np.sum(alpha[c] ** 2)
        ss_b[c] = np.sum(beta[c] ** 2)


@jit
def sweep(mu, alpha, beta, vs, vt, streams, kind, z, z_zero, e_row, e_col, rss, scale, top_t,
          zero_t, zero_s, free_s, free_t, gamma, uniform, uniforms, rounds, system_prior,
          topic_prior, mu_prior, ss_a, ss_b):
    """:func:`latent_step`, :func:`expand` and :func:`interweave` in a row: an iteration
    of the probit part after its locations and variances (one call instead of three)."""
    latent_step(mu, alpha, beta, streams, kind, z, z_zero, e_row, e_col, rss, scale, top_t)
    expand(mu, alpha, beta, vs, vt, z_zero, e_row, e_col, rss, scale, gamma, uniform,
           mu_prior[1], system_prior[1], topic_prior[1])
    interweave(mu, alpha, beta, vs, vt, streams, z, z_zero, scale, top_t, zero_t, zero_s,
               free_s, free_t, uniforms, rounds, system_prior, topic_prior, mu_prior, ss_a,
               ss_b)


# -- the balanced-design step of a crossed normal component ---------------------------

def pack_priors(priors) -> np.ndarray:
    """The array of a :class:`scorestd.bayes.gibbs.CrossedPriors` the steps read.

    Examples
    --------
    >>> from scorestd.bayes.gibbs import CrossedPriors, VariancePrior
    >>> pack_priors(CrossedPriors(VariancePrior(2, 1), VariancePrior(3, 1),
    ...                           VariancePrior(fixed=1.0), mu=(0.0, 2.0))).tolist()
    [2.0, 1.0, nan, 3.0, 1.0, nan, 1.0, 1.0, 1.0, 0.0, 2.0]
    """
    values = []
    for prior in (priors.system, priors.topic, priors.residual):
        values += [prior.shape, prior.scale, np.nan if prior.fixed is None else prior.fixed]
    values += list(priors.mu) if priors.mu is not None else [0.0, np.nan]
    return np.array(values, dtype=float)


@jit
def centred(row, col, ss, grand, rs, ct, sse):
    """Grand mean, centred column and row means and the residual sum of squares of the
    two-way additive fit of ``(C, T, S)`` matrices from their row sums ``row``, column
    sums ``col`` and sums of squares ``ss`` (written into ``grand``, ``rs``, ``ct``,
    ``sse``).

    Examples
    --------
    >>> y = np.array([[1.0, 2.0], [3.0, 6.0]])
    >>> out = np.empty(1), np.empty((1, 2)), np.empty((1, 2)), np.empty(1)
    >>> centred(y.sum(1)[None], y.sum(0)[None], np.array([np.sum(y * y)]), *out)
    >>> out[0].tolist(), out[1].tolist(), out[3].tolist()
    ([3.0], [[-1.0, 1.0]], [1.0])
    """
    chains, n_t = row.shape
    n_s = col.shape[1]
    n = n_t * n_s
    for c in range(chains):
        total = 0.0
        for t in range(n_t):
            total += row[c, t]
        g = total / n
        grand[c] = g
        ss_s, ss_t = 0.0, 0.0
        for s in range(n_s):
            rs[c, s] = col[c, s] / n_t - g
            ss_s += rs[c, s] * rs[c, s]
        for t in range(n_t):
            ct[c, t] = row[c, t] / n_s - g
            ss_t += ct[c, t] * ct[c, t]
        sse[c] = max(ss[c] - n * g * g - n_t * ss_s - n_s * ss_t, 0.0)


@jit
def component_statistics(base_row, base_col, base_ss, x, t_idx, s_idx, row, col, ss):
    """Row and column sums and sum of squares of each chain's completed matrix: the exact
    cells' (``base_*``) plus the latent cells' values ``x`` ``(C, K)`` at topics ``t_idx``
    and systems ``s_idx``."""
    for c in range(x.shape[0]):
        row[c, :] = base_row
        col[c, :] = base_col
        total = base_ss
        for k in range(x.shape[1]):
            v = x[c, k]
            row[c, t_idx[k]] += v
            col[c, s_idx[k]] += v
            total += v * v
        ss[c] = total


@jit
def _inverse_gamma(shape_scale_fixed, ss, gamma):
    """A variance's draw given the sum of squares of its effects (or residuals) and a
    standard gamma draw of shape a + n/2 (or its fixed value)."""
    fixed = shape_scale_fixed[2]
    if not math.isnan(fixed):
        return fixed
    return (shape_scale_fixed[1] + 0.5 * ss) / gamma


@jit
def step(grand, rs, ct, sse, z, g, vs, vt, ve, priors):
    """Locations and variances of every chain given the statistics of its completed
    ``T × S`` matrix (``grand``, ``rs``, ``ct``, ``sse``: :func:`centred`'s), the
    variances ``vs``, ``vt``, ``ve`` and its random numbers: ``z`` ``(C, S + T + 4)``
    standard normals, ``g`` ``(C, 3)`` standard gammas of shapes a + S/2, a + T/2,
    a + T·S/2.

    The centred effects are independent Gaussians in the sum-zero subspaces; the grand
    mean m = μ + mean(α) + mean(β) and the two effect means are drawn apart (with a normal
    prior on μ by Matheron's rule: the prior draw corrected by a noisy observation of m);
    then the variances. Returns ``mu``, ``alpha``, ``beta``, ``vs``, ``vt``, ``ve`` and
    the sums of squares of the residuals, system and topic effects (``ssr``, ``ss_a``,
    ``ss_b``), as :class:`scorestd.bayes.gibbs._FastStep` does.
    """
    chains, n_s = rs.shape
    n_t = ct.shape[1]
    n = n_t * n_s
    mu, alpha, beta = np.empty(chains), np.empty((chains, n_s)), np.empty((chains, n_t))
    new_vs, new_vt, new_ve = np.empty(chains), np.empty(chains), np.empty(chains)
    ssr, ss_a, ss_b = np.empty(chains), np.empty(chains), np.empty(chains)
    m0, s0 = priors[9], priors[10]
    for c in range(chains):
        prec_a = n_t / ve[c] + 1.0 / vs[c]
        prec_b = n_s / ve[c] + 1.0 / vt[c]
        w_a, w_b = (n_t / ve[c]) / prec_a, (n_s / ve[c]) / prec_b
        sd_a, sd_b = math.sqrt(prec_a), math.sqrt(prec_b)
        zs_bar = 0.0
        for s in range(n_s):
            zs_bar += z[c, s]
        zs_bar /= n_s
        zt_bar = 0.0
        for t in range(n_t):
            zt_bar += z[c, n_s + t]
        zt_bar /= n_t
        z0 = z[c, n_s + n_t:]
        va, vb, vm = vs[c] / n_s, vt[c] / n_t, ve[c] / n
        a_bar = math.sqrt(va) * z0[1]
        b_bar = math.sqrt(vb) * z0[2]
        if math.isnan(s0):
            m = grand[c] + math.sqrt(vm) * z0[0]
            mu[c] = m - a_bar - b_bar
        else:
            mu_p = m0 + s0 * z0[0]
            total = s0 * s0 + va + vb + vm
            r = grand[c] - (mu_p + a_bar + b_bar + math.sqrt(vm) * z0[3])
            mu[c] = mu_p + (s0 * s0 / total) * r
            a_bar += (va / total) * r
            b_bar += (vb / total) * r
            m = mu[c] + a_bar + b_bar
        dev_a, dev_b, sq_a, sq_b = 0.0, 0.0, 0.0, 0.0
        for s in range(n_s):
            a = w_a * rs[c, s] + (z[c, s] - zs_bar) / sd_a
            dev_a += (rs[c, s] - a) ** 2
            alpha[c, s] = a_bar + a
            sq_a += alpha[c, s] * alpha[c, s]
        for t in range(n_t):
            b = w_b * ct[c, t] + (z[c, n_s + t] - zt_bar) / sd_b
            dev_b += (ct[c, t] - b) ** 2
            beta[c, t] = b_bar + b
            sq_b += beta[c, t] * beta[c, t]
        ssr[c] = sse[c] + n * (grand[c] - m) ** 2 + n_t * dev_a + n_s * dev_b
        ss_a[c], ss_b[c] = sq_a, sq_b
        new_vs[c] = _inverse_gamma(priors[0:3], sq_a, g[c, 0])
        new_vt[c] = _inverse_gamma(priors[3:6], sq_b, g[c, 1])
        new_ve[c] = _inverse_gamma(priors[6:9], ssr[c], g[c, 2])
    return mu, alpha, beta, new_vs, new_vt, new_ve, ssr, ss_a, ss_b


@jit
def component_latent(mu, alpha, beta, ve, normals, sign, bound, t_idx, s_idx, x):
    """The latent cells of every chain given the parameters, from standard normals
    ``normals`` ``(C, K)``: cell k at topic ``t_idx[k]``, system ``s_idx[k]`` is free
    (``sign`` 0: x = η + σ·v) or known to lie above (+1) or below (−1) ``bound``: then
    v = sign·(x − η)/σ is N(0, 1) truncated to v ≥ a = sign·(bound − η)/σ, its normal
    kept where it is ≥ a, else drawn from [a, ∞) at the uniform Φ(v₀)/Φ(a) made from
    the rejected normal v₀. Writes ``x``.

    Examples
    --------
    >>> x = np.empty((1, 2))
    >>> component_latent(np.zeros(1), np.zeros((1, 1)), np.zeros((1, 1)), np.ones(1),
    ...                  np.array([[0.5, 0.5]]), np.array([0.0, -1.0]), np.array([0.0, 0.0]),
    ...                  np.zeros(2, np.intp), np.zeros(2, np.intp), x)
    >>> float(x[0, 0]), bool(x[0, 1] <= 0.0)
    (0.5, True)
    """
    for c in range(x.shape[0]):
        sd = math.sqrt(ve[c])
        for k in range(x.shape[1]):
            eta = mu[c] + alpha[c, s_idx[k]] + beta[c, t_idx[k]]
            flip = sign[k] if sign[k] != 0.0 else 1.0
            v = normals[c, k] * flip
            if sign[k] != 0.0:
                a = sign[k] * (bound[k] - eta) / sd
                if v < a:
                    u = min(ndtr(v, 0) / ndtr(a, 0), 1.0)
                    v = -upper_truncated_normal(-a, u)
            x[c, k] = eta + sd * (flip * v)
