"""Continuous margins on [0, 1] (AP, nDCG, ERR): the families of simIReff.

Urbano & Nagler (2018), "Stochastic simulation of test collections: evaluation scores",
SIGIR, fit four families to the scores of a system over topics and keep the best by
AIC: a normal truncated to [0, 1], a beta with both shapes ≥ 1, a Gaussian kernel
density truncated to [0, 1] and a beta kernel density (Chen 1999). The defaults follow
the R package simIReff 1.0 (github.com/julian-urbano/simIReff, ``R/effCont_norm.R``,
``effCont_beta.R``, ``effCont_nks.R``, ``effCont_bks.R``), which Urbano, Lima & Hanjalic
(2019) used for their error-rate study: the Gaussian kernel's bandwidth is ``ks::kde``'s
(the direct plug-in rule), the beta kernel's smoothing ``bde::bde``'s default
``b = n^(−2/5)``, and each kernel's degrees of freedom for AIC the trace of its smoother.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy import special

from .._options import BetaKernelBandwidth
from ..errors import OptionError
from . import _grid
from ._bounded import invert_cdf
from .beta import fit_beta
from .kde import BandwidthOption, _pairwise_mean
from .margins import ContinuousMargin
from .truncnorm import _LIMIT_SIGMA, TruncNormal

__all__ = [
    "CAP",
    "Beta1Margin",
    "BetaKernelMargin",
    "NormalKernelMargin",
    "TruncNormalMargin",
]

#: Scores are clipped into [CAP, 1 − CAP] before a beta or beta-kernel fit (simIReff).
CAP = 1e-6


class TruncNormalMargin(ContinuousMargin, TruncNormal):
    """Normal truncated to [0, 1], maximum likelihood (:class:`scorestd.models.TruncNormal`).

    Two parameters (μ, σ of the parent normal). Fails (``NaN``) on a constant run.

    Where the likelihood has no maximum inside the family (scores piled near 0 with a
    long thin tail, common for AP: the supremum is the truncated exponential, the limit
    ``σ → ∞``), the family is by default not a candidate for that run
    (``exponential_limit=False``), as in simIReff: its ``effCont_norm`` fits by
    ``MASS::fitdistr`` (L-BFGS-B from ``(x̄, s)``, ``σ ≥ 0.05``), which stops with an
    error there, and ``effContFit`` drops the family for the run. Checked in R on the runs
    the error-rate study keeps (``tests/results/simireff_margins/truncnorm_fits.R``):
    R fails on 29 of 114 adhoc8 AP runs and 50 of 70 web2010 nDCG@20 runs, and this rule
    agrees on 109 and 58 of them (where it does not, R mostly stops on the flat ridge
    towards the limit and reports a fit). ``exponential_limit=True`` (the previous
    default) keeps the truncated-exponential limit as the fit instead.

    Examples
    --------
    >>> from scipy import stats
    >>> x = stats.truncnorm.rvs(-1, 2, loc=0.3, scale=0.3, size=(1, 5000), random_state=1)
    >>> p = TruncNormalMargin()._fit(x, np.zeros(1, bool))
    >>> round(float(p["mu"][0]), 2), round(float(p["sigma"][0]), 2)
    (0.3, 0.3)
    """

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"exponential_limit": False}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if not isinstance(self.options["exponential_limit"], bool | np.bool_):
            raise OptionError(f"exponential_limit must be True or False; got "
                              f"{self.options['exponential_limit']!r}")

    def _fit(self, values, degenerate):
        params = super()._fit(values, degenerate)
        limit = params["sigma"] >= _LIMIT_SIGMA  # no interior maximum: the exponential
        return {"mu": params["mu"], "sigma": params["sigma"], "limit": limit}

    def _excluded(self, params):
        limit = np.asarray(params["limit"]) == 1  # (a subclass may have NaN-ed it)
        return np.zeros_like(limit) if self.options["exponential_limit"] else limit

    def _fit_ok(self, params):
        return super()._fit_ok(params) & ~self._excluded(params)

    def _inapplicable(self, params):
        return self._excluded(params)

    def _cdf(self, x, *, mu, sigma, **_):
        return super()._cdf(x, mu=mu, sigma=sigma)

    def _icdf(self, p, *, mu, sigma, **_):
        return super()._icdf(p, mu=mu, sigma=sigma)

    def _logpdf(self, x, *, mu, sigma, **_):
        return super()._logpdf(x, mu=mu, sigma=sigma)


class Beta1Margin(ContinuousMargin):
    """Beta distribution with both shapes ≥ 1, maximum likelihood on clipped scores.

    As simIReff: scores are clipped into ``[1e-6, 1 − 1e-6]`` for the fit and the
    density, and the shapes are constrained to ``a, b ≥ 1`` (a bounded density).
    The beta log-likelihood is concave in ``(a, b)``, so the constrained maximum is
    the unconstrained one when it is feasible, else the best of the edge maxima
    ``(1, max(1, −1/mean log(1−x)))``, ``(max(1, −1/mean log x), 1)`` and ``(1, 1)``
    (closed forms: on an edge the likelihood is that of a power law).

    Examples
    --------
    >>> x = np.random.default_rng(1).beta(2.0, 5.0, size=(1, 20000))
    >>> p = Beta1Margin()._fit(x, np.zeros(1, bool))
    >>> round(float(p["a"][0]), 1), round(float(p["b"][0]), 1)
    (2.0, 5.0)
    >>> x = np.random.default_rng(1).beta(0.5, 3.0, size=(1, 20000))
    >>> float(Beta1Margin()._fit(x, np.zeros(1, bool))["a"][0])
    1.0
    """

    name: ClassVar[str] = "beta1"
    reference: ClassVar[str] = "Urbano & Nagler (2018), SIGIR (simIReff)"
    n_params: ClassVar[int | None] = 2

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("a", "b")

    def _fit(self, values, degenerate):
        x = np.clip(values, CAP, 1 - CAP)
        n = (~np.isnan(x)).sum(axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            g1 = np.nanmean(np.log(x), axis=-1)
            g2 = np.nanmean(np.log1p(-x), axis=-1)
        a0, b0, ok = fit_beta(x, skip=degenerate)
        inside = ok & (a0 >= 1) & (b0 >= 1)
        candidates = [
            (np.where(inside, a0, 1.0), np.where(inside, b0, 1.0)),
            (np.ones_like(g1), np.maximum(1.0, -1.0 / g2)),
            (np.maximum(1.0, -1.0 / g1), np.ones_like(g1)),
            (np.ones_like(g1), np.ones_like(g1)),
        ]
        best_a, best_b, best = candidates[-1][0], candidates[-1][1], np.full(g1.shape, -np.inf)
        for a, b in candidates:
            with np.errstate(invalid="ignore"):
                ll = n * ((a - 1) * g1 + (b - 1) * g2 - special.betaln(a, b))
            better = ll > best
            best_a, best_b = np.where(better, a, best_a), np.where(better, b, best_b)
            best = np.where(better, ll, best)
        bad = degenerate | ~np.isfinite(best)
        return {"a": np.where(bad, np.nan, best_a), "b": np.where(bad, np.nan, best_b)}

    def _cdf(self, x, *, a, b):
        return special.betainc(a, b, np.clip(x, 0.0, 1.0))

    def _icdf(self, p, *, a, b):
        return special.betaincinv(a, b, p)

    def _logpdf(self, x, *, a, b):
        xc = np.clip(x, CAP, 1 - CAP)
        out = special.xlogy(a - 1, xc) + special.xlog1py(b - 1, -xc) - special.betaln(a, b)
        return np.where((x >= 0) & (x <= 1), out, -np.inf)


class _KernelMargin(BandwidthOption, ContinuousMargin):
    """The kernel densities among the margins (their bandwidth option as :class:`KDE`'s)."""


def _gauss_cdf(x, s, h):
    return special.ndtr((x - s) / h)


def _gauss_pdf(x, s, h):
    return np.exp(-0.5 * ((x - s) / h) ** 2) / (h * np.sqrt(2 * np.pi))


class NormalKernelMargin(_KernelMargin):
    """Gaussian kernel density truncated to [0, 1] and renormalised (simIReff's ``nks``).

    ``f(x) = f̂(x) / (F̂(1) − F̂(0))`` on [0, 1] with ``f̂`` the Gaussian kernel density
    of the scores and ``F̂`` its cdf, so the cdf is the closed form
    ``(F̂(x) − F̂(0)) / (F̂(1) − F̂(0))``. Effective degrees of freedom: the trace of
    the smoother, ``mean_i φ_h(0) / f̂(x_i)`` (simIReff's ``effCont_nks``).

    The bandwidth ``h`` is by default the direct plug-in rule (``bandwidth="plugin"``,
    :func:`scorestd.models.kde.bandwidth`), the one simIReff's ``effCont_nks`` gets from
    ``ks::kde`` (``ks::hpi``, i.e. ``KernSmooth::dpik``); the ``"silverman"`` (the
    previous default) or ``"scott"`` rules, or a number, can be given instead.

    Examples
    --------
    >>> x = np.array([[0.1, 0.2, 0.2, 0.5, 0.7]])
    >>> fam = NormalKernelMargin()
    >>> p = fam._fit(x, np.zeros(1, bool))
    >>> float(fam._cdf(np.array([[0.0, 1.0]]), **{k: v[..., None] if v.ndim == 1 else v
    ...                                            for k, v in p.items()})[0, 1])
    1.0
    """

    name: ClassVar[str] = "nkde"
    reference: ClassVar[str] = ("Urbano & Nagler (2018), SIGIR (simIReff); Wand & Jones "
                                "(1995), Kernel Smoothing")

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"bandwidth": "plugin"}

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("sample", "bandwidth")

    def _fit(self, values, degenerate):
        h = self._bandwidth(values)
        h = np.where(degenerate | ~(h > 0), np.nan, h)
        return {"sample": np.sort(values, axis=-1), "bandwidth": h}

    def _mass(self, sample, h):
        ends = np.array([0.0, 1.0])
        f = _pairwise_mean(np.broadcast_to(ends, (*sample.shape[:-1], 2)), sample, h,
                           _gauss_cdf)
        return f[..., :1], f[..., 1:] - f[..., :1]

    def _cdf(self, x, *, sample, bandwidth):
        f0, z = self._mass(sample, bandwidth)
        raw = _pairwise_mean(np.clip(x, 0.0, 1.0), sample, bandwidth, _gauss_cdf)
        return np.clip((raw - f0) / z, 0.0, 1.0)

    def _icdf(self, p, *, sample, bandwidth):
        return invert_cdf(lambda x: self._cdf(x, sample=sample, bandwidth=bandwidth), p)

    def _logpdf(self, x, *, sample, bandwidth):
        _, z = self._mass(sample, bandwidth)
        dens = _pairwise_mean(x, sample, bandwidth, _gauss_pdf) / z
        with np.errstate(divide="ignore"):
            return np.where((x >= 0) & (x <= 1), np.log(dens), -np.inf)

    def _eff_df(self, values, *, sample, bandwidth):
        h = bandwidth[..., np.newaxis]
        dens = _pairwise_mean(values, sample, h, _gauss_pdf)
        return np.mean(1.0 / (h * np.sqrt(2 * np.pi)) / dens, axis=-1)


