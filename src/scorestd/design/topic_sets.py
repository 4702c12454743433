r"""Topic set size design (Sakai, "Topic set size design", IRJ 19(3), 2016).

How many topics a new test collection needs so that

``"paired_t"``
    a two-sided paired t-test at level α detects a difference ``min_diff`` between two
    systems with probability 1 − β (σ_t²: the variance of paired differences);
``"anova"``
    a one-way ANOVA over ``n_systems`` = m systems at level α detects, with probability
    1 − β, a range ``min_diff`` between the best and the worst system, in the worst case
    of the others sitting in the middle (Δ = minD² / (2σ²); σ²: the two-way residual
    variance);
``"ci"``
    the expected width of the 100(1 − α)% confidence interval of the difference
    between two systems is at most ``min_diff`` (σ_t², as for the paired t-test).

Two methods:

``method="sakai"``
    Sakai's Excel tools, built on Nagata's (2003) approximations. Paired t: start from
    :math:`n' = ((z_{\alpha/2} + z_\beta)/\Delta_t)^2 + z_{\alpha/2}^2/2` with
    :math:`\Delta_t = \mathrm{minD}/\sigma_t` and take the smallest n whose power under
    the normal approximation of the noncentral t (Abramowitz & Stegun 26.7.10),

    .. math::
        1-\beta \approx \Phi\!\left(\frac{-w(1-\tfrac{1}{4\phi}) - \lambda}
        {\sqrt{1 + w^2/(2\phi)}}\right) + 1 - \Phi\!\left(\frac{w(1-\tfrac{1}{4\phi}) - \lambda}
        {\sqrt{1 + w^2/(2\phi)}}\right),\quad w = t_{\alpha/2}(\phi),\ \phi = n-1,\
        \lambda = \sqrt{n}\,\Delta_t,

    reaches 1 − β. ANOVA: start from :math:`n' = \lambda_\infty/\Delta` where
    :math:`\lambda_\infty` is the noncentrality the noncentral χ² test (φ_E = ∞) needs
    (Nagata's table, computed here with :func:`scipy.stats.ncx2`), and take the
    smallest n whose power under Nagata's normal approximation of the noncentral F
    (Patnaik's scaled χ² for the numerator, Fisher's :math:`\sqrt{2\chi^2}` for both
    sums of squares),

    .. math::
        1-\beta \approx 1 - \Phi(w),\quad
        w = \frac{\sqrt{(2\phi_E - 1)\,\phi_A F/\phi_E}
        - \sqrt{2(\phi_A+\lambda) - (\phi_A+2\lambda)/(\phi_A+\lambda)}}
        {\sqrt{\phi_A F/\phi_E + (\phi_A+2\lambda)/(\phi_A+\lambda)}},

    with :math:`F = F_\alpha(\phi_A, \phi_E)`, :math:`\phi_A = m-1`,
    :math:`\phi_E = m(n-1)`, :math:`\lambda = n\Delta`, reaches 1 − β. CI: start from
    :math:`n' = 4 z_{\alpha/2}^2 \sigma_t^2/\delta^2` and take the smallest n with
    :math:`2\,t_{\alpha/2}(n-1)\,E[\sqrt{V}]/\sqrt{n} \le \delta`, where
    :math:`E[\sqrt V] = \sigma_t \sqrt{2/(n-1)}\,\Gamma(n/2)/\Gamma((n-1)/2)`.
    The search moves down as well as up from n' (doubling steps, then bisection:
    a few dozen evaluations whatever n), so the answer is the smallest n that
    satisfies the approximate criterion.
``method="exact"``
    The noncentral t / noncentral F power of :mod:`statsmodels.stats.power`
    (:func:`scorestd.design.power.solve_power`), rounded up to an integer n.

When they differ: the paired-t approximation is within 0.01 of the noncentral-t power
for n ≥ 10, so the two answers agree or differ by one topic except for very large
differences (n below about 10). The ANOVA approximation errs by at most about 0.012 in
power (m = 2) and less than 0.01 for m ≥ 3; where the power curve is flat near the
target (large n) that moves n by up to about 7%, mostly downwards: within 2 topics when
n ≤ 100, up to a dozen when n is several hundred, tens when thousands are needed. The
CI criterion is exact (the expected width), so both methods give the same n.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import xarray as xr
from scipy import optimize, special, stats

from .._options import (
    DesignMethod,
    DesignTest,
    check_count,
    check_fits_memory,
    check_option,
    check_positive,
    check_probability,
)
from ..errors import OptionError, ScorestdError, UnreachableTargetError
from ..mapping import maps_extra_dims
from .power import (
    check_design_target,
    design_variance,
    f_critical,
    power_function,
    smallest_n,
)

__all__ = [
    "DesignTest",
    "ci_expected_width",
    "sakai_power_anova",
    "sakai_power_paired_t",
    "topic_set_size",
]

_GRID = ("alpha", "beta", "min_diff", "n_systems")


def sakai_power_paired_t(n: float, effect_size: float, alpha: float) -> float:
    """Power of the two-sided paired t-test under Nagata's normal approximation.

    Parameters
    ----------
    n : float
        Number of topics (≥ 2).
    effect_size : float
        Δ_t = minD / σ_t.
    alpha : float
        Significance level.

    Examples
    --------
    >>> round(sakai_power_paired_t(34, 0.5, 0.05), 4)
    0.8077
    """
    phi = n - 1.0
    w = _finite(stats.t.isf(alpha / 2.0, phi), "the critical t value", n, alpha)
    lam = math.sqrt(n) * effect_size
    scale = math.sqrt(1.0 + w * w / (2.0 * phi))
    shrink = 1.0 - 1.0 / (4.0 * phi)
    return _finite(stats.norm.cdf((-w * shrink - lam) / scale)
                   + stats.norm.sf((w * shrink - lam) / scale), "the power", n, alpha)


def sakai_power_anova(n: float, n_systems: int, delta: float, alpha: float) -> float:
    """Power of the one-way ANOVA under Nagata's normal approximation of the noncentral F.

    Parameters
    ----------
    n : float
        Topics per system (≥ 2).
    n_systems : int
        m, the number of systems.
    delta : float
        Δ = Σ(μ_i − μ)² / σ²; minD² / (2σ²) in the worst case of a range minD.
    alpha : float
        Significance level.

    Examples
    --------
    >>> round(sakai_power_anova(20, 5, 0.5, 0.05), 4)
    0.6971
    """
    phi_a = n_systems - 1.0
    phi_e = n_systems * (n - 1.0)
    lam = n * delta
    k = phi_a * f_critical(alpha, phi_a, phi_e) / phi_e
    c = (phi_a + 2.0 * lam) / (phi_a + lam)  # Patnaik's scale of the numerator χ²
    w = (math.sqrt(k * (2.0 * phi_e - 1.0)) - math.sqrt(2.0 * (phi_a + lam) - c)) / math.sqrt(
        k + c)
    return _finite(stats.norm.sf(w), "the power", n, alpha)


def _finite(value: float, what: str, n: float, alpha: float) -> float:
    """``value`` as a float; a NaN or infinity is an error, not a false "unreachable"."""
    value = float(value)
    if not math.isfinite(value):
        raise ScorestdError(f"{what} is not a finite number at n={n:g}, alpha={alpha:g} "
                            "(outside the range where it can be computed in floating point)")
    return value


def ci_expected_width(n: float, sd: float, alpha: float) -> float:
    """Expected full width of the paired (1 − α) confidence interval with n topics.

    ``2 t_{α/2}(n−1) E[√V] / √n`` with ``E[√V] = σ √(2/(n−1)) Γ(n/2) / Γ((n−1)/2)``.

    Examples
    --------
    >>> round(ci_expected_width(50, 0.2, 0.05), 4)
    0.1131
    """
    phi = n - 1.0
    c = math.sqrt(2.0 / phi) * math.exp(special.gammaln(n / 2.0) - special.gammaln(phi / 2.0))
    crit = _finite(stats.t.isf(alpha / 2.0, phi), "the critical t value", n, alpha)
    return _finite(2.0 * crit * c * sd / math.sqrt(n), "the expected width", n, alpha)


@maps_extra_dims(vectorized=True)  # through design_variance
def topic_set_size(
    scores: Any = None,
    *,
    test: DesignTest = "paired_t",
    min_diff: float | Sequence[float],
    alpha: float | Sequence[float] = 0.05,
    beta: float | Sequence[float] = 0.20,
    n_systems: int | Sequence[int] = 2,
    method: DesignMethod = "sakai",
    variance: Any = None,
    schemes: Sequence[str] | None = None,
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    max_topics: int = 1_000_000,
    memory: int | str | None = None,
) -> Any:
    """Number of topics needed, for one design or over a grid of designs.

    Parameters
    ----------
    scores : cube, sequence of cubes or mapping, optional
        Score data to estimate σ² from (pooled over collections; a mapping
        ``{scheme: cube(s)}`` gives a ``scheme`` dim): σ_t² = 2 V_E for ``"paired_t"``
        and ``"ci"``, V_E for ``"anova"``, V_E the two-way residual variance (see
        :func:`scorestd.design.power.design_variance`).
    test : {"paired_t", "anova", "ci"}
        The design (see the module docstring).
    min_diff : float or sequence of float
        Minimum detectable difference (``"paired_t"``), minimum detectable range
        (``"anova"``), or the full width δ of the interval (``"ci"``); > 0.
    alpha, beta : float or sequence of float
        Type I and Type II error rates, in (0, 1) (``beta`` is ignored by ``"ci"``).
    n_systems : int or sequence of int
        m for ``"anova"`` (≥ 2; ignored by the other designs).
    method : {"sakai", "exact"}
        Sakai's approximations or the exact noncentral distributions.
    variance : float or xarray.DataArray, optional
        σ² to use instead of estimating it from ``scores``.
    schemes : sequence of str, optional
        Standardize ``scores`` under these schemes first (``"raw"``, ``"N"``, ``"U"``,
        ``"E"``…), giving a ``scheme`` dim.
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` (see
        :func:`scorestd.models.schemes.check_schemes`).
    max_topics : int
        Give up (with an error) beyond this many topics.
    memory : int or str, optional
        Memory budget of the grid (``"512MB"``; default ``$SCORESTD_MEMORY``, else
        256 MiB): a grid whose answers would not fit is refused before any search.

    Returns
    -------
    int or xarray.DataArray
        An int for scalar arguments; otherwise an integer array over the variance's
        dims then a dim for each argument given as a sequence (``alpha``, ``beta``,
        ``min_diff``, ``n_systems``), named ``n_topics``. A ``NaN`` variance (e.g. a
        measure missing from every collection of a scheme) gives ``NaN`` (the array is
        then float).

    Raises
    ------
    OptionError
        α or β outside (0, 1), ``min_diff`` ≤ 0, fewer than 2 systems, a variance ≤ 0.
    UnreachableTargetError
        If more than ``max_topics`` topics would be needed.

    Examples
    --------
    >>> topic_set_size(variance=0.04, min_diff=0.1)
    34
    >>> topic_set_size(variance=0.04, min_diff=0.1, method="exact")
    34
    >>> topic_set_size(variance=0.02, test="anova", min_diff=0.1, n_systems=10)
    64
    >>> topic_set_size(variance=0.04, min_diff=[0.05, 0.1, 0.2]).values.tolist()
    [128, 34, 10]
    """
    check_option(test, DesignTest, "test")
    check_option(method, DesignMethod, "method")
    max_topics = check_count("max_topics", max_topics, 3)
    if (scores is None) == (variance is None):
        raise OptionError(
            "give either score data (scores) or a variance, not both or neither")
    if schemes is not None and scores is None:
        raise OptionError("schemes= needs score data (scores) to standardize")
    if variance is None:
        variance = design_variance(scores, test, schemes=schemes,
                                   scheme_options=scheme_options)
    grid = {"alpha": alpha, "beta": beta, "min_diff": min_diff, "n_systems": n_systems}
    checkers = {
        "alpha": lambda v: check_probability("alpha", v),
        "beta": lambda v: check_probability("beta", v),
        "min_diff": lambda v: check_positive("min_diff", v),
        "n_systems": lambda v: check_count("n_systems", v, 2),
    }
    axes = {}
    for name in _GRID:
        value = grid[name]
        if isinstance(value, str) or not np.iterable(value):
            grid[name] = checkers[name](value)
        else:
            axes[name] = [checkers[name](v) for v in value]
    for value in axes.get("min_diff", [grid["min_diff"]]):
        check_design_target("min_diff", value, variance, test)
    if not isinstance(variance, xr.DataArray) and not axes:
        return _size_one(float(variance), test, method, max_topics, **grid)
    var = variance if isinstance(variance, xr.DataArray) else xr.DataArray(float(variance))
    cells = var.size * math.prod(len(v) for v in axes.values())
    # the answers, the broadcast arguments and np.vectorize's object array
    shape = " × ".join([*map(str, var.shape), *(str(len(v)) for v in axes.values())])
    check_fits_memory(8 * cells * (3 + len(axes)), memory,
                      f"the answers of a grid of {cells} designs ({shape})", instead="ask for a smaller grid")
    coords = [xr.DataArray(v, dims=k, coords={k: v}) for k, v in axes.items()]

    def one(v: float, *values: float) -> float:
        args = dict(grid)
        args.update(dict(zip(axes, values, strict=True)))
        if not np.isfinite(v):
            return np.nan
        return float(_size_one(float(v), test, method, max_topics, **args))

    out = xr.apply_ufunc(np.vectorize(one, otypes=[np.float64]), var, *coords)
    if out.notnull().all():
        out = out.astype(np.int64)
    fixed = {k: v for k, v in grid.items() if k not in axes}
    return out.rename("n_topics").assign_attrs(
        test=test, method=method, variance_kind=var.attrs.get("kind", "given"), **fixed)


def _size_one(variance: float, test: str, method: str, max_topics: int, *, alpha: float,
              beta: float, min_diff: float, n_systems: int) -> int:
    check_positive("variance", variance)
    target = 1.0 - beta
    what = f"power {target:g} for min_diff={min_diff:g} at alpha={alpha:g}"
    if test == "ci":
        sd = math.sqrt(variance)
        start = 4.0 * stats.norm.isf(alpha / 2.0) ** 2 * variance / min_diff**2
        return _smallest_from(lambda n: ci_expected_width(n, sd, alpha) <= min_diff, start,
                              max_topics, f"an expected CI width ≤ {min_diff:g}")
    z_a, z_b = stats.norm.isf(alpha / 2.0), stats.norm.isf(beta)
    effect = min_diff / math.sqrt(variance)
    if method == "exact":
        fn = power_function("anova" if test == "anova" else "paired_t", variance=variance,
                            n_systems=n_systems)
        # Nagata's starting value is within a topic or two of the paired-t answer
        start = ((z_a + z_b) / effect) ** 2 + z_a**2 / 2.0 if test == "paired_t" else None
        return smallest_n(lambda n: fn(min_diff, n, alpha), target, max_topics=max_topics,
                          what=what, start=start)
    if test == "paired_t":
        start = ((z_a + z_b) / effect) ** 2 + z_a**2 / 2.0
        return _smallest_from(lambda n: sakai_power_paired_t(n, effect, alpha) >= target,
                              start, max_topics, what)
    delta = min_diff**2 / (2.0 * variance)
    start = _lambda_infinity(n_systems - 1, alpha, beta) / delta
    return _smallest_from(lambda n: sakai_power_anova(n, n_systems, delta, alpha) >= target,
                          start, max_topics, what + f" with {n_systems} systems")


def _lambda_infinity(df: int, alpha: float, beta: float) -> float:
    """Noncentrality giving power 1 − β to the χ² test with ``df`` (Nagata's λ table)."""
    crit = stats.chi2.isf(alpha, df)
    return float(optimize.brentq(lambda lam: stats.ncx2.sf(crit, df, lam) - (1.0 - beta),
                                 1e-9, 1e4))


def _smallest_from(ok: Any, start: float, max_topics: int, what: str, minimum: int = 2) -> int:
    """Smallest integer n ≥ ``minimum`` with ``ok(n)`` (false, then true as n grows).

    From ``ceil(start)``, steps that double bracket the answer, then bisection finds
    it: O(log n) evaluations, where stepping by one took n of them (minutes for a
    design far from its start).
    """
    n = min(max(minimum, math.ceil(start) if math.isfinite(start) else minimum), max_topics)
    step = 1
    if ok(n):  # bracket below: `low` fails (minimum - 1 stands for "fails")
        low, high = minimum - 1, n
        while high - step >= minimum:
            if not ok(high - step):
                low = high - step
                break
            high, step = high - step, 2 * step
    else:  # bracket above
        low = n
        while True:
            if low >= max_topics:
                raise UnreachableTargetError(f"cannot reach {what} with up to {max_topics} topics")
            high = min(low + step, max_topics)
            if ok(high):
                break
            low, step = high, 2 * step
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if ok(mid) else (mid, high)
    return high
