r"""Blocked Gibbs sampler of the crossed random-effects model, in numpy.

The model of a topic × system matrix of scores (missing cells allowed):

.. math::
    y_{ts} = \mu + \alpha_s + \beta_t + \varepsilon_{ts},\quad
    \alpha_s \sim N(0, \sigma_\alpha^2),\ \beta_t \sim N(0, \sigma_\beta^2),\quad
    \varepsilon_{ts} \sim N(0, \sigma_s^2 / \lambda_{ts}),

with :math:`\sigma_s = \sigma` (homoscedastic) or one σ per system (heteroscedastic),
:math:`\lambda_{ts} = 1` (normal errors) or :math:`\lambda_{ts} \sim
\mathrm{Gamma}(\nu/2, \nu/2)` (Student-t errors with ν degrees of freedom, as a scale
mixture). Priors: μ flat or normal; each variance inverse-gamma IG(a, b) (density
∝ v^{−a−1} e^{−b/v}), or the effects' variance fixed.

Each iteration draws, for every chain at once (chains are the leading array axis):

1. all location parameters (μ, α, β) *jointly* given the variances. With complete
   data, normal homoscedastic errors, the balanced design makes the posterior factorise
   into the centred system effects, the centred topic effects and the grand mean
   (O(S + T) work per iteration from precomputed means). Otherwise the system (or topic,
   whichever is more numerous) effects are integrated out and the remaining
   (μ, topic effects) block is drawn from its Gaussian with one Cholesky factor (the
   Schur complement), then the eliminated effects given it.
2. the variances given the locations (conjugate inverse-gamma draws);
3. with Student-t errors, the weights λ given the rest (conjugate gamma draws).

Drawing all locations jointly removes the ridge between μ and the means of α and β that
makes one-at-a-time Gibbs samplers of this model crawl.

Randomness: chain ``c`` has its own streams, spawned from
``numpy.random.SeedSequence(seed)``: one for its initial values and one per kind of
draw (normals, variance gammas, λ gammas), each with a fixed number of draws per
iteration. So the draws of a chain depend only on ``(seed, c)``: not on how many chains
run together (``chain_batch``) nor on how many iterations are drawn at a time
(``block``).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special
from scipy.linalg import solve_triangular

from ..kernels.blas import single_threaded_blas
from ..kernels.seeds import root_sequence

__all__ = ["CrossedPriors", "VariancePrior", "sample_crossed"]

#: Bytes of pre-drawn random numbers held at once (per batch of chains).
RANDOM_BYTES = 1 << 25
#: Iterations whose random numbers are drawn at once, at most.
BLOCK_ITERATIONS = 250


@dataclass(frozen=True)
class VariancePrior:
    """IG(shape, scale) on a variance, or the variance ``fixed`` at a value."""

    shape: float = 1.0
    scale: float = 1.0
    fixed: float | None = None

    def logpdf(self, v: np.ndarray) -> np.ndarray:
        """Log density at ``v`` (0 for a fixed variance)."""
        if self.fixed is not None:
            return np.zeros_like(v)
        a, b = self.shape, self.scale
        return a * math.log(b) - special.gammaln(a) - (a + 1.0) * np.log(v) - b / v

    def describe(self) -> str:
        """``"IG(a, b)"`` or ``"fixed v"``."""
        if self.fixed is not None:
            return f"fixed {self.fixed:.6g}"
        return f"IG({self.shape:.6g}, {self.scale:.6g})"


@dataclass(frozen=True)
class CrossedPriors:
    """The priors of the crossed model, as numbers (see the module docstring)."""

    system: VariancePrior
    topic: VariancePrior
    residual: VariancePrior
    mu: tuple[float, float] | None = None  # (mean, sd) of a normal prior; None: flat


class _Streams:
    """Pre-drawn random numbers of a batch of chains, ``block`` iterations at a time."""

    def __init__(self, seqs: list[np.random.SeedSequence], n_normal: int,
                 gamma_shapes: np.ndarray, lambda_shape: float | None, n_cells: int,
                 block: int) -> None:
        kids = [s.spawn(4) for s in seqs]
        self.init = [np.random.default_rng(k[0]) for k in kids]
        self.normal = [np.random.default_rng(k[1]) for k in kids]
        self.gamma = [np.random.default_rng(k[2]) for k in kids]
        self.lam = [np.random.default_rng(k[3]) for k in kids]
        self.n_normal, self.shapes = n_normal, gamma_shapes
        self.lambda_shape, self.n_cells, self.block = lambda_shape, n_cells, block

    def next_block(self, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """(normals, gammas, λ gammas) of ``size`` iterations, each ``(size, C, n)``."""
        z = np.stack([g.standard_normal((size, self.n_normal)) for g in self.normal], 1)
        g = np.stack([r.standard_gamma(self.shapes, size=(size, self.shapes.size))
                      for r in self.gamma], 1)
        lam = None
        if self.lambda_shape is not None:
            lam = np.stack([r.standard_gamma(self.lambda_shape, size=(size, self.n_cells))
                            for r in self.lam], 1)
        return z, g, lam


def sample_crossed(
    y: np.ndarray,
    priors: CrossedPriors,
    *,
    chains: int = 4,
    draws: int = 2000,
    warmup: int = 1000,
    thin: int = 1,
    seed: Any = None,
    nu: float | None = None,
    heteroscedastic: bool = False,
    keep_topics: bool = True,
    chain_batch: int | None = None,
    block: int | None = None,
    method: str = "auto",
    progress: Callable[[int], None] | None = None,
) -> dict[str, np.ndarray]:
    """Draws of the crossed model for a ``(T, S)`` matrix ``y`` (``NaN``: missing cell).

    Parameters
    ----------
    y : numpy.ndarray
        Scores, topics × systems, with at least one score; the effect of a topic or system
        without a score is drawn from its prior.
    priors : CrossedPriors
        The priors.
    chains, draws, warmup, thin : int
        Chains; draws kept per chain; iterations discarded first; keep every
        ``thin``-th iteration after warm-up.
    seed : int or numpy.random.SeedSequence, optional
        Root seed; chain ``c`` uses ``SeedSequence(seed).spawn(chains)[c]``.
    nu : float, optional
        Degrees of freedom of Student-t errors; ``None`` for normal errors.
    heteroscedastic : bool
        One residual variance per system.
    keep_topics : bool
        Return the topic effects' draws (``T`` values per draw).
    chain_batch : int, optional
        Chains sampled together (default: all); the draws do not depend on it.
    block : int, optional
        Iterations whose random numbers are drawn at once (default: from
        :data:`RANDOM_BYTES`); the draws do not depend on it.
    method : {"auto", "general"}
        ``"general"`` forces the Schur-complement location step even where the
        balanced-design step applies (for tests).
    progress : callable, optional
        Called with the number of chain-iterations just completed (iterations × chains).

    Returns
    -------
    dict of str to numpy.ndarray
        ``mu`` ``(C, D)``, ``alpha`` ``(C, D, S)``, ``beta`` ``(C, D, T)`` (with
        ``keep_topics``), ``var_system``, ``var_topic`` ``(C, D)``, ``var_residual``
        ``(C, D)`` or ``(C, D, S)``, and ``lp`` ``(C, D)``: the log density of the
        scores and the parameters (λ integrated out) up to a constant.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> y = 0.3 + rng.normal(0, 0.1, (8, 1)) + np.array([0.0, 0.1]) + rng.normal(0, 0.05, (8, 2))
    >>> pri = CrossedPriors(VariancePrior(1, 0.001), VariancePrior(1, 0.001),
    ...                     VariancePrior(1, 0.001))
    >>> out = sample_crossed(y, pri, chains=2, draws=300, warmup=100, seed=3)
    >>> out["alpha"].shape
    (2, 300, 2)
    >>> d = out["alpha"][..., 1] - out["alpha"][..., 0]
    >>> bool(0.0 < d.mean() < 0.2)
    True
    """
    y = np.asarray(y, dtype=float)
    mask = ~np.isnan(y)
    fast = (method == "auto" and mask.all() and nu is None and not heteroscedastic)
    root = root_sequence(seed)
    seqs = root.spawn(chains)
    batch = chains if chain_batch is None else max(1, min(int(chain_batch), chains))
    step = _FastStep(y, priors) if fast else _GeneralStep(y, mask, priors, nu, heteroscedastic)
    iterations = warmup + draws * thin
    per_iteration = 8 * (step.n_normal + step.gamma_shapes.size
                         + (mask.size if nu is not None else 0)) * batch
    # (at most BLOCK_ITERATIONS at a time, so that a progress bar moves)
    size = block or max(1, min(iterations, BLOCK_ITERATIONS,
                               RANDOM_BYTES // max(per_iteration, 1)))
    parts = []
    with single_threaded_blas():  # small matrices: BLAS threads only wait for each other
        for start in range(0, chains, batch):
            streams = _Streams(seqs[start:start + batch], step.n_normal, step.gamma_shapes,
                               None if nu is None else (nu + 1.0) / 2.0, mask.size, size)
            parts.append(_run_chains(step, streams, draws, warmup, thin, keep_topics, size,
                                     progress))
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return out


def _run_chains(step, streams: _Streams, draws: int, warmup: int, thin: int,
                keep_topics: bool, size: int, progress) -> dict[str, np.ndarray]:
    state = step.initial(streams.init)
    kept: dict[str, list[np.ndarray]] = {}
    iterations = warmup + draws * thin
    done = 0
    while done < iterations:
        n = min(size, iterations - done)
        z, g, lam = streams.next_block(n)
        for k in range(n):
            state = step.update(state, z[k], g[k], None if lam is None else lam[k])
            it = done + k
            if it >= warmup and (it - warmup + 1) % thin == 0:
                for name, value in step.record(state, keep_topics).items():
                    kept.setdefault(name, []).append(value)
        done += n
        if progress is not None:
            progress(n * len(streams.normal))  # iterations of every chain of the batch
    return {name: np.stack(values, axis=1) for name, values in kept.items()}


def _ig(prior: VariancePrior, ss: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """Draw of a variance with prior ``prior`` given the sum of squares ``ss`` of its
    ``n`` effects (or residuals) and a standard gamma draw of shape ``prior.shape + n/2``."""
    if prior.fixed is not None:
        return np.full(np.shape(ss), prior.fixed)
    return (prior.scale + 0.5 * ss) / gamma


class _FastStep:
    """Complete data, normal homoscedastic errors: the balanced-design location step."""

    def __init__(self, y: np.ndarray, priors: CrossedPriors) -> None:
        self.priors = priors
        self.n_t, self.n_s = y.shape
        self.n = y.size
        self.grand = float(y.mean())
        self.rs = y.mean(axis=0) - self.grand  # system means, centred (S,)
        self.ct = y.mean(axis=1) - self.grand  # topic means, centred (T,)
        fit = self.grand + self.rs[None, :] + self.ct[:, None]
        self.sse = float(np.sum((y - fit) ** 2))
        self.n_normal = self.n_s + self.n_t + 4
        self.gamma_shapes = np.array([priors.system.shape + self.n_s / 2.0,
                                      priors.topic.shape + self.n_t / 2.0,
                                      priors.residual.shape + self.n / 2.0])

    def initial(self, rngs: list[np.random.Generator]) -> dict[str, np.ndarray]:
        var_s = max(float(np.var(self.rs)), 1e-8)
        var_t = max(float(np.var(self.ct)), 1e-8)
        var_e = max(self.sse / max(self.n - self.n_s - self.n_t + 1, 1), 1e-8)
        jitter = np.exp(np.stack([r.normal(0.0, 1.0, 3) for r in rngs]))  # (C, 3)
        p = self.priors
        return {
            "vs": p.system.fixed if p.system.fixed is not None else var_s * jitter[:, 0],
            "vt": p.topic.fixed if p.topic.fixed is not None else var_t * jitter[:, 1],
            "ve": var_e * jitter[:, 2],
        }

    def update(self, st, z, g, lam):
        p = self.priors
        n_s, n_t, n = self.n_s, self.n_t, self.n
        c = z.shape[0]
        vs = np.broadcast_to(st["vs"], (c,))
        vt = np.broadcast_to(st["vt"], (c,))
        ve = st["ve"]
        zs, zt = z[:, :n_s], z[:, n_s:n_s + n_t]
        z0 = z[:, n_s + n_t:]
        # centred effects: independent Gaussians in the sum-zero subspaces
        prec_a = n_t / ve + 1.0 / vs
        prec_b = n_s / ve + 1.0 / vt
        a = ((n_t / ve) / prec_a)[:, None] * self.rs + (
            (zs - zs.mean(axis=1, keepdims=True)) / np.sqrt(prec_a)[:, None])
        b = ((n_s / ve) / prec_b)[:, None] * self.ct + (
            (zt - zt.mean(axis=1, keepdims=True)) / np.sqrt(prec_b)[:, None])
        # grand mean m = mu + mean(alpha) + mean(beta) and the two effect means
        va, vb, vm = vs / n_s, vt / n_t, ve / n
        a_bar = np.sqrt(va) * z0[:, 1]
        b_bar = np.sqrt(vb) * z0[:, 2]
        if p.mu is None:
            m = self.grand + np.sqrt(vm) * z0[:, 0]
            mu = m - a_bar - b_bar
        else:  # Matheron's rule: prior draw corrected by the noisy observation of m
            m0, s0 = p.mu
            mu_p = m0 + s0 * z0[:, 0]
            total = s0 * s0 + va + vb + vm
            r = self.grand - (mu_p + a_bar + b_bar + np.sqrt(vm) * z0[:, 3])
            mu = mu_p + (s0 * s0 / total) * r
            a_bar = a_bar + (va / total) * r
            b_bar = b_bar + (vb / total) * r
            m = mu + a_bar + b_bar
        alpha = a_bar[:, None] + a
        beta = b_bar[:, None] + b
        ssr = (self.sse + n * (self.grand - m) ** 2
               + n_t * np.sum((self.rs - a) ** 2, axis=1)
               + n_s * np.sum((self.ct - b) ** 2, axis=1))
        ss_a = np.sum(alpha * alpha, axis=1)
        ss_b = np.sum(beta * beta, axis=1)
        vs = _ig(p.system, ss_a, g[:, 0])
        vt = _ig(p.topic, ss_b, g[:, 1])
        ve = _ig(p.residual, ssr, g[:, 2])
        return {"mu": mu, "alpha": alpha, "beta": beta, "vs": vs, "vt": vt, "ve": ve,
                "ssr": ssr, "ss_a": ss_a, "ss_b": ss_b}

    def record(self, st, keep_topics: bool) -> dict[str, np.ndarray]:
        p = self.priors
        ve, vs, vt = st["ve"], st["vs"], st["vt"]
        lp = (-0.5 * self.n * np.log(2 * np.pi * ve) - st["ssr"] / (2 * ve)
              + _normal_effects_logpdf(st["ss_a"], self.n_s, vs)
              + _normal_effects_logpdf(st["ss_b"], self.n_t, vt)
              + p.system.logpdf(vs) + p.topic.logpdf(vt) + p.residual.logpdf(ve))
        if p.mu is not None:
            lp = lp - 0.5 * ((st["mu"] - p.mu[0]) / p.mu[1]) ** 2
        out = {"mu": st["mu"], "alpha": st["alpha"], "var_system": vs, "var_topic": vt,
               "var_residual": ve, "lp": lp}
        if keep_topics:
            out["beta"] = st["beta"]
        return out


def _normal_effects_logpdf(ss: np.ndarray, n: int, v: np.ndarray) -> np.ndarray:
    return -0.5 * n * np.log(2 * np.pi * v) - ss / (2 * v)


class _GeneralStep:
    """Missing cells, Student-t errors or per-system variances: the Schur-complement step."""

    def __init__(self, y, mask, priors: CrossedPriors, nu: float | None,
                 heteroscedastic: bool) -> None:
        self.priors, self.nu, self.hetero = priors, nu, heteroscedastic
        self.n_t, self.n_s = y.shape
        self.mask = mask
        self.maskf = mask.astype(float)
        self.yz = np.where(mask, y, 0.0)
        self.n_obs = int(mask.sum())
        self.per_system = mask.sum(axis=0).astype(float)  # observed topics per system
        # eliminate the larger group of effects; keep (mu, smaller group)
        self.eliminate_systems = self.n_s >= self.n_t
        self.n_normal = self.n_s + self.n_t + 1
        res_shapes = (priors.residual.shape + self.per_system / 2.0 if heteroscedastic
                      else np.array([priors.residual.shape + self.n_obs / 2.0]))
        self.gamma_shapes = np.concatenate([[priors.system.shape + self.n_s / 2.0,
                                             priors.topic.shape + self.n_t / 2.0],
                                            res_shapes])

    def initial(self, rngs):
        y = np.where(self.mask, self.yz, np.nan)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a topic or system with no score
            grand = float(np.nanmean(y))
            sys_means = np.nanmean(y, axis=0) - grand
            top_means = np.nanmean(y, axis=1) - grand
            resid = y - grand - sys_means[None, :] - top_means[:, None]
            # (of the topics and systems with a score: all of them in bayes_crossed)
            spreads = [float(np.var(sys_means[~np.isnan(sys_means)])),
                       float(np.var(top_means[~np.isnan(top_means)])),
                       float(np.nanvar(resid))]
        p = self.priors
        for k, prior in enumerate((p.system, p.topic, p.residual)):
            if not np.isfinite(spreads[k]):  # no spread to start from: the prior's mode
                spreads[k] = prior.scale / (prior.shape + 1.0)
        var_s, var_t, var_e = (max(v, 1e-8) for v in spreads)
        c = len(rngs)
        jitter = np.exp(np.stack([r.normal(0.0, 1.0, 2 + self.n_s) for r in rngs]))
        n_res = self.n_s if self.hetero else 1
        return {
            "vs": (np.full(c, p.system.fixed) if p.system.fixed is not None
                   else var_s * jitter[:, 0]),
            "vt": (np.full(c, p.topic.fixed) if p.topic.fixed is not None
                   else var_t * jitter[:, 1]),
            "ve": var_e * jitter[:, 2:2 + n_res],  # (C, 1) or (C, S)
            "lam": np.ones((c, self.n_t, self.n_s)),
        }

    def _locations(self, st, z):
        p = self.priors
        vs, vt, ve, lam = st["vs"], st["vt"], st["ve"], st["lam"]
        w = self.maskf * lam / ve[:, None, :]  # (C, T, S) cell precisions
        wy = w * self.yz
        if self.eliminate_systems:  # kept: topics (rows of w)
            w_ke, wy_ke, p_e, p_k = w, wy, 1.0 / vs, 1.0 / vt
        else:  # kept: systems
            w_ke, wy_ke = np.swapaxes(w, 1, 2), np.swapaxes(wy, 1, 2)
            p_e, p_k = 1.0 / vt, 1.0 / vs
        c, n_k, _ = w_ke.shape
        r_e = w_ke.sum(axis=1)  # (C, E)
        r_k = w_ke.sum(axis=2)  # (C, K)
        b_e = wy_ke.sum(axis=1)
        b_k = wy_ke.sum(axis=2)
        d_e = r_e + p_e[:, None]
        # blocks of the kept vector (mu, kept effects)
        q_ke = np.concatenate([r_e[:, None, :], w_ke], axis=1)  # (C, K+1, E)
        q_kk = np.zeros((c, n_k + 1, n_k + 1))
        q_kk[:, 0, 0] = r_k.sum(axis=1)
        q_kk[:, 0, 1:] = r_k
        q_kk[:, 1:, 0] = r_k
        idx = np.arange(1, n_k + 1)
        q_kk[:, idx, idx] = r_k + p_k[:, None]
        b_kk = np.concatenate([b_k.sum(axis=1)[:, None], b_k], axis=1)
        if p.mu is not None:
            q_kk[:, 0, 0] += 1.0 / p.mu[1] ** 2
            b_kk[:, 0] += p.mu[0] / p.mu[1] ** 2
        g = q_ke / np.sqrt(d_e)[:, None, :]
        schur = q_kk - g @ np.swapaxes(g, 1, 2)
        rhs = b_kk - np.einsum("cke,ce->ck", q_ke, b_e / d_e)
        chol = np.linalg.cholesky(schur)
        z_k, z_e = z[:, :n_k + 1], z[:, n_k + 1:]
        # theta = L^-T (L^-1 rhs + z): mean A^-1 rhs plus noise of covariance A^-1.
        # Two triangular solves per chain (LAPACK's trtrs; numpy has no batched one).
        theta_k = np.empty_like(rhs)
        for k in range(c):
            u = solve_triangular(chol[k], rhs[k], lower=True, check_finite=False)
            theta_k[k] = solve_triangular(chol[k], u + z_k[k], lower=True, trans="T",
                                          check_finite=False)
        mean_e = (b_e - np.einsum("cke,ck->ce", q_ke, theta_k)) / d_e
        theta_e = mean_e + z_e / np.sqrt(d_e)
        mu, kept = theta_k[:, 0], theta_k[:, 1:]
        if self.eliminate_systems:
            return mu, theta_e, kept
        return mu, kept, theta_e

    def update(self, st, z, g, lam_gamma):
        p = self.priors
        mu, alpha, beta = self._locations(st, z)
        e = self.yz - mu[:, None, None] - alpha[:, None, :] - beta[:, :, None]
        e2 = np.where(self.mask, e * e, 0.0)
        ss_a = np.sum(alpha * alpha, axis=1)
        ss_b = np.sum(beta * beta, axis=1)
        vs = _ig(p.system, ss_a, g[:, 0])
        vt = _ig(p.topic, ss_b, g[:, 1])
        weighted = e2 * st["lam"]
        if self.hetero:
            ve = _ig(p.residual, weighted.sum(axis=1), g[:, 2:])
        else:
            ve = _ig(p.residual, weighted.sum(axis=(1, 2)), g[:, 2])[:, None]
        lam = st["lam"]
        if self.nu is not None:
            rate = 0.5 * (self.nu + e2 / ve[:, None, :])
            lam = lam_gamma.reshape(-1, self.n_t, self.n_s) / rate
        return {"mu": mu, "alpha": alpha, "beta": beta, "vs": vs, "vt": vt, "ve": ve,
                "lam": lam, "e2": e2, "ss_a": ss_a, "ss_b": ss_b}

    def record(self, st, keep_topics: bool):
        p = self.priors
        ve, vs, vt = st["ve"], st["vs"], st["vt"]
        v = np.broadcast_to(ve[:, None, :], st["e2"].shape)
        if self.nu is None:
            cell = -0.5 * np.log(2 * np.pi * v) - st["e2"] / (2 * v)
        else:
            nu = self.nu
            cell = (special.gammaln((nu + 1) / 2) - special.gammaln(nu / 2)
                    - 0.5 * np.log(nu * np.pi * v)
                    - (nu + 1) / 2 * np.log1p(st["e2"] / (nu * v)))
        lp = (np.sum(np.where(self.mask, cell, 0.0), axis=(1, 2))
              + _normal_effects_logpdf(st["ss_a"], self.n_s, vs)
              + _normal_effects_logpdf(st["ss_b"], self.n_t, vt)
              + p.system.logpdf(vs) + p.topic.logpdf(vt)
              + p.residual.logpdf(ve).sum(axis=1))
        if p.mu is not None:
            lp = lp - 0.5 * ((st["mu"] - p.mu[0]) / p.mu[1]) ** 2
        out = {"mu": st["mu"], "alpha": st["alpha"], "var_system": vs, "var_topic": vt,
               "var_residual": ve if self.hetero else ve[:, 0], "lp": lp}
        if keep_topics:
            out["beta"] = st["beta"]
        return out
