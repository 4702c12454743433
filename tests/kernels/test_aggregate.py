"""Aggregation kernels: the paper's Table 1, plain-loop references and invariants."""

from __future__ import annotations

import itertools
import math
import statistics
from typing import get_args

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from scorestd._options import AggregationMethod
from scorestd.errors import ScoreDataError, ScorestdWarning
from scorestd.kernels.aggregate import (
    aggregate_kernel,
    am,
    egm,
    ehm,
    gm,
    gm_trec_eval,
    hm,
    md,
)
from scorestd.kernels.ranking import rank_descending

# Ravana & Moffat (2009), "Score Aggregation Techniques in Retrieval Experimentation",
# ADC 2009, Table 1 (tests/results/ravana_moffat2009_table1.csv): four systems on t = 5
# topics, the printed AM, GM, εGM, HM, εHM and MD with ε = 0.01; an empty HM cell is the
# paper's "–" (HM undefined).
TABLE1_SYSTEMS = ["S1", "S2", "S3", "S4"]
TABLE1_TOPICS = ["topic1", "topic2", "topic3", "topic4", "topic5"]
TABLE1_KERNELS = {"am": am, "gm": gm, "egm": egm, "hm": hm, "ehm": ehm, "md": md}


@pytest.fixture(scope="module")
def table1(reference):
    return reference("ravana_moffat2009_table1").set_index("system")


@pytest.mark.parametrize("system", TABLE1_SYSTEMS)
def test_table1_of_ravana_moffat_2009(table1, system):
    x = table1.loc[system, TABLE1_TOPICS].to_numpy(dtype=float)
    for column, kernel in TABLE1_KERNELS.items():
        printed = table1.loc[system, column]
        if np.isnan(printed):
            with pytest.raises(ScoreDataError, match="undefined"):
                kernel(x)
        else:
            assert round(float(kernel(x)), 3) == pytest.approx(printed, abs=1e-12), kernel.__name__


def test_table1_as_one_batch(table1):
    # The whole table in one call per method: systems as a leading batch axis.
    x = table1.loc[TABLE1_SYSTEMS, TABLE1_TOPICS].to_numpy(dtype=float)
    printed = table1.loc[TABLE1_SYSTEMS]
    for method in ("am", "gm", "egm", "ehm", "md"):
        got = aggregate_kernel(x, method, axis=1)
        np.testing.assert_allclose(got.round(3), printed[method], atol=1e-12, err_msg=method)
    with pytest.warns(ScorestdWarning, match="1 slice"):
        got = aggregate_kernel(x, "hm", axis=1, zeros="nan")
    np.testing.assert_allclose(got.round(3), printed["hm"], atol=1e-12)


def test_trec_eval_gm_values_in_the_text(table1, reference):
    # Ravana & Moffat (2009), section 2: εGM_trec_eval of S2 with ε = 1e-5 (trec_eval's and
    # the kernel's default) and with ε = 0.01.
    quoted = reference("ravana_moffat2009_text")["gm_trec_eval_of_S2"]
    assert quoted["eps"] == [1e-5, 0.01]
    x = table1.loc["S2", TABLE1_TOPICS].to_numpy(dtype=float)
    assert round(float(gm_trec_eval(x)), 3) == quoted["value"][0]
    assert round(float(gm_trec_eval(x, eps=0.01)), 3) == quoted["value"][1]


# --- plain-loop references -------------------------------------------------------------

def ref_am(v):
    return math.fsum(v) / len(v)


def ref_gm(v):
    return 0.0 if 0.0 in v else math.exp(math.fsum(math.log(a) for a in v) / len(v))


def ref_egm(v, eps=0.01):
    return math.exp(math.fsum(math.log(a + eps) for a in v) / len(v)) - eps


def ref_gm_trec_eval(v, eps=1e-5):
    return math.exp(math.fsum(math.log(max(a, eps)) for a in v) / len(v))


def ref_hm(v):
    return len(v) / math.fsum(1.0 / a for a in v)


def ref_ehm(v, eps=0.01):
    return len(v) / math.fsum(1.0 / (a + eps) for a in v) - eps


REFERENCES = {"am": ref_am, "gm": ref_gm, "egm": ref_egm, "gm_trec_eval": ref_gm_trec_eval,
              "hm": ref_hm, "ehm": ref_ehm, "md": statistics.median}

unit_scores = st.floats(0.0, 1.0, allow_nan=False)
positive_scores = st.floats(1e-3, 1.0, allow_nan=False)
batches = arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 9), st.integers(1, 4)),
                 elements=positive_scores)


@given(batches)
def test_kernels_match_plain_loops_over_a_batch(x):
    # x is (trial, topic, system): reduce topics (axis=-2) and compare each slice.
    for method, ref in REFERENCES.items():
        got = aggregate_kernel(x, method, axis=-2)
        assert got.shape == (x.shape[0], x.shape[2])
        want = [[ref(list(x[b, :, s])) for s in range(x.shape[2])] for b in range(x.shape[0])]
        np.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12, err_msg=method)


@given(arrays(np.float64, st.tuples(st.integers(2, 8), st.integers(1, 4)),
              elements=st.one_of(positive_scores, st.just(np.nan))))
