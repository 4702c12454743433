"""A measure chosen by name is found under its usual spellings, in any case, in the API and
on the command line: ``evaluate`` labels measures as ir_measures does (``AP``, ``P@10``),
trec_eval as ``map``/``P_10``, the bundled data as ``ap``/``p10``; users type any of them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorestd
from scorestd.cli import main
from scorestd.errors import ScoreDataError
from scorestd.measures import find_measure


@pytest.fixture(scope="module")
def evaluated():
    """adhoc8's AP and P@10 as ``evaluate`` labels them, ten systems."""
    cube = scorestd.datasets.load("adhoc8").sel(measure=["ap", "p10"]).isel(system=slice(0, 10))
    return cube.assign_coords(measure=["AP", "P@10"])


@given(st.lists(st.text(alphabet="abcdeABCDE@_1", min_size=1, max_size=6), min_size=1,
                max_size=6, unique_by=str.casefold), st.data())
def test_any_spelling_finds_the_label(labels, data):
    label = data.draw(st.sampled_from(labels))
    spelled = "".join(data.draw(st.sampled_from([c.lower(), c.upper()])) for c in label)
    assert find_measure(spelled, labels) == label


@given(st.text(alphabet="abAB", min_size=1, max_size=4))
def test_labels_differing_by_case_are_refused(label):
    other = label.swapcase()
    if other == label:
        return
    with pytest.raises(ScoreDataError, match="differ only by case"):
        find_measure(label, [label, other])


def test_unknown_and_unchosen_measures_are_named():
    with pytest.raises(ScoreDataError, match=r"unknown measure 'ndcg'.*\['AP', 'P@10'\]"):
        find_measure("ndcg", ["AP", "P@10"])
    with pytest.raises(ScoreDataError, match="several measures"):
        find_measure(None, ["AP", "P@10"])
    assert find_measure("ndcg", ["AP"], required=False) is None


# One measure as trec_eval (-q output), ir_measures, ranx and the bundled data spell it.
SPELLINGS = [
    ("map", "AP", "ap"),
    ("P_10", "P@10", "precision@10", "p10"),
    ("ndcg_cut_20", "nDCG@20", "ndcg@20", "ndcg20"),
    ("recip_rank", "RR", "mrr", "rr"),
    ("ERR@20", "err@20", "err20"),
    ("ndcg", "nDCG"),
    ("recall_100", "R@100", "recall@100"),
    ("Rprec", "RPrec", "r-precision"),
    ("num_rel_ret", "NumRelRet"),
]


@given(st.sampled_from(SPELLINGS), st.data())
def test_every_spelling_finds_the_data_s_label(spellings, data):
    asked, label = data.draw(st.sampled_from(spellings)), data.draw(st.sampled_from(spellings))
    others = [group[0] for group in SPELLINGS if group is not spellings]
    labels = data.draw(st.permutations([label, *data.draw(st.lists(
        st.sampled_from(others), unique=True, max_size=4))]))
    assert find_measure(asked, labels) == label
    assert find_measure(asked.upper(), labels) == label


@pytest.mark.parametrize("asked, labels", [
    ("ndcg20", ["ndcg_burges@20", "nDCG(judged_only=True)@20", "nDCG@10", "ndcg"]),
    ("P@10", ["set_P", "P@20", "P"]),
    ("ap", ["AP@100", "gm_map", "set_map", "infAP"]),
    ("rr", ["RR@10"]),
    ("err20", ["ERR-IA@20", "nERR@20"]),
])
def test_variants_that_only_share_a_range_are_other_measures(asked, labels):
    with pytest.raises(ScoreDataError, match=f"unknown measure {asked!r}"):
        find_measure(asked, labels)


