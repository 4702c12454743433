"""Kernel density per topic on [0, 1]: Gaussian kernel reflected at both bounds."""

from __future__ import annotations

from typing import Any, ClassVar, get_args

import numpy as np
from scipy import special

from .._options import BandwidthRule, check_option
from ..errors import OptionError
from ._base import Model
from ._bounded import invert_cdf

__all__ = ["KDE", "bandwidth", "check_bandwidth"]

_CHUNK = 2**22  # elements of the (x, sample) pair array evaluated at once


def check_bandwidth(h: Any, rules: Any = BandwidthRule) -> None:
    """Raise unless ``h`` is one of ``rules`` (a ``Literal``; default
    :data:`~scorestd._options.BandwidthRule`) or a positive number."""
    if isinstance(h, str):
        check_option(h, rules, "bandwidth")
    elif not (np.isscalar(h) and float(h) > 0):
        choices = ", ".join(map(repr, get_args(rules)))
        raise OptionError(f"bandwidth must be one of {choices} or a positive number; "
                          f"got {h!r}")


def bandwidth(values: np.ndarray, rule: str = "silverman") -> np.ndarray:
    """Gaussian kernel bandwidth of each row of ``values`` by a rule (NaN skipped).

    ``"silverman"``: ``0.9 min(s, IQR / 1.34) n^(−1/5)`` (Silverman 1986, Eq. 3.31),
    falling back to ``s`` when the IQR is 0; ``"scott"``: ``1.06 s n^(−1/5)``
    (Scott 1992); ``"plugin"``: the two-stage direct plug-in of Wand & Jones (1995,
    §3.6) on 401 linear bins, as R's ``KernSmooth::dpik`` (what ``ks::kde``, and so
    simIReff's truncated Gaussian kernel margin, uses through ``ks::hpi``), ``NaN``
    where the scale estimate is 0. ``s`` is the ``n − 1`` standard deviation.

    Examples
    --------
    >>> x = np.random.default_rng(0).normal(0.5, 0.1, size=(1, 1000))
    >>> bandwidth(x).round(4).tolist(), bandwidth(x, "scott").round(4).tolist()
    ([0.022], [0.026])
    >>> bandwidth(x, "plugin").round(4).tolist()
    [0.0263]
    """
    check_option(rule, BandwidthRule, "bandwidth")
    if rule == "plugin":
        return _rows(values, _direct_plugin)
    n = (~np.isnan(values)).sum(axis=-1)
    sd = np.nanstd(values, axis=-1, ddof=1)
    if rule == "scott":
        return 1.06 * sd * n ** -0.2
    q75, q25 = np.nanpercentile(values, [75, 25], axis=-1)
    spread = np.minimum(sd, (q75 - q25) / 1.34)
    return 0.9 * np.where(spread > 0, spread, sd) * n ** -0.2


def _rows(values: np.ndarray, rule) -> np.ndarray:
    """``rule`` applied to the present values of each row."""
    values = np.asarray(values, dtype=np.float64)
    out = np.full(values.shape[:-1], np.nan)
    for idx in np.ndindex(out.shape):
        row = values[idx]
        out[idx] = rule(row[~np.isnan(row)])
    return out


#: Bins of the direct plug-in rule (KernSmooth's ``gridsize`` default).
PLUGIN_BINS = 401


def _direct_plugin(x: np.ndarray) -> float:
    """Two-stage direct plug-in bandwidth of one sample (Wand & Jones 1995, §3.6).

    On the data standardised by ``min(s, IQR / 1.349)`` and linearly binned on
    :data:`PLUGIN_BINS` points over their range: ψ₆ estimated with the normal-scale
    pilot ``(2·√2⁹ / (7n))^(1/9)``, ψ₄ with the pilot ``(−3 √(2/π) / (ψ₆ n))^(1/7)``,
    and ``h = scale · (4π)^(−1/10) (ψ₄ n)^(−1/5)``.
    """
    n = x.size
    if n < 2:
        return np.nan
    q75, q25 = np.quantile(x, [0.75, 0.25])  # R's type 7, as numpy's default
    scale = min((q75 - q25) / 1.349, float(np.std(x, ddof=1)))
    if not scale > 0:
        return np.nan
    mean = x.mean()
    sx, lo, hi = (x - mean) / scale, (x.min() - mean) / scale, (x.max() - mean) / scale
    counts = _linear_bins(sx, lo, hi, PLUGIN_BINS)
    pilot = (2 * np.sqrt(2) ** 9 / (7 * n)) ** (1 / 9)
    psi6 = _binned_functional(counts, 6, pilot, lo, hi)
    with np.errstate(invalid="ignore"):
        pilot = (-3 * np.sqrt(2 / np.pi) / (psi6 * n)) ** (1 / 7)
        psi4 = _binned_functional(counts, 4, pilot, lo, hi)
        return float(scale * (4 * np.pi) ** -0.1 * (1 / (psi4 * n)) ** 0.2)


