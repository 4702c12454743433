"""Every public function's options, fed values of the wrong type, sign and size.

Each function of ``scorestd.__all__`` is classified: called here with a cheap valid call,
or listed with the reason it is not (a module, a class, a function whose options are
checked where its inputs are: Bayes and simulation functions have their own tests). For
every keyword option with a default, hypothesis draws a bad value of the default's kind
(a string or a number for a boolean; a negative, fractional, text or boolean count; a
probability outside (0, 1) …) and the call must raise :class:`OptionError`, never answer
by truthiness or fail with another exception.
"""

from __future__ import annotations

import inspect
import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scorestd
from scorestd.errors import OptionError, ScorestdWarning


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6), topic=slice(0, 10))
    agg = scorestd.aggregate(ap).isel(measure=0)
    folder = tmp_path_factory.mktemp("option_fuzz")
    matrix = scorestd.write_matrix_csv(ap, folder / "m.csv")
    long = scorestd.write_long_csv(ap, folder / "l.csv")
    run = folder / "run.eval"
    run.write_text("map 401 0.25\nmap 402 0.5\n")
    return {
        "compare_unpaired": ((ap, ap), {}), "load": (("adhoc8_ap",), {}),
        "read_matrix_csv": ((matrix,), {}), "read_long_csv": ((long,), {}),
        "read_trec_eval": ((run,), {}), "from_dataframe": ((scorestd.to_dataframe(ap),), {}),
        "to_dataframe": ((ap,), {}), "write_matrix_csv": ((ap, folder / "w.csv"), {}),
        "table": ((scorestd.compare(ap),), {"scores": ap}),  # name → (positional arguments, keyword arguments) of a cheap valid call
        "aggregate": ((ap,), {}), "rank_systems": ((ap,), {}), "describe": ((ap,), {}),
        "compare": ((ap,), {}), "tukey_hsd": ((ap,), {}),
        "randomised_tukey_hsd": ((ap,), {"B": 20, "seed": 0}),
        "correlation": ((agg, agg), {}), "standardize": ((ap,), {}),
        "smooth": ((ap,), {"prior": ap, "alpha": 0.5}), "topic_hardness": ((ap,), {}),
        "topic_split": ((ap,), {}), "validate": ((ap,), {}), "cube": (([[0.5, 0.2]],), {}),
        "design_variance": ((ap,), {}), "estimate_variance": ((ap,), {}),
        "anova_residual": ((ap,), {}),
        "topic_set_size": ((), {"variance": 0.02, "min_diff": 0.1}),
        "solve_power": ((), {"variance": 0.02, "min_diff": 0.1, "n_topics": 30}),
        "power_function": ((), {"variance": 0.02}),
        "standardization_factors": ((ap,), {}), "fit_reference": ((ap, "normal"), {}),
        "goodness_of_fit": ((ap,), {}),
        "split_half": ((ap,), {"trials": 2, "progress": False}),
        "swap_rate": ((ap,), {"trials": 2, "progress": False}),
        "discriminative_power": ((ap,), {"schemes": ["raw"]}),
        "register_measure": (("option_fuzz_measure",), {}),
        "measure_info": (("map",), {}), "get_model": (("normal",), {}),
        # a study with Type II trials: every level option of its figure is read
        "plot_error_rates": ((scorestd.error_rates(
            ["adhoc8"], measures=["ap"], n_topics=[10], deltas=[0.05], alphas=[0.05],
            tests=["paired_t"], trials=64, trials_type2=64, copula="gaussian", seed=0),), {}),
    }


#: Public names not called here, and why.
NOT_CALLED = {
    "bayes_compare", "bayes_crossed", "bayes_standardize", "assurance",
    "assurance_topic_set_size", "simulation_based_calibration", "compare_likelihoods",
    "plot_system_differences",  # Bayes: options tested in tests/bayes
    "fit_margins", "fit_simulator", "simulate", "simulation_diagnostics", "error_rates",
    # simulation and error-rate studies: options tested in tests/simulation, tests/experiments
    "within_collection", "between_collection", "smoothing_experiment", "estd_stability",
    "leave_one_out", "topic_set_validation",  # resampling studies of full collections
    "evaluate", "from_ir_measures", "from_ranx",  # toolkit objects: tests/io/test_toolkits.py
    "plot_system_effects",  # a Bayes fit: tests/plots
    "plot_topic_distributions",  # a figure; its one option (key=) drawn in tests/plots
    "read_parquet",  # pyarrow optional: its `strict` goes to validate, as read_long_csv's
}


def _options(name, kwargs):
    sig = inspect.signature(getattr(scorestd, name))
    return [p for p in sig.parameters.values()
            if p.default is not inspect.Parameter.empty and p.name not in kwargs
            and isinstance(p.default, bool | int | float)
            and not (isinstance(p.default, bool) and "str" in str(p.annotation))]  # or a name


#: Options that are probabilities, in (0, 1).
PROBABILITIES = {"alpha", "beta", "conf_level", "ci_prob", "threshold", "power", "delta"}


def bad_values(name, default):
    """Values of the wrong type, sign or size for an option with this default."""
    if isinstance(default, bool):
        return st.sampled_from(["no", "False", 2, 0.5, 1.0, None, [True]])
    if isinstance(default, int):
        return st.one_of(st.integers(max_value=-1), st.floats(0.1, 1e6).filter(
            lambda x: x != int(x)), st.sampled_from(["3", True, math.nan, math.inf]))
    if name in PROBABILITIES:
        return st.one_of(st.floats(max_value=0.0), st.floats(min_value=1.0),
                         st.sampled_from(["0.05", True, math.nan, None]))
    return st.sampled_from(["x", "1", True, math.nan, [1.0]])


