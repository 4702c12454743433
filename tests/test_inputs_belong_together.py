"""Every path combining two inputs checks they belong together: the measure and the topics
of a reference (cube, fitted model, factors, a fitted model read back from a file) and of a
smoothing prior. A mismatch is an error naming what differs, never a number computed from
the wrong pairing."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import scorestd
from scorestd.errors import ScoreDataError, ScorestdWarning
from scorestd.measures import same_measure
from scorestd.models import get_model, read_fitted, write_fitted


@pytest.fixture(scope="module")
def rob():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        return scorestd.datasets.load("robust2004")


def _references(rob, tmp_path):
    nd = rob.sel(measure=["ndcg"])
    path = write_fitted(get_model("normal").fit(nd), tmp_path / "ndcg.nc")
    return {"cube": nd, "fitted": get_model("normal").fit(nd),
            "factors": scorestd.standardization_factors(nd), "file": read_fitted(path)}


@pytest.mark.parametrize("kind", ["cube", "fitted", "factors", "file"])
def test_a_reference_of_another_measure_is_refused(rob, tmp_path, kind):
    reference = _references(rob, tmp_path)[kind]
    with pytest.raises(ScoreDataError, match="has no measure 'ap'"):
        scorestd.standardize(rob.sel(measure=["ap"]), "normal", reference=reference)


@pytest.mark.parametrize("kind", ["cube", "fitted"])
def test_a_reference_lacking_topics_is_refused(rob, kind):
    ap = rob.sel(measure=["ap"])
    half = ap.isel(topic=slice(0, 50))
    reference = half if kind == "cube" else get_model("normal").fit(half)
    with pytest.raises(ScoreDataError, match=r"has no topic 't51' \(nor 48 more"):
        scorestd.standardize(ap, "normal", reference=reference)


def test_a_prior_of_another_measure_is_refused(rob):
    with pytest.raises(ScoreDataError, match="prior is of measure 'ndcg', the scores of 'ap'"):
        scorestd.smooth(rob.sel(measure=["ap"]), rob.sel(measure=["ndcg"]), alpha=0.5)


def test_a_prior_spelled_by_another_toolkit_is_the_same_measure(rob):
    ap = rob.sel(measure=["ap"])
    as_map = ap.assign_coords(measure=["map"])  # trec_eval's name of the same measure
    got = scorestd.smooth(ap, as_map, alpha=0.5)
    np.testing.assert_array_equal(got.values, scorestd.smooth(ap, ap, alpha=0.5).values)


@pytest.mark.parametrize("a, b, same", [
    ("map", "AP", True), ("ndcg_cut_10", "nDCG@10", True), ("P_10", "precision@10", True),
    ("recip_rank", "mrr", True), ("ap", "ndcg", False), ("P@10", "P@20", False),
    ("score", "ndcg", True), ("my_gain", "my_loss", False), ("my_gain", "my_gain", True),
    ("ndcg_cut_20", "ndcg20", True), ("ERR@20", "err20", True),
    ("ndcg_burges@20", "nDCG@20", False), ("nDCG(judged_only=True)@20", "nDCG@20", False),
    ("set_P", "P", False),
])
def test_same_measure_follows_the_registry(a, b, same):
    assert same_measure(a, b) is same and same_measure(b, a) is same


@pytest.fixture(scope="module")
def compared():
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 4))
    return ap, scorestd.compare(ap, correction="holm")


@pytest.mark.parametrize("other, named", [
    (lambda ap: ap.isel(topic=slice(0, 40)), r"has 50 topics .* 40 topics"),
    (lambda ap: ap.where(ap.topic != ap.topic[3]), r"has 50 topics .* 49 topics"),
    (lambda ap: ap.copy(data=np.clip(ap.values + 0.01 * (ap.system == "run2").values[:, None],
                                     0, 1)),
     r"pair run1 vs run2 \(ap\)"),
], ids=["topic subset", "a topic missing", "edited scores"])
def test_a_significance_table_refuses_scores_the_comparison_did_not_run_on(compared, other,
                                                                           named):
    ap, res = compared
    with pytest.raises(ScoreDataError, match=r"the scores are not those the comparison ran "
                                             r"on: .*" + named):
        scorestd.table(res, scores=other(ap))


def test_a_significance_table_of_its_own_scores_is_made(compared):
    ap, res = compared
    assert "Mean ap over 50 topics" in scorestd.table(res, scores=ap).to_markdown()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)  # unequal n across pairs
        holed = ap.where((ap.topic != ap.topic[5]) | (ap.system != "run2"))
        scorestd.table(scorestd.compare(holed), scores=holed)  # missing scores: same pairs
