"""Extra dims (``trial``, ``collection``, ``fold`` …) are mapped over by every public function
that takes a cube, or refused with a message that says what to do.

Every public name of :mod:`scorestd` is classified below; a new function that takes a cube
and is not classified fails :func:`test_every_public_function_is_classified`. The mapped
ones are checked for slice equality: the result on a cube with extra dims, selected at a
slice, equals the result on that slice (a plain loop over slices in the test is the
reference).
"""

from __future__ import annotations

import inspect
import itertools

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.mapping import MAPPED, name_slice, slice_labels


def _other_half(c):
    return c.isel(system=slice(0, 3))


#: A reference without extra dims, fitted once and applied to every slice.
FIXED_REFERENCE = scorestd.cube(np.random.default_rng(9).uniform(0.01, 0.9, (10, 4, 2)),
                                measures=["ap", "ndcg"])


#: Mapped functions: how each is called on a cube (``c``), over 6 systems and ap/ndcg.
MAPPED_CALLS = {
    "aggregate": [lambda c: scorestd.aggregate(c), lambda c: scorestd.aggregate(c, "egm")],
    "rank_systems": [lambda c: scorestd.rank_systems(c)],
    "correlation": [lambda c: scorestd.correlation(c, c.isel(topic=slice(0, 4)), "tau_b"),
                    lambda c: scorestd.correlation(c, c ** 2 + c.isel(system=0), "tau_ap")],
    "describe": [lambda c: scorestd.describe(c)],
    "standardize": [lambda c: scorestd.standardize(c),
                    lambda c: scorestd.standardize(c, "normal", reference=_other_half(c)),
                    lambda c: scorestd.standardize(c, "uniform", reference=FIXED_REFERENCE),
                    lambda c: scorestd.standardize(c, "beta", reference=_other_half(c)),
                    lambda c: scorestd.standardize(c, "z")],
    "smooth": [lambda c: scorestd.smooth(c, FIXED_REFERENCE.isel(system=[0, 1, 2, 3, 0, 1],
                                                                 topic=slice(0, 5)).assign_coords(
        system=[f"s{k + 1}" for k in range(6)], topic=[f"p{k}" for k in range(5)]), 0.5),
               lambda c: scorestd.smooth(c, c.isel(topic=slice(0, 5)).assign_coords(
                   topic=[f"p{k}" for k in range(5)]), {"ap": 0.2, "ndcg": 0.9})],
    "compare": [lambda c: scorestd.compare(c, correction="holm"),
                lambda c: scorestd.compare(c, "permutation", baseline="s1", B=200, seed=3),
                lambda c: scorestd.compare(c, "bootstrap", B=200, seed=4),
                lambda c: scorestd.compare(c, "wilcoxon", baseline="s2"),
                lambda c: scorestd.compare(c, "sign"),
                lambda c: scorestd.compare(c, "tukey_hsd"),
                lambda c: scorestd.compare(c, "randomised_tukey_hsd", B=200, seed=6)],
    "compare_unpaired": [lambda c: scorestd.compare_unpaired(
        c.isel(topic=slice(0, 4)), c.isel(topic=slice(4, None)))],
    "tukey_hsd": [lambda c: scorestd.tukey_hsd(c)],
    "randomised_tukey_hsd": [lambda c: scorestd.randomised_tukey_hsd(c, B=200, seed=5)],
    "topic_hardness": [lambda c: scorestd.topic_hardness(c),
                       lambda c: scorestd.topic_hardness(c, "mean"),
                       lambda c: scorestd.topic_hardness(c.round(1), degenerate="zero")],
    "anova_residual": [lambda c: scorestd.anova_residual(c)],
    "estimate_variance": [lambda c: scorestd.estimate_variance(c, kind="paired_difference")],
    "design_variance": [lambda c: scorestd.design_variance(c, "anova")],
    "solve_power": [lambda c: scorestd.solve_power(c, min_diff=0.1, n_topics=20)],
    "topic_set_size": [lambda c: scorestd.topic_set_size(c, min_diff=0.1)],
    "assurance": [lambda c: scorestd.assurance(c, min_diff=0.1, n_topics=10)],
    "assurance_topic_set_size": [
        lambda c: scorestd.assurance_topic_set_size(c, min_diff=0.1, beta=0.5)],
    "standardization_factors": [lambda c: scorestd.standardization_factors(c)],
    "fit_reference": [lambda c: scorestd.fit_reference(c, "normal").params,
                      lambda c: scorestd.fit_reference(c, "empirical").params,
                      lambda c: scorestd.standardize(c, reference=scorestd.fit_reference(
                          c.isel(system=slice(0, 4)), "beta"))],
    "goodness_of_fit": [lambda c: scorestd.goodness_of_fit(c, ["normal", "beta", "kde"]).data,
                        lambda c: scorestd.goodness_of_fit(c, ["normal", "uniform"],
                                                           distance="cvm").summary()],
    # one block of rows per slice
    "table": [lambda c: scorestd.table(c).values, lambda c: scorestd.table(c).high,
              lambda c: scorestd.table(scorestd.compare(c, correction="holm"), scores=c).marks,
              lambda c: scorestd.table(scorestd.compare(c, baseline="s1"), scores=c).values],
}

