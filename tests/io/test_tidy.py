"""Tidy DataFrames (ir_measures / ranx / PyTerrier shapes) and long CSV files."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.io import from_dataframe, read_long_csv, to_dataframe, write_long_csv


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
