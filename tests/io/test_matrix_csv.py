"""Topic-by-system CSV matrices."""

from __future__ import annotations

import numpy as np
import pytest

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.io import read_matrix_csv, write_matrix_csv


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_reads_with_topic_column(tmp_path):
    p = write(tmp_path, "trec8_p10.csv", "qid,bm25,qld\n401,0.5,0.2\n402,NA,1\n")
    c = read_matrix_csv(p)
    assert c.topic.values.tolist() == ["401", "402"]
    assert c.system.values.tolist() == ["bm25", "qld"]
    assert c.measure.values.tolist() == ["p10"]
    assert "collection" not in c.attrs  # a file name is no collection: given, or absent
    assert read_matrix_csv(p, collection="trec8").attrs["collection"] == "trec8"
    assert np.isnan(c.sel(topic="402", system="bm25").item())
    assert c.sel(topic="402", system="qld").item() == 1.0


def test_reads_without_topic_column_labelling_rows(tmp_path):
    p = write(tmp_path, "x.csv", "a,b\n" + "\n".join("0.1,0.2" for _ in range(12)) + "\n")
    c = read_matrix_csv(p, measure="ap")
    assert c.topic.values.tolist()[:2] == ["t01", "t02"] and c.sizes["topic"] == 12
    assert c.measure.values.tolist() == ["ap"]


def test_empty_header_cell_means_topic_column(tmp_path):
    p = write(tmp_path, "m.csv", ",r1,r2\nq1,0,1\n")
    assert read_matrix_csv(p).topic.values.tolist() == ["q1"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("topic,a,b\n1,0.1,0.2\n2,0.3\n", r"m\.csv, line 3: expected 3 fields as in the header, found 2"),
        ("topic,a,b\n1,0.1,0.2\n2,0.3,abc\n", r"m\.csv, line 3: system 'b': 'abc' is not a number"),
        ("topic,a,a\n1,0.1,0.2\n", r"m\.csv, line 1: duplicate system label 'a'"),
        ("topic,a,b\n1,0.1,0.2\n1,0.3,0.4\n", r"m\.csv, line 3: duplicate topic label '1' \(first on line 2\)"),
        ("", r"m\.csv: file is empty"),
        ("topic,a,b\n", r"m\.csv: no topic rows after the header"),
        ("topic,a,b\n1,0.1,inf\n", r"m\.csv, line 2: system 'b': infinite score"),
    ],
)
def test_bad_files_name_file_and_line(tmp_path, text, message):
    p = write(tmp_path, "m.csv", text)
    with pytest.raises(ScoreDataError, match=message):
        read_matrix_csv(p)


def test_missing_file_is_named(tmp_path):
    with pytest.raises(ScoreDataError, match=r"nope\.csv: no such file"):
        read_matrix_csv(tmp_path / "nope.csv")


def test_write_then_read_keeps_values_exactly(tmp_path, small_cube):
    one = small_cube.sel(measure=["ap"])
    out = write_matrix_csv(one, tmp_path / "ap.csv")
    back = read_matrix_csv(out, measure="ap")
    np.testing.assert_array_equal(back.values, one.values)
    assert back.topic.values.tolist() == one.topic.values.tolist()


def test_write_needs_measure_for_multi_measure_cube(tmp_path, small_cube):
    with pytest.raises(ScoreDataError, match="several measures in the cube.*pick one with measure="):
        write_matrix_csv(small_cube, tmp_path / "x.csv")
    with pytest.raises(ScoreDataError, match="unknown measure 'p10'"):
        write_matrix_csv(small_cube, tmp_path / "x.csv", measure="p10")
    out = write_matrix_csv(small_cube, tmp_path / "x.csv", measure="ndcg")
    assert read_matrix_csv(out).sel(system="s1", topic="t1").item() == pytest.approx(
        small_cube.sel(system="s1", topic="t1", measure="ndcg").item(), abs=0
    )


def test_missing_values_written_as_empty_cells(tmp_path):
    c = scorestd.cube([[0.5, np.nan]], topics=["q"], systems=["a", "b"])
    text = write_matrix_csv(c, tmp_path / "n.csv").read_text()
    assert text.splitlines()[1] == "q,0.5,"
