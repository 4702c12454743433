"""The same checks for every registered model, today's and future ones (as scipy.stats
tests all its distributions): whatever registers itself with
``scorestd.models.register_model`` when the package is imported is parametrized here.

Each route of a family is checked against another: cdf against icdf (the generalized
inverse), logpdf against the numerical derivative of the cdf, the one-pass route against
fit-then-cdf, the numpy route against the labelled one, parameters and files against the
model they came from; and the policies every model shares: NaN, degenerate topics, bad
options.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import scorestd
from scorestd.errors import ScoreDataError, ScorestdError, ScorestdWarning
from scorestd.models import get_model, model_names, read_fitted, write_fitted

MODELS = model_names()


def model(name):
    return get_model(name)()


@pytest.fixture(scope="module")
def ref():
    """6 topics × 25 systems × 2 measures of AP-like scores, a few ties, no degenerate topic."""
    rng = np.random.default_rng(20261122)
    values = np.round(rng.beta(1.2, 3.0, size=(6, 25, 2)), 3)
    return scorestd.cube(values, measures=["ap", "ndcg"])


@pytest.fixture(scope="module")
def new(ref):
    """New systems on the same topics, inside [0, 1]."""
    rng = np.random.default_rng(7)
    return scorestd.cube(rng.uniform(0.0, 1.0, size=(6, 9, 2)), topics=ref.topic.values,
                         systems=[f"n{i}" for i in range(9)], measures=["ap", "ndcg"])


def grid(ref, n=201):
    """Every topic evaluated on the same grid of scores in [0, 1] (systems g0, g1, …)."""
    x = np.linspace(0.0, 1.0, n)
    values = np.broadcast_to(x[None, :, None], (ref.sizes["topic"], n, ref.sizes["measure"]))
    return scorestd.cube(values.copy(), topics=ref.topic.values,
                         systems=[f"g{i}" for i in range(n)], measures=ref.measure.values)


@pytest.mark.parametrize("name", MODELS)
def test_cdf_is_non_decreasing_and_a_distribution_function(name, ref):
    fitted = model(name).fit(ref)
    y = fitted.cdf(grid(ref)).transpose("topic", "measure", "system").values
    assert np.isfinite(y).all()
    assert (np.diff(y, axis=-1) >= -1e-12).all()
    if fitted.model.is_cdf:
        assert ((y >= 0) & (y <= 1)).all()


@pytest.mark.parametrize("name", MODELS)
def test_icdf_is_the_generalized_inverse_of_cdf(name, ref):
    m = model(name)
    fitted = m.fit(ref)
    if m._icdf is None:  # a family without a quantile function says so
        with pytest.raises(ScorestdError, match=f"model '{name}' has no icdf"):
            fitted.icdf(ref)
        return
    if not m.is_cdf:  # an unbounded transform (z): its icdf inverts it exactly
        xr.testing.assert_allclose(fitted.icdf(fitted.cdf(ref)), ref.drop_attrs(),
                                   atol=1e-12)
        return
    p = np.linspace(0.01, 0.99, 99)
    probs = scorestd.cube(np.broadcast_to(p[None, :, None], (6, p.size, 2)).copy(),
                          topics=ref.topic.values, measures=ref.measure.values)
    x = fitted.icdf(probs)
    xs = x.transpose("topic", "measure", "system").values
    assert (np.diff(xs, axis=-1) >= -1e-9).all()  # quantiles non-decreasing in p
    # F(F⁻¹(p)) ≥ p for every distribution function, continuous or not
    back = fitted.cdf(x.assign_coords(system=probs.system.values))
    assert (back.values >= probs.values - 1e-7).all()


@pytest.mark.parametrize("name", MODELS)
def test_logpdf_is_the_derivative_of_the_cdf(name, ref):
    m = model(name)
    fitted = m.fit(ref)
    if m._logpdf is None:  # a family without a density says so
        with pytest.raises(ScorestdError, match=f"model '{name}' has no density"):
            fitted.logpdf(ref)
        return
    g = grid(ref, 2001)
    x = np.linspace(0.0, 1.0, 2001)
    cdf = fitted.cdf(g).transpose("topic", "measure", "system").values
    dens = np.exp(fitted.logpdf(g).transpose("topic", "measure", "system").values)
    numeric = np.gradient(cdf, x, axis=-1)
    # where the cdf is smooth and neither flat nor at a kink: away from its ends
    inside = (cdf > 0.02) & (cdf < 0.98)
    inside[..., :2] = inside[..., -2:] = False
    ok = inside & (np.abs(np.diff(numeric, axis=-1, prepend=numeric[..., :1])) < 0.05 * (1 + dens))
    np.testing.assert_allclose(dens[ok], numeric[ok], rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("name", MODELS)
def test_one_pass_numpy_and_labelled_routes_agree(name, ref, new):
    m = model(name)
    fitted = m.fit(ref)
    two_pass = fitted.cdf(ref)
    xr.testing.assert_allclose(m.standardize(ref), two_pass)
    xr.testing.assert_allclose(scorestd.standardize(ref, name).drop_attrs(),
                               two_pass.drop_attrs())
    layout = ("topic", "measure", "system")
    np.testing.assert_allclose(m.transform(ref.transpose(*layout).values),
                               two_pass.transpose(*layout).values, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(
        m.transform(ref.transpose(*layout).values, new.transpose(*layout).values),
        fitted.cdf(new).transpose(*layout).values, rtol=1e-12, atol=1e-12)
    xr.testing.assert_allclose(m.standardize(new, ref), fitted.cdf(new))


@pytest.mark.parametrize("name", MODELS)
def test_parameters_and_files_give_back_the_same_model(name, ref, new, tmp_path):
    fitted = model(name).fit(ref)
    again = get_model(name)().from_params(fitted.params)
    xr.testing.assert_allclose(again.cdf(new), fitted.cdf(new))
    back = read_fitted(write_fitted(fitted, tmp_path / f"{name}.nc"))
    assert back.name == name
    xr.testing.assert_allclose(back.cdf(new), fitted.cdf(new))


@pytest.mark.parametrize("name", MODELS)
def test_nan_is_skipped_when_fitting_and_kept_when_applying(name, ref):
    with_nan = ref.copy()
    with_nan[0, 3, 0] = np.nan
    fitted = model(name).fit(with_nan)
    out = fitted.cdf(with_nan)
    assert bool(np.isnan(out[0, 3, 0])) and int(out.isnull().sum()) == 1
    # topic 0 of measure 0 is fitted as if system 3 had never been there
    alone = model(name).fit(ref.isel(topic=[0], measure=[0]).drop_sel(system=ref.system.values[3]))
    probe = ref.isel(topic=[0], measure=[0])
    xr.testing.assert_allclose(fitted.cdf(probe).drop_vars("topic"),
                               alone.cdf(probe).drop_vars("topic"))


@pytest.mark.parametrize("name", MODELS)
def test_degenerate_topics_follow_the_policy(name, ref):
    values = ref.values.copy()
    values[2, :, 1] = 0.4  # every system scores the same on topic 2 of measure 1
    cube = ref.copy(data=values)
    with pytest.warns(ScorestdWarning, match=r"measure 'ndcg': topics \['t3'\]"):
        kept = scorestd.standardize(cube, name)
    expected = model(name)._unstandardized_cdf(values[2, :, 1])
    np.testing.assert_allclose(kept.values[2, :, 1], expected)
    with pytest.warns(ScorestdWarning, match="set to NaN"):
        nan = scorestd.standardize(cube, name, degenerate="nan")
    assert bool(nan[2, :, 1].isnull().all()) and int(nan.isnull().sum()) == cube.sizes["system"]
    with pytest.raises(ScoreDataError, match=rf"model '{name}': all reference systems score"):
        scorestd.standardize(cube, name, degenerate="raise")


@pytest.mark.parametrize("name", MODELS)
def test_sampling_is_reproducible_and_follows_the_model(name, ref):
    m = model(name)
    fitted = m.fit(ref)
    if m._icdf is None:
        with pytest.raises(ScorestdError, match=f"model '{name}' cannot sample"):
            fitted.sample(3, rng=1)
        return
    a, b = fitted.sample(400, rng=5), fitted.sample(400, rng=5)
    xr.testing.assert_identical(a, b)
    if m.is_cdf:  # the sample's ecdf is near the fitted cdf (Kolmogorov distance)
        u = fitted.cdf(a).transpose("topic", "measure", "system").values
        u = np.sort(u, axis=-1)
        k = np.arange(1, u.shape[-1] + 1) / u.shape[-1]
        assert np.max(np.abs(u - k)) < 0.12


@pytest.mark.parametrize("name", MODELS)
def test_bad_input_is_named(name, ref):
    with pytest.raises(TypeError, match=f"model '{name}' has no option"):
        get_model(name)(no_such_option=1)
    empty = ref.copy()
    empty[1, :, 0] = np.nan
    with pytest.raises(ScoreDataError, match="no system with a score for topic 't2', measure 'ap'"):
        model(name).fit(empty)
    with pytest.raises(ScoreDataError, match="has no topic 'q99'"):
        model(name).fit(ref).cdf(ref.assign_coords(topic=[*ref.topic.values[:-1], "q99"]))
    if model(name).bounded:
        with pytest.raises(ScoreDataError, match="needs scores in \\[0, 1\\]"), \
                pytest.warns(ScorestdWarning, match="scores outside"):
            model(name).fit(ref + 1)
    with pytest.raises(ScorestdError):
        scorestd.standardize(ref, f"{name}-not-registered")


@settings(max_examples=25, deadline=None)
@given(values=hnp.arrays(np.float64, (2, 12), elements=st.floats(0, 1).map(lambda v: round(v, 2))),
       name=st.sampled_from(MODELS))
def test_any_reference_gives_a_monotone_cdf(values, name):
    if (values.max(axis=1) == values.min(axis=1)).any():
        values[:, 0] = 0.0
        values[:, 1] = 1.0  # keep every topic non-degenerate
    ref = scorestd.cube(values[:, :, None])
    y = model(name).fit(ref).cdf(grid(ref, 51)).transpose("topic", "measure", "system").values
    assert (np.diff(y, axis=-1) >= -1e-9).all()