#: Writers of every format that keeps extra dims (checked below).
WRITERS = {"save", "to_dataframe", "write_netcdf", "write_long_csv", "write_parquet"}

#: Functions whose result is one object per collection (a fit, an experiment's result, a
#: topic split, a figure): with extra dims, a PerSlice of the results, or the labelled
#: result with the extra dims (bayes_compare, bayes_standardize). Small runs: each is
#: called once per slice by the test too.
PER_SLICE_CALLS = {
    "bayes_compare": lambda c: scorestd.bayes_compare(c, baseline="s1"),
    "bayes_crossed": lambda c: scorestd.bayes_crossed(c, measure="ap", chains=1, draws=40,
                                                      warmup=40, seed=1),
    "compare_likelihoods": lambda c: scorestd.compare_likelihoods(
        c, ["normal", "censored"], measure="ap", cells="continuous", chains=1, draws=60,
        warmup=40, seed=2),
    "bayes_standardize": lambda c: scorestd.bayes_standardize(c, "normal", draws=50, seed=3),
    "between_collection": lambda c: scorestd.between_collection(
        c, measure="ap", schemes=("raw", "z"), trials=20, seed=4),
    "discriminative_power": lambda c: scorestd.discriminative_power(c, B=50, seed=5),
    "fit_margins": lambda c: scorestd.fit_margins(c, measure="ap", families=["beta1"]),
    "fit_simulator": lambda c: scorestd.fit_simulator(c, measure="ap", families=["beta1"],
                                                      copula="gaussian"),
    "leave_one_out": lambda c: scorestd.leave_one_out(c, schemes=("N",)),
    "plot_mapping": lambda c: scorestd.plot_mapping(c, measure="ap"),
    "plot_standardization": lambda c: scorestd.plot_standardization(c, ("normal",),
                                                                    measure="ndcg"),
    "plot_topic_distributions": lambda c: scorestd.plot_topic_distributions(c, measure="ap"),
    "smoothing_experiment": lambda c: scorestd.smoothing_experiment(
        c, measure="ap", alphas=(0.0, 0.5), n_topics=3, trials=20, seed=6),
    "split_half": lambda c: scorestd.split_half(c, measure="ap", methods=("am",), trials=20,
                                                seed=7),
    "standardization_report": lambda c: scorestd.standardization_report(c, ["normal"]),
    "swap_rate": lambda c: scorestd.swap_rate(c, measure="ap", sizes=[2, 4], trials=20,
                                              seed=8),
    "topic_split": lambda c: scorestd.topic_split(c, measure="ndcg"),
    "within_collection": lambda c: scorestd.within_collection(
        c, measure="ap", schemes=("raw", "N"), n_topics=4, trials=20, seed=9),
    "error_rates": lambda c: scorestd.error_rates(
        {"mine": c, "fixed": FIXED_REFERENCE}, measures=["ap"], n_topics=[5], deltas=None,
        tests=["paired_t"], trials=64, copula="gaussian", seed=1),
    "estd_stability": lambda c: scorestd.estd_stability(c, measure="ap", pool_sizes=[3, 5],
                                                        trials=10, seed=1),
    "topic_set_validation": lambda c: scorestd.topic_set_validation(
        c, measure="ap", schemes=("raw",), trials=10, truth_topics=200, seed=1),
}

#: Functions that refuse a cube with extra dims, saying where to write it instead.
REFUSED = {
    # a topic × system matrix holds one collection; long CSV, Parquet, netCDF keep extra dims
    "write_matrix_csv": lambda c: scorestd.write_matrix_csv(c, "never-written.csv"),
}

