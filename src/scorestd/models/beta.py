"""Beta distribution per topic on [0, 1], fitted by maximum likelihood."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
from scipy import special

from ..errors import warn
from ._base import Model
from ._bounded import sample_moments, squeeze

__all__ = ["Beta", "fit_beta"]

_TOL = 1e-10
_MAX_ITER = 100


class Beta(Model):
    """Beta distribution per topic, ``y = I_x(a, b)``, fitted by maximum likelihood.

    The score-distribution model of simIReff (Urbano & Nagler 2018, "Stochastic
    simulation of test collections", SIGIR) and of many effectiveness studies.

    - **Exact 0 and 1 scores** make the beta likelihood undefined, so the fit uses
      the reference scores squeezed into the open interval by Smithson & Verkuilen's
      (2006) ``(x (n − 1) + 1/2) / n`` (see :func:`scorestd.models._bounded.squeeze`);
      the cdf is then evaluated at the raw scores (``cdf(0) = 0``, ``cdf(1) = 1``).
    - **Maximum likelihood** solves ``ψ(a) − ψ(a + b) = mean log x`` and
      ``ψ(b) − ψ(a + b) = mean log(1 − x)`` by Newton's method for all topics at
      once, started from the method of moments.
    - **Fallback**: where Newton does not converge, the method-of-moments estimate
      ``a = m c``, ``b = (1 − m) c`` with ``c = m (1 − m) / v − 1`` is used and a
      :class:`~scorestd.errors.ScorestdWarning` names the topics.

    Scores must lie in [0, 1]. ``params`` holds ``a``, ``b`` and ``ml`` (whether
    the maximum-likelihood fit converged).

    Examples
    --------
    >>> import numpy as np, scorestd
    >>> x = np.random.default_rng(1).beta(2.0, 5.0, size=(1, 4000))
    >>> p = Beta.fit(scorestd.cube(x)).params
    >>> round(float(p["a"][0, 0]), 1), round(float(p["b"][0, 0]), 1)
    (2.0, 5.0)
    """

    name: ClassVar[str] = "beta"
    reference: ClassVar[str] = "Urbano & Nagler (2018), SIGIR; Smithson & Verkuilen (2006)"
    bounded: ClassVar[bool] = True
    n_params: ClassVar[int | None] = 2

    @classmethod
    def param_names(cls) -> tuple[str, ...]:
        return ("a", "b")

    def _fit(self, values: np.ndarray, degenerate: np.ndarray) -> dict[str, np.ndarray]:
        a, b, ml = fit_beta(squeeze(values), skip=degenerate)
        failed = ~ml & ~degenerate
        if failed.any():
            warn(
                f"beta: maximum likelihood did not converge for {int(failed.sum())} topic(s); "
                "the method of moments is used there")
        return {"a": a, "b": b, "ml": ml}

    def _cdf(self, x, *, a, b):
        return special.betainc(a, b, x)

    def _icdf(self, p, *, a, b):
        return special.betaincinv(a, b, p)

    def _logpdf(self, x, *, a, b):
        return special.xlogy(a - 1, x) + special.xlog1py(b - 1, -x) - special.betaln(a, b)


def fit_beta(values: np.ndarray, *, skip: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Beta maximum-likelihood fit of each row of ``values`` in (0, 1), NaN skipped.

    Returns ``(a, b, converged)`` shaped like ``values.shape[:-1]``; rows that did
    not converge (and rows in ``skip``) hold the method-of-moments estimate (``NaN``
    if that is invalid too).

    Examples
    --------
    >>> x = np.random.default_rng(0).beta(0.5, 2.0, size=(2, 5000))
    >>> a, b, ok = fit_beta(x)
    >>> a.round(1).tolist(), b.round(1).tolist(), ok.tolist()
    ([0.5, 0.5], [2.0, 2.0], [True, True])
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        g1 = np.nanmean(np.log(values), axis=-1)
        g2 = np.nanmean(np.log1p(-values), axis=-1)
        mean, var = sample_moments(values)
        common = mean * (1 - mean) / var - 1
    a_mom, b_mom = mean * common, (1 - mean) * common
    valid_mom = np.isfinite(common) & (common > 0)
    a = np.where(valid_mom, a_mom, 1.0)
    b = np.where(valid_mom, b_mom, 1.0)
    active = np.isfinite(g1) & np.isfinite(g2)
    if skip is not None:
        active &= ~skip
    converged = np.zeros(a.shape, dtype=bool)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for _ in range(_MAX_ITER):
            dab = special.digamma(a + b)
            f1 = special.digamma(a) - dab - g1
            f2 = special.digamma(b) - dab - g2
            converged = active & (np.abs(f1) < _TOL) & (np.abs(f2) < _TOL)
            if converged.sum() == active.sum():
                break
            t = special.polygamma(1, a + b)
            j11, j22 = special.polygamma(1, a) - t, special.polygamma(1, b) - t
            det = j11 * j22 - t * t
            da = (j22 * f1 + t * f2) / det
            db = (t * f1 + j11 * f2) / det
            # Halve the step where it would leave the positive quadrant.
            step = np.ones_like(a)
            for _ in range(30):
                bad = (a - step * da <= 0) | (b - step * db <= 0)
                if not bad.any():
                    break
                step = np.where(bad, step / 2, step)
            a = np.where(active & ~converged, a - step * da, a)
            b = np.where(active & ~converged, b - step * db, b)
    ok = converged & np.isfinite(a) & np.isfinite(b) & (a > 0) & (b > 0)
    a = np.where(ok, a, np.where(valid_mom, a_mom, np.nan))
    b = np.where(ok, b, np.where(valid_mom, b_mom, np.nan))
    return a, b, ok