def test_skipna_aggregates_present_scores_only(x):
    for method, ref in REFERENCES.items():
        got = aggregate_kernel(x, method, axis=0, skipna=True)
        strict = aggregate_kernel(x, method, axis=0)
        for s in range(x.shape[1]):
            present = [v for v in x[:, s] if not np.isnan(v)]
            if present:
                assert got[s] == pytest.approx(ref(present), rel=1e-9, abs=1e-12), method
            else:
                assert np.isnan(got[s])
            # The package default skipna=False lets a NaN propagate.
            assert np.isnan(strict[s]) == bool(np.isnan(x[:, s]).any())


@given(st.lists(positive_scores, min_size=1, max_size=30))
def test_am_ge_gm_ge_hm_for_positive_scores(values):
    x = np.array(values)
    a, g, h = float(am(x)), float(gm(x)), float(hm(x))
    assert a >= g * (1 - 1e-12)
    assert g >= h * (1 - 1e-12)


@given(st.lists(unit_scores, min_size=1, max_size=30))
def test_epsilon_means_tend_to_am_as_eps_grows(values):
    # The paper's continuity argument: εGM and εHM approach AM as ε → ∞.
    x = np.array(values)
    mean = float(am(x))
    for kernel in (egm, ehm):
        gaps = [abs(float(kernel(x, eps=e)) - mean) for e in (0.01, 1.0, 1e2, 1e4, 1e6, 1e8)]
        assert gaps[-1] <= 1e-8
        assert all(later <= earlier + 1e-12 for earlier, later in itertools.pairwise(gaps))


@given(st.lists(unit_scores, min_size=1, max_size=30))
def test_trec_eval_gm_does_not_tend_to_am(values):
    # For ε above every score the thresholded GM is ε itself, not AM.
    assert float(gm_trec_eval(values, eps=1e4)) == pytest.approx(1e4)


@given(st.lists(st.floats(1e-5, 1.0), min_size=1, max_size=30))
def test_every_aggregate_lies_between_min_and_max(values):
    # Scores ≥ 1e-5 so that trec_eval's threshold does not lift any of them.
    x = np.array(values)
    lo, hi = x.min(), x.max()
    for method in get_args(AggregationMethod):
        got = float(aggregate_kernel(x, method))
        assert lo * (1 - 1e-12) - 1e-15 <= got <= hi * (1 + 1e-12), method


@given(st.floats(1e-5, 1.0), st.integers(1, 40))
def test_constant_topic_set_gives_the_constant(c, t):
    x = np.full(t, c)
    for method in get_args(AggregationMethod):
        assert float(aggregate_kernel(x, method)) == pytest.approx(c, rel=1e-12), method


def test_zero_follows_the_paper():
    x = np.array([[0.0, 0.5], [0.0, 0.25]])
    assert float(gm(x[0])) == 0.0  # GM with a zero is exactly zero
    assert float(egm(np.zeros(4))) == 0.0
    assert float(ehm(np.zeros(4))) == 0.0
    with pytest.raises(ScoreDataError, match=r"undefined .*index \(0, 0\)"):
        hm(x, axis=1)
    with pytest.warns(ScorestdWarning, match="2 slice"):
        got = hm(x, axis=1, zeros="nan")
    assert np.isnan(got).all()
    with pytest.warns(ScorestdWarning, match="1 slice"):
        got = hm(x, axis=0, zeros="nan")
    assert np.isnan(got[0]) and got[1] == pytest.approx(1 / 3)


@pytest.mark.parametrize("method", ["gm", "egm", "gm_trec_eval", "hm", "ehm"])
def test_negative_scores_are_refused(method):
    x = np.array([[0.2, 0.3], [0.1, -0.4]])
    with pytest.raises(ScoreDataError, match=rf"{method} needs non-negative.*-0.4 at index \(1, 1\)"):
        aggregate_kernel(x, method, axis=0)


def test_am_and_md_accept_negative_scores():
    x = np.array([-1.0, 0.5, 2.0])
    assert float(am(x)) == pytest.approx(0.5)
    assert float(md(x)) == 0.5


def test_options_are_validated():
    with pytest.raises(ValueError, match=r"method must be one of 'am', 'gm'.*got 'mean'"):
        aggregate_kernel([0.1], "mean")
    with pytest.raises(ValueError, match="eps is used only by"):
        aggregate_kernel([0.1], "am", eps=0.1)
    with pytest.raises(ValueError, match="eps must be a finite number > 0"):
        egm([0.1], eps=0.0)
    with pytest.raises(ValueError, match="zeros must be one of"):
        hm([0.1], zeros="ignore")


def test_tuple_axis_and_median_even_count():
    x = np.arange(1.0, 9.0).reshape(2, 2, 2)
    assert float(am(x, axis=(0, 1, 2))) == 4.5
    assert md([0.1, 0.4, 0.2, 0.3]) == pytest.approx(0.25)  # mean of the two middle values


@given(arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 12)),
              elements=st.one_of(st.sampled_from([0.1, 0.2, 0.3]), st.floats(0, 1), st.just(np.nan))))
def test_rank_descending_matches_a_plain_loop(x):
    got = rank_descending(x, axis=-1)
    for b in range(x.shape[0]):
        row = x[b]
        for i, v in enumerate(row):
            if np.isnan(v):
                assert np.isnan(got[b, i])
            else:  # competition rank: 1 + number of strictly better systems
                assert got[b, i] == 1 + sum(1 for w in row if not np.isnan(w) and w > v)