#: Public functions that take no cube (scalars, files, models, p-values, fitted objects).
NO_CUBE = {
    "adjust_pvalues", "blas_threads", "ci_expected_width", "compare_error_rates", "cube", "evaluate",
    "fraction_significant", "from_dataframe", "from_ir_measures", "from_ranx", "get_model",
    "load", "measure_info", "model_names", "plot_pair_probabilities",
    "plot_posterior_differences", "plot_posterior_ranks", "plot_predictive_checks",
    "plot_system_differences", "plot_system_effects", "simulation_based_calibration",
    "plot_error_rates",
    "plot_topic_set_size", "power_function", "read_factors", "read_fitted", "read_groups",
    "read_long_csv", "read_matrix_csv", "read_netcdf", "read_parquet", "read_trec_eval",
    "register_measure", "register_model", "sakai_power_anova", "sakai_power_paired_t",
    "simulate", "simulation_diagnostics", "validate", "write_factors", "write_fitted",
}


def _public_functions() -> set[str]:
    return {name for name in scorestd.__all__ if inspect.isfunction(getattr(scorestd, name))}


def test_every_public_function_is_classified():
    classified = set(MAPPED_CALLS) | set(PER_SLICE_CALLS) | WRITERS | set(REFUSED) | NO_CUBE
    assert _public_functions() - classified == set(), "classify these in tests/test_extra_dims.py"
    assert classified - _public_functions() == set()
    groups = [set(MAPPED_CALLS), set(PER_SLICE_CALLS), WRITERS, set(REFUSED), NO_CUBE]
    assert sum(map(len, groups)) == len(classified), "a function is in two classes"


def test_the_mapped_functions_say_so():
    _public_functions()  # imports every module, which registers its mapped functions
    for name in [*MAPPED_CALLS, *PER_SLICE_CALLS]:
        assert name in MAPPED, f"{name} is not marked with maps_extra_dims"
    for name in REFUSED:
        assert name not in MAPPED, name


def _cube_with_extra_dims(values: np.ndarray, extra: dict[str, list]) -> xr.DataArray:
    base = scorestd.cube(values[(0,) * len(extra)], measures=["ap", "ndcg"])
    return xr.DataArray(values, dims=(*extra, *base.dims),
                        coords={**extra, **{d: base[d] for d in base.dims}}, name="score")


