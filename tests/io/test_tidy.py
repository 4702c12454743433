"""Tidy DataFrames (ir_measures / ranx / PyTerrier shapes) and long CSV files."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.io import from_dataframe, long_rows, read_long_csv, tidy, to_dataframe, write_long_csv


class Measure:
    """Stands in for ir_measures' measure objects, which print as their name."""

    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


def test_pyterrier_shape():
    df = pd.DataFrame({
        "name": ["BM25", "BM25", "DPH", "DPH"],
        "qid": ["1", "2", "1", "2"],
        "measure": ["map", "map", "map", "map"],
        "value": [0.1, 0.2, 0.3, 0.4],
    })
    c = from_dataframe(df)
    assert c.system.values.tolist() == ["BM25", "DPH"]
    assert c.sel(system="DPH", topic="2", measure="map").item() == 0.4


def test_ir_measures_shape_single_run_with_measure_objects():
    df = pd.DataFrame({
        "query_id": ["q1", "q1", "q2"],
        "measure": [Measure("nDCG@10"), Measure("AP"), Measure("nDCG@10")],
        "value": [0.5, 0.25, 0.75],
    })
    c = from_dataframe(df, run_name="monoT5")
    assert c.measure.values.tolist() == ["nDCG@10", "AP"]
    assert c.system.values.tolist() == ["monoT5"]
    assert np.isnan(c.sel(topic="q2", measure="AP").item())


def test_wide_per_measure_frame_and_configurable_columns():
    df = pd.DataFrame({"RUN": ["a", "b"], "Q": ["1", "1"], "ndcg": [0.1, 0.2], "ap": [0.3, 0.4]})
    c = from_dataframe(df, system="RUN", topic="Q")
    assert c.measure.values.tolist() == ["ndcg", "ap"]
    assert c.sel(system="b", measure="ap").item() == 0.4


def test_missing_system_column_and_conflicting_duplicates():
    df = pd.DataFrame({"qid": ["1"], "measure": ["ap"], "value": [0.1]})
    with pytest.raises(ScoreDataError, match="no system column"):
        from_dataframe(df)
    df = pd.DataFrame({"run": ["a", "a"], "qid": ["1", "1"], "measure": ["ap", "ap"],
                       "value": [0.1, 0.2]})
    with pytest.raises(ScoreDataError, match="row 1: system 'a', topic '1', measure 'ap' is 0.2 here but 0.1 on row 0"):
        from_dataframe(df)


def test_non_numeric_value_names_the_row():
    df = pd.DataFrame({"run": ["a", "b"], "qid": ["1", "1"], "measure": ["ap", "ap"],
                       "value": [0.1, "high"]})
    with pytest.raises(ScoreDataError, match="row 1: value 'high' is not a number"):
        from_dataframe(df)


def test_to_dataframe_order_and_nan_rows(small_cube):
    df = to_dataframe(small_cube)
    assert len(df) == small_cube.size
    assert df.iloc[0].tolist()[:3] == ["s1", "t1", "ap"]
    assert df.iloc[1].tolist()[:3] == ["s1", "t1", "ndcg"]
    c = small_cube.copy()
    c[0, 0, 0] = np.nan
    assert len(to_dataframe(c, dropna=True)) == small_cube.size - 1


def test_long_csv_reads_labels_as_text_and_names_lines(tmp_path):
    p = tmp_path / "l.csv"
    p.write_text("run,topic,metric,value\nNA,007,ap,0.5\nNA,007,ap,0.6\n")
    with pytest.raises(ScoreDataError, match=r"l\.csv, line 3: system 'NA', topic '007'.* on line 2"):
        read_long_csv(p)
    p.write_text("run,topic,metric,value\nNA,007,ap,0.5\nb,007,ap\n")
    with pytest.raises(ScoreDataError, match=r"l\.csv, line 3: expected 4 fields"):
        read_long_csv(p)
    p.write_text("run,topic,metric,value\nNA,007,ap,0.5\n")
    c = read_long_csv(p)
    assert c.system.values.tolist() == ["NA"] and c.topic.values.tolist() == ["007"]


def test_long_csv_keeps_attrs(tmp_path):
    c = scorestd.cube([[0.5]], attrs={"collection": "robust ✓", "topics_from": 301})
    back = read_long_csv(write_long_csv(c, tmp_path / "x.csv"))
    assert back.attrs == {"collection": "robust ✓", "topics_from": 301}


# --- long tables read block by block (scorestd.io.long_rows) --------------------------------

def _reference_cube(rows):
    """Plain loop: labels in order of first appearance, a dict of cells, NaN elsewhere."""
    order = {role: {} for role in ("topic", "system", "measure")}
    cells = {}
    for system, topic, measure, value in rows:
        for role, label in (("topic", topic), ("system", system), ("measure", measure)):
            order[role].setdefault(label, len(order[role]))
        cells[topic, system, measure] = value
    out = np.full(tuple(len(order[r]) for r in ("topic", "system", "measure")), np.nan)
    for (t, s, m), v in cells.items():
        out[order["topic"][t], order["system"][s], order["measure"][m]] = v
    return out, [list(order[r]) for r in ("topic", "system", "measure")]


