"""standardize() and the normal, uniform, empirical and z models: invariants and references."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from scipy import stats

import scorestd
from scorestd import standardize
from scorestd.errors import ScoreDataError, ScorestdError, ScorestdWarning

LOCATION_SCALE = ["normal", "uniform", "z"]
CDF_MODELS = ["normal", "uniform", "empirical"]


def as_cube(values):
    return scorestd.cube(np.asarray(values, dtype=float))


# Per-topic scores in [0, 1] on a 1/100 grid (room for ties), at least two distinct per topic.
topic_scores = hnp.arrays(
    np.float64, st.tuples(st.integers(1, 4), st.integers(3, 15)),
    elements=st.integers(0, 100).map(lambda i: i / 100),
).filter(lambda a: (np.ptp(a, axis=1) > 0).all())


@settings(max_examples=30)
@given(ref=topic_scores, model=st.sampled_from(CDF_MODELS))
def test_cdf_models_map_into_unit_interval_and_are_monotone(ref, model):
    fitted = scorestd.models.get_model(model).fit(as_cube(ref))
    grid = np.linspace(-0.5, 1.5, 41)
    y = fitted.cdf(as_cube(np.tile(grid, (ref.shape[0], 1)))).values[..., 0]
    assert ((y >= 0) & (y <= 1)).all()
    assert (np.diff(y, axis=1) >= 0).all()


@settings(max_examples=30)
@given(ref=topic_scores, new=st.lists(st.integers(0, 100), min_size=1, max_size=5),
       scale=st.sampled_from([0.25, 0.5, 2.0, 10.0]), shift=st.integers(-3, 3),
       model=st.sampled_from([*LOCATION_SCALE, "empirical"]))
def test_positive_affine_invariance(ref, new, scale, shift, model):
    x = np.column_stack([ref, np.tile(np.array(new) / 100, (ref.shape[0], 1))])
    plain = standardize(as_cube(x), model, reference=as_cube(ref))
    moved = standardize(as_cube(scale * x + shift), model, reference=as_cube(scale * ref + shift))
    np.testing.assert_allclose(moved.values, plain.values, atol=1e-9)


@settings(max_examples=30)
@given(ref=topic_scores, x=hnp.arrays(np.float64, 6, elements=st.floats(-1, 2)))
def test_normal_equals_scipy_norm_cdf(ref, x):
    mu, sigma = ref.mean(axis=1), ref.std(axis=1, ddof=1)  # reference: numpy, n-1 sd
    got = standardize(as_cube(np.tile(x, (ref.shape[0], 1))), "normal", reference=as_cube(ref))
    want = stats.norm.cdf((x[None, :] - mu[:, None]) / sigma[:, None])
    np.testing.assert_allclose(got.values[..., 0], want, atol=1e-12)


@settings(max_examples=30)
@given(ref=topic_scores, x=hnp.arrays(np.float64, 6, elements=st.floats(-1, 2)),
       A=st.floats(0.05, 0.5), B=st.floats(0.2, 0.8))
def test_uniform_equals_clipped_linear_map(ref, x, A, B):
    mu, sigma = ref.mean(axis=1), ref.std(axis=1, ddof=1)
    got = standardize(as_cube(np.tile(x, (ref.shape[0], 1))), "uniform",
                      reference=as_cube(ref), A=A, B=B)
    want = np.clip(A * (x[None, :] - mu[:, None]) / sigma[:, None] + B, 0, 1)
    np.testing.assert_allclose(got.values[..., 0], want, atol=1e-12)


@settings(max_examples=30)
@given(ref=topic_scores)
def test_z_has_zero_mean_unit_sd_on_the_reference(ref):
    z = standardize(as_cube(ref), "z").values[..., 0]
    np.testing.assert_allclose(z.mean(axis=1), 0, atol=1e-9)
    np.testing.assert_allclose(z.std(axis=1, ddof=1), 1, atol=1e-9)


@settings(max_examples=30)
@given(n=st.integers(2, 30), topics=st.integers(1, 4), seed=st.integers(0, 2**32 - 1))
def test_empirical_on_its_reference_without_ties(n, topics, seed):
    ref = np.random.default_rng(seed).permuted(np.tile(np.arange(n) / n, (topics, 1)), axis=1)
    y = standardize(as_cube(ref), "empirical").values[..., 0]
    # Values are exactly {1/n, ..., 1}: the rank over n.
    np.testing.assert_array_equal(np.sort(y, axis=1), np.tile(np.arange(1, n + 1) / n, (topics, 1)))
    np.testing.assert_allclose(y.mean(axis=1), (n + 1) / (2 * n))


@settings(max_examples=30)
@given(ref=topic_scores)
def test_empirical_values_with_ties_and_mid_rank_mean(ref):
    n = ref.shape[1]
    y = standardize(as_cube(ref), "empirical").values[..., 0]
    assert np.isin(np.round(y * n), np.arange(1, n + 1)).all()
    assert (y.max(axis=1) == 1).all()
    mid = standardize(as_cube(ref), "empirical", ties="mid").values[..., 0]
    np.testing.assert_allclose(mid.mean(axis=1), 0.5)  # ties shared symmetrically


@settings(max_examples=30)
@given(ref=topic_scores, p=hnp.arrays(np.float64, 5, elements=st.floats(0.01, 0.99)),
       model=st.sampled_from(["normal", "uniform", "z"]))
def test_icdf_cdf_round_trip(ref, p, model):
    fitted = scorestd.models.get_model(model).fit(as_cube(ref))
    probs = as_cube(np.tile(p, (ref.shape[0], 1)))
    back = fitted.cdf(fitted.icdf(probs))
    np.testing.assert_allclose(back.values, probs.values, atol=1e-9)


@settings(max_examples=30)
@given(ref=topic_scores, p=hnp.arrays(np.float64, 5, elements=st.floats(0.001, 1.0)))
def test_empirical_icdf_is_the_generalized_inverse(ref, p):
    fitted = scorestd.models.Empirical.fit(as_cube(ref))
    q = fitted.icdf(as_cube(np.tile(p, (ref.shape[0], 1)))).values[..., 0]
    for t, row in enumerate(ref):
        # Reference: numpy's inverted-cdf quantile (smallest x with ecdf(x) >= p).
        np.testing.assert_allclose(q[t], np.quantile(row, p, method="inverted_cdf"))


def test_new_systems_are_standardized_against_the_reference(robust2004):
    ref = robust2004.isel(system=slice(0, 60))
    y = standardize(robust2004, "empirical", reference=ref)
    # A plain loop for one topic and measure: rank of each system among the reference.
    r = ref.sel(topic="t07", measure="ndcg").values
    for system in ["run61", "run100", "run3"]:
        x = robust2004.sel(topic="t07", measure="ndcg", system=system).item()
        assert y.sel(topic="t07", measure="ndcg", system=system).item() == np.mean(r <= x)


def test_keeps_coords_attrs_and_records_the_model(robust2004):
    y = standardize(robust2004, "uniform", A=0.2)
    xr.testing.assert_identical(y[scorestd.TOPIC], robust2004[scorestd.TOPIC])
    assert y.dims == robust2004.dims
    assert y.attrs["collection"] == "robust2004"
    assert y.attrs["standardization"] == "uniform"
    assert y.attrs["standardization_A"] == 0.2


def test_two_d_in_two_d_out(adhoc8_ap):
    two_d = adhoc8_ap.sel(measure="ap")
    y = standardize(two_d, "normal")
    assert y.dims == ("topic", "system")
    np.testing.assert_allclose(y.values, standardize(adhoc8_ap, "normal").values[..., 0])


def test_nan_skipped_when_fitting_and_kept_in_output(small_cube):
    holey = small_cube.copy()
    holey[0, 0, 0] = np.nan
    holey[3, 2, 1] = np.nan
    for model in ["normal", "uniform", "empirical", "z"]:
        y = standardize(holey, model)
        assert np.isnan(y.values[0, 0, 0]) and np.isnan(y.values[3, 2, 1])
        assert np.isfinite(y.values).sum() == np.isfinite(holey.values).sum()
        # Topic 0 of measure 0 is fitted on the five present systems only.
        present = holey.isel(topic=[0], measure=[0], system=slice(1, None))
        alone = standardize(present, model)
        np.testing.assert_allclose(y.values[0, 1:, 0], alone.values[0, :, 0])


def test_reference_can_be_a_fitted_model(adhoc8_ap):
    fitted = scorestd.models.get_model("normal").fit(adhoc8_ap)
    np.testing.assert_array_equal(standardize(adhoc8_ap, reference=fitted).values,
                                  standardize(adhoc8_ap, "normal").values)


def test_a_user_model_class_plugs_in(small_cube):
    class Shifted(scorestd.models.Normal):
        """N-std shifted by a quarter, a user's own variant."""

        name = "shifted"

        def _cdf(self, x, *, mean, sd):
            return super()._cdf(x, mean=mean, sd=sd) * 0.5 + 0.25

    got = standardize(small_cube, Shifted)
    np.testing.assert_allclose(got.values, 0.5 * standardize(small_cube, "normal").values + 0.25)


