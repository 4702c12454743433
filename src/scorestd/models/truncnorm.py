"""Normal distribution truncated to [0, 1] per topic, fitted by maximum likelihood."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from scipy import special

from ._base import Model
from ._bounded import invert_cdf, sample_moments

__all__ = ["TruncNormal", "fit_truncnorm"]

_TOL = 1e-10
_MAX_ITER = 100
#: Upper bound of σ: beyond it the truncated normal is the uniform on [0, 1] to 1e-4.
_MAX_SIGMA = 50.0


class TruncNormal(Model):
    """Normal(μ, σ) truncated to [0, 1] per topic, fitted by maximum likelihood.

    One of the score-distribution margins of simIReff (Urbano & Nagler 2018,
    "Stochastic simulation of test collections", SIGIR). μ and σ are the parameters
    of the parent normal. On a fixed support the truncated normal is an exponential
    family with statistics ``x`` and ``x²``, so the likelihood is maximised exactly
    where the distribution's mean and variance equal the sample mean and (``n``)
    variance; those two equations are solved by damped Newton steps in
    ``(μ, log σ)`` for all topics at once, from ``(x̄, s)``. Exact 0 and 1 scores need
    no special treatment (the density is positive on the closed interval).

    Some samples have no maximum inside the family: for one more convex than any
    truncated normal (many scores piled at 0 with a long thin tail, common for AP) or
    flatter than any, the supremum lies on the family's boundary ``σ → ∞``,
    ``μ/σ² → λ``: the truncated exponential ``∝ exp(λx)`` on [0, 1] (the likelihood is
    concave in the natural parameters ``(μ/σ², −1/(2σ²))``, so the best boundary point
    is the best exponential). Where Newton does not converge, the exponential's ML
    (its mean equals the sample mean) is taken if its likelihood is higher, stored as
    ``σ = 1000``, ``μ = λ σ²`` (about 1 topic in 10 of the bundled robust2004 data).
    ``params`` holds ``mu``, ``sigma`` and ``ml`` (``False`` only where neither
    route reached a maximum).

    Examples
    --------
    >>> import scorestd
    >>> from scipy import stats
    >>> x = stats.truncnorm.rvs(-0.2 / 0.3, 0.8 / 0.3, loc=0.2, scale=0.3,
    ...                         size=(1, 20000), random_state=2)
    >>> p = TruncNormal.fit(scorestd.cube(x)).params
    >>> round(float(p["mu"][0, 0]), 2), round(float(p["sigma"][0, 0]), 2)
    (0.2, 0.3)
    """

    name: ClassVar[str] = "truncnorm"
    reference: ClassVar[str] = "Urbano & Nagler (2018), SIGIR"
    bounded: ClassVar[bool] = True
    n_params: ClassVar[int | None] = 2

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("mu", "sigma")

    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        mu, sigma, ml = fit_truncnorm(values, skip=degenerate)
        return {"mu": mu, "sigma": sigma, "ml": ml}

    def _cdf(self, x, *, mu, sigma):
        lo, hi = -mu / sigma, (1 - mu) / sigma
        xi = np.clip((x - mu) / sigma, lo, hi)
        return np.clip(np.exp(_log_mass(lo, xi) - _log_mass(lo, hi)), 0.0, 1.0)

    def _icdf(self, p, *, mu, sigma):
        # Bisection on the cdf above: exact to double precision, also for the
        # exponential-limit parameters where closed-form quantiles lose accuracy.
        return invert_cdf(lambda x: self._cdf(x, mu=mu, sigma=sigma), p)

    def _logpdf(self, x, *, mu, sigma):
        lo, hi = -mu / sigma, (1 - mu) / sigma
        xi = (x - mu) / sigma
        inside = (x >= 0) & (x <= 1)
        logpdf = -0.5 * xi * xi - _LOG_SQRT_2PI - np.log(sigma) - _log_mass(lo, hi)
        return np.where(inside, logpdf, -np.inf)


_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


def _log_mass(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``log(Φ(hi) − Φ(lo))`` for ``lo <= hi``, accurate in both tails."""
    upper = lo > 0  # Φ(hi) − Φ(lo) = Φ(−lo) − Φ(−hi): keep the arguments negative
    a, b = np.where(upper, -hi, lo), np.where(upper, -lo, hi)
    lb = special.log_ndtr(b)
    with np.errstate(divide="ignore"):  # lo == hi: log(0) = -inf, as it should be
        return lb + np.log1p(-np.exp(special.log_ndtr(a) - lb))