def _linear_bins(x: np.ndarray, lo: float, hi: float, m: int) -> np.ndarray:
    """Linear binning on ``m`` points from ``lo`` to ``hi``: each value split between
    its two neighbouring points in proportion to its distance. As KernSmooth's
    ``linbin`` (``truncate = TRUE``), a value at or beyond the last point is dropped."""
    pos = (x - lo) / ((hi - lo) / (m - 1))
    left = np.floor(pos).astype(np.int64)
    frac = pos - left
    inside = (left >= 0) & (left < m - 1)
    counts = np.bincount(left[inside], weights=1 - frac[inside], minlength=m)
    counts[1:] += np.bincount(left[inside], weights=frac[inside], minlength=m)[:m - 1]
    return counts


def _binned_functional(counts: np.ndarray, order: int, h: float, lo: float, hi: float
                       ) -> float:
    """Binned kernel estimate of ``ψ_r = ∫ f⁽ʳ⁾ f`` (even ``r``): ``Σ_ij c_i c_j
    φ_h⁽ʳ⁾(x_i − x_j) / n²`` over the bin counts ``c`` (KernSmooth's ``bkfe``)."""
    if not np.isfinite(h) or h <= 0:
        return np.nan
    m = counts.size
    delta = (hi - lo) / (m - 1)
    lags = min(int(np.floor((4 + order) * h / delta)), m)
    arg = np.arange(lags + 1) * delta / h
    hermite_prev, hermite = np.ones_like(arg), arg  # He_0, He_1
    for k in range(2, order + 1):
        hermite_prev, hermite = hermite, arg * hermite - (k - 1) * hermite_prev
    kernel = hermite * np.exp(-0.5 * arg * arg) / np.sqrt(2 * np.pi) / h ** (order + 1)
    full = np.concatenate([kernel[:0:-1], kernel])  # lags −L … L
    smoothed = np.convolve(counts, full)[lags:lags + m]
    return float(counts @ smoothed / counts.sum() ** 2)


class BandwidthOption:
    """The ``bandwidth`` option of the kernel densities: a rule's name or a number.

    Mixed into every kernel density model (:class:`KDE` and the kernel margins), before
    its model base class.
    """

    options: dict[str, Any]
    #: The rules the option accepts.
    bandwidth_rules: ClassVar[Any] = BandwidthRule

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        check_bandwidth(self.options["bandwidth"], self.bandwidth_rules)

    @classmethod
    def defaults(cls) -> dict[str, Any]:
        return {"bandwidth": "silverman"}

    def _bandwidth(self, values: np.ndarray) -> np.ndarray:
        """The bandwidth of each row of ``values`` (by the rule, or the number given)."""
        h = self.options["bandwidth"]
        with np.errstate(invalid="ignore", divide="ignore"):
            return bandwidth(values, h) if isinstance(h, str) else np.full(values.shape[:-1],
                                                                          float(h))


