"""Helpers the experiment modules share: parameter docs, batch arrays, result Datasets."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd.experiments import (
    BetweenCollection,
    WithinCollection,
    between_collection,
    smoothing_experiment,
    split_half,
    within_collection,
)
from scorestd.experiments._common import (
    ranking_agreement,
    shared_parameters,
    topic_means,
    topic_subsets,
)
from scorestd.experiments.result import trial_dataset
from scorestd.experiments.swap_rates import swap_rate
from scorestd.kernels.correlation import kendall_tau_b, pearson, tau_ap_b


@pytest.mark.parametrize("func", [between_collection, within_collection, smoothing_experiment,
                                  split_half, BetweenCollection.plot, WithinCollection.plot])
def test_docstrings_have_no_marker_left(func):
    for marker in ("{scores}", "{seed}", "{engine}", "{figure}"):
        assert marker not in func.__doc__


@pytest.mark.parametrize("func", [between_collection, within_collection, smoothing_experiment, split_half])
def test_shared_parameters_keep_the_docstring_indentation(func):
    # the text swap_rate writes out by hand is what the marker expands to
    expected = ("    batch_size, memory, progress, client\n"
                "        See :func:`scorestd.experiments.engine.run_batches`.\n")
    assert expected in swap_rate.__doc__
    assert expected in func.__doc__
    assert "\n    scores : array_like or xarray.DataArray\n        A score cube" in func.__doc__


def test_shared_parameters_leave_other_braces_alone():
    def f():
        """Sum.

        Parameters
        ----------
            {seed}
        x : dict
            Like {a: 1}; {seed} inside a line stays.
        """

    doc = shared_parameters(f).__doc__
    assert "            seed : int, numpy.random.SeedSequence or Generator\n                Root seed;" in doc
    assert "Like {a: 1}; {seed} inside a line stays." in doc


@given(arrays(np.float64, (2, 6, 4), elements=st.floats(-10, 10)),
       st.lists(st.integers(0, 5), min_size=3, max_size=3))
def test_topic_subsets_and_means_match_a_loop(stack, picks):
    topics = np.array([picks, picks[::-1]])  # (batch, n)
    x = topic_subsets(stack, topics)
    assert x.shape == (2, 2, 3, 4)
    for b in range(2):
        for s in range(2):
            np.testing.assert_array_equal(x[b, s], stack[s][topics[b]])
            np.testing.assert_allclose(topic_means(x)[b, s], stack[s][topics[b]].mean(axis=0))


def test_ranking_agreement_keeps_the_reference_second():
    rng = np.random.default_rng(3)
    x, ref = rng.random((5, 8)), rng.random((5, 8))
    out = ranking_agreement(x, ref)
    assert list(out) == ["tau_b", "tau_ap_b", "pearson"]
    np.testing.assert_array_equal(out["tau_b"], kendall_tau_b(x, ref))
    np.testing.assert_array_equal(out["tau_ap_b"], tau_ap_b(x, ref))  # not symmetric
    np.testing.assert_array_equal(out["pearson"], pearson(x, ref))


def test_trial_dataset_dims_follow_the_statistics(small_cube):
    cube = small_cube.isel(measure=[0])
    stats = {"a": np.zeros((4, 2)), "b": np.ones((4, 2, 3))}
    ds = trial_dataset(cube, "demo", stats, schemes=["raw", "z"], trials=4, seed=9,
                       coords={"alpha": [0.1, 0.2, 0.3]}, n_topics=5)
    assert ds["a"].dims == ("trial", "scheme")
    assert ds["b"].dims == ("trial", "scheme", "alpha")
    assert ds["scheme"].values.tolist() == ["raw", "z"]
    assert list(ds.attrs)[-3:] == ["n_topics", "trials", "seed"]
    assert (ds.attrs["experiment"], ds.attrs["n_topics"], ds.attrs["seed"]) == ("demo", 5, 9)
