"""Tables print row labels, never pandas' integer positions (0, 1, 2 … of a frame whose
rows are labelled by its columns): on the command line and in LaTeX, Markdown and CSV."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorestd.cli._common import print_table
from scorestd.io.table import Table, labels_rows
from scorestd.tables import stack_tables


@given(st.integers(1, 6), st.integers(0, 5))
def test_positions_are_no_labels(n, start):
    assert not labels_rows(pd.RangeIndex(start, start + n))
    assert not labels_rows(pd.Index(np.arange(start, start + n)[::-1]))  # after a sort
    assert labels_rows(pd.RangeIndex(start, start + n, name="n_topics"))
    assert labels_rows(pd.Index([f"run{i}" for i in range(n)]))


@pytest.fixture
def pairs():
    """A table of pairs as compare prints it: labelled by its columns, indexed 0, 1, 2."""
    frame = pd.DataFrame({"system": ["a", "a", "b"], "system2": ["b", "c", "c"],
                          "p_value": [0.5, 0.01, 0.2]})
    return frame.sort_values("p_value")  # index 1, 0, 2


def test_printed_table_has_no_position_column(pairs, capsys):
    print_table(pairs)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["system", "system2", "p_value"]
    assert [line.split()[:2] for line in lines[1:]] == [["a", "c"], ["b", "c"], ["a", "b"]]


def test_rendered_tables_have_no_position_column(pairs):
    t = Table(pairs.set_index(["system", "system2"]).reset_index(), caption="Pairs.")
    markdown = t.to_markdown().splitlines()
    assert markdown[2].split("|")[1].strip() == "system"
    assert pd.read_csv(io.StringIO(t.to_csv())).columns.tolist() == ["system", "system2",
                                                                     "p_value"]
    assert "system & system2 & p\\_value" in t.to_latex()
    stacked = stack_tables([t, t], [0, 1], ["trial"])  # trial is a label, positions are not
    assert pd.read_csv(io.StringIO(stacked.to_csv())).columns.tolist() == [
        "trial", "system", "system2", "p_value"]
    assert stacked.to_markdown().splitlines()[2].split("|")[1].strip() == "trial"


def test_labelled_rows_are_kept(capsys):
    frame = pd.DataFrame({"mean": [0.5, 0.25]}, index=pd.Index([25, 50], name="n_topics"))
    print_table(frame)
    assert capsys.readouterr().out.splitlines()[1].split() == ["n_topics"]
    assert Table(frame).to_csv().splitlines()[0] == "n_topics,mean"