def _moments(mu: np.ndarray, log_sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean and variance of N(μ, σ) truncated to [0, 1] (ratios taken in log space)."""
    sigma = np.exp(log_sigma)
    lo, hi = -mu / sigma, (1 - mu) / sigma
    log_z = _log_mass(lo, hi)
    r_lo = np.exp(-0.5 * lo * lo - _LOG_SQRT_2PI - log_z)
    r_hi = np.exp(-0.5 * hi * hi - _LOG_SQRT_2PI - log_z)
    mean = mu + sigma * (r_lo - r_hi)
    var = sigma * sigma * (1 + lo * r_lo - hi * r_hi - (r_lo - r_hi) ** 2)
    return mean, var


def fit_truncnorm(values: np.ndarray, *, skip: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Maximum-likelihood (μ, σ) of a normal truncated to [0, 1], per row, NaN skipped.

    Returns ``(mu, sigma, converged)`` shaped like ``values.shape[:-1]``.

    Examples
    --------
    >>> from scipy import stats
    >>> x = stats.truncnorm.rvs(-1.0, 1.0, loc=0.5, scale=0.5, size=(1, 20000),
    ...                         random_state=3)
    >>> mu, sigma, ok = fit_truncnorm(x)
    >>> mu.round(2).tolist(), sigma.round(2).tolist(), ok.tolist()
    ([0.5], [0.5], [True])
    """
    mean, var = sample_moments(values)
    active = np.isfinite(mean) & (var > 0)
    if skip is not None:
        active &= ~skip
    shape = mean.shape
    mean, var, active = mean.ravel(), var.ravel(), active.ravel()
    mu = np.where(active, mean, 0.5)
    ls = np.log(np.sqrt(np.where(active, var, 1.0)))
    max_ls = np.log(_MAX_SIGMA)
    converged = np.zeros(mu.shape, dtype=bool)
    scale = np.where(active, var, 1.0)  # residuals in units of the sample variance

    def residual(mu_, ls_):
        m, v = _moments(mu_, ls_)
        return (m - mean) / np.sqrt(scale), (v - var) / scale

    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        r1, r2 = residual(mu, ls)
        for _ in range(_MAX_ITER):
            norm = np.hypot(r1, r2)
            converged = active & (norm < _TOL)
            todo = active & ~converged
            if not todo.any():
                break
            h = 1e-6
            a1, a2 = residual(mu + h, ls)
            b1, b2 = residual(mu, ls + h)
            j11, j21 = (a1 - r1) / h, (a2 - r2) / h
            j12, j22 = (b1 - r1) / h, (b2 - r2) / h
            det = j11 * j22 - j12 * j21
            dmu = (j22 * r1 - j12 * r2) / det
            dls = (j11 * r2 - j21 * r1) / det
            step = np.ones_like(mu)
            accepted = np.zeros(mu.shape, dtype=bool)
            for _ in range(30):  # backtrack until the residual shrinks
                tmu = mu - step * dmu
                tls = np.minimum(ls - step * dls, max_ls)
                t1, t2 = residual(tmu, tls)
                better = todo & ~accepted & (np.hypot(t1, t2) < norm)
                mu, ls = np.where(better, tmu, mu), np.where(better, tls, ls)
                r1, r2 = np.where(better, t1, r1), np.where(better, t2, r2)
                accepted |= better
                step = np.where(accepted, step, step / 2)
                if accepted[todo].all():
                    break
            if not accepted[todo].any():
                break
    sigma = np.exp(ls)
    # Where Newton did not converge the supremum may lie on the family's boundary, the
    # truncated exponential: keep whichever of the two has the higher likelihood.
    stuck = active & ~converged
    if stuck.any():
        x = values.reshape(-1, values.shape[-1])
        rate = _exponential_rate(mean)
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            ll_newton = _mean_loglik(x, mu, sigma)
            e_mu, e_sigma = rate * _LIMIT_SIGMA**2, np.full_like(rate, _LIMIT_SIGMA)
            ll_limit = _mean_loglik(x, e_mu, e_sigma)
        use_limit = stuck & (ll_limit > ll_newton)
        mu, sigma = np.where(use_limit, e_mu, mu), np.where(use_limit, e_sigma, sigma)
        converged = converged | use_limit
    nan = ~active
    mu, sigma = np.where(nan, np.nan, mu), np.where(nan, np.nan, sigma)
    return mu.reshape(shape), sigma.reshape(shape), converged.reshape(shape)


#: σ representing the truncated-exponential limit (η₂ = −1/(2σ²) = −5e−7, negligible).
_LIMIT_SIGMA = 1e3


def _exponential_rate(mean: np.ndarray) -> np.ndarray:
    """Rate λ of the density ∝ exp(λx) on [0, 1] whose mean is ``mean`` (its ML), by bisection."""
    lo, hi = np.full(mean.shape, -1e4), np.full(mean.shape, 1e4)
    for _ in range(80):
        mid = (lo + hi) / 2
        with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
            small = np.abs(mid) < 1e-6
            m = np.where(small, 0.5 + mid / 12, 1 / -np.expm1(-mid) - 1 / np.where(small, 1, mid))
        below = m < mean
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return (lo + hi) / 2


def _mean_loglik(x: np.ndarray, mu: np.ndarray, sigma: np.ndarray) -> np.ndarray:
    """Mean log-likelihood of the rows of ``x`` (NaN skipped) under each (μ, σ)."""
    mu, sigma = mu[:, np.newaxis], sigma[:, np.newaxis]
    xi = (x - mu) / sigma
    log_z = _log_mass(-mu / sigma, (1 - mu) / sigma)
    return np.nanmean(-0.5 * xi * xi - _LOG_SQRT_2PI - np.log(sigma) - log_z, axis=-1)