def test_sample_is_reproducible_and_follows_the_model(adhoc8_ap):
    fitted = scorestd.models.get_model("normal").fit(adhoc8_ap)
    a, b = fitted.sample(4000, rng=7), fitted.sample(4000, rng=7)
    xr.testing.assert_identical(a, b)
    topic = a.sel(topic="t05", measure="ap").values
    assert topic.mean() == pytest.approx(float(fitted.params["mean"].sel(topic="t05")[0]), abs=0.02)


# --- bad input --------------------------------------------------------------------------


def test_unknown_model_names_the_registered_ones(small_cube):
    with pytest.raises(ScorestdError, match=r"unknown model 'gamma'.*'normal'.*'empirical'"):
        standardize(small_cube, "gamma")


def test_unknown_option_names_the_model(small_cube):
    with pytest.raises(TypeError, match=r"model 'uniform' has no option.*'C'"):
        standardize(small_cube, "uniform", C=1)


def test_reference_without_scores_for_a_topic(small_cube):
    ref = small_cube.copy()
    ref[4, :, 1] = np.nan
    with pytest.raises(ScoreDataError, match=r"no system with a score for topic 't5', measure 'ndcg'"):
        standardize(small_cube, "normal", reference=ref)


def test_measure_missing_from_reference(small_cube):
    with pytest.raises(ScoreDataError, match=r"has no measure 'ndcg'"):
        standardize(small_cube, "empirical", reference=small_cube.sel(measure=["ap"]))