@st.composite
def cubes_with_extra_dims(draw):
    """Cubes of scores in (0, 1] with one or two extra dims (labelled by ints or strings)."""
    layout = draw(st.sampled_from([{"trial": [0, 1, 2]}, {"collection": ["a", "b"]},
                                   {"fold": ["f2", "f1"], "trial": [7, 3]}]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    shape = (*(len(v) for v in layout.values()), 10, 6, 2)
    values = np.round(rng.beta(2, 4, size=shape), 4) + 1e-3
    return _cube_with_extra_dims(values, layout)


def _assert_slice_equal(whole, part, selector) -> None:
    if isinstance(whole, xr.DataArray | xr.Dataset):
        picked = whole.sel(selector, drop=True)
        xr.testing.assert_allclose(picked, part.drop_vars(list(selector), errors="ignore"))
    elif isinstance(whole, pd.DataFrame | pd.Series):
        keys = tuple(selector.values())
        levels = list(selector)
        picked = whole.xs(keys if len(keys) > 1 else keys[0],
                          level=levels if len(levels) > 1 else levels[0])
        if isinstance(whole, pd.DataFrame):
            pd.testing.assert_frame_equal(picked, part)
        else:
            pd.testing.assert_series_equal(picked, part)
    else:
        raise AssertionError(f"unexpected result type {type(whole).__name__}")


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
@pytest.mark.parametrize("name, k", [(name, k) for name, calls in MAPPED_CALLS.items()
                                     for k in range(len(calls))])
@settings(max_examples=8, deadline=None)
@given(cube=cubes_with_extra_dims())
def test_mapped_result_equals_the_result_on_each_slice(name, k, cube):
    call = MAPPED_CALLS[name][k]
    whole = call(cube)
    if isinstance(whole, xr.DataArray | xr.Dataset):
        assert list(whole.dims)[:cube.ndim - 3] == list(cube.dims[:-3])
    for selector in slice_labels(cube):
        _assert_slice_equal(whole, call(cube.sel(selector, drop=True)), selector)


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_refused_functions_name_the_extra_dims(name):
    rng = np.random.default_rng(1)
    cube = _cube_with_extra_dims(rng.uniform(0.01, 1, size=(2, 10, 6, 2)), {"trial": [0, 1]})
    with pytest.raises(ScoreDataError, match=r"'trial' \(2\).*write_long_csv.*\.nc.*trial=0"):
        REFUSED[name](cube)


def _assert_same(whole, part, where="") -> None:
    """Two results of one collection equal, field by field (a plain recursive reference)."""
    import dataclasses

    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    if isinstance(whole, xr.DataArray | xr.Dataset):
        xr.testing.assert_allclose(whole, part)
    elif isinstance(whole, pd.DataFrame):
        pd.testing.assert_frame_equal(whole, part)
    elif isinstance(whole, pd.Series):
        pd.testing.assert_series_equal(whole, part)
    elif isinstance(whole, Figure | Axes):  # the same picture, pixel for pixel
        figures = [x if isinstance(x, Figure) else x.figure for x in (whole, part)]
        for fig in figures:
            fig.canvas.draw()
        np.testing.assert_array_equal(*(np.asarray(f.canvas.buffer_rgba()) for f in figures))
    elif dataclasses.is_dataclass(whole) and not isinstance(whole, type):
        assert type(whole) is type(part), where
        for field in dataclasses.fields(whole):
            _assert_same(getattr(whole, field.name), getattr(part, field.name),
                         f"{where}.{field.name}")
    elif isinstance(whole, dict):
        assert list(whole) == list(part), where
        for key in whole:
            _assert_same(whole[key], part[key], f"{where}[{key!r}]")
    elif isinstance(whole, list | tuple):
        assert type(whole) is type(part) and len(whole) == len(part), where
        for k, (a, b) in enumerate(zip(whole, part, strict=True)):
            _assert_same(a, b, f"{where}[{k}]")
    elif isinstance(whole, np.ndarray):
        if whole.dtype.kind in "fc":
            np.testing.assert_allclose(whole, part, err_msg=where)
        else:
            np.testing.assert_array_equal(whole, part, err_msg=where)
    elif isinstance(whole, float):
        assert whole == pytest.approx(part, nan_ok=True), where
    elif hasattr(whole, "__dict__") and type(whole).__eq__ is object.__eq__:
        _assert_same(vars(whole), vars(part), where)  # e.g. a copula's parameters
    else:
        assert whole == part, where


@st.composite
def small_cubes_with_extra_dims(draw):
    """As cubes_with_extra_dims, two slices per cube (the functions below are slow)."""
    layout = draw(st.sampled_from([{"trial": [0, 1]}, {"collection": ["b", "a"]},
                                   {"fold": ["f1"], "trial": [7, 3]}]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = (*(len(v) for v in layout.values()), 10, 6, 2)
    return _cube_with_extra_dims(np.round(rng.beta(2, 4, size=shape), 4) + 1e-3, layout)


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("name", sorted(PER_SLICE_CALLS))
@settings(max_examples=2, deadline=None)
@given(cube=small_cubes_with_extra_dims())
def test_one_object_per_collection_comes_back_per_slice(name, cube):
    import matplotlib.pyplot as plt

    call = PER_SLICE_CALLS[name]
    try:
        whole = call(cube)
        extra = list(cube.dims[:-3])
        if isinstance(whole, xr.Dataset):  # labelled: the extra dims kept, first
            assert list(whole.dims)[:len(extra)] == extra
            for selector in slice_labels(cube):
                _assert_slice_equal(whole, call(cube.sel(selector, drop=True)), selector)
            return
        assert isinstance(whole, scorestd.PerSlice) and whole.dims == tuple(extra)
        assert whole.function == name and name in repr(whole)
        assert len(whole) == len(slice_labels(cube))
        for selector in slice_labels(cube):
            key = tuple(selector.values())
            one = whole[key if len(key) > 1 else key[0]]
            assert whole.sel(selector) is one
            alone = call(cube.sel(selector, drop=True))
            name_slice(alone, selector)  # a slice's figure names its slice in its title
            _assert_same(one, alone, name)
    finally:
        plt.close("all")


def test_per_slice_selects_by_dim_and_tables_stack_one_block_per_slice(adhoc8_ap):
    sims = xr.concat([adhoc8_ap.isel(system=slice(0, 4)) ** p for p in (1.0, 1.2)],
                     dim=pd.Index(["x", "y"], name="fold"))
    sims = sims.expand_dims(trial=[5])
    power = scorestd.discriminative_power(sims, B=50, seed=1)
    assert repr(power).startswith("PerSlice of discriminative_power over trial × fold "
                                  "(2 slices):\n  trial=5, fold='x': DiscriminativePower(")
    assert set(power) == {(5, "x"), (5, "y")}
    by_fold = power.sel(trial=5)
    assert isinstance(by_fold, scorestd.PerSlice) and by_fold.dims == ("fold",)
    assert by_fold["y"] is power[5, "y"]
    with pytest.raises(KeyError, match="no slice"):
        power[5, "z"]
    with pytest.raises(KeyError, match="'seed': not an extra dim"):
        power.sel(seed=1)
    stacked = scorestd.table(power)
    assert stacked.values.index.names[:2] == ["trial", "fold"]
    for key, one in power.items():  # each block is the slice's own table
        pd.testing.assert_frame_equal(stacked.values.loc[key], scorestd.table(one).values)
    assert stacked.caption.endswith("One block of rows per trial × fold.")


def test_an_axis_cannot_be_shared_by_the_slices(adhoc8_ap):
    import matplotlib.pyplot as plt

    sims = xr.concat([adhoc8_ap, adhoc8_ap], dim="trial")
    fig, ax = plt.subplots()
    try:
        with pytest.raises(scorestd.OptionError, match="plot_topic_distributions: ax cannot "
                                                       "be shared by the slices"):
            scorestd.plot_topic_distributions(sims, ax=ax)
    finally:
        plt.close(fig)


def test_a_function_that_does_not_map_explains_how_to_select():
    cube = _cube_with_extra_dims(np.full((2, 3, 2, 2), 0.5), {"fold": ["x", "y"]})
    with pytest.raises(ScoreDataError, match=r"select one slice \(scores.sel\(fold='x'\)"):
        scorestd.validate(cube)
    assert scorestd.validate(cube, extra_dims=True).dims == ("fold", "topic", "system",
                                                             "measure")


def test_extra_dims_come_first_and_labels_are_checked():
    values = np.full((3, 2, 2, 1), 0.5)
    da = xr.DataArray(values, dims=("topic", "trial", "system", "measure"),
                      coords={"topic": ["a", "b", "c"], "trial": [1, 1], "system": ["x", "y"],
                              "measure": ["ap"]})
    with pytest.raises(ScoreDataError, match="repeated trial labels"):
        scorestd.validate(da, extra_dims=True)
    out = scorestd.validate(da.assign_coords(trial=[1, 2]), extra_dims=True)
    assert out.dims == ("trial", "topic", "system", "measure")
    assert out.sel(trial=2, topic="b", system="y").item() == 0.5


def test_an_infinite_score_is_named_with_its_slice():
    values = np.full((2, 2, 2, 1), 0.5)
    values[1, 0, 1, 0] = np.inf
    da = _cube_with_extra_dims(np.concatenate([values, values], axis=-1), {"trial": [4, 9]})
    with pytest.raises(ScoreDataError, match="trial 9, topic 't1', system 's2'"):
        scorestd.validate(da, extra_dims=True)


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
def test_aggregate_names_the_slice_of_a_negative_score():
    values = np.full((2, 3, 2, 2), 0.5)
    values[1, 2, 0, 1] = -0.25
    cube = _cube_with_extra_dims(values, {"collection": ["c1", "c2"]})
    with pytest.raises(ScoreDataError, match="system 's1' has -0.25 at collection 'c2', "
                                             "topic 't3', measure 'ndcg'"):
        scorestd.aggregate(cube, "gm")


def test_a_simulated_collection_goes_through_the_chain(adhoc8_ap):
    sim = scorestd.fit_simulator(adhoc8_ap.isel(system=slice(0, 8)), measure="ap")
    sims = scorestd.simulate(sim, n_topics=25, trials=3, seed=2)
    means = scorestd.aggregate(scorestd.standardize(sims))
    assert means.dims == ("trial", "system", "measure")
    tests = scorestd.compare(sims, baseline=str(sim.systems[0]))
    assert tests.p_value.dims[0] == "trial"
    for trial in range(3):
        one = scorestd.compare(sims.isel(trial=trial, drop=True), baseline=str(sim.systems[0]))
        np.testing.assert_allclose(tests.p_value.isel(trial=trial), one.p_value)


def test_two_cubes_must_share_their_extra_dims():
    a = _cube_with_extra_dims(np.full((2, 3, 2, 2), 0.5), {"trial": [0, 1]})
    b = _cube_with_extra_dims(np.full((2, 3, 2, 2), 0.5), {"fold": [0, 1]})
    with pytest.raises(ValueError, match="different extra dims"):
        scorestd.compare_unpaired(a, b)
    with pytest.raises(ValueError, match="labels on"):
        scorestd.compare_unpaired(a, a.assign_coords(trial=[5, 6]))


def test_slice_labels_cover_every_combination():
    cube = _cube_with_extra_dims(np.zeros((2, 3, 1, 1, 2)), {"a": ["x", "y"], "b": [1, 2, 3]})
    assert slice_labels(cube) == [dict(zip("ab", p, strict=True))
                                  for p in itertools.product(["x", "y"], [1, 2, 3])]


@settings(max_examples=20, deadline=None)
@given(cube=cubes_with_extra_dims(), holes=st.integers(0, 2**32 - 1))
def test_describe_with_missing_scores_matches_pandas_per_slice(cube, holes):
    rng = np.random.default_rng(holes)
    cube = cube.where(rng.uniform(size=cube.shape) > 0.3)  # NaN in about 30% of cells
    cube[(0,) * (cube.ndim - 3) + (1,)] = 0.25  # a degenerate topic in the first slice
    table = scorestd.describe(cube)
    for selector in slice_labels(cube):
        for measure in ("ap", "ndcg"):
            x = cube.sel(selector).sel(measure=measure).transpose("topic", "system")
            present = pd.Series(x.values.ravel()).dropna()
            row = table.loc[(*selector.values(), measure)]
            assert row["missing"] == x.isnull().sum()
            assert row["mean"] == pytest.approx(present.mean(), nan_ok=True)
            assert row["sd"] == pytest.approx(present.std(), nan_ok=True)
            assert row["median"] == pytest.approx(present.median(), nan_ok=True)
            assert row["zero_fraction"] == pytest.approx((present == 0).mean(), nan_ok=True)
            per_topic = x.to_pandas()
            spread = per_topic.max(axis=1) - per_topic.min(axis=1)
            assert row["degenerate_topics"] == (spread == 0).sum()
            assert row["missing_topics"] == per_topic.isna().any(axis=1).sum()


@settings(max_examples=10, deadline=None)
@given(cube=cubes_with_extra_dims())
def test_netcdf_keeps_extra_dims_and_their_labels(cube, tmp_path_factory):
    path = tmp_path_factory.mktemp("nc") / "sims.nc"
    assert scorestd.save(cube, path) == path
    back = scorestd.load(path)
    xr.testing.assert_identical(back, scorestd.validate(cube, extra_dims=True))
    relabelled = cube.assign_coords({cube.dims[0]: cube[cube.dims[0]].values[::-1]})
    assert (scorestd.io.netcdf.content_digest(scorestd.validate(relabelled, extra_dims=True))
            != scorestd.io.netcdf.content_digest(back))


@settings(max_examples=10, deadline=None)
@given(cube=cubes_with_extra_dims())
def test_to_dataframe_leads_with_the_extra_dims(cube):
    frame = scorestd.to_dataframe(cube)
    extra = list(cube.dims[:-3])
    assert list(frame.columns) == [*extra, "system", "topic", "measure", "value"]
    for selector in slice_labels(cube):
        rows = frame
        for dim, label in selector.items():
            rows = rows[rows[dim] == label]
        want = scorestd.to_dataframe(cube.sel(selector, drop=True))
        pd.testing.assert_frame_equal(rows.drop(columns=extra).reset_index(drop=True), want)


@pytest.mark.parametrize("suffix", ["csv", "parquet"])
@settings(max_examples=10, deadline=None)
@given(cube=cubes_with_extra_dims(), holes=st.integers(0, 2**32 - 1))
def test_long_tables_keep_extra_dims_and_the_type_of_their_labels(suffix, cube, holes,
                                                                  tmp_path_factory):
    pytest.importorskip("pyarrow") if suffix == "parquet" else None
    rng = np.random.default_rng(holes)
    cube = scorestd.validate(cube.where(rng.uniform(size=cube.shape) > 0.2), extra_dims=True)
    cube.attrs["collection"] = "sims"
    # a simulated collection's truth per system, and a family label, go with it
    cube = cube.assign_coords(true_mean=("system", rng.uniform(size=cube.sizes["system"])),
                              family=("system", ["beta"] * cube.sizes["system"]))
    path = tmp_path_factory.mktemp("long") / f"sims.{suffix}"
    write, read = ((scorestd.write_long_csv, scorestd.read_long_csv) if suffix == "csv"
                   else (scorestd.write_parquet, scorestd.read_parquet))
    back = read(write(cube, path))
    xr.testing.assert_identical(back, cube)
    for selector in slice_labels(cube):  # each slice reads back as the slice written alone
        alone = read(write(cube.sel(selector, drop=True), path))
        xr.testing.assert_identical(back.sel(selector, drop=True), alone)


def test_a_long_csv_of_ours_names_its_extra_dims_and_a_user_file_can(tmp_path):
    cube = _cube_with_extra_dims(np.full((2, 3, 2, 2), 0.5), {"fold": ["x", "y"]})
    path = scorestd.write_long_csv(cube, tmp_path / "folds.csv")
    lines = path.read_text().splitlines()
    assert '"scorestd:extra_dims": {"fold": "str"}' in lines[0]
    assert lines[1] == "fold,system,topic,measure,value"
    plain = tmp_path / "plain.csv"
    plain.write_text("\n".join(lines[1:]) + "\n")  # no attrs line: name the dim
    assert scorestd.read_long_csv(plain).sizes == {"topic": 3, "system": 2, "measure": 2}
    xr.testing.assert_equal(scorestd.read_long_csv(plain, extra_dims=["fold"]),
                            scorestd.validate(cube, extra_dims=True))
    with pytest.raises(ScoreDataError, match="no column 'trial' of the extra dim"):
        scorestd.read_long_csv(plain, extra_dims=["trial"])


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
@settings(max_examples=6, deadline=None)
@given(cube=cubes_with_extra_dims(), stretch=st.floats(1.2, 5.0))
def test_goodness_of_fit_decides_the_unit_interval_per_slice(cube, stretch):
    # the first slice leaves [0, 1] (a measure without bounds); the others stay inside,
    # where densities are taken at squeezed scores: each slice as it would be alone
    values = cube.values.copy()
    values[(0,) * (cube.ndim - 3)] = values[(0,) * (cube.ndim - 3)] * stretch + 0.5
    cube = cube.copy(data=values)
    # (beta and kde need scores in [0, 1]: normal and uniform fit any slice)
    whole = scorestd.goodness_of_fit(cube, ["normal", "uniform"]).data
    for selector in slice_labels(cube):
        alone = scorestd.goodness_of_fit(cube.sel(selector, drop=True),
                                         ["normal", "uniform"]).data
        xr.testing.assert_allclose(whole.sel(selector, drop=True), alone)
    # the stretched slice's normal loglik is of the raw scores, not squeezed ones (a
    # decision over the whole cube squeezed none: the other slices differed from alone)
    from scipy import stats

    first = cube.isel({dim: 0 for dim in cube.dims[:-3]}, drop=True).transpose(
        "topic", "system", "measure").values
    raw = stats.norm.logpdf(first, first.mean(1, keepdims=True),
                            first.std(1, ddof=1, keepdims=True)).sum(1)  # topic × measure
    np.testing.assert_allclose(whole["loglik"].isel({d: 0 for d in cube.dims[:-3]})
                               .sel(model="normal").transpose("topic", "measure"), raw)


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
@pytest.mark.parametrize("name", ["estd_stability", "topic_set_validation"])
def test_a_file_with_extra_dims_is_mapped_as_its_cube_is(name, tmp_path):
    # The studies take a score file as they take a cube: its trial dim is mapped over,
    # not handed whole to the simulator's fit (which returns one fit per trial).
    rng = np.random.default_rng(11)
    cube = _cube_with_extra_dims(np.round(rng.beta(2, 4, size=(2, 10, 6, 2)), 4) + 1e-3,
                                 {"trial": [0, 1]})
    path = tmp_path / "sims.nc"
    scorestd.save(cube, path)
    call = PER_SLICE_CALLS[name]
    from_file = call(str(path))
    from_cube = call(scorestd.load(path))
    assert isinstance(from_file, scorestd.PerSlice) and from_file.dims == ("trial",)
    for trial in (0, 1):
        _assert_same(from_file[trial], from_cube[trial], name)
