r"""Gibbs samplers of the crossed model for scores bounded in [0, 1]: numpy, with the
loops over cells and effects compiled (:mod:`scorestd.kernels.bounded_gibbs`).

Two likelihoods, each built from *latent crossed components*: a crossed normal model
:math:`x_{ts} = \mu + \alpha_s + \beta_t + \varepsilon_{ts}` on a complete latent matrix
``x`` whose cells are observed exactly, known only to lie above or below a bound, or
missing. Each iteration draws the unobserved cells given the parameters (truncated or
plain normals), then the parameters given the completed matrix with the balanced-design
step of :mod:`scorestd.bayes.gibbs` (all locations jointly, then the variances), from
running row and column sums (no per-iteration allocation of the matrix for the sparse
components).

- **censored** (Tobit at 0 and 1): one component on the scores; a score of 0 is a latent
  value ≤ 0, a score of 1 a latent value ≥ 1.
- **hurdle** (zero- and one-inflated logit-normal): a probit component for P(score = 0)
  (latent ``z ~ N(η, 1)``, score 0 iff ``z > 0``: Albert & Chib 1993), where there are
  ones a probit component for P(score = 1 | score > 0), and a normal component on the
  logit of the scores in (0, 1). In each component the cells it does not model (the
  zeros and ones for the logit part; the zeros for the one part) are drawn from the
  model (data augmentation of missing cells), which keeps every step balanced; where
  more than :data:`COLLAPSE_SHARE` of the logit part's cells have no logit, that part is
  sampled on its observed cells only instead (:class:`_Collapsed`). The
  probit parts add moves per iteration that leave the signs of the latent values
  unchanged: a rescaling of the latent values with the locations and the effects' sds
  (parameter expansion) and, with the residuals z − η held fixed (interweaving of the two
  augmentations: Yu & Meng 2011), fresh draws of the effects and intercept, of each
  effects' variance with the effects of the systems (topics) without a zero rescaled
  with their sd, and of the intercept against the effects of the systems (topics) with a
  zero. Without them an effect moves by about 1/√(its cells) per iteration where zeros
  are rare, and the intercept and the effects' sds (the ridge where the sds grow, the
  intercept falls and the share of zeros stays) by less.

Truncated normals are drawn as "a plain normal, kept when it falls on the right side,
else an inverse-cdf draw from the truncated tail at a uniform made from the rejected
normal" (given its rejection, its cdf within the rejected side is uniform): a mixture
that has exactly the truncated distribution and costs one normal per cell.

The per-iteration work on cells and effects (latent cells, the components' statistics and
balanced-design steps, the probit parts' moves) is compiled with numba
(:mod:`scorestd.kernels.bounded_gibbs`); numba is imported, and those steps compiled or
read from numba's cache, when the first component is made: a process's first bounded fit
pays the compilation once (seconds) unless the cache holds it.

Randomness: chain ``c`` uses ``SeedSequence(seed).spawn(chains)[c]`` only (its own
generators for the components' parameters and for the latent cells), so the draws of a
chain do not depend on the other chains.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy import special

from ..kernels.blas import single_threaded_blas
from ..kernels.seeds import root_sequence
from .gibbs import BLOCK_ITERATIONS, CrossedPriors, VariancePrior, _FastStep, _GeneralStep

__all__ = ["PROBIT_PRIORS", "sample_censored", "sample_hurdle"]

#: Priors of a probit component: intercept N(0, 2²), effect variances IG(2, 0.5) (sd of
#: the effects around 0.5 on the probit scale), residual variance fixed at 1.
PROBIT_PRIORS = CrossedPriors(VariancePrior(2.0, 0.5), VariancePrior(2.0, 0.5),
                              VariancePrior(fixed=1.0), mu=(0.0, 2.0))


#: Share of cells without a logit (zeros, ones, missing scores) above which the hurdle
#: model's logit part is sampled on its observed cells only (:class:`_Collapsed`) instead of
#: with the other cells drawn from the model: augmented cells slow the variances' moves in
#: proportion to their share (the autocorrelation of the residual variance is about that
#: share per iteration), while the collapsed step costs O(T²·S) per iteration.
COLLAPSE_SHARE = 0.25

#: Rounds of a probit part's moves of each kind of effects given the residuals per
#: iteration (:meth:`_Probit.interweave`): each round costs O(systems + topics), not a
#: pass over the cells. On robust2004 AP (103 zeros), seeds 0–4: three rounds leave the
#: zero part's worst R-hat at 1.0078 (its system effects) with bulk ESS ≥ 836
#: (``bench_bayes_likelihoods.py --only mixing``); two rounds, up to 1.0114.
ANCILLARY_ROUNDS = 3


class _CompiledStep(_FastStep):
    """The balanced-design step on the statistics of a completed matrix that change at
    every iteration, compiled (:func:`scorestd.kernels.bounded_gibbs.step`: the formulas
    of :class:`scorestd.bayes.gibbs._FastStep`, for all chains in one call). Holds the
    buffers of those statistics: ``sums`` (row sums, column sums, sum of squares) and
    ``statistics`` (grand mean, centred column and row means, residual sum of squares).
    """

    def __init__(self, shape: tuple[int, int], priors: CrossedPriors, n_chains: int) -> None:
        super().__init__(np.zeros(shape), priors)
        from ..kernels import bounded_gibbs  # (imports numba: only where a component runs)

        self.kernel = bounded_gibbs
        self.packed = bounded_gibbs.pack_priors(priors)
        c, (n_t, n_s) = n_chains, shape
        self.sums = (np.zeros((c, n_t)), np.zeros((c, n_s)), np.zeros(c))
        self.statistics = (np.zeros(c), np.zeros((c, n_s)), np.zeros((c, n_t)), np.zeros(c))

    def update(self, st, z, g, lam):
        c = z.shape[0]

        def chains(v):  # (a fixed variance is a number in the initial state)
            if isinstance(v, np.ndarray) and v.shape == (c,) and v.dtype == float:
                return v
            return np.ascontiguousarray(np.broadcast_to(v, (c,)), dtype=float)

        grand, rs, ct, sse = self.statistics
        keys = ("mu", "alpha", "beta", "vs", "vt", "ve", "ssr", "ss_a", "ss_b")
        return dict(zip(keys, self.kernel.step(
            grand, rs, ct, sse, np.ascontiguousarray(z), np.ascontiguousarray(g),
            chains(st["vs"]), chains(st["vt"]), chains(st["ve"]), self.packed), strict=True))


class _Component:
    """A crossed normal model on a latent matrix with exact, bounded and free cells.

    ``values`` holds the exact cells (``NaN`` elsewhere); ``sign`` is +1 for a cell known
    to be ≥ ``bound``, −1 for ≤ ``bound``, 0 for an exact or free cell. The sums of the
    exact cells are kept; only the latent cells are updated.
    """

    expandable = False

    def __init__(self, values: np.ndarray, sign: np.ndarray, bound: np.ndarray,
                 priors: CrossedPriors, n_chains: int) -> None:
        self.n_t, self.n_s = values.shape
        self.priors = priors
        self.step = _CompiledStep(values.shape, priors, n_chains)
        exact = ~np.isnan(values)
        self.latent = np.flatnonzero(~exact)  # flat indices of the latent cells
        self.t_idx, self.s_idx = np.divmod(self.latent, self.n_s)
        self.sign = sign.ravel()[self.latent].astype(float)
        self.bound = np.where(sign == 0, 0.0, bound).ravel()[self.latent].astype(float)
        fill = np.where(exact, values, 0.0)
        self.base_row = fill.sum(axis=1)
        self.base_col = fill.sum(axis=0)
        self.base_ss = float(np.sum(fill * fill))
        # initial latent cells: at their bound, or the mean of the exact cells
        centre = float(np.mean(values[exact])) if exact.any() else 0.0
        start = np.where(self.sign != 0, self.bound, centre)
        self.x = np.broadcast_to(start, (n_chains, self.latent.size)).copy()
        self.fixed_residual = priors.residual.fixed

    def _statistics(self):
        """The statistics of each chain's completed matrix, in the step's buffers."""
        st = self.step
        st.kernel.component_statistics(self.base_row, self.base_col, self.base_ss, self.x,
                                       self.t_idx, self.s_idx, *st.sums)
        st.kernel.centred(*st.sums, *st.statistics)
        return st.statistics

    def initial(self, rngs: list[np.random.Generator]) -> dict[str, np.ndarray]:
        grand, rs, ct, sse = self._statistics()
        st = self.step
        st.grand, st.rs, st.ct, st.sse = float(grand[0]), rs[0], ct[0], float(sse[0])
        state = st.initial(rngs)
        if self.fixed_residual is not None:
            state["ve"] = np.full(len(rngs), self.fixed_residual)
        return state

    def update_parameters(self, state, z, g):
        """Locations and variances given the completed matrix."""
        self._statistics()
        return self.step.update(state, z, g, None)

    def update_latent(self, state, normals: np.ndarray, own) -> None:
        """Draw the latent cells given the parameters (``normals``: ``(C, K)``;
        :func:`scorestd.kernels.bounded_gibbs.component_latent`)."""
        if not self.latent.size:
            return
        self.step.kernel.component_latent(
            state["mu"], state["alpha"], state["beta"], state["ve"],
            np.ascontiguousarray(normals), self.sign, self.bound, self.t_idx, self.s_idx,
            self.x)

    def record(self, state, keep_topics: bool) -> dict[str, np.ndarray]:
        return self.step.record(state, keep_topics)


class _Probit:
    """A probit part: the crossed model with unit residual variance on latent values z,
    every cell latent (``sign`` +1: z > 0, the score is 0; −1: z ≤ 0; 0: a missing score,
    z free).

    Held in the coordinates of the residuals ε = z − η (η = μ + α_s + β_t): the row and
    column sums and the sum of squares of ε, and z itself only from its draw to the end
    of the iteration. Each iteration:

    1. the locations and variances given z (the balanced-design step, in numpy; the
       additive fit of z is that of η plus that of ε, so its statistics come from ε's sums
       and the locations without touching the cells);
    2. fresh latent values given η: a plain normal per cell (drawn in the compiled loop
       from the chain's own PCG64 stream), kept where it has the sign it must have, else
       a draw from the truncated tail at a uniform made from the rejected normal (the
       mixture has exactly the truncated law);
    3. the parameter-expanded rescaling (ε, locations and effects' sds scaled by g; z is
       rescaled lazily, by a factor per chain);
    4. the interweaving moves of the locations with ε fixed (the topics' effects, then
       the systems'), whose bounds are the extreme latent values of each topic and system
       (each topic's highest from step 2, each system's from one pass over z after the
       topics' moves); ε's sums do not change. Their truncated normals and gammas come
       from the chain's stream by rejection where that is cheap.

    Steps 2–4 are compiled loops over each chain's cells and effects
    (:mod:`scorestd.kernels.bounded_gibbs`, one call an iteration; numba is imported, and
    the steps compiled or read from numba's cache, when the first probit part is made).
    """

    latent = np.empty(0, dtype=np.intp)  # (draws its own normals, a matrix an iteration)

    def __init__(self, sign: np.ndarray, priors: CrossedPriors, n_chains: int) -> None:
        if priors.residual.fixed != 1.0:
            raise ValueError("a probit part needs its residual variance fixed at 1")
        from ..kernels import bounded_gibbs  # (imports numba: only where a probit part runs)

        self.steps = bounded_gibbs
        self.n_t, self.n_s = sign.shape
        self.priors = priors
        self.step = _CompiledStep(sign.shape, priors, n_chains)
        flat = sign.ravel()
        self.kind = np.sign(flat).astype(np.int8)
        self.zeros = np.flatnonzero(flat > 0)
        self.zero_t, self.zero_s = np.divmod(self.zeros, self.n_s)
        c = n_chains
        self.z = np.zeros((c, sign.size))
        self.z_zero = np.zeros((c, self.zeros.size))
        self.scale = np.ones(c)  # z is the stored matrix times this
        self.top_t = np.full((c, self.n_t), -np.inf)  # each topic's highest z (unscaled)
        self.e_row = np.zeros((c, self.n_t))
        self.e_col = np.zeros((c, self.n_s))
        self.rss = np.zeros(c)
        # systems and topics without a zero: their effects rescale with their sd
        zero = sign > 0
        self.free_s, self.free_t = ~zero.any(axis=0), ~zero.any(axis=1)
        p = priors
        if self.expandable:
            self.system_prior = (float(p.system.shape), float(p.system.scale))
            self.topic_prior = (float(p.topic.shape), float(p.topic.scale))
            self.mu_prior = (float(p.mu[0]), float(p.mu[1]))

    def initial(self, rngs: list[np.random.Generator]) -> dict[str, np.ndarray]:
        st = self.step  # (z = 0 to start)
        st.grand, st.rs, st.ct, st.sse = 0.0, np.zeros(self.n_s), np.zeros(self.n_t), 0.0
        state = st.initial(rngs)
        c = len(rngs)
        state.update(ve=np.ones(c), mu=np.zeros(c), alpha=np.zeros((c, self.n_s)),
                     beta=np.zeros((c, self.n_t)))
        return state

    def update_parameters(self, state, z, g):
        """Locations and variances given z = η + ε."""
        mu, alpha, beta = state["mu"], state["alpha"], state["beta"]
        a_bar, b_bar = alpha.mean(axis=1), beta.mean(axis=1)
        st = self.step
        grand, rs, ct, _ = st.statistics
        st.kernel.centred(self.e_row, self.e_col, self.rss, *st.statistics)
        grand += mu + a_bar + b_bar
        rs += alpha - a_bar[:, None]
        ct += beta - b_bar[:, None]
        return st.update(state, z, g, None)

    def update_latent(self, state, normals, own) -> None:
        """Fresh latent values given η (``own``: each chain's PCG64 stream of them,
        ``(C, 4)``, advanced in place)."""
        self.steps.latent_step(state["mu"], state["alpha"], state["beta"], own, self.kind,
                               self.z, self.z_zero, self.e_row, self.e_col, self.rss,
                               self.scale, self.top_t)

    def sweep(self, state, own, gamma: np.ndarray, uniform: np.ndarray,
              uniforms: np.ndarray) -> None:
        """Fresh latent values given η, the parameter-expanded rescaling (``gamma``: a
        standard gamma draw of shape :attr:`expansion_shape` per chain, ``uniform``: one
        uniform per chain) and the interweaving moves (``uniforms``: ``(C,``
        :attr:`interweave_size` ``)``; ``own``: each chain's PCG64 stream of the latent
        normals); see :mod:`scorestd.kernels.bounded_gibbs`."""
        ss_a, ss_b = np.empty(len(self.rss)), np.empty(len(self.rss))
        self.steps.sweep(state["mu"], state["alpha"], state["beta"], state["vs"],
                         state["vt"], own, self.kind, self.z, self.z_zero, self.e_row,
                         self.e_col, self.rss, self.scale, self.top_t, self.zero_t, self.zero_s,
                         self.free_s, self.free_t, np.ascontiguousarray(gamma),
                         np.ascontiguousarray(uniform), np.ascontiguousarray(uniforms),
                         ANCILLARY_ROUNDS, self.system_prior, self.topic_prior,
                         self.mu_prior, ss_a, ss_b)
        # the sums of squares recorded with the state, for the log density
        state.update(ss_a=ss_a, ss_b=ss_b, ssr=self.rss.copy())

    def interweave(self, state, own, uniforms: np.ndarray) -> None:
        """The interweaving moves alone, from the latent values held (``z`` scaled by
        ``scale``, ``z_zero``; ``own``: each chain's PCG64 stream):
        :func:`scorestd.kernels.bounded_gibbs.interweave`."""
        ss_a, ss_b = np.empty(len(self.rss)), np.empty(len(self.rss))
        self.top_t = self.z.reshape(-1, self.n_t, self.n_s).max(axis=2)
        self.steps.interweave(state["mu"], state["alpha"], state["beta"], state["vs"],
                              state["vt"], own, self.z, self.z_zero, self.scale, self.top_t,
                              self.zero_t,
                              self.zero_s, self.free_s, self.free_t,
                              np.ascontiguousarray(uniforms), ANCILLARY_ROUNDS,
                              self.system_prior, self.topic_prior, self.mu_prior, ss_a, ss_b)
        state.update(ss_a=ss_a, ss_b=ss_b, ssr=self.rss.copy())

    @property
    def interweave_size(self) -> int:
        """Uniforms of the interweaving moves per chain."""
        return ANCILLARY_ROUNDS * (self.n_s + self.n_t + 4) + 1

    @property
    def expandable(self) -> bool:
        p = self.priors
        return (p.mu is not None and p.mu[0] == 0.0
                and p.system.fixed is None and p.topic.fixed is None)

    @property
    def expansion_shape(self) -> float:
        p = self.priors
        return (self.n_t * self.n_s + 1) / 2.0 - p.system.shape - p.topic.shape

    def record(self, state, keep_topics: bool) -> dict[str, np.ndarray]:
        return self.step.record(state, keep_topics)


class _Collapsed:
    """The crossed normal model on the observed cells only, as a component of :func:`_run`.

    Its locations are drawn jointly given the variances from the observed cells (the
    Schur-complement step of :mod:`scorestd.bayes.gibbs`), the cells without a value
    integrated out instead of drawn: exact whatever their share, where data augmentation
    moves the variances by steps that shrink with the share of observed cells.
    """

    latent = np.empty(0, dtype=np.intp)
    expandable = False

    def __init__(self, values: np.ndarray, priors: CrossedPriors) -> None:
        mask = ~np.isnan(values)
        self.step = _GeneralStep(np.where(mask, values, 0.0), mask, priors, None, False)

    def initial(self, rngs: list[np.random.Generator]) -> dict[str, np.ndarray]:
        return self.step.initial(rngs)

    def update_parameters(self, state, z, g):
        return self.step.update(state, z, g, None)

    def update_latent(self, state, normals, own) -> None:
        return None

    def record(self, state, keep_topics: bool) -> dict[str, np.ndarray]:
        return self.step.record(state, keep_topics)


def _run(components: dict[str, Any], *, seqs: list[np.random.SeedSequence],
         draws: int, warmup: int, thin: int, keep_topics: bool,
         progress: Callable[[int], None] | None) -> dict[str, np.ndarray]:
    """Run the components' joint Gibbs sampler; draws keyed ``<part>/<name>``.

    Chain ``c`` draws from ``seqs[c]``'s first five children only: the parameters'
    normals and gammas, the latent cells' normals (in blocks of iterations), none (the
    rejected cells' uniforms once; now made from their normals), the probit parts'
    moves, and the probit parts' latent normals (a PCG64 stream the compiled latent
    step draws from cell by cell, and the moves' rejection draws from:
    :mod:`scorestd.kernels.normal_stream`)."""
    from ..kernels.normal_stream import states_of  # (numba: the components import it too)

    chains = len(seqs)
    kids = [s.spawn(5) for s in seqs]
    par_gen = [np.random.default_rng(k[0]) for k in kids]
    lat_gen = [np.random.default_rng(k[1]) for k in kids]
    px_gen = [np.random.default_rng(k[3]) for k in kids]
    own_streams = states_of([np.random.default_rng(k[4]) for k in kids])
    init_gen = [np.random.default_rng(k[0].spawn(1)[0]) for k in kids]
    parts = list(components.items())
    n_norm = [c.step.n_normal for _, c in parts]
    shapes = np.concatenate([c.step.gamma_shapes for _, c in parts])
    n_lat = [c.latent.size for _, c in parts]
    px = [comp.expandable for _, comp in parts]
    px_shapes = np.array([comp.expansion_shape for _, comp in parts if comp.expandable])
    px_sizes = [comp.interweave_size for _, comp in parts if comp.expandable]
    states = {name: comp.initial(init_gen) for name, comp in parts}
    kept: dict[str, list[np.ndarray]] = {}
    iterations = warmup + draws * thin
    per_iteration = 8 * chains * (sum(n_norm) + shapes.size + sum(n_lat))
    size = max(1, min(iterations, BLOCK_ITERATIONS, (1 << 25) // max(per_iteration, 1)))
    lat = np.empty((chains, size, sum(n_lat)))
    done = 0
    with single_threaded_blas():
        while done < iterations:
            n = min(size, iterations - done)
            z = np.stack([g.standard_normal((n, sum(n_norm))) for g in par_gen], 1)
            gam = np.stack([g.standard_gamma(shapes, size=(n, shapes.size))
                            for g in par_gen], 1)
            for c, g in enumerate(lat_gen):
                g.standard_normal(out=lat[c, :n])
            if px_shapes.size:
                pxg = np.stack([g.standard_gamma(px_shapes, size=(n, px_shapes.size))
                                for g in px_gen], 1)
                pxu = np.stack([g.random((n, px_shapes.size)) for g in px_gen], 1)
                pxi = np.stack([g.random((n, sum(px_sizes))) for g in px_gen], 1)
            for k in range(n):
                zo = go = lo = xo = io = 0
                for (name, comp), nz, nl, expand in zip(parts, n_norm, n_lat, px,
                                                        strict=True):
                    ng = comp.step.gamma_shapes.size
                    states[name] = comp.update_parameters(
                        states[name], z[k][:, zo:zo + nz], gam[k][:, go:go + ng])
                    if expand:
                        comp.sweep(states[name], own_streams, pxg[k][:, xo], pxu[k][:, xo],
                                   pxi[k][:, io:io + px_sizes[xo]])
                        io += px_sizes[xo]
                        xo += 1
                    else:
                        comp.update_latent(states[name], lat[:, k, lo:lo + nl], own_streams)
                    zo, go, lo = zo + nz, go + ng, lo + nl
                it = done + k
                if it >= warmup and (it - warmup + 1) % thin == 0:
                    for name, comp in parts:
                        for key, value in comp.record(states[name], keep_topics).items():
                            kept.setdefault(f"{name}/{key}", []).append(value)
            done += n
            if progress is not None:
                progress(n * chains)
    return {key: np.stack(values, axis=1) for key, values in kept.items()}


def sample_censored(y: np.ndarray, priors: CrossedPriors, *, chains: int = 4,
                    draws: int = 2000, warmup: int = 1000, thin: int = 1, seed: Any = None,
                    keep_topics: bool = True,
                    progress: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Draws of the crossed model censored at 0 and 1 for a ``(T, S)`` matrix in [0, 1].

    ``NaN`` cells are missing (drawn from the model, not in the likelihood). Returns the
    keys of :func:`scorestd.bayes.gibbs.sample_crossed` (``mu``, ``alpha``, ``beta``,
    ``var_system``, ``var_topic``, ``var_residual``, ``lp``: the complete-data log
    density, latent scores included).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = np.clip(0.2 + rng.normal(0, 0.1, (10, 1)) + [0.0, 0.1, 0.2]
    ...             + rng.normal(0, 0.1, (10, 3)), 0, 1)
    >>> pri = CrossedPriors(VariancePrior(1, 0.01), VariancePrior(1, 0.01),
    ...                     VariancePrior(1, 0.01))
    >>> out = sample_censored(y, pri, chains=2, draws=200, warmup=100, seed=1)
    >>> out["alpha"].shape
    (2, 200, 3)
    """
    y = np.asarray(y, dtype=float)
    sign = np.where(y <= 0.0, -1, np.where(y >= 1.0, 1, 0))
    bound = np.where(y <= 0.0, 0.0, 1.0)
    values = np.where((sign == 0) & ~np.isnan(y), y, np.nan)
    comp = _Component(values, np.where(np.isnan(y), 0, sign), bound, priors, chains)
    out = _run({"main": comp}, seqs=root_sequence(seed).spawn(chains), draws=draws,
               warmup=warmup, thin=thin, keep_topics=keep_topics, progress=progress)
    return {key.split("/", 1)[1]: value for key, value in out.items()}


def sample_hurdle(y: np.ndarray, priors: CrossedPriors, *, zero_part: bool = True,
                  one_part: bool = False, probit_priors: CrossedPriors = PROBIT_PRIORS,
                  chains: int = 4, draws: int = 2000, warmup: int = 1000, thin: int = 1,
                  seed: Any = None, keep_topics: bool = True,
                  progress: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
    """Draws of the zero- (and one-) inflated logit-normal crossed model.

    A score is 0 with probability Φ(ζ + γ_s + δ_t) (the zero part: probit, crossed
    system and topic effects); else, with ``one_part``, it is 1 with probability π (one
    probability for all cells, Beta(1, 1) prior: ones are rare in IR measures and carry
    too little information for effects of their own); else its logit is normal with the
    crossed model. ``priors`` are those of the logit-normal part (on the logit scale); the
    zero part has ``probit_priors``.

    Returns the logit part's draws under the keys of
    :func:`scorestd.bayes.gibbs.sample_crossed`, the zero part's as ``zero_mu``,
    ``zero_alpha``, ``zero_beta``, ``zero_var_system``, ``zero_var_topic``, ``one_prob``
    ``(C, D)`` with ``one_part``, and ``lp``: the complete-data log density (latent
    values included).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> y = 1 / (1 + np.exp(-(-1 + rng.normal(0, 0.5, (12, 3)))))
    >>> y[0, 0] = y[5, 2] = 0.0
    >>> pri = CrossedPriors(VariancePrior(1, 0.1), VariancePrior(1, 0.1),
    ...                     VariancePrior(1, 0.1))
    >>> out = sample_hurdle(y, pri, chains=2, draws=200, warmup=100, seed=1)
    >>> out["zero_alpha"].shape, out["alpha"].shape
    ((2, 200, 3), (2, 200, 3))
    """
    y = np.asarray(y, dtype=float)
    observed = ~np.isnan(y)
    interior = observed & (y > 0.0) & (y < 1.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        logit = np.where(interior, special.logit(np.where(interior, y, 0.5)), np.nan)
    comps = {}
    if zero_part:  # latent > 0 iff the score is 0
        sign = np.where(observed, np.where(y == 0.0, 1, -1), 0)
        comps["zero"] = _Probit(sign, probit_priors, chains)
    if np.mean(np.isnan(logit)) > COLLAPSE_SHARE:
        comps["main"] = _Collapsed(logit, priors)
    else:
        comps["main"] = _Component(logit, np.zeros(y.shape, dtype=int), np.zeros(y.shape),
                                   priors, chains)
    seqs = root_sequence(seed).spawn(chains)
    out = _run(comps, seqs=seqs, draws=draws, warmup=warmup, thin=thin,
               keep_topics=keep_topics, progress=progress)
    result: dict[str, np.ndarray] = {}
    lp = 0.0
    for key, value in out.items():
        part, name = key.split("/", 1)
        if name == "lp":
            lp = lp + value
        elif part == "main":
            result[name] = value
        elif name != "var_residual":
            result[f"{part}_{name}"] = value
    if one_part:  # its own factor of the likelihood: independent conjugate draws
        ones = int(np.sum(observed & (y == 1.0)))
        others = int(np.sum(observed & (y > 0.0))) - ones
        result["one_prob"] = np.stack([
            np.random.default_rng(s.spawn(1)[0]).beta(1.0 + ones, 1.0 + others, draws)
            for s in seqs])
        lp = lp + ones * np.log(result["one_prob"]) + others * np.log1p(-result["one_prob"])
    result["lp"] = lp
    return result