def test_topic_missing_from_reference(small_cube):
    with pytest.raises(ScoreDataError, match=r"has no topic 't12'"):
        standardize(small_cube, "normal", reference=small_cube.isel(topic=slice(0, 11)))


@pytest.mark.parametrize("bad", [{"dim": "topic"}, {"degenerate": "ignore"}])
def test_bad_options_list_the_choices(small_cube, bad):
    with pytest.raises(ValueError, match="must be one of"):
        standardize(small_cube, **bad)


# --- degenerate topics -------------------------------------------------------------------


@pytest.fixture(scope="module")
def p10():
    """TREC-5 P@10: topic t17 has the same score for every run (a real degenerate topic)."""
    return scorestd.datasets.load("adhoc5_p10")


def test_real_degenerate_topic_is_found_and_left_unstandardized(p10):
    values = p10.values[..., 0]
    degenerate = np.ptp(values, axis=1) == 0
    topic = p10.topic.values[degenerate].tolist()
    assert len(topic) == 1
    raw = p10.sel(topic=topic[0]).values
    with pytest.warns(ScorestdWarning, match=rf"{topic[0]}.*unstandardized"):
        z = standardize(p10, "z")
    # The published reference code keeps mu=0, sigma=1: z-std returns the raw score.
    np.testing.assert_array_equal(z.sel(topic=topic[0]).values, raw)
    with pytest.warns(ScorestdWarning):
        n = standardize(p10, "normal")
    np.testing.assert_allclose(n.sel(topic=topic[0]).values, stats.norm.cdf(raw))
    with pytest.warns(ScorestdWarning):
        e = standardize(p10, "empirical")
    np.testing.assert_array_equal(e.sel(topic=topic[0]).values, raw)
    # Other topics are standardized as usual.
    ok = p10.isel(topic=~degenerate)
    np.testing.assert_allclose(n.isel(topic=~degenerate).values, standardize(ok, "normal").values)