label = st.sampled_from(["a", "b", "NA", "007", "x y", 'q"', "c,d"])
cell = st.tuples(label, label, st.sampled_from(["ap", "ndcg"]),
                 st.one_of(st.none(), st.integers(0, 1000).map(lambda k: k / 1000)))


@settings(max_examples=60, deadline=None)
@given(st.lists(cell, min_size=1, max_size=40), st.integers(1, 7), st.randoms())
def test_property_blocks_give_the_plain_loop_cube(cells, block, random):
    rows = {}
    for s, t, m, v in cells:  # one value per cell, each row maybe twice (same value)
        rows.setdefault((s, t, m), v)
    listed = [(*key, v) for key, v in rows.items()]
    listed += random.sample(listed, k=len(listed) // 3)  # repeated rows, equal values
    want, (topics, systems, measures) = _reference_cube(
        [(s, t, m, np.nan if v is None else v) for s, t, m, v in listed])
    frame = pd.DataFrame(listed, columns=["run", "qid", "measure", "value"])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(long_rows, "BLOCK_ROWS", block)
        patch.setattr(tidy, "BLOCK_ROWS", block)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # labels such as 'NA' beside real topics
            got = from_dataframe(frame.astype({"value": float}))
            text = "run,qid,measure,value\n" + "".join(
                f'{_quote(s)},{_quote(t)},{m},{"" if v is None else v}\n' for s, t, m, v in listed)
            path = Path(tempfile.mkdtemp()) / "long.csv"
            path.write_text(text)
            read = read_long_csv(path)
    for cube in (got, read):
        assert cube.topic.values.tolist() == topics and cube.system.values.tolist() == systems
        assert cube.measure.values.tolist() == measures
        np.testing.assert_array_equal(cube.values, want)


def _quote(label):
    return '"' + label.replace('"', '""') + '"' if ("," in label or '"' in label) else label


HEAD = "# scorestd-attrs: {}\nrun,topic,metric,value\n"
BODY = "a,1,ap,0.5\n\nb,1,ap,0.25\na,2,ap,0.125\n\n"  # lines 3 to 7, blank ones among them


@pytest.mark.parametrize(("last", "message"), [
    (b"b,2,ap,0.75\na,1,ap,0.6\n",
     r"line 9: system 'a', topic '1', measure 'ap' is 0\.6 here but 0\.5 on line 3"),
    (b"b,2,ap,0.75,x\n", r"line 8: expected 4 fields as in the header, found 5"),
    (b"b,2,ap,high\n", r"line 8: value 'high' is not a number"),
    (b" ,2,ap,0.1\n", r"line 8: missing system label in column 'run'"),
    (b"b,2,ap,1_0\n", r"line 8: value '1_0' is not a number"),
    (b"b,2,ap,0.\xff\n", r"line 8: not UTF-8"),
])
def test_errors_in_later_blocks_name_their_lines(last, message, tmp_path, monkeypatch):
    monkeypatch.setattr(tidy, "BLOCK_ROWS", 2)
    p = tmp_path / "l.csv"
    p.write_bytes((HEAD + BODY).encode() + last)
    with pytest.raises(ScoreDataError, match=message):
        read_long_csv(p)


def test_values_are_read_as_before_one_by_one():
    fail = lambda row, message: ScoreDataError(f"row {row}: {message}")  # noqa: E731
    text = ["0.5", " 0.25 ", "", "NA", "nan", "-", "null", "1e-3", "+.5", "١"]
    got = long_rows.parse_values(text, fail)
    # reference: Python's float, missing markers NaN (the rules of the former reader)
    want = [np.nan if t.strip().lower() in {"", "na", "nan", "null", "none", "-"} else float(t)
            for t in text]
    np.testing.assert_array_equal(got, want)
    assert long_rows.parse_values(["0,5", "1"], fail, decimal=",").tolist() == [0.5, 1.0]
    with pytest.raises(ScoreDataError, match="row 1: value '0.5' is not a number"):
        long_rows.parse_values(["0,1", "0.5"], fail, decimal=",")
    with pytest.raises(ScoreDataError, match="row 1: infinite value 'inf'"):
        long_rows.parse_values(["0.1", "inf"], fail)
    with pytest.raises(ScoreDataError, match="row 1: value True is not a number"):
        long_rows.parse_values(np.array([0.5, True], dtype=object), fail)


def test_reading_pauses_the_collector_and_restores_it(tmp_path):
    import gc

    p = tmp_path / "l.csv"
    p.write_text("run,topic,metric,value\na,1,ap,0.5\n")
    read_long_csv(p)
    assert gc.isenabled()
    gc.disable()
    try:
        read_long_csv(p)
        assert not gc.isenabled()
    finally:
        gc.enable()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=50),
       st.sampled_from(["{!r}", "{:.4f}", "{:.20e}", "{:.17g}"]))
def test_property_text_values_are_read_as_python_reads_them(values, pattern):
    # "values with full precision": the same float64 as Python's correctly rounded float()
    text = [pattern.format(v) for v in values]
    got = long_rows.parse_values(text, lambda row, message: ScoreDataError(message))
    np.testing.assert_array_equal(got, [float(t) for t in text])
