"""Designs at the edges of floating point: tiny α, large n, non-finite intermediates.

The searches are bisections on monotone functions (a few dozen evaluations whatever the
answer), the F critical value stays finite where ``scipy.stats.f.isf`` gives ``inf``, and
a quantity that cannot be computed is an error naming it, never a false "unreachable".
"""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from scorestd.design.power import f_critical, power_function
from scorestd.design.topic_sets import _smallest_from, sakai_power_anova, topic_set_size
from scorestd.errors import ScorestdError, UnreachableTargetError


def _f_critical_by_root(alpha, dfn, dfd):
    """An independent route: the root of log P(F > f) = log α, by Brent's method."""
    g = lambda f: stats.f.logsf(f, dfn, dfd) - math.log(alpha)  # noqa: E731
    high = 1.0
    while g(high) > 0:
        high *= 4
    return optimize.brentq(g, 0.0, high, xtol=1e-14, rtol=1e-12)


@settings(deadline=None, max_examples=60)
@given(log_alpha=st.floats(-250, math.log10(0.5)), dfn=st.integers(1, 40),
       dfd=st.integers(2, 100_000))
@example(log_alpha=-10.5, dfn=1, dfd=2)  # scipy's isf 1.2e-6 off here: the root decides
def test_f_critical_inverts_the_upper_tail_for_any_alpha(log_alpha, dfn, dfd):
    alpha = 10.0**log_alpha
    f = f_critical(alpha, dfn, dfd)
    assert math.isfinite(f) and f > 0
    assert f == pytest.approx(_f_critical_by_root(alpha, dfn, dfd), rel=1e-7)
    if alpha > 1e-8:  # where scipy's own inverse is accurate, the two agree (to 1e-6: on
        # (1, 2) df scipy's isf is 1.7e-7 off the root above at α = 10^-9.5 and 1.2e-6 at
        # 10^-10.5, where ours matches the root to 1e-7)
        assert f == pytest.approx(stats.f.isf(alpha, dfn, dfd), rel=1e-6)


@settings(deadline=None, max_examples=200)
@given(answer=st.integers(2, 10**7), start=st.floats(-5, 2e7), max_topics=st.integers(2, 10**7))
def test_smallest_from_equals_a_plain_scan_in_log_many_steps(answer, start, max_topics):
    calls = []

    def ok(n):
        calls.append(n)
        return n >= answer

    if answer > max_topics:
        with pytest.raises(UnreachableTargetError):
            _smallest_from(ok, start, max_topics, "demo")
    else:
        assert _smallest_from(ok, start, max_topics, "demo") == answer
    assert len(calls) <= 2 * math.log2(10**7) + 4  # stepping by one took up to 10⁷


@pytest.mark.parametrize("alpha", [1e-17, 1e-30, 1e-100])
@pytest.mark.parametrize("method", ["sakai", "exact"])
def test_anova_design_at_tiny_alpha_is_the_smallest_n_of_a_plain_scan(alpha, method):
    sigma2, min_range, m, beta = 0.01, 0.1, 5, 0.2
    n = topic_set_size(variance=sigma2, test="anova", min_diff=min_range, n_systems=m,
                       alpha=alpha, beta=beta, method=method)
    delta = min_range**2 / (2 * sigma2)

    def power(k):  # Sakai's approximation, or the noncentral F with an independent critical value
        if method == "sakai":
            return sakai_power_anova(k, m, delta, alpha)
        dfn, dfd = m - 1, m * (k - 1)
        return stats.ncf.sf(_f_critical_by_root(alpha, dfn, dfd), dfn, dfd, k * m * delta / m)

    assert power(n) >= 1 - beta > power(n - 1)
    # the scan the search replaces, from the normal-theory start, lands on the same n
    assert next(k for k in range(max(2, n - 40), n + 1) if power(k) >= 1 - beta) == n


def test_exact_anova_power_equals_statsmodels_where_statsmodels_is_finite():
    from statsmodels.stats.power import FTestAnovaPower

    f = power_function("anova", variance=0.01, n_systems=5)
    for d, n, a in [(0.1, 30, 0.05), (0.05, 200, 0.01), (0.2, 7.5, 1e-5)]:
        expected = FTestAnovaPower().power(effect_size=d / (0.1 * math.sqrt(10)), nobs=n * 5,
                                           alpha=a, k_groups=5)
        assert f(d, n, a) == pytest.approx(expected, rel=1e-9)


def test_a_non_finite_critical_value_is_an_error_naming_it():
    with pytest.raises(ScorestdError, match="critical t value is not a finite number"):
        topic_set_size(variance=0.01, test="paired_t", alpha=5e-324, min_diff=0.1)