def _beta_kernel_density(x: np.ndarray, sample: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Chen's (1999) estimate ``mean_i Beta(s_i; x/b + 1, (1 − x)/b + 1)`` at ``x``.

    ``x`` ``(…, N)``, ``sample`` ``(…, n)`` (inside (0, 1); ``NaN`` skipped), ``b`` ``(…, 1)``.
    """
    ls, l1s = np.log(sample), np.log1p(-sample)
    out = np.empty(np.broadcast_shapes(x.shape[:-1], sample.shape[:-1]) + x.shape[-1:])
    step = max(1, 2**22 // max(1, int(np.prod(out.shape[:-1])) * sample.shape[-1]))
    for start in range(0, x.shape[-1], step):
        xb = x[..., start:start + step]
        p, q = xb / b, (1 - xb) / b
        log_k = (p[..., :, None] * ls[..., None, :] + q[..., :, None] * l1s[..., None, :]
                 - special.betaln(p + 1, q + 1)[..., :, None])
        out[..., start:start + step] = np.nanmean(np.exp(log_k), axis=-1)
    return out


class BetaKernelMargin(_KernelMargin):
    """Beta kernel density on [0, 1] (Chen 1999; simIReff's ``bks``).

    ``f̂(x) = mean_i Beta(x_i; x/b + 1, (1 − x)/b + 1)`` on scores clipped into
    ``[1e-6, 1 − 1e-6]``: the kernel's support is [0, 1], so no mass leaks past the
    bounds. The smoothing parameter is by default ``b = n^(−2/5)`` for ``n`` scores
    (``bandwidth="bde"``: the default of R's ``bde::bde``, which simIReff's
    ``effCont_bks`` calls without a ``b``); with a Gaussian rule (``"silverman"``, the
    previous default, ``"scott"``, ``"plugin"``) or a number ``h``,
    ``b = h² / mean x_i(1 − x_i)`` (the kernel's variance near ``x`` is about
    ``b x (1 − x)``). ``f̂`` does not integrate to exactly 1, so it is renormalised
    (simIReff divides by its integral too); its cdf
    is the cumulative trapezoidal integral on the tabulation grid (linear between grid
    points; the density is tabulated on the same grid, linear between its points, so it
    integrates to exactly 1). Effective degrees of freedom ``mean_i K_b(x_i; x_i) / f̂(x_i)``.

    Examples
    --------
    >>> x = np.random.default_rng(2).beta(2.0, 6.0, size=(1, 400))
    >>> fam = BetaKernelMargin()
    >>> p = fam._fit(x, np.zeros(1, bool))
    >>> round(float(p["cdf"][0, -1]), 6)
    1.0
    """

    name: ClassVar[str] = "bkde"
    reference: ClassVar[str] = "Chen (1999), Comput. Stat. Data Anal. 31; simIReff"
    bandwidth_rules: ClassVar[Any] = BetaKernelBandwidth

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"bandwidth": "bde"}

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("b", "pdf", "cdf")

    def _fit(self, values, degenerate):
        sample = np.sort(np.clip(values, CAP, 1 - CAP), axis=-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            if self.options["bandwidth"] == "bde":
                b = (~np.isnan(sample)).sum(axis=-1) ** -0.4
            else:
                h = self._bandwidth(sample)
                b = h * h / np.nanmean(sample * (1 - sample), axis=-1)
        b = np.where(degenerate | ~(b > 0), np.nan, b)
        safe_b = np.where(np.isnan(b), 1.0, b)[..., np.newaxis]
        dens = _beta_kernel_density(np.broadcast_to(_grid.X, (*b.shape, _grid.X.size)),
                                    sample, safe_b)
        steps = np.diff(_grid.X) * (dens[..., 1:] + dens[..., :-1]) / 2
        cum = np.concatenate([np.zeros((*b.shape, 1)), np.cumsum(steps, axis=-1)], axis=-1)
        norm = cum[..., -1:]
        bad = np.isnan(b)[..., np.newaxis]
        return {"b": b, "pdf": np.where(bad, np.nan, dens / norm),
                "cdf": np.where(bad, np.nan, cum / norm)}

    @staticmethod
    def _interp(x, table):
        """Linear interpolation of grid tables ``(…, K)`` at ``x`` ``(…, N)``."""
        xc = np.clip(x, 0.0, 1.0)
        j = np.clip(np.searchsorted(_grid.X, xc, side="right"), 1, _grid.X.size - 1)
        lo, hi = _grid.X[j - 1], _grid.X[j]
        table = np.broadcast_to(table, (*x.shape[:-1], table.shape[-1]))
        f_lo = np.take_along_axis(table, j - 1, axis=-1)
        f_hi = np.take_along_axis(table, j, axis=-1)
        return f_lo + (xc - lo) / (hi - lo) * (f_hi - f_lo)

    def _cdf(self, x, *, b, pdf, cdf):
        return self._interp(x, cdf)

    def _icdf(self, p, **params):
        return invert_cdf(lambda x: self._cdf(x, **params), p)

    def _logpdf(self, x, *, b, pdf, cdf):
        with np.errstate(divide="ignore"):
            return np.where((x >= 0) & (x <= 1), np.log(self._interp(x, pdf)), -np.inf)

    def _eff_df(self, values, *, b, **_):
        s = np.clip(values, CAP, 1 - CAP)
        bb = b[..., np.newaxis]
        p, q = s / bb, (1 - s) / bb
        k0 = np.exp(p * np.log(s) + q * np.log1p(-s) - special.betaln(p + 1, q + 1))
        return np.mean(k0 / _beta_kernel_density(s, np.sort(s, axis=-1), bb), axis=-1)

    def _tabulate(self, *, cdf, **_):
        return cdf
