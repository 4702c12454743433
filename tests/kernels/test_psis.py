"""Pareto-smoothed importance sampling vectorised over rows, against arviz's own loop
(``arviz.stats.psislw``, arviz 0.x) on the same log ratios."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import special

from scorestd.kernels.psis import log_sum_exp, pareto_smoothed_log_weights, tail_draws

try:
    from arviz.stats import stats as arviz_stats
except ImportError:  # pragma: no cover - arviz is a test dependency
    arviz_stats = None
#: The comparisons need arviz 0.x's own loop (arviz ≥ 1 moved PSIS to arviz-stats, and
#: scorestd calls arviz's ``loo`` there); ``log_sum_exp`` is tested on every version.
needs_psislw = pytest.mark.skipif(not hasattr(arviz_stats, "psislw"),
                                  reason="arviz 0.x's psislw is the reference")


def _same_as_arviz(log_ratios: np.ndarray, reff: float) -> None:
    lw_ref, k_ref = arviz_stats.psislw(log_ratios.copy(), reff)
    lw, k = pareto_smoothed_log_weights(log_ratios, reff)
    np.testing.assert_array_equal(np.isinf(k), np.isinf(k_ref))
    finite = np.isfinite(k_ref)
    np.testing.assert_allclose(k[finite], k_ref[finite], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(lw, lw_ref, rtol=1e-10, atol=1e-10)


@needs_psislw
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize(("draws", "reff"), [(4000, 0.8), (1000, 1.0), (60, 0.5), (12, 1.0)])
def test_smoothing_equals_arviz_loop_including_ties_floors_and_flat_rows(draws, reff):
    rng = np.random.default_rng(draws)
    lr = rng.standard_t(2, (40, draws)) * rng.uniform(0.1, 4, (40, 1))
    lr[0, :7] = lr[0, 7]  # ties in the tail
    lr[1, -(tail_draws(draws, reff) + 3):] = 5.0  # ties at the cut
    lr[2] = 0.0  # a flat row: nothing to smooth (k = inf)
    lr[3, :draws // 2] = -800.0  # weights below the smallest normal number
    lr[4, 10:] = -800.0  # a cut at that floor: a tail of 10
    lr[5, 3:] = -800.0  # a tail of 3: too short to fit
    _same_as_arviz(lr, reff)


@needs_psislw
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@settings(max_examples=40, deadline=None)
@given(st.integers(5, 400), st.floats(0.2, 1.0), st.floats(0.01, 10.0),
       st.integers(0, 2 ** 32 - 1))
@example(173, 1.0, 0.875, 183)  # (a tail of 5 beyond the floor: every grid weight negligible)
def test_weights_are_normalized_and_agree_with_arviz(draws, reff, scale, seed):
    lr = np.random.default_rng(seed).standard_cauchy((3, draws)) * scale
    lw, _k = pareto_smoothed_log_weights(lr, reff)
    smoothed = ~np.isnan(lw).any(axis=1)  # (arviz's rule leaves no weights where its
    # generalized Pareto fit has no grid point of weight: k = 1/3, σ undefined)
    np.testing.assert_allclose(log_sum_exp(lw[smoothed], axis=1), 0.0, atol=1e-12)
    assert np.all(lw[smoothed] <= 1e-12)  # (no weight above 1)
    _same_as_arviz(lr, reff)


@given(st.lists(st.floats(-700, 700), min_size=1, max_size=30))
def test_log_sum_exp_matches_scipy(values):
    x = np.array(values)
    assert log_sum_exp(x) == pytest.approx(special.logsumexp(x), rel=1e-12, abs=1e-12)


def test_log_sum_exp_of_empty_mass_is_minus_infinity():
    assert log_sum_exp(np.full(3, -np.inf)) == -np.inf
