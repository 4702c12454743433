"""The blocked Gibbs sampler of the crossed model: reproducibility, exactness, calibration."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

from scorestd.bayes.crossed import resolve_priors
from scorestd.bayes.gibbs import CrossedPriors, VariancePrior, sample_crossed


def _y(rng, n_t=12, n_s=5, sd_s=0.05, sd_t=0.1, sd_e=0.08):
    alpha = rng.normal(0, sd_s, n_s)
    y = 0.3 + alpha + rng.normal(0, sd_t, (n_t, 1)) + rng.normal(0, sd_e, (n_t, n_s))
    return y, alpha


@pytest.mark.parametrize("options", [{}, {"nu": 4.0, "heteroscedastic": True}])
def test_same_seed_same_draws_on_any_chunking(options):
    y, _ = _y(np.random.default_rng(0))
    if options:
        y[2, 1] = np.nan
    pri = resolve_priors(None, y)
    run = lambda seed=7, **kw: sample_crossed(y, pri, draws=30, warmup=10, thin=2,  # noqa: E731
                                              seed=seed, **options, **kw)
    whole = run(chains=3)
    for other in (run(chains=3, chain_batch=1), run(chains=3, block=7),
                  run(chains=3, chain_batch=2, block=1)):
        for name, value in whole.items():
            np.testing.assert_array_equal(other[name], value, err_msg=name)
    first_two = run(chains=2)  # chain c depends only on (seed, c)
    np.testing.assert_array_equal(first_two["alpha"], whole["alpha"][:2])
    assert not np.array_equal(run(chains=3, seed=8)["alpha"], whole["alpha"])


def _fixed_effects_contrast(y, i, j):
    """Two-way ANOVA (no interaction) contrast of systems i and j: t distribution."""
    n_t, n_s = y.shape
    resid = y - y.mean(0) - y.mean(1, keepdims=True) + y.mean()
    df = (n_t - 1) * (n_s - 1)
    ve = (resid**2).sum() / df
    return stats.t(df, loc=y[:, i].mean() - y[:, j].mean(), scale=np.sqrt(2 * ve / n_t))


@pytest.mark.parametrize("method", ["auto", "general"])
def test_wide_priors_give_the_fixed_effects_anova_contrast(adhoc8_ap, method):
    y = adhoc8_ap.sel(measure="ap").isel(system=slice(0, 10)).transpose("topic", "system")
    y = y.values
    wide = CrossedPriors(VariancePrior(fixed=100.0), VariancePrior(fixed=100.0),
                         VariancePrior(1e-3, 1e-3))
    draws = 2000 if method == "auto" else 800
    out = sample_crossed(y, wide, chains=4, draws=draws, warmup=200, seed=11, method=method)
    for i, j in [(0, 1), (3, 7), (5, 9)]:
        ref = _fixed_effects_contrast(y, i, j)
        d = (out["alpha"][..., i] - out["alpha"][..., j]).ravel()
        mcse = ref.std() / np.sqrt(d.size)  # draws are nearly independent here
        assert abs(d.mean() - ref.mean()) < 4 * mcse
        assert abs(d.std() / ref.std() - 1) < 0.05
        for q in (0.05, 0.5, 0.95):
            # MC error of a quantile: sqrt(q(1-q)/n) / density at the quantile
            x = ref.ppf(q)
            err = np.sqrt(q * (1 - q) / d.size) / ref.pdf(x)
            assert abs(np.quantile(d, q) - x) < 4 * err


def test_general_and_balanced_steps_agree_on_complete_data(robust2004):
    y = robust2004.sel(measure="ap").isel(system=slice(0, 12), topic=slice(0, 40))
    y = y.transpose("topic", "system").values
    pri = resolve_priors(None, y)
    fast = sample_crossed(y, pri, chains=4, draws=1500, warmup=200, seed=1)
    slow = sample_crossed(y, pri, chains=4, draws=1500, warmup=200, seed=2, method="general")
    da = fast["alpha"] - fast["alpha"][..., :1]
    db = slow["alpha"] - slow["alpha"][..., :1]
    se = np.sqrt(da.reshape(-1, 12).var(0) / 3000 + db.reshape(-1, 12).var(0) / 3000)
    assert (np.abs(da.mean((0, 1)) - db.mean((0, 1))) <= 4 * se + 1e-12).all()
    for name in ("var_system", "var_topic", "var_residual"):
        a, b = fast[name].ravel(), slow[name].ravel()
        assert abs(np.median(a) / np.median(b) - 1) < 0.06, name


def test_ninety_percent_intervals_cover_known_effects_about_ninety_percent():
    rng = np.random.default_rng(2026)
    hits = []
    for k in range(60):
        y, alpha = _y(rng)
        if k % 3 == 0:  # a third of the data sets with missing cells: the general step
            y[rng.random(y.shape) < 0.1] = np.nan
            y[0, :] = np.where(np.isnan(y[0, :]), 0.3, y[0, :])  # keep every topic
        out = sample_crossed(y, resolve_priors(None, y), chains=2, draws=250, warmup=100,
                             seed=k)
        d = (out["alpha"][..., 1:] - out["alpha"][..., :1]).reshape(-1, y.shape[1] - 1)
        low, high = np.quantile(d, [0.05, 0.95], axis=0)
        truth = alpha[1:] - alpha[0]
        hits.extend(((low <= truth) & (truth <= high)).tolist())
    coverage = np.mean(hits)  # 240 intervals: binomial sd ≈ 0.02
    assert 0.84 <= coverage <= 0.96, coverage


def test_student_t_errors_resist_an_outlier():
    rng = np.random.default_rng(4)
    y, _ = _y(rng, n_t=30, n_s=4, sd_e=0.03)
    y[0, 0] += 2.0  # one absurd score of system 0
    pri = resolve_priors(None, y)
    normal = sample_crossed(y, pri, chains=2, draws=600, warmup=200, seed=1)
    robust = sample_crossed(y, pri, chains=2, draws=600, warmup=200, seed=1, nu=3.0)
    clean = np.delete(y, 0, axis=0)
    truth = clean[:, 0].mean() - clean[:, 1].mean()
    shift = lambda out: (out["alpha"][..., 0] - out["alpha"][..., 1]).mean() - truth  # noqa: E731
    assert abs(shift(normal)) > 0.03  # pulled by 2 (1 - 1/4) / 30 = 0.05, less shrinkage
    assert abs(shift(robust)) < 0.015


def test_per_system_variances_are_recovered():
    rng = np.random.default_rng(9)
    sd = np.array([0.2, 0.05, 0.05, 0.05])
    noise = rng.normal(0, 1, (200, 4)) * sd
    y = 0.4 + rng.normal(0, 0.1, (200, 1)) + noise
    out = sample_crossed(y, resolve_priors(None, y), chains=2, draws=400, warmup=100, seed=3,
                         heteroscedastic=True)
    sigma = np.sqrt(out["var_residual"]).mean(axis=(0, 1))
    np.testing.assert_allclose(sigma, noise.std(axis=0), rtol=0.15)
    homo = sample_crossed(y, resolve_priors(None, y), chains=2, draws=400, warmup=100, seed=3)
    pooled = np.sqrt(homo["var_residual"]).mean()
    assert sigma[1:].max() < pooled < sigma[0]


def test_missing_cells_give_the_exact_conditional_posterior():
    # With the variances (nearly) fixed, the locations are Gaussian: the sampler must give
    # the generalised-least-squares posterior, computed here by brute force.
    rng = np.random.default_rng(12)
    n_t, n_s = 30, 4
    y, _ = _y(rng, n_t=n_t, n_s=n_s)
    y[:20, 2] = np.nan
    y[[3, 8], [0, 1]] = np.nan
    fixed = CrossedPriors(VariancePrior(fixed=0.05**2), VariancePrior(fixed=0.1**2),
                          VariancePrior(1e7, 1e7 * 0.08**2))
    out = sample_crossed(y, fixed, chains=2, draws=3000, warmup=50, seed=5)
    t_idx, s_idx = np.nonzero(~np.isnan(y))
    design = np.zeros((t_idx.size, 1 + n_s + n_t))
    rows = np.arange(t_idx.size)
    design[rows, 0] = 1.0
    design[rows, 1 + s_idx] = 1.0
    design[rows, 1 + n_s + t_idx] = 1.0
    prior = np.diag([0.0] + [1 / 0.05**2] * n_s + [1 / 0.1**2] * n_t)
    cov = np.linalg.inv(design.T @ design / 0.08**2 + prior)
    mean = cov @ design.T @ y[~np.isnan(y)] / 0.08**2
    contrast = np.zeros((n_s - 1, design.shape[1]))
    contrast[:, 1] = -1.0
    contrast[np.arange(n_s - 1), np.arange(2, n_s + 1)] = 1.0
    d = (out["alpha"][..., 1:] - out["alpha"][..., :1]).reshape(-1, n_s - 1)
    sd = np.sqrt(np.diag(contrast @ cov @ contrast.T))
    assert (np.abs(d.mean(0) - contrast @ mean) < 4 * sd / np.sqrt(d.shape[0])).all()
    np.testing.assert_allclose(d.std(0), sd, rtol=0.05)


@settings(max_examples=25, deadline=None)
@given(arrays(np.float64, st.tuples(st.integers(3, 7), st.integers(2, 5)),
              elements=st.floats(0, 1, allow_subnormal=False)),
       st.floats(-3, 3), st.floats(0.2, 5), st.booleans())
def test_draws_are_equivariant_under_shift_and_scale(y, shift, scale, general):
    # The default priors scale with the data and the steps are affine-equivariant: the
    # draws for scale * y + shift are the draws for y, scaled (and μ shifted).
    assume(np.ptp(y, axis=0).min() > 1e-3 and np.ptp(y, axis=1).min() > 1e-3)
    if general:
        y = y.copy()
        y[0, -1] = np.nan
    options = {"chains": 2, "draws": 5, "warmup": 3, "seed": 1,
               "nu": 5.0 if general else None}
    base = sample_crossed(y, resolve_priors(None, y), **options)
    moved_y = scale * y + shift
    moved = sample_crossed(moved_y, resolve_priors(None, moved_y), **options)
    # absolute slack for effects near 0: rounding of the moved data carries through the chain
    np.testing.assert_allclose(moved["alpha"], scale * base["alpha"], rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(moved["mu"], scale * base["mu"] + shift, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(moved["var_residual"], scale**2 * base["var_residual"],
                               rtol=1e-6)
