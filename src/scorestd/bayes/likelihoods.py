r"""What each likelihood of the crossed model says about scores, from posterior draws.

For every likelihood (``"normal"``, ``"student_t"`` errors, ``"censored"``, ``"hurdle"``):

- :func:`system_scores`: each system's expected score on the original scale, integrated
  over the model's topic population (a new topic's effect drawn from N(0, σ²_topic)) and
  the residual, so that rankings under different likelihoods are comparable;
- :func:`pointwise_log_likelihood`: the log density of every observed score on the score
  scale (with the Jacobian 1/(y(1 − y)) of the logit for the hurdle model's scores in
  (0, 1); a log probability for a censored or inflated 0 or 1);
- :func:`predictive_draws`: replicated score matrices.

Parameters come as a dict of numpy arrays with a leading draw axis: ``mu`` ``(D,)``,
``alpha`` ``(D, S)``, ``beta`` ``(D, T)``, ``sigma`` ``(D,)`` or ``(D, S)``,
``sigma_system``, ``sigma_topic``; the hurdle model adds ``zero_mu``, ``zero_alpha``,
``zero_beta``, ``zero_sigma_topic`` and ``one_prob`` (absent: no one part).
"""

from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["HERMITE_NODES", "QUADRATURE_TOLERANCE", "hermite_nodes", "pointwise_log_likelihood",
           "predictive_draws", "system_scores"]

#: Bytes of one block of draws' temporaries in :func:`pointwise_log_likelihood`.
BLOCK_BYTES = 1 << 22
#: Gauss–Hermite node counts tried for the logit-normal mean, fewest first.
HERMITE_NODES = (8, 12, 16, 20, 24, 32, 40, 48, 64, 96, 128)
#: Largest error of the logit-normal mean accepted from its quadrature: two orders of
#: magnitude below the Monte Carlo error of an expected score from a fit's draws (its
#: posterior sd, rarely below 1e-3, over the square root of its effective sample size,
#: rarely above 1e4).
QUADRATURE_TOLERANCE = 1e-7


def _sigma(p: dict, n_systems: int) -> np.ndarray:
    """The residual sd as ``(D, S)`` (one per system or shared)."""
    s = np.asarray(p["sigma"], dtype=float)
    return s if s.ndim == 2 else np.repeat(s[:, None], n_systems, axis=1)


def _expected_part(m: np.ndarray, s: np.ndarray, a: float) -> np.ndarray:
    """E[(X − a)⁺] for X ~ N(m, s²)."""
    d = m - a
    return d * special.ndtr(d / s) + s * np.exp(-0.5 * (d / s) ** 2) / np.sqrt(2 * np.pi)