LOCATION_SCALE_WORDING = "left unstandardized (μ=0, σ=1, as the published reference code does)"
RAW_SCORE_WORDING = "left unstandardized: the raw score, clipped to [0, 1]"


@pytest.mark.parametrize(("model", "wording", "expected"), [
    ("normal", LOCATION_SCALE_WORDING, stats.norm.cdf),
    ("z", LOCATION_SCALE_WORDING, lambda raw: raw),
    ("empirical", RAW_SCORE_WORDING, lambda raw: raw),
])
def test_degenerate_warning_says_what_the_model_keeps(p10, model, wording, expected):
    # t17 of TREC-5 P@10: every run scores the same; the warning's words and the scores
    # the topic gets agree (location-scale models: μ=0, σ=1; E-std: the raw score)
    message = ("model {!r}: all reference systems score the same on measure 'p10': "
               "topics ['t17']; these topics are {}")
    with pytest.warns(ScorestdWarning) as caught:
        out = standardize(p10, model)
    assert [str(w.message) for w in caught] == [message.format(model, wording)]
    raw = p10.sel(topic="t17").values
    np.testing.assert_allclose(out.sel(topic="t17").values, expected(raw), rtol=1e-15)


@pytest.mark.parametrize("model", scorestd.models.model_names())
def test_every_models_degenerate_wording_matches_its_scores(model):
    # one wording per kind of fallback: μ=0, σ=1 (the model's cdf at those parameters) or
    # the raw score clipped to [0, 1] (E-std is unbounded: 1.5 there gives 1)
    values = np.array([[0.2, 0.5, 0.9, 0.4], [0.7, 0.7, 0.7, 0.7], [0.1, 0.3, 0.6, 0.8]])
    fitted = scorestd.models.get_model(model)()
    if not fitted.bounded:
        values[1] = 1.5
    with pytest.warns(ScorestdWarning) as caught:
        out = standardize(scorestd.cube(values), model)
    [message] = [str(w.message) for w in caught]
    kept = out.values[1, :, 0]
    if message.endswith(LOCATION_SCALE_WORDING):
        np.testing.assert_array_equal(
            kept, fitted._cdf(values[1], mean=np.float64(0.0), sd=np.float64(1.0)))
    else:
        assert message.endswith(RAW_SCORE_WORDING) and "μ" not in message
        np.testing.assert_array_equal(kept, np.clip(values[1], 0, 1))


def test_degenerate_nan_and_raise_policies(p10):
    with pytest.warns(ScorestdWarning, match="NaN"):
        y = standardize(p10, "uniform", degenerate="nan")
    assert np.isnan(y.sel(topic="t17")).all()
    assert np.isfinite(y.drop_sel(topic="t17")).all()
    with pytest.raises(ScoreDataError, match=r"'t17'.*measure 'p10'|measure 'p10'.*'t17'"):
        standardize(p10, "empirical", degenerate="raise")


def test_a_topic_with_one_reference_score_is_degenerate(small_cube):
    ref = small_cube.copy()
    ref[2, 1:, 0] = np.nan
    with pytest.warns(ScorestdWarning, match="'t3'"):
        y = standardize(small_cube, "z", reference=ref)
    np.testing.assert_array_equal(y.values[2, :, 0], small_cube.values[2, :, 0])


@pytest.mark.parametrize("model", ["normal", "empirical", "kde"])
def test_dask_backed_cube_gives_the_same_numbers(robust2004, model):
    lazy = standardize(robust2004.chunk({"topic": 25}), model)
    assert type(lazy.data).__module__.startswith("dask")
    np.testing.assert_allclose(lazy.values, standardize(robust2004, model).values)


# --- the one-pass route of standardize(cube) ------------------------------------------------


