"""Dependence between systems: a copula on the pseudo-observations of their scores.

Systems are evaluated on the same topics, so their scores are correlated (an easy
topic is easy for every system). The simulator keeps the margins and the dependence
apart (Sklar's theorem): the scores of system ``s`` on a simulated topic are
``F_s⁻¹(U_s)`` with ``U`` drawn from a copula fitted on the pseudo-observations
``u_ts = rank_t(x_ts) / (T + 1)`` (ties get average ranks).

- :class:`VineCopula` (default): an R-vine of ``pyvinecopulib``, its pair copulas
  selected by AIC among every parametric family and fitted by maximum likelihood, on
  pseudo-observations with ties broken at random: the dependence model of Urbano, Lima &
  Hanjalic (2019) (a copula per pair of runs) and of simIReff.
- :class:`GaussianCopula` (numpy only, fast): the correlation matrix ``R`` of the
  normal scores ``Φ⁻¹(u)``; draws are ``Φ(Z)`` with ``Z ~ N(0, R)``. Kendall's τ between
  two systems is ``2/π · asin(ρ)``. It is exchangeable: two systems on one margin give
  differences symmetric about 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from scipy import special, stats

from .._options import (
    MarginCriterion,
    PairFamilies,
    check_option,
    check_sequence,
    check_trunc_level,
)
from ..errors import OptionError, ScorestdError
from ..kernels.blas import limited_blas
from ..kernels.vine import VineEdge, VinePlan, inverse_rosenblatt, vine_plan

__all__ = ["GaussianCopula", "VineCopula", "fit_pair_copula", "pseudo_observations",
           "pseudo_observations_random_ties"]


def pseudo_observations(x: np.ndarray) -> np.ndarray:
    """Ranks scaled into (0, 1) per column: ``rank / (T + 1)`` (average ranks for ties).

    Examples
    --------
    >>> pseudo_observations(np.array([[0.1], [0.5], [0.3]])).ravel().tolist()
    [0.25, 0.75, 0.5]
    """
    return stats.rankdata(x, axis=0) / (x.shape[0] + 1)


class GaussianCopula:
    """Gaussian copula fitted by the correlation of the normal scores.

    Parameters
    ----------
    corr : numpy.ndarray
        ``(S, S)`` correlation matrix (positive semi-definite).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], size=5000)
    >>> round(float(GaussianCopula.fit(z).corr[0, 1]), 1)
    0.6
    """

    name = "gaussian"

    def __init__(self, corr: np.ndarray) -> None:
        corr = np.asarray(corr, dtype=np.float64)
        if corr.ndim != 2 or corr.shape[0] != corr.shape[1]:
            raise OptionError(f"corr must be a square matrix; got shape {corr.shape}")
        self.corr = corr
        vals, vecs = np.linalg.eigh((corr + corr.T) / 2)
        factor = vecs * np.sqrt(np.clip(vals, 0.0, None))
        norms = np.sqrt((factor * factor).sum(axis=1, keepdims=True))
        self.factor = factor / np.where(norms > 0, norms, 1.0)  # rows of unit length

    @classmethod
    def fit(cls, x: np.ndarray) -> GaussianCopula:
        """Fit to scores ``(T, S)`` (topics × systems)."""
        z = special.ndtri(pseudo_observations(np.asarray(x, dtype=np.float64)))
        z = z - z.mean(axis=0)
        sd = np.sqrt((z * z).mean(axis=0))
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = (z.T @ z) / z.shape[0] / np.outer(sd, sd)
        corr = np.where(np.isfinite(corr), corr, 0.0)
        np.fill_diagonal(corr, 1.0)
        return cls(corr)

    @property
    def kendall_tau(self) -> np.ndarray:
        """Kendall's τ implied by the copula between every pair, ``2/π asin(ρ)``."""
        return 2.0 / np.pi * np.arcsin(np.clip(self.corr, -1.0, 1.0))

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` draws ``(n, S)`` of the copula (uniform margins)."""
        z = rng.standard_normal((int(n), self.factor.shape[1])) @ self.factor.T
        return special.ndtr(z)

    def bytes_per_draw(self) -> int:
        """Working memory of one draw (a row of ``S`` uniforms), in bytes."""
        return 3 * 8 * self.factor.shape[1]  # normals, their product, the result

    def trial_sampler(self, trials: int, n_topics: int, rng: np.random.Generator):
        """``draw(k)``: the next ``k`` of ``trials`` trials ``(k, n_topics, S)``.

        The normals are drawn trial after trial from ``rng`` and multiplied trial by
        trial (one matrix product per trial: BLAS may round a product of more rows
        differently), so any split of the trials into pieces gives the same numbers as
        one draw of them all, to the last bit.
        """
        def draw(k: int) -> np.ndarray:
            z = rng.standard_normal((k, n_topics, self.factor.shape[1]))
            return special.ndtr(np.matmul(z, self.factor.T))

        return draw


def _vine_module():
    import pyvinecopulib  # imported when first needed: it takes a while to load

    return pyvinecopulib


class VineCopula:
    """An R-vine copula of ``pyvinecopulib``, sampled in numpy.

    Draws go through the vine's inverse Rosenblatt transform in numpy
    (:mod:`scorestd.kernels.vine`), all draws of a batch at once; a pair copula of a
    family :mod:`scorestd.kernels.pair_copulas` does not have is computed by
    ``pyvinecopulib`` (counted by :attr:`fallback_edges`).

    Parameters
    ----------
    vine : pyvinecopulib.Vinecop
        The fitted vine.
    """

    name = "vine"

    def __init__(self, vine: Any) -> None:
        self.vine = vine
        self._plan: VinePlan | None = None

    @classmethod
    def fit(cls, x: np.ndarray, *, family_set: Sequence[str] | None = None,
            criterion: MarginCriterion = "aic", trunc_lvl: int | None = None,
            method: str = "itau") -> VineCopula:
        """Fit to scores ``(T, S)``: structure, pair families and parameters.

        Parameters
        ----------
        family_set : sequence of str, optional
            Pair-copula families (``pyvinecopulib.BicopFamily`` names such as
            ``"gaussian"``, ``"clayton"``, ``"tll"``; an unknown name raises
            :class:`~scorestd.errors.OptionError`); default: all parametric ones.
        criterion : {"aic", "bic", "loglik"}
            Selection criterion of the pair families.
        trunc_lvl : int, optional
            Truncation level ≥ 1 (independence beyond it): keeps large vines fast.
        method : {"itau", "mle"}
            Estimator of the pair copulas' parameters: inversion of Kendall's τ (default;
            the Student t's degrees of freedom by likelihood; the families τ cannot identify,
            BB and Tawn, are then left out of the selection) or maximum likelihood.
            A vine over S systems fits S(S − 1)/2 pairs: on adhoc8 AP (129 runs) "itau"
            takes seconds where "mle" took more than 5 minutes. The families are
            selected by ``criterion`` either way.
        """
        pv = _vine_module()
        check_option(criterion, MarginCriterion, "criterion")
        trunc_lvl = check_trunc_level("trunc_lvl", trunc_lvl)
        families = _families(pv, family_set)
        method = check_option(method, ("itau", "mle"), "method")
        kwargs = {"family_set": families, "selection_criterion": criterion,
                  "parametric_method": method}
        if trunc_lvl is not None:
            kwargs["trunc_lvl"] = trunc_lvl
        controls = pv.FitControlsVinecop(**kwargs)
        # ties broken at random, as Urbano, Lima & Hanjalic (2019); a fixed generator
        # keeps the fit a function of the scores alone
        u = pseudo_observations_random_ties(x, np.random.default_rng(_TIES_SEED))
        return cls(pv.Vinecop.from_data(np.asfortranarray(u), controls=controls))

    @property
    def plan(self) -> VinePlan:
        """The vine's inverse Rosenblatt transform, worked out once
        (:func:`scorestd.kernels.vine.vine_plan`)."""
        if self._plan is None:
            self._plan = _plan_of(self.vine)
        return self._plan

    @property
    def fallback_edges(self) -> int:
        """Pair copulas of a family :mod:`scorestd.kernels.pair_copulas` does not have
        (e.g. ``"tll"``), computed by ``pyvinecopulib`` edge by edge."""
        return self.plan.fallback

    def bytes_per_draw(self) -> int:
        """Working memory of one draw (a row of ``S`` uniforms), in bytes."""
        return self.plan.bytes_per_point()

    def sample(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """``n`` draws ``(n, S)``: independent uniforms from ``rng`` through the vine's
        inverse Rosenblatt transform, in numpy (:mod:`scorestd.kernels.vine`); row ``i``
        depends only on the ``i``-th row of uniforms."""
        u = rng.random((int(n), self.vine.dim))
        return inverse_rosenblatt(self.plan, u, fallback=self._edge_by_pyvinecopulib)

    def trial_sampler(self, trials: int, n_topics: int, rng: np.random.Generator):
        """``draw(k)``: the next ``k`` of ``trials`` trials ``(k, n_topics, S)``. The
        uniforms are drawn trial after trial from ``rng`` and mapped row by row, so any
        split of the trials into pieces gives the same numbers."""
        def draw(k: int) -> np.ndarray:
            return self.sample(k * n_topics, rng).reshape(k, n_topics, -1)

        return draw

    def _edge_by_pyvinecopulib(self, edge: VineEdge, which: str, first: np.ndarray,
                               second: np.ndarray) -> np.ndarray:
        cop = self.vine.get_pair_copula(edge.tree, edge.column)
        return np.asarray(getattr(cop, which)(np.column_stack([first, second])))


def _plan_of(vine: Any) -> VinePlan:
    """The plan of a ``pyvinecopulib.Vinecop``: its structure in natural order and the
    family, rotation, parameters and τ of every pair copula."""
    structure = vine.structure
    d = vine.dim
    trunc = min(int(structure.trunc_lvl), d - 1)
    struct = [[int(structure.struct_array(t, j, True)) for j in range(d - 1 - t)]
              for t in range(trunc)]
    edges = []
    for t in range(trunc):
        row = []
        for j in range(d - 1 - t):
            cop = vine.get_pair_copula(t, j)
            row.append(VineEdge(t, j, str(cop.family).split(".")[-1], int(cop.rotation),
                                tuple(np.asarray(cop.parameters, dtype=np.float64).ravel()),
                                float(cop.tau)))
        edges.append(row)
    return vine_plan(np.asarray(structure.order), struct, edges)


#: Seed of the random tie-breaking of the pseudo-observations a copula is fitted to.
_TIES_SEED = 2019


def _families(pv: Any, family_set: Sequence[str] | None) -> list:
    if family_set is None:
        return list(pv.families.parametric)
    known = [f.name for f in pv.families.all]
    names = check_sequence("family_set", family_set,
                           lambda n, f: check_option(f, tuple(known), "family_set"))
    return [getattr(pv.BicopFamily, f) for f in names]


def pseudo_observations_random_ties(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ranks scaled into (0, 1) per column, ties broken at random (R's
    ``pobs(x, ties.method = "random")``, as Urbano, Lima & Hanjalic 2019 fit pair copulas).

    Examples
    --------
    >>> u = pseudo_observations_random_ties(np.array([[0.1], [0.5], [0.1]]),
    ...                                     np.random.default_rng(0))
    >>> sorted(u.ravel().tolist())
    [0.25, 0.5, 0.75]
    """
    x = np.asarray(x, dtype=np.float64)
    u = np.empty(x.shape)
    ranks = np.arange(1, x.shape[0] + 1) / (x.shape[0] + 1)
    for c in range(x.shape[1]):
        order = np.lexsort((rng.random(x.shape[0]), x[:, c]))
        u[order, c] = ranks
    return u


@limited_blas  # scipy's L-BFGS-B on a busy machine: 3× slower with threaded BLAS
def fit_pair_copula(x: np.ndarray, *, seed: Any, threads: int = 1,
                    families: PairFamilies = "bicopselect") -> tuple[np.ndarray, bool]:
    """The pair copula of the two columns of ``x``, as Urbano, Lima & Hanjalic (2019).

    Pseudo-observations with ties broken at random (a generator seeded by ``seed``),
    the family and rotation selected by AIC, parameters by maximum likelihood.

    Parameters
    ----------
    x : numpy.ndarray
        ``(T, 2)`` scores of the two runs.
    seed
        Seed of the tie-breaking generator.
    threads : int
        Threads of ``pyvinecopulib``'s selection (``"vinecopulib"``).
    families : {"bicopselect", "vinecopulib"}
        ``"bicopselect"`` (default): R VineCopula's ``BiCopSelect(u1, u2, selectioncrit
        = "AIC")``, the paper's call: its two two-parameter Tawn types fitted in its
        bounds, its preselection, independence among the candidates
        (:mod:`scorestd.simulation.bicopselect`). ``"vinecopulib"``: every parametric
        family of ``pyvinecopulib`` (independence, Gaussian, Student t, Clayton, Gumbel,
        Frank, Joe, BB1, BB6, BB7, BB8, the three-parameter Tawn) with its preselection;
        if that selection fails, or gives a non-finite fit, the families are fitted one
        by one and the best by AIC among those that fit is kept.

    Returns
    -------
    row : numpy.ndarray
        ``(6,)``: family code (:data:`scorestd.kernels.pair_copulas.FAMILIES`), rotation,
        three parameters (unused ones 0) and Kendall's τ of the unrotated copula (a
        Tawn type is the Tawn family with one ψ equal to 1).
    fell_back : bool
        ``"vinecopulib"``: whether the one-by-one fallback was needed.
        ``"bicopselect"``: whether a preselected candidate failed to fit and was left
        out (the selection is among the others; independence is always a candidate).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.multivariate_normal([0, 0], [[1, 0.7], [0.7, 1]], 50)
    >>> row, fell_back = fit_pair_copula(x, seed=1)
    >>> row.shape, fell_back
    ((6,), False)
    """
    check_option(families, PairFamilies, "pair_families")
    pv = _vine_module()
    u = np.asfortranarray(pseudo_observations_random_ties(x, np.random.default_rng(seed)))
    if families == "bicopselect":
        from .bicopselect import fitted_candidates, least_aic

        candidates, preselected = fitted_candidates(u)
        # a candidate that failed to fit is left out: counted, as the fallbacks below
        return _row(least_aic(candidates).copula), len(candidates) < preselected
    families = list(pv.families.parametric)
    try:
        cop = pv.Bicop.from_data(u, controls=_pair_controls(pv, families, threads))
        if _usable(cop):
            return _row(cop), False
    except (RuntimeError, ValueError):
        pass
    best, best_aic = None, np.inf
    for family in families:
        try:
            cop = pv.Bicop.from_data(u, controls=_pair_controls(pv, [family], 1))
        except (RuntimeError, ValueError):
            continue
        if _usable(cop) and cop.aic() < best_aic:
            best, best_aic = cop, cop.aic()
    if best is None:
        raise ScorestdError("no pair-copula family could be fitted to the pair")
    return _row(best), True


def _pair_controls(pv: Any, families: list, threads: int) -> Any:
    return pv.FitControlsBicop(family_set=families, selection_criterion="aic",
                               parametric_method="mle", num_threads=threads)


def _usable(cop: Any) -> bool:
    return bool(np.all(np.isfinite(np.asarray(cop.parameters))) and np.isfinite(cop.aic()))


def _row(cop: Any) -> np.ndarray:
    from ..kernels.pair_copulas import family_code

    params = np.zeros(3)
    values = np.asarray(cop.parameters, dtype=np.float64).ravel()
    params[:len(values)] = values
    return np.array([family_code(str(cop.family).split(".")[-1]), cop.rotation, *params,
                     abs(cop.tau)])