def test_every_public_function_is_classified(calls):
    functions = {n for n in scorestd.__all__ if inspect.isfunction(getattr(scorestd, n, None))}
    unclassified = functions - set(calls) - NOT_CALLED - {
        n for n in functions if not _options(n, {})}  # nothing to fuzz: no such option
    assert not unclassified, f"add a cheap call or a reason for {sorted(unclassified)}"


@settings(deadline=None, max_examples=150,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_wrong_option_is_an_option_error(calls, data):
    name = data.draw(st.sampled_from(sorted(calls)), label="function")
    args, kwargs = calls[name]
    options = _options(name, kwargs)
    if not options:
        return
    option = data.draw(st.sampled_from(options), label="option")
    value = data.draw(bad_values(option.name, option.default), label="value")
    if option.default is None or (value is None and option.default is None):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        with pytest.raises(OptionError, match=option.name):
            getattr(scorestd, name)(*args, **{**kwargs, option.name: value})


@pytest.mark.parametrize("flag", [True, False, np.bool_(True)])
def test_a_true_boolean_is_read_as_itself(calls, flag):
    args, _ = calls["aggregate"]
    expected = scorestd.aggregate(*args, skipna=bool(flag))
    assert scorestd.aggregate(*args, skipna=flag).identical(expected)


# -- design targets within the measure's range --------------------------------------------

def _design_calls(cube):
    """Each design entry point with score data, as ``f(min_diff)``, and the number of
    measure ranges its target may span (an interval's width: a difference's two)."""
    return {
        "topic_set_size": (lambda d: scorestd.topic_set_size(cube, min_diff=d), 1),
        "topic_set_size anova": (lambda d: scorestd.topic_set_size(
            cube, test="anova", min_diff=d, n_systems=4), 1),
        "topic_set_size ci": (lambda d: scorestd.topic_set_size(cube, test="ci",
                                                                min_diff=d), 2),
        "topic_set_size grid": (lambda d: scorestd.topic_set_size(
            cube, min_diff=[0.1, d]), 1),
        "solve_power": (lambda d: scorestd.solve_power(cube, min_diff=d, n_topics=30), 1),
        "solve_power unpaired": (lambda d: scorestd.solve_power(
            cube, test="unpaired_t", min_diff=d, n_topics=30), 1),
        "assurance": (lambda d: scorestd.assurance(cube, min_diff=d, n_topics=30), 1),
        "assurance_topic_set_size": (lambda d: scorestd.assurance_topic_set_size(
            cube, min_diff=d), 1),
    }


@pytest.fixture(scope="module")
def design_cubes():
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6), topic=slice(0, 10))
    scorestd.register_measure("option_fuzz_gain", lower=0.0, upper=5.0)
    gain = (ap * 5).assign_coords(measure=["option_fuzz_gain"])
    return {"ap": (ap, 1.0, r"\[0, 1\]"), "option_fuzz_gain": (gain, 5.0, r"\[0, 5\]")}


@settings(deadline=None, max_examples=60,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_design_target_beyond_the_measures_range_is_refused(design_cubes, data):
    measure = data.draw(st.sampled_from(sorted(design_cubes)), label="measure")
    cube, span, shown = design_cubes[measure]
    name = data.draw(st.sampled_from(sorted(_design_calls(cube))), label="entry point")
    call, spans = _design_calls(cube)[name]
    limit = span * spans
    over = data.draw(st.floats(1.0001 * limit, 1e3 * limit), label="min_diff")
    with pytest.raises(OptionError, match=rf"min_diff={over!r} is out of reach for measure "
                                          rf"'{measure}', whose scores are in {shown}: .* "
                                          rf"is at most {limit:g}"):
        call(over)
    within = data.draw(st.floats(0.3 * span, limit), label="min_diff within")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        assert call(within) is not None  # an answer, not a refusal


def test_design_targets_of_standardized_or_unknown_measures_are_not_bounded(design_cubes):
    ap = design_cubes["ap"][0]
    z = scorestd.topic_set_size(ap, min_diff=1.5, schemes=["z"])  # z-scores are unbounded
    assert int(z.values.ravel()[0]) >= 2
    unknown = ap.assign_coords(measure=["my_own_utility"])
    assert int(scorestd.topic_set_size(unknown, min_diff=1.5).values.ravel()[0]) >= 2
    # a variance given as a number has no measure
    assert scorestd.topic_set_size(variance=0.04, min_diff=1.5) >= 2


def test_a_solved_difference_beyond_the_range_is_said(design_cubes):
    ap = design_cubes["ap"][0]
    with pytest.warns(ScorestdWarning, match=r"measure 'ap': the minimum detectable "
                                             r"difference .* is beyond the scores' range"):
        mdd = scorestd.solve_power(ap, n_topics=2, power=0.99, alpha=0.001)
    assert float(mdd.values.ravel()[0]) > 1.0


@pytest.mark.parametrize("command", [
    ["power", "adhoc8", "-m", "ap", "--min-diff", "1.5", "--power", "0.8"],
    ["topics", "adhoc8", "-m", "ap", "--min-diff", "0.1,1.5"],
])
def test_the_command_line_refuses_a_target_beyond_the_range(command, capsys):
    from scorestd.cli import main

    assert main(command) != 0
    err = capsys.readouterr().err
    assert ("min_diff=1.5 is out of reach for measure 'ap', whose scores are in [0, 1]"
            in err) and "Traceback" not in err
