"""The ``scores.scorestd`` accessor: every method gives exactly what its function gives."""

from __future__ import annotations

import inspect

import matplotlib
import numpy as np
import pandas as pd
import pytest
import xarray as xr

import scorestd
from scorestd import accessor

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def cube():
    rng = np.random.default_rng(20190721)
    values = rng.beta(2.0, 5.0, size=(16, 6, 2))
    return scorestd.cube(values, measures=["ap", "ndcg"], attrs={"collection": "synthetic"})


def _prior(cube):
    return cube.isel(topic=slice(0, 8)).assign_coords(
        topic=[f"p{i}" for i in range(8)])


# (method, extra positional args built from the cube, keyword args). Seeds are fixed, so
# two calls give the same numbers; trial counts are small.
CALLS = [
    ("validate", (), {}),
    ("describe", (), {}),
    ("to_dataframe", (), {"dropna": True}),
    ("standardize", (), {}),
    ("standardize", ("normal",), {}),
    ("standardize", ("uniform",), {"A": 0.2}),
    ("standardization_factors", (), {}),
    ("goodness_of_fit", (["normal", "beta"],), {}),
    ("smooth", (_prior, 0.5), {}),
    ("aggregate", ("gm",), {}),
    ("rank_systems", (), {"method": "md"}),
    ("topic_hardness", (), {}),
    ("topic_split", (), {"measure": "ap"}),
    ("compare", (), {"test": "wilcoxon"}),
    ("compare_unpaired", (lambda c: c * 0.9,), {}),
    ("tukey_hsd", (), {}),
    ("randomised_tukey_hsd", (), {"B": 50, "seed": 1}),
    ("estimate_variance", (), {}),
    ("design_variance", (), {}),
    ("solve_power", (), {"min_diff": 0.1, "n_topics": None, "power": 0.8}),
    ("topic_set_size", (), {"min_diff": [0.05, 0.1]}),
    ("discriminative_power", (), {"B": 50, "seed": 1}),
    ("swap_rate", (), {"measure": "ap", "trials": 5, "seed": 1, "progress": False}),
    ("leave_one_out", (), {"schemes": ("E",)}),
    ("within_collection", (), {"measure": "ap", "n_topics": 4, "trials": 3, "seed": 1,
                               "progress": False}),
    ("split_half", (), {"measure": "ap", "trials": 3, "seed": 1, "progress": False}),
    ("bayes_compare", (), {"rope": 0.01}),
    # (the synthetic scores have no real system or topic effects: fixed effect variances
    # keep the small run clear of the convergence gate)
    ("bayes_crossed", (), {"measure": "ap", "chains": 2, "draws": 400, "warmup": 100,
                           "seed": 1, "priors": {"system": 0.01, "topic": 0.01}}),
    ("bayes_standardize", ("normal",), {"draws": 50, "seed": 1}),
    ("assurance", (), {"min_diff": 0.1, "n_topics": 30}),
    ("assurance_topic_set_size", (), {"min_diff": 0.1}),
]


def _same(a, b):
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b)
    elif isinstance(a, xr.DataArray | xr.Dataset):
        xr.testing.assert_identical(a, b)
    elif hasattr(a, "posterior") and isinstance(a.posterior, xr.Dataset):  # a Bayesian fit
        xr.testing.assert_identical(a.posterior, b.posterior)
    elif hasattr(a, "data") and isinstance(a.data, xr.Dataset):
        xr.testing.assert_identical(a.data, b.data)
    elif isinstance(a, tuple):  # e.g. the hard and easy topics of a split
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)
    else:
        raise AssertionError(f"no comparison for {type(a).__name__}")


@pytest.mark.parametrize(("name", "args", "kwargs"), CALLS,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(CALLS)])
def test_method_gives_what_its_function_gives(cube, name, args, kwargs):
    args = tuple(a(cube) if callable(a) else a for a in args)
    function = getattr(scorestd, name)
    _same(getattr(cube.scorestd, name)(*args, **kwargs), function(cube, *args, **kwargs))


def test_correlation_adjustment_and_fractions_on_derived_arrays(cube):
    means = cube.scorestd.aggregate()
    other = cube.isel(topic=slice(0, 8)).scorestd.aggregate()
    xr.testing.assert_identical(means.scorestd.correlation(other),
                                scorestd.correlation(means, other))
    p = cube.scorestd.compare()["p_value"]
    xr.testing.assert_identical(p.scorestd.adjust_pvalues("bh"),
                                scorestd.adjust_pvalues(p, "bh"))
    xr.testing.assert_identical(p.scorestd.fraction_significant([0.05, 0.1]),
                                scorestd.fraction_significant(p, [0.05, 0.1]))


def test_save_writes_the_same_file(cube, tmp_path):
    cube.scorestd.save(tmp_path / "a.nc")
    scorestd.save(cube, tmp_path / "b.nc")
    xr.testing.assert_identical(scorestd.load(tmp_path / "a.nc"), scorestd.load(tmp_path / "b.nc"))


def test_plots_are_drawn(cube):
    import matplotlib.pyplot as plt

    for name in ("plot_standardization", "plot_mapping", "plot_topic_distributions"):
        drawn = getattr(cube.scorestd, name)(measure="ap")
        figure = drawn if hasattr(drawn, "savefig") else drawn.figure
        assert figure.axes and any(ax.has_data() for ax in figure.axes)
        plt.close("all")


def test_every_method_is_a_top_level_function_with_its_signature_without_the_scores():
    for name in accessor.METHODS:
        method = getattr(accessor.ScoreCubeAccessor, name)
        function = getattr(scorestd, name)
        assert name in scorestd.__all__, name
        expected = list(inspect.signature(function).parameters.values())[1:]
        got = list(inspect.signature(method).parameters.values())[1:]
        assert [(p.name, p.kind) for p in got] == [(p.name, p.kind) for p in expected], name
        assert all(p.default is q.default for p, q in zip(got, expected, strict=True)), name
        assert f"scorestd.{name}" in method.__doc__
    assert set(accessor.METHODS) <= set(dir(scorestd.cube([[0.5]]).scorestd))


def test_every_cube_function_of_the_top_level_has_a_method():
    # A new public function that takes scores first should get a method too.
    skip = {"cube", "load", "from_dataframe", "from_ir_measures", "from_ranx", "evaluate",
            "measure_info", "register_measure",
            "read_factors", "write_factors", "get_model",
            "register_model", "model_names", "plot_topic_set_size", "power_function",
            "sakai_power_anova", "sakai_power_paired_t", "ci_expected_width",
            # a context manager of the kernels' BLAS threads
            "blas_threads",
            # figures of Bayesian results (they take a fitted model, not scores)
            "plot_system_effects", "plot_pair_probabilities", "plot_posterior_differences",
            "plot_posterior_ranks", "plot_system_differences", "plot_predictive_checks",
            # calibration of the samplers on data they simulate themselves
            "simulation_based_calibration",
            # simulation: a fitted simulator or several collections come first
            "simulate", "simulation_diagnostics", "error_rates", "compare_error_rates",
            "plot_error_rates",
            # tables of results (they take a result, not scores)
            "table"}
    for name in scorestd.__all__:
        obj = getattr(scorestd, name)
        if name in skip or not inspect.isfunction(obj) or name.startswith(("read_", "write_")):
            continue
        assert name in accessor.METHODS, name


def test_accessor_errors_are_the_functions_errors(cube):
    with pytest.raises(scorestd.ScorestdError, match="unknown model .no-such-model."):
        cube.scorestd.standardize("no-such-model")