def test_two_spellings_of_one_measure_are_refused_naming_both():
    with pytest.raises(ScoreDataError, match=r"'ndcg20' may be 'ndcg_cut_20' or 'nDCG@20'"):
        find_measure("ndcg20", ["ndcg_cut_20", "ap", "nDCG@20"])
    # a label spelled as asked is no ambiguity
    assert find_measure("nDCG@20", ["ndcg_cut_20", "ap", "nDCG@20"]) == "nDCG@20"
    assert find_measure("NDCG_CUT_20", ["ndcg_cut_20", "ap", "nDCG@20"]) == "ndcg_cut_20"


def test_a_registered_measure_is_found_by_its_own_name_only():
    scorestd.register_measure("ap_graded", 0.0, 1.0)
    assert find_measure("AP_GRADED", ["ap_graded", "ap"]) == "ap_graded"
    assert find_measure("map", ["ap_graded", "ap"]) == "ap"


def test_api_functions_find_lower_case_names(evaluated):
    ap = evaluated.sel(measure=["AP"])
    sim = scorestd.fit_simulator(evaluated, measure="ap", copula="gaussian")
    assert sim.margins.measure == "AP"
    same = scorestd.fit_simulator(ap, copula="gaussian")
    np.testing.assert_array_equal(sim.margins.mean, same.margins.mean)
    res = scorestd.within_collection(evaluated, measure="ap", schemes=["raw"], trials=3, seed=1)
    assert res.data.attrs["measure"] == "AP"
    hard, _ = scorestd.topic_split(evaluated, measure="p@10", degenerate="zero")
    assert list(hard) == list(scorestd.topic_split(evaluated.sel(measure=["P@10"]), degenerate="zero")[0])


def test_files_and_datasets_find_names_regardless_of_case(evaluated, tmp_path):
    path = scorestd.save(evaluated, tmp_path / "scores.nc")
    assert scorestd.load(path, measure="p@10")["measure"].values.tolist() == ["P@10"]
    assert scorestd.datasets.load("adhoc8", measure="AP")["measure"].values.tolist() == ["ap"]
    out = scorestd.write_matrix_csv(evaluated, tmp_path / "ap.csv", measure="ap")
    np.testing.assert_allclose(scorestd.read_matrix_csv(out).values[..., 0],
                               evaluated.sel(measure="AP").values)


def test_command_line_measure_is_found_regardless_of_case(evaluated, tmp_path, capsys):
    path = scorestd.save(evaluated, tmp_path / "scores.nc")
    assert main(["aggregate", str(path), "-m", "ap"]) == 0
    out = capsys.readouterr().out
    assert "AP" in out and "P@10" not in out
    twice = evaluated.assign_coords(measure=["AP", "ap"])
    path = scorestd.save(twice, tmp_path / "twice.nc")
    assert main(["aggregate", str(path), "-m", "Ap"]) == 1
    assert "differ only by case" in capsys.readouterr().err


def test_command_line_and_api_bridge_toolkit_and_bundled_names(tmp_path, capsys):
    assert main(["aggregate", "web2012", "-m", "ERR@20"]) == 0
    out = capsys.readouterr().out
    assert "err20" in out and "ndcg20" not in out
    assert main(["aggregate", "adhoc8", "-m", "P_10"]) == 0
    assert "p10" in capsys.readouterr().out
    web = scorestd.datasets.load("web2012", measure="nDCG@20")
    assert web["measure"].values.tolist() == ["ndcg20"]
    sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8"), measure="map",
                                 copula="gaussian")
    assert sim.margins.measure == "ap"
    kept = scorestd.experiments.error_rate_pool.prepare_collection(
        scorestd.datasets.load("adhoc8"), "recip_rank")
    assert kept["measure"].item() == "rr"


def test_bayesian_analyses_find_any_spelling(evaluated):
    from scorestd.bayes._checks import one_measure

    np.testing.assert_array_equal(one_measure(evaluated, "map").values,
                                  evaluated.sel(measure="AP").transpose("topic", "system").values)
    with pytest.raises(ScoreDataError, match="unknown measure 'ndcg'"):
        one_measure(evaluated, "ndcg")
