"""A measure chosen by name is found regardless of case, in the API and on the command line:
``evaluate`` labels measures as ir_measures does (``AP``, ``P@10``), users type ``ap``."""

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
    with pytest.raises(ScoreDataError, match=r"unknown measure 'map'.*\['AP', 'P@10'\]"):
        find_measure("map", ["AP", "P@10"])
    with pytest.raises(ScoreDataError, match="several measures"):
        find_measure(None, ["AP", "P@10"])
    assert find_measure("map", ["AP"], required=False) is None


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
