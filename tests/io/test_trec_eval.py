"""trec_eval -q output files."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorestd.errors import ScoreDataError, ScorestdWarning
from scorestd.io import read_trec_eval

# RUN_B lacks topic 10 and two measures of RUN_A: read, both are said
DIFFERENT_TOPICS = r"trec_eval files cover different topics \(3 in all, 2 in every run\): qld lacks 1 \(10\)"
MISSING_MEASURES = r"runs without some measures .*: qld lacks num_ret, ndcg_cut_20"

RUN_A = """\
num_ret               401	1000
map                   401	0.2500
P_10                  401	0.4000
ndcg_cut_20           401	0.3300
map                   402	0.1250
P_10                  402	0.2000
ndcg_cut_20           402	0.1000
map                   10	0.5000
runid                 all	bm25
num_q                 all	3
map                   all	0.2917
"""

RUN_B = """\
map	401	0.3
P_10	401	0.5
map	402	0.0
runid	all	qld
"""


@pytest.fixture
def runs(tmp_path):
    (tmp_path / "a.eval").write_text(RUN_A)
    (tmp_path / "b.eval").write_text(RUN_B)
    return tmp_path


def test_reads_runs_topics_and_parameterised_measures(runs):
    with pytest.warns(ScorestdWarning, match=DIFFERENT_TOPICS), \
            pytest.warns(ScorestdWarning, match=MISSING_MEASURES):
        c = read_trec_eval([runs / "a.eval", runs / "b.eval"])
    assert c.system.values.tolist() == ["bm25", "qld"]
    # natural order: topic 10 before 401; the "all" summaries are not topics
    assert c.topic.values.tolist() == ["10", "401", "402"]
    assert c.measure.values.tolist() == ["num_ret", "map", "P_10", "ndcg_cut_20"]
    assert c.sel(system="bm25", topic="401", measure="ndcg_cut_20").item() == 0.33
    assert c.sel(system="qld", topic="402", measure="map").item() == 0.0
    # cells a run lacks are NaN, never dropped
    assert np.isnan(c.sel(system="qld", topic="10", measure="map").item())
    assert np.isnan(c.sel(system="qld", topic="401", measure="ndcg_cut_20").item())


def test_directory_and_measure_filter_and_file_name_fallback(runs):
    (runs / "b.eval").write_text(RUN_B.replace("runid\tall\tqld\n", ""))
    c = read_trec_eval(runs, measures=["map"], topics="union")  # said: no warning
    assert c.system.values.tolist() == ["bm25", "b"]
    assert c.measure.values.tolist() == ["map"]


def test_measures_are_asked_for_under_any_usual_spelling(runs):
    c = read_trec_eval(runs / "a.eval", measures=["nDCG@20", "AP", "p10"])
    assert c.measure.values.tolist() == ["ndcg_cut_20", "map", "P_10"]  # as the file says
    assert c.sel(topic="401", measure="P_10").item() == 0.4
    with pytest.raises(ScoreDataError, match="measure 'P@20' is in none of the files"):
        read_trec_eval(runs / "a.eval", measures=["P@20"])


def test_runs_argument_renames(runs):
    with pytest.warns(ScorestdWarning, match="y lacks 1"), \
            pytest.warns(ScorestdWarning, match="y lacks num_ret"):
        c = read_trec_eval([runs / "a.eval", runs / "b.eval"], runs=["x", "y"])
    assert c.system.values.tolist() == ["x", "y"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("map 401 0.2\nmap 402\n", r"f\.eval, line 2: too few fields: expected 3 \(measure topic value\), found 2"),
        ("map 401 0.2 extra\n", r"f\.eval, line 1: too many fields"),
        ("map 401 0.2\nmap 401 0.3\n", r"f\.eval, line 2: map of topic '401' is 0.3 here but 0.2 on line 1"),
        ("map 401 zero\n", r"f\.eval, line 1: map of topic '401': 'zero' is not a number"),
        ("", r"f\.eval: file is empty"),
        ("map all 0.3\nrunid all x\n", r"f\.eval: no per-topic lines"),
        ("runid all x\nmap 1 0.1\nrunid all y\n", r"f\.eval, line 3: second run id 'y'"),
    ],
)
def test_bad_lines_name_file_and_line(tmp_path, text, message):
    p = tmp_path / "f.eval"
    p.write_text(text)
    with pytest.raises(ScoreDataError, match=message):
        read_trec_eval(p)


def test_identical_repeats_are_accepted(tmp_path):
    p = tmp_path / "f.eval"
    p.write_text("map 1 0.5\nmap 1 0.5\n")
    assert read_trec_eval(p).item() == 0.5


def test_same_run_name_twice_and_missing_file(runs):
    (runs / "c.eval").write_text(RUN_B)
    with pytest.raises(ScoreDataError, match="run name 'qld' is also the run of"):
        read_trec_eval([runs / "b.eval", runs / "c.eval"])
    with pytest.raises(ScoreDataError, match="no such file"):
        read_trec_eval([runs / "missing.eval"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.dictionaries(
    st.tuples(st.sampled_from(["401", "402", "10", "7"]),
              st.sampled_from(["map", "P_10", "ndcg_cut_20"])),
    st.integers(0, 10).map(lambda k: k / 10), min_size=1, max_size=12), min_size=1, max_size=4),
    st.randoms())
def test_property_the_cube_of_a_plain_loop(files, random):
    # reference: every (topic, measure, value) of every file put in place by a plain loop,
    # over every topic and measure seen (the default: a run's missing cells are NaN)
    folder = Path(tempfile.mkdtemp())
    for k, cells in enumerate(files):
        lines = [f"{m}\t{t}\t{v}" for (t, m), v in cells.items()]
        lines += random.sample(lines, k=len(lines) // 2)  # identical repeats
        random.shuffle(lines)
        (folder / f"r{k}.eval").write_text("\n".join([*lines, f"runid\tall\tr{k}"]) + "\n")
    measures = list(dict.fromkeys(m for cells in files for (_, m) in cells))
    topics = set.union(*({t for t, _ in cells} for cells in files))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)  # different topics or measures
        cube = read_trec_eval(sorted(folder.iterdir()))
    assert set(cube.topic.values) == topics and list(cube.measure.values) == sorted(
        measures, key=list(cube.measure.values).index)
    assert set(cube.measure.values) == set(measures)
    for s, cells in enumerate(files):
        for t in topics:
            for m in measures:
                want = cells.get((t, m), np.nan)
                got = cube.sel(topic=t, system=f"r{s}", measure=m).item()
                assert got == want or (np.isnan(got) and np.isnan(want))