def _clipped_mean(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """E[min(max(X, 0), 1)] for X ~ N(m, s²): E[X⁺] − E[(X − 1)⁺], or 1 minus the same
    of 1 − X where m > 1/2 (so that the two parts are small where the mean is near 1:
    their difference near 2.5 − 1.5 lost the last bits, and its order between means)."""
    upper = m > 0.5
    x = np.where(upper, 1.0 - m, m)
    low = _expected_part(x, s, 0.0) - _expected_part(x, s, 1.0)
    return np.where(upper, 1.0 - low, low)


#: Bytes of the quadrature's terms worked on at once (in cache).
HERMITE_BLOCK_BYTES = 1 << 20


def _hermite_mean(m: np.ndarray, s: np.ndarray, nodes: int) -> np.ndarray:
    """E[logistic(X)], X ~ N(m, s²), by the Gauss–Hermite rule of ``nodes`` nodes.

    logistic(m + s·x_k) = 1/(1 + e^(−m)·e^(−s·x_k)): one exponential per value of ``m``
    and one per value of ``s`` and node (``s`` broadcast: one per draw, shared by the
    systems), not one per pair and node. Where that product is ∞·0 (|m| and s·|x_k| both
    beyond ≈ 700) the value is summed directly. Worked through in blocks of rows of
    about :data:`HERMITE_BLOCK_BYTES` (a fit's draws × systems are megabytes)."""
    x, w = np.polynomial.hermite.hermgauss(nodes)
    x, w = np.sqrt(2.0) * x, w / np.sqrt(np.pi)
    m, s = np.asarray(m, dtype=float), np.asarray(s, dtype=float)
    shape = np.broadcast_shapes(m.shape, s.shape, (1,))
    m_b, s_b = np.broadcast_to(m, shape), np.broadcast_to(s, shape)
    with np.errstate(over="ignore"):
        e_m = np.exp(-m_b)
        e_s = np.broadcast_to(np.exp(-s[..., None] * x), (*shape, nodes))
    out = np.empty(shape)
    rows = max(1, HERMITE_BLOCK_BYTES // (8 * nodes * int(np.prod(shape[1:]))))
    for start in range(0, shape[0], rows):
        block = slice(start, start + rows)
        with np.errstate(over="ignore", invalid="ignore"):
            t = e_m[block, ..., None] * e_s[block]
        t += 1.0
        np.reciprocal(t, out=t)
        np.matmul(t, w, out=out[block])
    odd = np.isnan(out) & ~np.isnan(m_b) & ~np.isnan(s_b)
    if odd.any():
        out[odd] = special.expit(m_b[odd][:, None] + s_b[odd][:, None] * x) @ w
    return out.reshape(np.broadcast_shapes(m.shape, s.shape))


def hermite_nodes(m: np.ndarray, s: np.ndarray,
                  tolerance: float = QUADRATURE_TOLERANCE) -> int:
    """The fewest Gauss–Hermite nodes (of :data:`HERMITE_NODES`) whose logit-normal mean
    is within ``tolerance`` of the rule with twice as many nodes, for every ``m`` and ``s``.

    The rule's error grows with s (the logistic's poles at ±iπ come closer to the real
    line in the standardised variable) and is checked at the largest ``s`` over 65 values
    spanning the ``m``. With the largest count the error may exceed the tolerance (s ≳ 4
    on the logit scale: scores all but 0 or 1); that count is used then.

    Examples
    --------
    >>> hermite_nodes(np.array([-2.0, 1.0]), np.array([0.3, 0.5]))
    8
    >>> hermite_nodes(np.array([-2.0, 1.0]), np.array([1.0, 1.5]))
    24
    """
    m, s = np.asarray(m, float), np.asarray(s, float)
    grid = np.linspace(np.min(m), np.max(m), 65)
    worst = np.full(grid.shape, np.max(s))
    for nodes in HERMITE_NODES:
        gap = np.abs(_hermite_mean(grid, worst, nodes) - _hermite_mean(grid, worst, 2 * nodes))
        if np.max(gap) <= tolerance:
            return nodes
    return HERMITE_NODES[-1]


def logit_normal_mean(m: np.ndarray, s: np.ndarray) -> np.ndarray:
    """E[logistic(X)] for X ~ N(m, s²), by Gauss–Hermite quadrature with the nodes of
    :func:`hermite_nodes` (error below :data:`QUADRATURE_TOLERANCE`).

    Examples
    --------
    >>> from scipy import integrate, stats
    >>> ref = integrate.quad(lambda x: special.expit(x) * stats.norm.pdf(x, 0.5, 1.2),
    ...                      -20, 20)[0]
    >>> abs(float(logit_normal_mean(np.array(0.5), np.array(1.2))) - ref) < 1e-7
    True
    """
    m, s = np.asarray(m, float), np.asarray(s, float)
    if m.size == 0:
        return np.zeros(np.broadcast_shapes(m.shape, s.shape))
    return _hermite_mean(m, s, hermite_nodes(m, s))


def system_scores(likelihood: str, p: dict) -> np.ndarray:
    """Expected score of each system over the topic population, ``(D, S)``.

    - normal / Student-t errors: μ + α_s (the topic effects and residuals have mean 0);
    - censored: E[min(max(X, 0), 1)], X ~ N(μ + α_s, σ²_topic + σ²), in closed form;
    - hurdle: (1 − P0_s)·(π + (1 − π)·M_s), with P0_s = Φ((ζ + γ_s)/√(1 + σ²_zero topic))
      the probit zero probability averaged over the topic population (closed form), π the
      one probability (0 without a one part) and M_s the logit-normal mean of
      N(μ + α_s, σ²_topic + σ²) (Gauss–Hermite). The topic effects of the zero and the
      logit parts are independent in the model, so the average factorises.
    """
    m = p["mu"][:, None] + p["alpha"]
    if likelihood == "normal":
        return m
    sigma = np.asarray(p["sigma"], dtype=float)  # (D,), or (D, S) heteroscedastic
    s = np.sqrt(p["sigma_topic"][:, None] ** 2 + sigma.reshape(len(sigma), -1) ** 2)
    if likelihood == "censored":
        return _clipped_mean(m, s)
    if likelihood != "hurdle":
        raise ValueError(f"unknown likelihood {likelihood!r}")
    positive = logit_normal_mean(m, s)
    one = p.get("one_prob")
    if one is not None:
        positive = one[:, None] + (1.0 - one[:, None]) * positive
    if "zero_mu" not in p:
        return positive
    scale = np.sqrt(1.0 + p["zero_sigma_topic"][:, None] ** 2)
    p_zero = special.ndtr((p["zero_mu"][:, None] + p["zero_alpha"]) / scale)
    return (1.0 - p_zero) * positive


def _locations(p: dict, prefix: str = "") -> np.ndarray:
    """η = μ + α_s + β_t, ``(D, T, S)``."""
    return (p[prefix + "mu"][:, None, None] + p[prefix + "alpha"][:, None, :]
            + p[prefix + "beta"][:, :, None])


def pointwise_log_likelihood(likelihood: str, p: dict, y: np.ndarray,
                             nu: float | None = None) -> np.ndarray:
    """Log density of each score ``y[t, s]`` under each draw, ``(D, T, S)``; ``NaN`` where
    ``y`` is missing.

    ``nu``: the degrees of freedom of Student-t errors (normal likelihood only). Computed
    in blocks of draws of about :data:`BLOCK_BYTES` (temporaries stay small; only the
    result is of full size).
    """
    if likelihood not in ("normal", "censored", "hurdle"):
        raise ValueError(f"unknown likelihood {likelihood!r}")
    y = np.asarray(y, dtype=float)
    n_draws = len(p["mu"])
    out = np.empty((n_draws, *y.shape))
    step = max(1, BLOCK_BYTES // (8 * max(y.size, 1)))
    missing = np.isnan(y)
    with np.errstate(divide="ignore", invalid="ignore"):
        for start in range(0, n_draws, step):
            block = {k: v[start:start + step] for k, v in p.items()}
            _block_log_likelihood(likelihood, block, y, nu, out[start:start + step])
    if missing.any():
        out[:, missing] = np.nan
    return out


def _block_log_likelihood(likelihood: str, p: dict, y: np.ndarray, nu: float | None,
                          out: np.ndarray) -> None:
    """:func:`pointwise_log_likelihood` of a block of draws, written into ``out``."""
    sd = _sigma(p, y.shape[1])[:, None, :]
    log_sd = np.log(sd)
    if likelihood == "hurdle":
        inside = (y > 0.0) & (y < 1.0)
        v = np.where(inside, y, 0.5)
        target = np.log(v) - np.log1p(-v)
    else:
        target = y
    # e = (target − η)/sd, in out
    np.subtract(target, _locations(p), out=out)
    out /= sd
    if likelihood == "normal" and nu is not None:
        out *= out
        out /= nu
        np.log1p(out, out=out)
        out *= -(nu + 1) / 2
        out += (special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2)
                - 0.5 * np.log(nu * np.pi))
        out -= log_sd
        return
    if likelihood == "censored":  # the latent values at the bounds, before e is squared
        bounds = [(np.nonzero(y == bound), sign) for bound, sign in ((0.0, 1.0), (1.0, -1.0))]
        at_bounds = [(cells, special.log_ndtr(sign * out[:, cells[0], cells[1]]))
                     for cells, sign in bounds if cells[0].size]
    out *= out
    out *= -0.5
    out -= log_sd
    out -= 0.5 * np.log(2 * np.pi)
    if likelihood == "normal":
        return
    if likelihood == "censored":
        # the few scores at a bound: the probability of the latent value beyond it
        # (P(X ≤ 0) = Φ(−η/sd) = Φ(e) at y = 0; P(X ≥ 1) = Φ((η − 1)/sd) = Φ(−e) at y = 1)
        for (t, s), value in at_bounds:
            out[:, t, s] = value
        return
    out -= np.log(v) + np.log1p(-v)  # the Jacobian of the logit
    one = p.get("one_prob")
    if one is not None:
        out += np.log1p(-one)[:, None, None]
    t1, s1 = np.nonzero(y == 1.0)
    if t1.size:
        out[:, t1, s1] = -np.inf if one is None else np.log(one)[:, None]
    t0, s0 = np.nonzero(y == 0.0)
    if "zero_mu" in p:
        eta0 = _locations(p, "zero_")
        out += special.log_ndtr(np.negative(eta0, out=eta0))  # P(not zero)
        out[:, t0, s0] = special.log_ndtr(-eta0[:, t0, s0])
    else:
        out[:, t0, s0] = -np.inf


def predictive_draws(likelihood: str, p: dict, n_topics: int, rng: np.random.Generator,
                     nu: float | None = None) -> np.ndarray:
    """Replicated ``(D, T, S)`` score matrices of the observed topics and systems."""
    eta = _locations(p)
    sd = _sigma(p, eta.shape[2])[:, None, :]
    noise = rng.standard_normal(eta.shape)
    if likelihood == "normal" and nu is not None:
        noise = noise / np.sqrt(rng.standard_gamma(nu / 2.0, eta.shape) / (nu / 2.0))
    x = eta + sd * noise
    if likelihood == "normal":
        return x
    if likelihood == "censored":
        return np.clip(x, 0.0, 1.0)
    if likelihood != "hurdle":
        raise ValueError(f"unknown likelihood {likelihood!r}")
    out = special.expit(x)
    u = rng.random(eta.shape)
    one = p.get("one_prob")
    if one is not None:
        out = np.where(u < one[:, None, None], 1.0, out)
    if "zero_mu" in p:
        v = rng.random(eta.shape)
        out = np.where(v < special.ndtr(_locations(p, "zero_")), 0.0, out)
    return out