@pytest.mark.parametrize("model", scorestd.models.model_names())
@pytest.mark.parametrize("policy", ["unstandardized", "nan"])
def test_one_pass_route_equals_fit_then_cdf(robust2004, model, policy):
    # standardize(cube) fits and applies in one pass; fitting and then applying the cdf
    # to a copy (another object, so the general route) must give the same numbers,
    # with NaN scores, a degenerate topic and either policy.
    cube = robust2004.isel(topic=slice(0, 12)).copy()
    cube[3, 5:, 0] = np.nan
    cube[7, :, 1] = cube[7, 0, 1]  # every system scores the same
    before = cube.copy(deep=True)
    with pytest.warns(ScorestdWarning, match="'t08'") as caught:
        fast = standardize(cube, model, degenerate=policy)
    assert caught[0].filename == __file__  # the warning points at the caller
    with pytest.warns(ScorestdWarning):
        fitted = scorestd.models.get_model(model).fit(cube, degenerate=policy)
    slow = fitted.cdf(cube.copy())
    np.testing.assert_allclose(fast.values, slow.values, rtol=1e-12, atol=0)
    np.testing.assert_array_equal(np.isnan(fast.values), np.isnan(slow.values))
    assert np.isnan(fast.values[3, 5:, 0]).all()
    xr.testing.assert_identical(cube, before)  # the input is read, never written


def test_a_model_returning_its_input_does_not_let_standardize_write_the_input(p10):
    # With one measure the scores' memory is used as is (no copy); a model whose cdf
    # hands back its input must not have the degenerate policy written into it.
    class Identity(scorestd.models.Normal):
        name = "identity"

        def _cdf(self, x, *, mean, sd):
            return x

    before = p10.copy(deep=True)
    with pytest.warns(ScorestdWarning, match="t17"):
        y = standardize(p10, Identity, degenerate="nan")
    assert np.isnan(y.sel(topic="t17")).all()
    xr.testing.assert_identical(p10, before)


@pytest.mark.parametrize("model", scorestd.models.model_names())
def test_fitted_parameters_round_trip_through_netcdf(adhoc8_ap, model, tmp_path):
    # A reference fitted once, saved and loaded elsewhere, standardizes new runs alike.
    reference, new_runs = adhoc8_ap.isel(system=slice(0, 60)), adhoc8_ap.isel(system=slice(60, None))
    fitted = scorestd.models.get_model(model).fit(reference)
    fitted.params.to_netcdf(tmp_path / "reference.nc")
    with xr.open_dataset(tmp_path / "reference.nc") as params:
        loaded = scorestd.models.get_model(model)().from_params(params.load())
    np.testing.assert_array_equal(loaded.cdf(new_runs).values, fitted.cdf(new_runs).values)
    np.testing.assert_array_equal(
        standardize(new_runs, model, reference=loaded.params).values,
        standardize(new_runs, model, reference=reference).values)


@pytest.mark.parametrize(("model", "options"), [
    ("normal", {}), ("uniform", {"A": 0.2, "B": 0.4}), ("empirical", {"ties": "mid"}),
    ("z", {}), ("beta", {}), ("kde", {"bandwidth": 0.05}), ("truncnorm", {})])
def test_fitted_models_written_and_read_keep_their_options(adhoc8_ap, tmp_path, model, options):
    reference, new_runs = adhoc8_ap.isel(system=slice(0, 60)), adhoc8_ap.isel(system=slice(60, None))
    fitted = scorestd.models.get_model(model)(**options).fit(reference, degenerate="nan")
    path = scorestd.models.write_fitted(fitted, tmp_path / "reference.nc")
    loaded = scorestd.models.read_fitted(path)
    assert loaded.model.options == fitted.model.options
    assert loaded.params.attrs["degenerate_policy"] == "nan"
    np.testing.assert_array_equal(standardize(new_runs, reference=loaded).values,
                                  fitted.cdf(new_runs).values)


def test_reading_a_file_that_is_not_a_fitted_model_names_it(small_cube, tmp_path):
    scorestd.save(small_cube, tmp_path / "scores.nc")
    with pytest.raises(ScoreDataError, match=r"scores.nc: not a fitted model"):
        scorestd.models.read_fitted(tmp_path / "scores.nc")
    params = scorestd.models.get_model("normal").fit(small_cube).params.drop_vars("sd")
    params.to_netcdf(tmp_path / "half.nc")
    with pytest.raises(ScoreDataError, match=r"half.nc: model 'normal' needs parameters"):
        scorestd.models.read_fitted(tmp_path / "half.nc")