class KDE(BandwidthOption, Model):
    """Gaussian kernel density per topic, reflected at 0 and 1, with an exact cdf.

    Each reference score ``x_i`` contributes a Gaussian kernel of bandwidth ``h`` and
    its mirror images about 0 and 1 (the reflection method, Schuster 1985,
    "Incorporating support constraints into nonparametric estimators of densities",
    Commun. Stat. Theory Methods 14), so no mass leaks out of [0, 1] near the
    bounds, where IR scores pile up. The density is renormalised to integrate to
    exactly 1 on [0, 1]. The cdf is the closed form

    ``F(x) = [Σ_i Φ((x − x_i)/h) + Φ((x + x_i)/h) + Φ((x − 2 + x_i)/h)] / n − 1 − c``

    divided by its value at 1 (``c = Σ_i Φ((x_i − 2)/h) / n``), not a grid
    approximation; ``icdf`` inverts it by bisection to double precision. The
    bandwidth is Silverman's rule of thumb by default (:func:`bandwidth`).

    Parameters
    ----------
    bandwidth : {"silverman", "scott"} or float
        Rule of thumb, or a fixed bandwidth for every topic.

    Examples
    --------
    >>> import scorestd
    >>> ref = scorestd.cube([[0.0, 0.1, 0.1, 0.3, 0.8]])
    >>> fitted = KDE.fit(ref)
    >>> fitted.cdf(scorestd.cube([[0.0, 0.2, 1.0]])).values[..., 0].round(4).tolist()
    [[0.0, 0.5612, 1.0]]
    """

    name: ClassVar[str] = "kde"
    reference: ClassVar[str] = "Schuster (1985); Silverman (1986)"
    bounded: ClassVar[bool] = True

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("sample", "bandwidth")

    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        bw = self._bandwidth(values)
        return {"sample": np.sort(values, axis=-1), "bandwidth": np.where(degenerate, np.nan, bw)}

    def _cdf(self, x, *, sample, bandwidth):
        xc = np.clip(x, 0.0, 1.0)
        total = _raw_cdf(np.ones((*x.shape[:-1], 1)), sample, bandwidth)
        return np.clip(_raw_cdf(xc, sample, bandwidth) / total, 0.0, 1.0)

    def _logpdf(self, x, *, sample, bandwidth):
        total = _raw_cdf(np.ones((*x.shape[:-1], 1)), sample, bandwidth)
        dens = _pairwise_mean(x, sample, bandwidth, _reflected_pdf) / total
        inside = (x >= 0) & (x <= 1)
        with np.errstate(divide="ignore"):
            return np.where(inside, np.log(dens), -np.inf)

    def _icdf(self, p, *, sample, bandwidth):
        return invert_cdf(lambda x: self._cdf(x, sample=sample, bandwidth=bandwidth), p)

    def _self_weight(self, x, *, sample, bandwidth):
        """The diagonal of the smoothing matrix: the share of each score's own kernel in
        the density at it. Summed over a topic's scores it is the effective number of
        parameters of the estimate (the trace, as for a linear smoother), between 1
        (one wide bump) and n (a spike at every score).

        ``x`` are the fitted scores or a monotone map of them (the scores squeezed off
        the bounds), so the i-th smallest is paired with the i-th smallest of ``sample``.
        """
        x = np.asarray(x, dtype=np.float64)
        sample = np.broadcast_to(sample, x.shape)
        rank = np.argsort(np.argsort(x, axis=-1, kind="stable"), axis=-1)  # NaN last
        own = np.take_along_axis(sample, rank, axis=-1)
        h = np.broadcast_to(bandwidth, (*x.shape[:-1], 1))
        n = (~np.isnan(sample)).sum(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return _reflected_pdf(x, own, h) / (n * _pairwise_mean(x, sample, h, _reflected_pdf))


def _reflected_pdf(x: np.ndarray, s: np.ndarray, h: np.ndarray) -> np.ndarray:
    norm = 1.0 / (h * np.sqrt(2 * np.pi))
    return norm * (np.exp(-0.5 * ((x - s) / h) ** 2) + np.exp(-0.5 * ((x + s) / h) ** 2)
                   + np.exp(-0.5 * ((x - 2 + s) / h) ** 2))


def _reflected_cdf(x: np.ndarray, s: np.ndarray, h: np.ndarray) -> np.ndarray:
    return (special.ndtr((x - s) / h) + special.ndtr((x + s) / h)
            + special.ndtr((x - 2 + s) / h) - 1.0 - special.ndtr((s - 2) / h))


def _raw_cdf(x: np.ndarray, sample: np.ndarray, h: np.ndarray) -> np.ndarray:
    return _pairwise_mean(x, sample, h, _reflected_cdf)


def _pairwise_mean(x: np.ndarray, sample: np.ndarray, h: np.ndarray, term) -> np.ndarray:
    """Mean over the present sample values of ``term(x_j, s_i, h)``, by chunks of ``x``."""
    x = np.asarray(x, dtype=np.float64)
    lead = np.broadcast_shapes(x.shape[:-1], sample.shape[:-1], h.shape[:-1])
    x = np.broadcast_to(x, (*lead, x.shape[-1]))
    sample = np.broadcast_to(sample, (*lead, sample.shape[-1]))
    h = np.broadcast_to(h, (*lead, 1))[..., np.newaxis]
    present = ~np.isnan(sample)
    n = present.sum(axis=-1)
    s = np.where(present, sample, 0.0)[..., np.newaxis, :]
    out = np.empty(x.shape)
    width = max(1, _CHUNK // max(1, int(np.prod(lead)) * sample.shape[-1]))
    for start in range(0, x.shape[-1], width):  # bounded memory for many systems
        block = x[..., start:start + width, np.newaxis]
        values = np.where(present[..., np.newaxis, :], term(block, s, h), 0.0)
        out[..., start:start + width] = values.sum(axis=-1) / n[..., np.newaxis]
    return out
