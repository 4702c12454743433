"""The cube constructor and validator."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.score_cube import match_input_dims, validate


def test_cube_from_2d_gets_default_labels_and_measure():
    c = scorestd.cube([[0.1, 0.2, 0.3]])
    assert c.dims == ("topic", "system", "measure")
    assert c.dtype == np.float64
    assert c.topic.values.tolist() == ["t1"]
    assert c.system.values.tolist() == ["s1", "s2", "s3"]
    assert c.measure.values.tolist() == ["score"]


def test_numeric_labels_become_strings():
    c = scorestd.cube([[1, 2]], topics=[401], systems=[1, 2])
    assert c.topic.values.tolist() == ["401"]
    assert c.system.values.tolist() == ["1", "2"]
    assert c.sel(topic="401", system="2").item() == 2.0


def test_validate_transposes_and_keeps_attrs_without_modifying_input():
    da = xr.DataArray(
        np.arange(6.0).reshape(2, 3, 1) / 10,
        dims=("system", "topic", "measure"),
        coords={"system": ["a", "b"], "topic": ["x", "y", "z"], "measure": ["ap"]},
        attrs={"collection": "demo"},
    )
    before = da.copy(deep=True)
    c = scorestd.validate(da)
    assert c.dims == ("topic", "system", "measure")
    assert c.sel(system="b", topic="y").item() == da.sel(system="b", topic="y").item()
    assert c.attrs == {"collection": "demo"}
    xr.testing.assert_identical(da, before)


def test_2d_slice_keeps_its_measure_label_and_match_input_dims_restores_shape(small_cube):
    two_d = small_cube.sel(measure="ndcg")
    c = scorestd.validate(two_d)
    assert c.measure.values.tolist() == ["ndcg"]
    np.testing.assert_array_equal(c.values[..., 0], two_d.values)
    assert match_input_dims(c, two_d).dims == ("topic", "system")
    assert match_input_dims(c, small_cube).dims == c.dims


def test_validate_accepts_wide_dataframe_with_named_axes():
    frame = pd.DataFrame({"bm25": [0.1, 0.2], "qld": [0.3, np.nan]},
                         index=pd.Index(["401", "402"], name="topic"))
    c = scorestd.validate(frame)
    assert c.system.values.tolist() == ["bm25", "qld"]
    assert np.isnan(c.sel(topic="402", system="qld").item())
    # the same frame with systems as rows, said by the axis names
    xr.testing.assert_identical(scorestd.validate(frame.T.rename_axis(index="run")), c)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"values": [[0.1, 0.2]], "systems": ["a", "a"]}, "duplicate system label 'a'"),
        ({"values": [[0.1], [0.2]], "topics": ["q", "q"]}, "duplicate topic label 'q'"),
        ({"values": [[0.1, 0.2]], "systems": ["a", ""]}, "system label at position 1 is empty"),
        ({"values": [[0.1, 0.2]], "systems": ["a"]}, "1 system labels given for 2 systems"),
        ({"values": [0.1, 0.2]}, "must be 2-D"),
        ({"values": [[0.1, np.inf]], "systems": ["a", "b"]}, "infinite score inf at topic 't1', system 'b'"),
        ({"values": [["0.1", "x"]], "systems": ["a", "b"]}, "score 'x' at topic 't1', system 'b'"),
        ({"values": [[True, False]]}, "real numbers"),
        ({"values": np.array([[0.1, True]], dtype=object), "systems": ["a", "b"]},
         "score True at topic 't1', system 'b', measure 'score' is a boolean"),
    ],
)
def test_bad_cubes_raise_naming_the_label(kwargs, message):
    with pytest.raises(ScoreDataError, match=message.replace("(", r"\(").replace(")", r"\)")):
        scorestd.cube(**kwargs)


def test_a_flag_column_in_a_frame_is_not_read_as_scores():
    # pandas keeps a bool column beside float ones as objects True/False: never 1/0
    frame = pd.DataFrame({"bm25": [0.1, 0.2], "judged": [True, False]},
                         index=["401", "402"]).rename_axis(index="topic", columns="system")
    with pytest.raises(ScoreDataError, match="True at topic '401', system 'judged'.*boolean"):
        scorestd.validate(frame)


def test_validate_rejects_wrong_dims_and_missing_labels():
    with pytest.raises(ScoreDataError, match="must have dims"):
        scorestd.validate(xr.DataArray(np.zeros((2, 2)), dims=("query", "run")))
    with pytest.raises(ScoreDataError, match="'topic' dim has no labels"):
        scorestd.validate(xr.DataArray(np.zeros((2, 2)), dims=("topic", "system"),
                                       coords={"system": ["a", "b"]}))
    with pytest.raises(ScoreDataError, match="xarray.DataArray"):
        scorestd.validate(np.zeros((2, 2)))


def test_nan_is_allowed_and_kept():
    c = scorestd.cube([[np.nan, 0.5]])
    assert np.isnan(c.values[0, 0, 0]) and c.values[0, 1, 0] == 0.5


def test_dask_backed_cube_stays_lazy():
    da = pytest.importorskip("dask.array")
    lazy = xr.DataArray(
        da.from_array(np.full((4, 3), 0.5), chunks=2), dims=("topic", "system"),
        coords={"topic": list("abcd"), "system": list("xyz")},
    )
    c = scorestd.validate(lazy)
    assert type(c.data).__module__.startswith("dask")
    assert float(c.mean()) == 0.5


def test_a_canonical_cube_is_checked_without_being_rebuilt(small_cube):
    """validate() of its own output takes the short road: same result, not the input."""
    once = validate(small_cube)
    twice = validate(once)
    assert twice.identical(once) and twice is not once
    assert not np.shares_memory(twice.values, once.values)
    shared = validate(once, copy=False)
    assert np.shares_memory(shared.values, once.values)
    shared.attrs["x"] = 1  # the result's attrs are its own
    assert "x" not in once.attrs


@pytest.mark.parametrize("damage", ["inf", "duplicate", "empty"])
def test_the_short_road_still_refuses_bad_cubes(small_cube, damage):
    cube = validate(small_cube)
    if damage == "inf":
        cube = cube.copy()
        cube[0, 0, 0] = np.inf
        match = "infinite"
    else:
        labels = cube.system.values.copy()
        labels[1] = labels[0] if damage == "duplicate" else ""
        cube = cube.assign_coords(system=labels)
        match = "duplicate" if damage == "duplicate" else "empty"
    with pytest.raises(ScoreDataError, match=match):
        validate(cube)
