"""Experiment schemes go through the registered models: options, a user's own model."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

import scorestd
from scorestd.errors import ScorestdError
from scorestd.models import Uniform, register_model
from scorestd.models.registry import _REGISTRY
from scorestd.models.schemes import check_schemes, scheme_kernel, standardized_stack


class Uniform30(Uniform):
    """U-std with A = 0.3: a user's own model, registered under its own name."""

    name = "uniform30"

    @classmethod
    def defaults(cls):
        return {"A": 0.3, "B": 0.5}


@pytest.fixture
def uniform30():
    register_model("uniform30", Uniform30)
    yield "uniform30"
    _REGISTRY.pop("uniform30")


@pytest.fixture(scope="module")
def sub(robust2004):
    return robust2004.sel(measure=["ap"]).isel(system=slice(0, 20))


def test_options_reach_the_model(sub):
    stack = standardized_stack(sub, ["U"], {"U": {"A": 0.3}})
    expected = scorestd.standardize(sub, "uniform", A=0.3).isel(measure=0).values
    np.testing.assert_array_equal(stack[0], expected)
    # and differ from Sakai's default A = 0.15
    assert not np.allclose(stack[0], standardized_stack(sub, ["U"])[0])


def test_a_registered_model_is_a_scheme_like_options_of_a_registered_one(sub, uniform30):
    by_options = scorestd.within_collection(sub, schemes=["U"], scheme_options={"U": {"A": 0.3}},
                                            n_topics=10, trials=20, seed=3, progress=False)
    by_name = scorestd.within_collection(sub, schemes=[uniform30], n_topics=10, trials=20,
                                         seed=3, progress=False)
    for name in by_options.data.data_vars:
        np.testing.assert_array_equal(by_options.data[name].values, by_name.data[name].values)


def test_the_per_trial_kernel_is_the_models_numpy_route(sub):
    x = sub.isel(measure=0).values
    for scheme, model in (("N", "normal"), ("E", "empirical"), ("U", "uniform"), ("z", "z")):
        got = scheme_kernel(scheme)(x, x)
        expected = scorestd.standardize(sub, model).isel(measure=0).values
        np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15)
    got = scheme_kernel("U", {"U": {"B": 0.4}})(x[:, :5], x)
    expected = scorestd.standardize(sub.isel(system=slice(0, 5)), "uniform", B=0.4,
                                    reference=sub).isel(measure=0).values
    np.testing.assert_allclose(got, expected, rtol=1e-12)


def test_smoothing_and_design_take_scheme_options(sub):
    full = scorestd.datasets.load("robust2004").sel(measure=["ap"])
    a = scorestd.smoothing_experiment(full, schemes=["U"], scheme_options={"U": {"A": 0.3}},
                                      trials=3, seed=1, progress=False)
    register_model("uniform30", Uniform30)
    try:
        b = scorestd.smoothing_experiment(full, schemes=["uniform30"], trials=3, seed=1,
                                          progress=False)
        v_name = scorestd.estimate_variance(sub, schemes=["uniform30"])
    finally:
        _REGISTRY.pop("uniform30")
    np.testing.assert_array_equal(a.data["tau"].values, b.data["tau"].values)
    v_opts = scorestd.estimate_variance(sub, schemes=["U"], scheme_options={"U": {"A": 0.3}})
    xr.testing.assert_allclose(v_opts.drop_vars("scheme"), v_name.drop_vars("scheme"))


def test_bad_scheme_options_name_the_fault():
    with pytest.raises(ScorestdError, match=r"not in schemes: \['N'\]"):
        check_schemes(["raw", "U"], {"N": {"A": 0.2}})
    with pytest.raises(ScorestdError, match="'raw' .raw scores. takes no options"):
        check_schemes(["raw"], {"raw": {"A": 0.2}})
    with pytest.raises(TypeError, match="model 'normal' has no option"):
        check_schemes(["N"], {"N": {"A": 0.2}})
