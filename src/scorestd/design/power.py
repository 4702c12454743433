"""Power of a test collection, on top of :mod:`statsmodels.stats.power`.

:func:`solve_power` follows statsmodels' ``solve_power``: give all but one of
``min_diff``, ``n_topics``, ``alpha`` and ``power`` and it solves for the missing one,
with the variance estimated from score data. The tests and the variance each uses:

``"paired_t"``
    two systems on the same ``n_topics`` topics; :class:`~statsmodels.stats.power.TTestPower`
    with effect size ``min_diff / σ_d``, σ_d² the variance of paired differences, estimated
    as ``2 V_E`` (twice the two-way residual variance, as Sakai does; on one complete
    collection this equals the pooled variance of the paired differences of all pairs,
    :func:`~scorestd.design.variance.estimate_variance` ``kind="paired_difference"``).
``"unpaired_t"``
    two systems on two different sets of ``n_topics`` topics each;
    :class:`~statsmodels.stats.power.TTestIndPower` with ``min_diff / σ``, σ² the
    within-system variance (``kind="within_system"``).
``"anova"``
    one-way ANOVA over ``n_systems`` systems on ``n_topics`` topics;
    :class:`~statsmodels.stats.power.FTestAnovaPower` in the worst case of two systems
    ``min_diff`` apart and the rest in the middle: ``f = min_diff / (σ √(2m))``, total
    ``nobs = n·m``, noncentrality ``f²·n·m``; σ² the two-way residual variance
    (``kind="residual"``), as in Sakai's topic set size design.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import xarray as xr
from scipy import special, stats
from scipy.optimize import brentq
from statsmodels.stats.power import TTestIndPower, TTestPower

from .._options import (
    RENAMED_ALTERNATIVES,
    Alternative,
    PowerTest,
    check_count,
    check_option,
    check_positive,
    check_probability,
)
from ..dims import MEASURE, SYSTEM
from ..errors import OptionError, ScorestdError, UnreachableTargetError, warn
from ..mapping import maps_extra_dims
from ..measures import check_target_in_range, measure_info
from .variance import estimate_variance

__all__ = [
    "check_design_target",
    "design_variance",
    "f_critical",
    "power_function",
    "smallest_n",
    "solve_power",
]

#: The variance estimate each test (or design) takes from score data, and its multiplier.
VARIANCE_OF_TEST: dict[str, tuple[str, float]] = {
    "paired_t": ("residual", 2.0),
    "ci": ("residual", 2.0),
    "unpaired_t": ("within_system", 1.0),
    "anova": ("residual", 1.0),
}
_UNKNOWNS = ("min_diff", "n_topics", "alpha", "power")
#: Integer steps tried from a starting guess before falling back to root finding.
_STEPS = 8


@maps_extra_dims(vectorized=True)  # through estimate_variance
def design_variance(scores: Any, test: str = "paired_t", *,
                    schemes: Sequence[str] | None = None,
                    scheme_options: Mapping[str, Mapping[str, Any]] | None = None
                    ) -> xr.DataArray:
    """The σ² that ``test`` takes, estimated (pooled) from score data.

    ``2 V_E`` for ``"paired_t"`` and ``"ci"`` (the variance of paired differences under
    the additive model), ``V_E`` for ``"anova"`` and the within-system variance for
    ``"unpaired_t"``; see :func:`~scorestd.design.variance.estimate_variance` for ``scores``
    and ``schemes``.

    Examples
    --------
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> round(design_variance(ap, "paired_t").sel(measure="ap").item(), 5)
    0.02722
    """
    if test not in VARIANCE_OF_TEST:
        check_option(test, Literal["paired_t", "unpaired_t", "anova", "ci"], "test")
    kind, factor = VARIANCE_OF_TEST[test]
    estimate = estimate_variance(scores, kind=kind, schemes=schemes,
                                 scheme_options=scheme_options)
    label = kind if factor == 1 else f"{factor:g} × {kind}"
    return (factor * estimate).assign_attrs(estimate.attrs, kind=label, test=test)


def power_function(
    test: PowerTest = "paired_t",
    *,
    variance: float,
    n_systems: int = 2,
    alternative: Alternative = "two-sided",
) -> Callable[[float, float, float], float]:
    """The power of ``test`` as a function ``f(min_diff, n_topics, alpha)``.

    Parameters
    ----------
    test : {"paired_t", "unpaired_t", "anova"}
        See the module docstring for the model behind each.
    variance : float
        The σ² the test takes (see the module docstring).
    n_systems : int
        The number of systems m of the ANOVA (ignored by the t-tests).
    alternative : {"two-sided", "greater", "less"}
        For the t-tests; the F-test is one-sided by nature. A one-sided design tests in
        the direction of the difference (``min_diff`` is its size), so ``"greater"`` and
        ``"less"`` have the same power. ``"larger"`` (statsmodels' word) is read as
        ``"greater"`` with a ``DeprecationWarning``.

    Returns
    -------
    callable
        ``f(min_diff, n_topics, alpha) -> power``; ``n_topics`` may be fractional, as
        in statsmodels.

    Examples
    --------
    >>> f = power_function("paired_t", variance=0.04)
    >>> round(f(0.1, 34, 0.05), 4)
    0.8078
    """
    check_option(test, PowerTest, "test")
    alternative = check_option(alternative, Alternative, "alternative",
                               deprecated=RENAMED_ALTERNATIVES)
    # statsmodels' word for a one-sided test in the direction of the effect
    alternative = "two-sided" if alternative == "two-sided" else "larger"
    sd = math.sqrt(check_positive("variance", variance))
    m = check_count("n_systems", n_systems, 2)
    if test == "paired_t":
        engine = TTestPower()
        return lambda d, n, a: _t_power(
            engine.power(effect_size=d / sd, nobs=n, alpha=a, alternative=alternative),
            d / sd * math.sqrt(n), n - 1, a, alternative)
    if test == "unpaired_t":
        engine_ind = TTestIndPower()
        return lambda d, n, a: _t_power(
            engine_ind.power(effect_size=d / sd, nobs1=n, alpha=a, ratio=1.0,
                             alternative=alternative),
            d / sd * math.sqrt(n / 2), 2 * n - 2, a, alternative)

    def anova_power(d: float, n: float, a: float) -> float:
        # statsmodels' FTestAnovaPower, with a critical value that stays finite for tiny α
        df_num, df_denom = m - 1.0, n * m - m
        nc = (d / (sd * math.sqrt(2 * m))) ** 2 * n * m
        return float(stats.ncf.sf(f_critical(a, df_num, df_denom), df_num, df_denom, nc))

    return anova_power


def f_critical(alpha: float, dfn: float, dfd: float) -> float:
    """The upper-α critical value of the F distribution, accurate for any α > 0.

    ``scipy.stats.f.isf`` returns ``inf`` below α ≈ 1e-16 (it inverts the lower tail,
    1 − α, which rounds to 1). The upper tail is a regularized incomplete beta,
    P(F > f) = I_y(dfd/2, dfn/2) with y = dfd / (dfd + dfn f), inverted directly
    (and, where scipy's inverse gives up, by a root of the log tail).

    Examples
    --------
    >>> from scipy import stats
    >>> round(f_critical(0.05, 4, 400), 6), round(float(stats.f.isf(0.05, 4, 400)), 6)
    (2.394249, 2.394249)
    >>> f = f_critical(1e-17, 4, 400)  # stats.f.isf gives inf here
    >>> round(f, 4), float(f"{stats.f.sf(f, 4, 400):.6g}")
    (23.8756, 1e-17)
    """
    y = float(special.betaincinv(dfd / 2.0, dfn / 2.0, alpha))
    if math.isfinite(y) and 0.0 < y < 1.0:
        return dfd * (1.0 - y) / (dfn * y)
    # betaincinv gives up in part of the far tail (NaN): solve log P(F > f) = log α in log f
    gap = lambda log_f: float(stats.f.logsf(math.exp(log_f), dfn, dfd)) - math.log(alpha)  # noqa: E731
    high = 1.0
    while gap(high) > 0.0:
        if high > 700.0:
            raise ScorestdError(f"the F critical value at alpha={alpha:g} with ({dfn:g}, "
                                f"{dfd:g}) degrees of freedom is beyond floating point")
        high *= 2.0
    return math.exp(brentq(gap, -50.0, high, xtol=1e-13))


def _t_power(power: float, nc: float, df: float, alpha: float, alternative: str) -> float:
    """statsmodels' t power, repaired where scipy's ``nct.cdf`` of the far tail is NaN.

    For large noncentralities ``scipy.stats.nct.cdf(-crit, df, nc)`` can return NaN
    (the whole power then is NaN); by symmetry it equals ``nct.sf(crit, df, -nc)``.
    """
    if not math.isnan(power):
        return float(power)
    crit = stats.t.isf(alpha / 2 if alternative == "two-sided" else alpha, df)
    upper = stats.nct.sf(crit, df, nc)
    lower = stats.nct.sf(crit, df, -nc) if alternative == "two-sided" else 0.0
    return float(upper + lower)


#: What a design target is, per test, and how many measure ranges it may span.
_TARGETS: Mapping[str, tuple[str, float]] = {
    "paired_t": ("a difference between two systems' mean scores", 1.0),
    "unpaired_t": ("a difference between two systems' mean scores", 1.0),
    "anova": ("the range between the best and the worst system's mean scores", 1.0),
    "ci": ("the width of an interval of a difference of mean scores", 2.0),
}


def _raw_measures(variance: Any) -> list[str]:
    """The measures of a variance estimated from raw scores (standardized schemes have
    ranges of their own; a variance given as a number has no measure)."""
    if not isinstance(variance, xr.DataArray) or MEASURE not in variance.coords:
        return []
    if "scheme" in variance.coords and "raw" not in variance["scheme"].values.tolist():
        return []
    return [str(m) for m in np.atleast_1d(variance[MEASURE].values)]


def check_design_target(name: str, value: float, variance: Any, test: str) -> float:
    """A design target (``min_diff``: a difference, a range, an interval's width) within
    what the scores of the measures of ``variance`` can span (when estimated from raw
    scores of known measures).

    Examples
    --------
    >>> import scorestd
    >>> v = design_variance(scorestd.datasets.load("adhoc8_ap"), "paired_t")
    >>> check_design_target("min_diff", 0.05, v, "paired_t")
    0.05
    >>> check_design_target("min_diff", 1.5, v, "paired_t")
    Traceback (most recent call last):
    ...
    scorestd.errors.OptionError: min_diff=1.5 is out of reach for measure 'ap', whose scores are in [0, 1]: a difference between two systems' mean scores is at most 1
    """
    what, spans = _TARGETS[test]
    return check_target_in_range(name, value, _raw_measures(variance), what=what, spans=spans)


def _warn_beyond_range(solved: Any, variance: Any, test: str) -> None:
    """Say when a solved minimum detectable difference is beyond the measure's range:
    no difference the scores can show is detectable with that design."""
    what, spans = _TARGETS[test]
    for label in _raw_measures(variance):
        info = measure_info(label)
        if info is None or not math.isfinite(info.upper - info.lower):
            continue
        limit = spans * (info.upper - info.lower)
        values = solved.sel({MEASURE: label}) if isinstance(solved, xr.DataArray) else solved
        if bool(np.any(np.asarray(values) > limit)):
            warn(f"measure {label!r}: the minimum detectable difference "
                 f"{float(np.nanmax(values)):.4g} is beyond the scores' range "
                 f"{info.describe()} ({what} is at most {limit:g}); no difference the "
                 "scores can show is detectable with this design")


#: What the quantity :func:`solve_power` solved for is (a result's ``description``).
SOLVED = {"n_topics": "topics needed, rounded up, to detect min_diff with the power given",
          "power": "probability of a significant result when the true difference is min_diff",
          "min_diff": "smallest true difference detected with the power given",
          "alpha": "significance level at which the test has the power given"}


@maps_extra_dims(vectorized=True)  # through design_variance
def solve_power(
    scores: Any = None,
    *,
    test: PowerTest = "paired_t",
    min_diff: float | None = None,
    n_topics: int | None = None,
    alpha: float | None = 0.05,
    power: float | None = None,
    n_systems: int | None = None,
    variance: Any = None,
    schemes: Sequence[str] | None = None,
    scheme_options: Mapping[str, Mapping[str, Any]] | None = None,
    alternative: Alternative = "two-sided",
    max_topics: int = 100_000,
) -> Any:
    """Solve for whichever of ``min_diff``, ``n_topics``, ``alpha``, ``power`` is None.

    Parameters
    ----------
    scores : cube, sequence of cubes or mapping, optional
        Score data to estimate the variance from, with the estimate the test takes
        (see the module docstring and :func:`design_variance`); a mapping
        ``{scheme: cube}`` gives a ``scheme`` dim.
    test : {"paired_t", "unpaired_t", "anova"}
        The test whose power is analysed.
    min_diff : float, optional
        The true difference between two systems' mean scores (for ``"anova"``: the
        range between the best and the worst system).
    n_topics : int, optional
        Topics per system. When solved for: the smallest integer reaching ``power``.
    alpha : float, optional
        Significance level, in (0, 1).
    power : float, optional
        Power, 1 − β, in (0, 1).
    n_systems : int, optional
        Systems compared by the ANOVA; defaults to the number of systems in ``scores``
        (in its first collection), or 2 when only a ``variance`` is given.
    variance : float or xarray.DataArray, optional
        The σ² to use instead of estimating it from ``scores`` (e.g. the output of
        :func:`design_variance`, which gives a result over the same dims).
    schemes : sequence of str, optional
        Standardize ``scores`` under these schemes first (``"raw"``, ``"N"``, ``"U"``,
        ``"E"``…), giving a ``scheme`` dim.
    scheme_options : mapping, optional
        Options of a scheme's model, e.g. ``{"U": {"A": 0.2, "B": 0.5}}`` (see
        :func:`scorestd.models.schemes.check_schemes`).
    alternative : {"two-sided", "greater", "less"}
        Alternative hypothesis of the t-tests (see :func:`power_function`).
    max_topics : int
        Upper bound when solving for ``n_topics``.

    Returns
    -------
    float, int or xarray.DataArray
        The solved quantity: a number for a scalar ``variance``, otherwise an array
        named after the quantity over the dims of the variance estimate (``measure``,
        ``scheme``); a ``NaN`` variance gives ``NaN``.

    Raises
    ------
    OptionError
        If not exactly one quantity is None, or a value is out of range (α or power
        outside (0, 1), ``min_diff`` ≤ 0, fewer than two topics or systems).
    UnreachableTargetError
        If the target power cannot be reached: with up to ``max_topics`` topics, with
        any α < 1, or at all (a target power not above α).

    Examples
    --------
    >>> solve_power(variance=0.04, min_diff=0.1, power=0.8)
    34
    >>> round(solve_power(variance=0.04, min_diff=0.1, n_topics=34), 4)
    0.8078
    >>> import scorestd
    >>> ap = scorestd.datasets.load("adhoc8_ap")
    >>> solve_power(ap, min_diff=0.05, power=0.8).sel(measure="ap").item()
    88
    """
    missing = [name for name, v in zip(_UNKNOWNS, (min_diff, n_topics, alpha, power),
                                       strict=True) if v is None]
    if len(missing) != 1:
        raise OptionError(
            f"exactly one of {', '.join(_UNKNOWNS)} must be None (the one to solve for); "
            f"got {len(missing)}: {missing or 'none'}"
        )
    check_option(test, PowerTest, "test")
    alternative = check_option(alternative, Alternative, "alternative",
                               deprecated=RENAMED_ALTERNATIVES)
    if (scores is None) == (variance is None):
        raise OptionError("give either score data (scores) or a variance, not both or neither")
    if schemes is not None and scores is None:
        raise OptionError("schemes= needs score data (scores) to standardize")
    if variance is None:
        variance = design_variance(scores, test, schemes=schemes,
                                   scheme_options=scheme_options)
        if n_systems is None and test == "anova":
            n_systems = _n_systems(scores)
    if n_systems is None:
        n_systems = 2
    known = {
        "min_diff": None if min_diff is None else check_positive("min_diff", min_diff),
        "n_topics": None if n_topics is None else check_count("n_topics", n_topics, 2),
        "alpha": None if alpha is None else check_probability("alpha", alpha),
        "power": None if power is None else check_probability("power", power),
    }
    check_count("max_topics", max_topics, 2)
    if known["min_diff"] is not None:
        check_design_target("min_diff", known["min_diff"], variance, test)

    def solve(var: float) -> float:
        if not np.isfinite(var):
            return np.nan
        fn = power_function(test, variance=float(var), n_systems=n_systems,
                            alternative=alternative)
        return _solve_one(fn, missing[0], known, max_topics)

    if isinstance(variance, xr.DataArray):
        out = xr.apply_ufunc(np.vectorize(solve, otypes=[np.float64]), variance)
        given = ", ".join(f"{'α' if k == 'alpha' else k} = {v:g}" for k, v in known.items()
                          if v is not None)
        out = out.rename(missing[0]).assign_attrs(
            test=test, variance_kind=variance.attrs.get("kind", "given"),
            description=f"{SOLVED[missing[0]]} ({test} test; {given})",
            **{k: v for k, v in known.items() if v is not None})
        if missing[0] == "min_diff":
            _warn_beyond_range(out, variance, test)
        return out.astype(np.int64) if missing[0] == "n_topics" and out.notnull().all() else out
    return _solve_one(
        power_function(test, variance=variance, n_systems=n_systems, alternative=alternative),
        missing[0], known, max_topics)


def _n_systems(scores: Any) -> int:
    first = scores
    while not isinstance(first, xr.DataArray):
        first = next(iter(first.values())) if isinstance(first, Mapping) else first[0]
    return int(first.sizes[SYSTEM])


def _solve_one(fn: Callable[[float, float, float], float], unknown: str,
               known: dict[str, float | None], max_topics: int) -> Any:
    d, n, a, p = (known[k] for k in _UNKNOWNS)
    if unknown == "power":
        return fn(d, n, a)
    if unknown == "n_topics":
        return smallest_n(lambda k: fn(d, k, a), p, max_topics=max_topics,
                          what=f"power {p} for min_diff={d} at alpha={a}")
    if unknown == "min_diff":
        return _root_increasing(lambda x: fn(x, n, a), p, low=1e-12, what="min_diff",
                                expand=True, context=f"n_topics={n}, alpha={a}")
    return _root_increasing(lambda x: fn(d, n, x), p, low=1e-12, high=1 - 1e-9,
                            what="alpha", context=f"min_diff={d}, n_topics={n}")


def smallest_n(power_of_n: Callable[[float], float], target: float, *, max_topics: int,
               what: str, minimum: int = 2, start: float | None = None) -> int:
    """The smallest integer n ≥ ``minimum`` with ``power_of_n(n) ≥ target``.

    Power is increasing in n. With a good ``start`` (e.g. a normal approximation) the
    answer is found by stepping a few integers from it; otherwise the continuous root is
    found with Brent's method and rounded up, as ``ceil(statsmodels solve_power)``.

    Examples
    --------
    >>> smallest_n(lambda n: n / 100, 0.305, max_topics=1000, what="demo")
    31
    >>> smallest_n(lambda n: n / 100, 0.305, max_topics=1000, what="demo", start=29.5)
    31
    """
    if start is not None and math.isfinite(start):
        n = min(max(minimum, math.ceil(start)), max_topics)
        reached = power_of_n(n) >= target
        for _ in range(_STEPS):  # walk towards the boundary between "reached" and not
            step = n - 1 if reached else n + 1
            if step < minimum or step > max_topics:
                break
            if (power_of_n(step) >= target) != reached:
                return n if reached else step
            n = step
        if reached and n == minimum:
            return minimum
    if power_of_n(minimum) >= target:
        return minimum
    # Bracket by doubling: far above the root the noncentral tails can underflow to NaN.
    low, high = minimum, 2 * minimum
    while not power_of_n(high) >= target:
        if high >= max_topics:
            raise UnreachableTargetError(f"cannot reach {what} with up to {max_topics} topics")
        low, high = high, min(2 * high, max_topics)
    root = brentq(lambda n: power_of_n(n) - target, low, high, xtol=1e-10)
    n = max(minimum, math.ceil(root - 1e-9))
    while power_of_n(n) < target:  # guards the rounding of the root
        n += 1
    return n


def _root_increasing(fn: Callable[[float], float], target: float, *, low: float,
                     high: float | None = None, expand: bool = False, what: str,
                     context: str) -> float:
    if fn(low) >= target:
        raise UnreachableTargetError(
            f"the target power {target} is already reached as {what} → {low:g} ({context}); "
            "a power at or below alpha needs no difference to detect"
        )
    if high is None:
        high = 1.0
        while fn(high) < target:
            if not expand or high > 1e12:
                raise UnreachableTargetError(f"cannot reach power {target} by raising {what} "
                                             f"({context})")
            high *= 2.0
    elif fn(high) < target:
        raise UnreachableTargetError(f"cannot reach power {target} with any {what} < 1 "
                                     f"({context})")
    return float(brentq(lambda x: fn(x) - target, low, high, xtol=1e-14, rtol=1e-12))
