r"""Bayesian topic set size design: *assurance* instead of power at one variance estimate.

Classical design (:func:`scorestd.topic_set_size`) plugs one estimate of the variance
σ² into the power function. But σ² is estimated from a finite collection, and a design
that reaches 80% power at the estimate can fall short if σ² is larger. *Assurance*
(O'Hagan & Stevens 2001; O'Hagan, Stevens & Campbell 2005) is the power averaged over
the uncertainty about σ²:

.. math:: A(n) = \int \mathrm{power}(n \mid \sigma^2)\, p(\sigma^2)\, d\sigma^2 .

:math:`p(\sigma^2)` is

- the posterior from score data: with the two-way ANOVA residual variance
  :math:`V_E` on :math:`\phi_E` degrees of freedom and the reference prior
  :math:`p(\sigma^2) \propto 1/\sigma^2`, :math:`\sigma^2 \mid \text{data} \sim
  \phi_E V_E / \chi^2_{\phi_E}` (scaled inverse χ²); the test's σ² is the design
  variance of :func:`scorestd.design_variance` (2 V_E for the paired t-test, V_E for the
  ANOVA), with its pooled degrees of freedom;
- a prior given as a scaled inverse χ²: a guess ``variance`` worth ``df`` degrees of
  freedom (e.g. a pilot collection's estimate and residual df);
- or draws of σ² (e.g. ``2 * fit.posterior["sigma"] ** 2`` of
  :func:`scorestd.bayes_crossed` for the paired t-test; beyond 256 draws, their 256
  mid-quantiles).

The integral is computed by Gauss–Legendre quadrature over the quantiles of
:math:`p(\sigma^2)` (or as the mean over draws) of the exact power functions of
:func:`scorestd.power_function`. Power increases with n for every σ², so A(n) does too,
and the smallest n with A(n) ≥ 1 − β is found as for power.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import xarray as xr
from scipy import stats

from .._options import check_count, check_option, check_positive, check_probability
from ..design.power import check_design_target, design_variance, power_function, smallest_n
from ..design.topic_sets import topic_set_size
from ..dims import MEASURE
from ..errors import OptionError
from ..mapping import maps_extra_dims
from ..score_cube import validate

__all__ = ["AssuranceTest", "assurance", "assurance_topic_set_size"]

AssuranceTest = Literal["paired_t", "anova"]

#: Gauss–Legendre nodes of the quadrature over the quantiles of p(σ²).
NODES = 64
#: Draws of σ² beyond this many are represented by as many of their mid-quantiles.
DRAW_NODES = 256


def _variance_nodes(variance: float, df: float) -> tuple[np.ndarray, np.ndarray]:
    """Nodes σ²_k and weights of ∫ f(σ²) p(σ²) for σ² ~ df·variance/χ²_df."""
    u, w = np.polynomial.legendre.leggauss(NODES)
    u = 0.5 * (u + 1.0)
    return df * variance / stats.chi2.ppf(u, df), 0.5 * w


def _sources(scores: Any, test: str, variance: Any, df: Any, variance_draws: Any
             ) -> Any:
    """The distribution(s) of σ²: an xr.DataArray of (variance, df) pairs, or draws."""
    given = [scores is not None, variance is not None, variance_draws is not None]
    if sum(given) != 1:
        raise OptionError("give exactly one of scores, variance (with df) or variance_draws")
    if variance_draws is not None:
        d = np.asarray(variance_draws, dtype=float).ravel()
        if d.size < 2 or not (np.isfinite(d).all() and (d > 0).all()):
            raise OptionError("variance_draws must be at least 2 finite draws > 0")
        if df is not None:
            raise OptionError("df goes with variance=, not with variance_draws=")
        return d
    if scores is not None:
        if df is not None:
            raise OptionError("df goes with variance=; with scores it is the ANOVA's residual df")
        two_d = isinstance(scores, xr.DataArray) and MEASURE not in scores.dims
        v = design_variance(validate(scores) if two_d else scores, test)
        if two_d:  # keep the df of the one measure validate() gave the 2-D scores
            v = v.squeeze(MEASURE).drop_vars(MEASURE)
        return v.assign_coords(df=v["df"].astype(float))
    if df is None:
        raise OptionError("variance= needs df= (the degrees of freedom of the guess: how "
                          "many it is worth)")
    check_positive("variance", variance)
    return xr.DataArray(float(variance), coords={"df": check_positive("df", df)})


def _assurance_one(fn, sigma2: np.ndarray, weights: np.ndarray, min_diff: float, n: float,
                   alpha: float) -> float:
    sd = np.sqrt(sigma2)
    return float(sum(wk * fn(min_diff / s, n, alpha) for s, wk in zip(sd, weights,
                                                                        strict=True)))


def _integrator(source: Any, test: str, n_systems: int):
    """``f(min_diff, n, alpha)`` → assurance for each distribution of σ² in ``source``."""
    fn = power_function(test, variance=1.0, n_systems=n_systems)  # power(d/σ, n, α)
    if isinstance(source, np.ndarray):
        if source.size > DRAW_NODES:  # the mid-quantiles of the draws stand for them
            source = np.quantile(source, (np.arange(DRAW_NODES) + 0.5) / DRAW_NODES)
        weights = np.full(source.size, 1.0 / source.size)
        return lambda d, n, a, v=None: _assurance_one(fn, source, weights, d, n, a)

    def integrate(d, n, a, v):
        variance, df = v
        nodes, weights = _variance_nodes(variance, df)
        return _assurance_one(fn, nodes, weights, d, n, a)

    return integrate


def _over(source: Any, func) -> Any:
    """``func(variance, df)`` for every distribution of σ² in ``source``."""
    if isinstance(source, np.ndarray):
        return func(None)
    if source.ndim == 0:
        return func((float(source), float(source["df"])))
    out = xr.apply_ufunc(np.vectorize(lambda v, k: func((float(v), float(k))),
                                      otypes=[np.float64]), source, source["df"])
    return out.drop_vars("df", errors="ignore")


def _check_common(test: str, min_diff: Any, alpha: Any, n_systems: Any) -> tuple:
    check_option(test, AssuranceTest, "test")
    return (check_positive("min_diff", min_diff), check_probability("alpha", alpha),
            check_count("n_systems", n_systems, 2))


@maps_extra_dims(vectorized=True)  # through design_variance
def assurance(
    scores: Any = None,
    *,
    test: AssuranceTest = "paired_t",
    min_diff: float,
    n_topics: int,
    alpha: float = 0.05,
    n_systems: int = 2,
    variance: float | None = None,
    df: float | None = None,
    variance_draws: Any = None,
) -> Any:
    """Assurance: the power of a design averaged over the uncertainty about the variance.

    Parameters
    ----------
    scores : cube, sequence of cubes or mapping, optional
        Score data: σ² has the posterior ``df·V/χ²_df`` with V the design variance of
        :func:`scorestd.design_variance` (``2 V_E`` for ``"paired_t"``, ``V_E`` for
        ``"anova"``) and df its pooled residual degrees of freedom.
    test : {"paired_t", "anova"}
        A two-sided paired t-test of two systems (``min_diff``: their difference), or
        a one-way ANOVA over ``n_systems`` (``min_diff``: the range best − worst, the
        others in the middle), as in :func:`scorestd.topic_set_size`.
    min_diff : float
        Minimum detectable difference (or range), > 0.
    n_topics : int
        Topics of the planned collection (≥ 2).
    alpha : float
        Significance level.
    n_systems : int
        m of the ANOVA.
    variance, df : float, optional
        A prior guess of the test's σ² worth ``df`` degrees of freedom (a scaled
        inverse χ² prior), instead of ``scores``.
    variance_draws : array_like, optional
        Draws of the test's σ² (e.g. from :func:`scorestd.bayes_crossed`), instead of
        ``scores``: the assurance is the average power over the draws (over their 256
        mid-quantiles when there are more: a quadrature of their distribution).

    Returns
    -------
    float or xarray.DataArray
        A number for a single distribution of σ²; over ``measure`` (and ``scheme``) for
        score data, as :func:`scorestd.design_variance`.

    Raises
    ------
    OptionError
        Not exactly one source of σ², or an argument out of range.

    Examples
    --------
    >>> import scorestd
    >>> power = scorestd.power_function("paired_t", variance=0.04)(0.1, 34, 0.05)
    >>> a = assurance(variance=0.04, df=20, min_diff=0.1, n_topics=34)
    >>> round(power, 3), round(a, 3)
    (0.808, 0.777)
    >>> round(assurance(variance=0.04, df=1e6, min_diff=0.1, n_topics=34), 3)
    0.808
    """
    d, a, m = _check_common(test, min_diff, alpha, n_systems)
    n = check_count("n_topics", n_topics, 2)
    source = _sources(scores, test, variance, df, variance_draws)
    check_design_target("min_diff", d, source, test)
    f = _integrator(source, test, m)
    out = _over(source, lambda v: f(d, n, a, v))
    if isinstance(out, xr.DataArray):
        return out.rename("assurance").assign_attrs(test=test, min_diff=d, n_topics=n,
                                                    alpha=a)
    return out


@maps_extra_dims(vectorized=True)  # through design_variance
def assurance_topic_set_size(
    scores: Any = None,
    *,
    test: AssuranceTest = "paired_t",
    min_diff: float,
    alpha: float = 0.05,
    beta: float = 0.20,
    n_systems: int = 2,
    variance: float | None = None,
    df: float | None = None,
    variance_draws: Any = None,
    max_topics: int = 100_000,
) -> xr.Dataset:
    """Topics needed for assurance 1 − β, beside the classical topic set size.

    The classical answer (:func:`scorestd.topic_set_size` with ``method="exact"``) plugs
    in one value of σ² — the estimate from score data, the guess ``variance``, or the
    mean of the draws — and reaches power 1 − β there; the Bayesian answer is the smallest n whose
    :func:`assurance` reaches 1 − β, so that the design holds up when σ² is larger than
    estimated. Their gap grows as the variance is less certain (fewer degrees of
    freedom).

    Parameters
    ----------
    scores, test, min_diff, alpha, n_systems, variance, df, variance_draws
        As :func:`assurance`.
    beta : float
        1 − β is the target assurance (and the classical target power).
    max_topics : int
        Give up (with an error) beyond this many topics.

    Returns
    -------
    xarray.Dataset
        ``n_topics`` (smallest n with assurance ≥ 1 − β), ``n_topics_classical`` and
        ``assurance_classical`` (the assurance of the classical design), over the dims
        of the variance estimate (``measure``…) for score data, 0-d otherwise.

    Raises
    ------
    UnreachableTargetError
        If more than ``max_topics`` topics would be needed.

    Examples
    --------
    >>> res = assurance_topic_set_size(variance=0.04, df=20, min_diff=0.1)
    >>> int(res.n_topics), int(res.n_topics_classical), round(float(res.assurance_classical), 3)
    (37, 34, 0.777)
    """
    d, a, m = _check_common(test, min_diff, alpha, n_systems)
    target = 1.0 - check_probability("beta", beta)
    max_topics = check_count("max_topics", max_topics, 3)
    source = _sources(scores, test, variance, df, variance_draws)
    check_design_target("min_diff", d, source, test)
    f = _integrator(source, test, m)

    def solve(v):
        # the classical design plugs in the estimate (or guess) s², or the draws' mean
        point = float(np.mean(source)) if v is None else v[0]
        classical = topic_set_size(variance=point, test=test, min_diff=d, alpha=a,
                                   beta=1.0 - target, n_systems=m, method="exact",
                                   max_topics=max_topics)
        n = smallest_n(lambda k: f(d, k, a, v), target, max_topics=max_topics,
                       what=f"assurance {target:g} for min_diff={d:g} at alpha={a:g}",
                       start=classical)
        return float(n), float(classical), f(d, classical, a, v)

    names = ("n_topics", "n_topics_classical", "assurance_classical")
    if isinstance(source, np.ndarray) or source.ndim == 0:
        values = solve(None if isinstance(source, np.ndarray)
                       else (float(source), float(source["df"])))
        res = xr.Dataset({k: xr.DataArray(v) for k, v in zip(names, values, strict=True)})
    else:
        template = source.drop_vars("df")
        table = np.array([solve((float(v), float(k))) for v, k in
                          zip(source.values.ravel(), source["df"].values.ravel(),
                              strict=True)])
        res = xr.Dataset({k: template.copy(data=table[:, i].reshape(source.shape))
                          for i, k in enumerate(names)})
    for name in ("n_topics", "n_topics_classical"):
        res[name] = res[name].astype(np.int64)
    res.attrs = {"test": test, "min_diff": d, "alpha": a, "beta": float(beta),
                 "n_systems": m, "variance_source": ("draws" if variance_draws is not None
                                                     else "scores" if scores is not None
                                                     else "prior")}
    return res
