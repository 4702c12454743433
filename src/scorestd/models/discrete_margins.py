"""Discrete margins on a known support (P@k, RR): the families of simIReff.

The support of P@k is ``{0, 1/k, …, 1}``; that of RR (runs of 1000 documents) is
``{0, 1/1000, 1/999, …, 1/2, 1}``. Both families work on the index of a score in the
sorted support.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from scipy import optimize, special

from .._options import DiscreteKernelCriterion, check_option, check_positive
from ..measures import measure_info
from .margins import DiscreteMargin

__all__ = ["BetaBinomialMargin", "OrderedKernelMargin", "support_of"]


def support_of(measure: str, *, run_length: int = 1000) -> np.ndarray | None:
    """The sorted support of a discrete measure, ``None`` for a continuous one.

    The measure is looked up in the one registry of measure names
    (:func:`scorestd.measure_info`), so every toolkit's spelling gives the same answer:
    ``p10``, ``P_10`` (trec_eval), ``P@10`` (ir_measures), ``precision@10`` (ranx) →
    ``{0, 0.1, …, 1}``; ``rr``, ``recip_rank``, ``mrr`` → ``{0} ∪ {1/r : r = run_length,
    …, 1}``, and ``RR@10``, ``mrr@10`` the same up to rank 10; ``success@10`` → ``{0, 1}``.
    Measures of your own declared with :func:`scorestd.register_measure` count too.

    Examples
    --------
    >>> support_of("p10").tolist()[:3]
    [0.0, 0.1, 0.2]
    >>> support_of("rr").size, support_of("ap")
    (1001, None)
    >>> support_of("precision@5").tolist() == support_of("P_5").tolist()
    True
    >>> support_of("RR@10").size
    11
    """
    info = measure_info(str(measure).strip())
    if info is None:
        return None
    if info.support == "multiples":
        k = int(info.cutoff)
        return np.arange(k + 1) / k
    if info.support == "reciprocal":
        depth = int(info.cutoff) if info.cutoff else run_length
        return np.concatenate([[0.0], 1.0 / np.arange(depth, 0, -1)])
    if info.support == "integers" and np.isfinite(info.upper):
        return np.arange(info.lower, info.upper + 1.0)
    return None


def _counts(idx: np.ndarray, size: int) -> np.ndarray:
    """Counts of each support index per row: ``(…, n)`` → ``(…, size)``."""
    flat = idx.reshape(-1, idx.shape[-1])
    rows = np.repeat(np.arange(flat.shape[0]), flat.shape[1])
    counts = np.bincount(rows * size + flat.ravel(), minlength=flat.shape[0] * size)
    return counts.reshape(*idx.shape[:-1], size).astype(np.float64)


class BetaBinomialMargin(DiscreteMargin):
    """Beta-binomial on the support index, shapes ``α, β ≥ 1``, maximum likelihood.

    The index ``k ∈ {0, …, N}`` of a score in the support (``N + 1`` values) is
    beta-binomial(N, α, β); the shapes maximise the likelihood under ``α, β ≥ 1``
    (L-BFGS-B with the analytic gradient, from the method of moments), as simIReff
    does. A constant run cannot be fitted (``NaN``).

    Examples
    --------
    >>> from scipy import stats
    >>> from scorestd.simulation import support_of
    >>> k = stats.betabinom.rvs(10, 2.0, 3.0, size=(1, 20000), random_state=1)
    >>> fam = BetaBinomialMargin(support=support_of("p10"))
    >>> p = fam._fit(k / 10, np.zeros(1, bool))
    >>> round(float(p["alpha"][0]), 1), round(float(p["beta"][0]), 1)
    (2.0, 3.0)
    """

    name: ClassVar[str] = "betabinom"
    reference: ClassVar[str] = "Urbano & Nagler (2018), SIGIR (simIReff)"
    n_params: ClassVar[int | None] = 2

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("alpha", "beta", "cdf")

    def _fit(self, values, degenerate):
        self._check_complete(values)
        size = self.support.size
        trials = size - 1
        counts = _counts(self.indices(values), size).reshape(-1, size)
        k = np.arange(size)
        alpha = np.full(counts.shape[0], np.nan)
        beta = np.full(counts.shape[0], np.nan)
        skip = np.asarray(degenerate).reshape(-1)
        for r in np.flatnonzero(~skip):
            alpha[r], beta[r] = _fit_betabinom(counts[r], k, trials)
        shape = values.shape[:-1]
        alpha, beta = alpha.reshape(shape), beta.reshape(shape)
        with np.errstate(invalid="ignore"):
            logpmf = _log_pmf(k, trials, alpha[..., np.newaxis], beta[..., np.newaxis])
        cdf = np.minimum(np.cumsum(np.exp(logpmf), axis=-1), 1.0)
        cdf[..., -1] = np.where(np.isnan(alpha), np.nan, 1.0)
        return {"alpha": alpha, "beta": beta, "cdf": cdf}


def _log_pmf(k, n, a, b):
    return (special.gammaln(n + 1) - special.gammaln(k + 1) - special.gammaln(n - k + 1)
            + special.betaln(k + a, n - k + b) - special.betaln(a, b))


def _fit_betabinom(counts: np.ndarray, k: np.ndarray, n: int) -> tuple[float, float]:
    total = counts.sum()
    m1 = (counts @ k) / total
    m2 = (counts @ (k * k)) / total - m1 * m1
    if not m2 > 0:
        return np.nan, np.nan
    p = m1 / n
    # Method of moments: var = n p (1−p) (a + b + n) / (a + b + 1).
    ratio = m2 / (n * p * (1 - p)) if 0 < p < 1 else np.nan
    rho = (ratio - 1) / (n - 1) if n > 1 else np.nan
    s = (1 - rho) / rho if np.isfinite(rho) and 0 < rho < 1 else 2.0
    start = np.log(np.maximum([p * s, (1 - p) * s], 1.0))
    used = counts > 0
    kk, cc = k[used], counts[used]

    def objective(theta):
        a, b = np.exp(theta)
        ll = cc @ (special.betaln(kk + a, n - kk + b)) - total * special.betaln(a, b)
        dab = special.digamma(n + a + b) - special.digamma(a + b)
        ga = cc @ special.digamma(kk + a) - total * (special.digamma(a) + dab)
        gb = cc @ special.digamma(n - kk + b) - total * (special.digamma(b) + dab)
        return -ll, -np.array([ga * a, gb * b])

    res = optimize.minimize(objective, start, jac=True, method="L-BFGS-B",
                            bounds=[(0.0, np.log(1e6))] * 2)
    if not np.all(np.isfinite(res.x)):
        return np.nan, np.nan
    a, b = np.exp(res.x)
    return float(a), float(b)


#: Grid points of the bandwidth search: a grid on [0, 0.99], then twice a grid over the
#: best point's two neighbouring intervals (a step of about 1e-4 at the end: RR's
#: bandwidths are a few hundredths, and AIC's choice of multiplier can turn on the third
#: decimal).
REFINEMENTS = (50, 21, 21)

class OrderedKernelMargin(DiscreteMargin):
    """Ordered discrete kernel density of Wang & van Ryzin (1981) on the support index.

    ``p̂(k) ∝ Σ_i l(k, k_i)`` with ``l = 1 − λ`` at ``k = k_i`` and
    ``(1 − λ) λ^{|k − k_i|} / 2`` elsewhere, renormalised over the support. ``λ``
    minimises the least-squares cross-validation criterion
    ``Σ_k p̂(k)² − (2/n) Σ_i p̂₋ᵢ(k_i)`` (a grid of 50 values refined twice), then is
    multiplied by ``multiplier`` (simIReff also tries 2, 5 and 10 times the
    bandwidth); where the multiplied bandwidth exceeds 1 the family does not apply
    (``NaN``; the selection skips it there without a warning). Effective
    degrees of freedom ``mean_i (1 − λ) / p̂(k_i)`` (the smoother's trace).

    ``criterion`` says where the first sum runs: ``"whole_line"`` (the default) over all
    the integers, as R np's ``cv.ls`` does for an ordered factor (simIReff's
    bandwidth; in closed form from the counts' autocorrelation), or ``"support"`` over
    the support only (this package's rule before 2026-11; bandwidths larger by about
    0.07 on TREC P@10 runs).

    Examples
    --------
    >>> from scorestd.simulation import support_of
    >>> x = np.array([[0.0, 0.1, 0.1, 0.2, 0.2, 0.2, 0.3, 0.5]])
    >>> p = OrderedKernelMargin(support=support_of("p10"))._fit(x, np.zeros(1, bool))
    >>> 0 <= float(p["bandwidth"][0]) < 1, round(float(p["cdf"][0, -1]), 12)
    (True, 1.0)
    """

    name: ClassVar[str] = "dkde"
    reference: ClassVar[str] = ("Wang & van Ryzin (1981), Biometrika 68; Urbano & Nagler "
                                "(2018), SIGIR (simIReff)")

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"support": None, "multiplier": 1, "criterion": "whole_line"}

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        check_positive("multiplier", self.options["multiplier"])
        check_option(self.options["criterion"], DiscreteKernelCriterion, "criterion")

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("bandwidth", "cdf")

    def _fit(self, values, degenerate):
        self._check_complete(values)
        size = self.support.size
        counts = _counts(self.indices(values), size)
        n = values.shape[-1]
        lam = _cv_bandwidth(counts.reshape(-1, size), n,
                            self.options["criterion"]).reshape(values.shape[:-1])
        lam = lam * float(self.options["multiplier"])
        beyond = lam > 1
        lam = np.where(beyond, np.nan, lam)
        conv = _smooth(counts, np.where(np.isnan(lam), 0.0, lam)[..., np.newaxis])[..., 0, :]
        pmf = conv / conv.sum(axis=-1, keepdims=True)
        cdf = np.minimum(np.cumsum(pmf, axis=-1), 1.0)
        cdf[..., -1] = 1.0
        cdf = np.where(np.isnan(lam)[..., np.newaxis], np.nan, cdf)
        return {"bandwidth": lam, "cdf": cdf, "beyond": beyond}

    def _inapplicable(self, params):
        return params["beyond"]

    def _fit_ok(self, params):
        return super()._fit_ok(params) & ~params["beyond"]

    def _eff_df(self, values, *, bandwidth, cdf, **_):
        pmf = np.diff(cdf, axis=-1, prepend=0.0)
        at = np.take_along_axis(pmf, self.indices(values), axis=-1)
        return np.mean((1 - bandwidth[..., np.newaxis]) / at, axis=-1)


def _smooth(counts: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """``Σ_i l_λ(k, k_i)`` at every support index: counts ``(…, K)``, λ ``(…, G)`` →
    ``(…, G, K)``, by a forward and a backward recursive filter (O(K))."""
    c = counts[..., np.newaxis, :]
    lam = lam[..., np.newaxis]
    size = counts.shape[-1]
    shape = np.broadcast_shapes(c.shape, lam.shape)
    fwd, bwd = np.zeros(shape), np.zeros(shape)
    lam_b = np.broadcast_to(lam, (*shape[:-1], 1))[..., 0]
    for k in range(1, size):  # fwd_k = λ (fwd_{k−1} + c_{k−1})
        fwd[..., k] = lam_b * (fwd[..., k - 1] + c[..., k - 1])
    for k in range(size - 2, -1, -1):
        bwd[..., k] = lam_b * (bwd[..., k + 1] + c[..., k + 1])
    return (1 - lam) * (c + (fwd + bwd) / 2)


def _cv_bandwidth(counts: np.ndarray, n: int, criterion: str = "whole_line") -> np.ndarray:
    """Least-squares cross-validated λ of each row of ``counts`` ``(R, K)``
    (``criterion``: see :class:`OrderedKernelMargin`)."""
    lo, hi = np.zeros(counts.shape[0]), np.full(counts.shape[0], 0.99)
    best = lo
    lags = _autocorrelation(counts) if criterion == "whole_line" else None
    for points in REFINEMENTS:
        grid = lo[:, None] + (hi - lo)[:, None] * np.linspace(0, 1, points)
        conv = _smooth(counts, grid)  # (R, G, K)
        loo = (counts[:, None, :] * (conv - (1 - grid[..., None]))).sum(axis=-1) / (n - 1)
        if lags is None:
            fhat = conv / n
            squares = (fhat * fhat).sum(axis=-1)
        else:
            squares = _whole_line_squares(lags, grid) / (n * n)
        score = squares - 2.0 / n * loo
        j = np.argmin(score, axis=-1)
        best = grid[np.arange(len(j)), j]
        step = (hi - lo) / (points - 1)
        lo, hi = np.maximum(best - step, 0.0), np.minimum(best + step, 0.99)
    return best


def _autocorrelation(counts: np.ndarray) -> np.ndarray:
    """``A_d = Σ_k c_k c_{k+d}`` of each row ``(R, K)`` for d = 0 … K − 1 (exact: the
    counts are integers; by FFT, rounded), trimmed after the last non-zero lag."""
    size = counts.shape[-1]
    spectrum = np.fft.rfft(counts, 2 * size, axis=-1)
    lags = np.rint(np.fft.irfft(spectrum * spectrum.conj(), 2 * size, axis=-1)[..., :size])
    used = np.flatnonzero(lags.any(axis=0))
    return lags[:, :used[-1] + 1] if used.size else lags[:, :1]


def _whole_line_squares(lags: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """``n² Σ_{z ∈ ℤ} p̂(z)²`` of the Wang–van Ryzin estimate extended to all integers,
    at each λ ``(R, G)``, from the counts' autocorrelation ``lags`` ``(R, D)``.

    ``Σ_z l(z, a) l(z, b)`` is ``(1 − λ)² (2 − λ²) / (2 (1 − λ²))`` at ``a = b`` and
    ``(1 − λ)² λ^d (1 + d + 2 / (1 − λ²)) / 4`` at ``|a − b| = d ≥ 1`` (geometric
    series); the sums over d, ``P = Σ A_d λ^d`` and ``Q = Σ d A_d λ^d``, by Horner's
    rule."""
    power, weighted = np.zeros_like(lam), np.zeros_like(lam)
    for d in range(lags.shape[-1] - 1, 0, -1):
        a = lags[:, d:d + 1]
        power = (power + a) * lam
        weighted = (weighted + d * a) * lam
    one_minus = 1.0 - lam
    denom = 1.0 - lam * lam
    same = one_minus ** 2 * (2.0 - lam * lam) / (2.0 * denom)
    return (lags[:, :1] * same
            + 0.5 * one_minus ** 2 * (weighted + (1.0 + 2.0 / denom) * power))
