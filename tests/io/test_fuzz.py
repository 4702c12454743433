"""Fuzzing the readers: any input reads to a cube (equal to the one written, for files we
wrote) or raises a ScoreDataError naming the file — never another exception, never a hang."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import scorestd
from scorestd.errors import ScoreDataError, ScorestdWarning

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# text made of what score files are made of, and a few things they should not hold
ALPHABET = st.sampled_from([*"0123456789.,;\t \n-+eEaNn_\"'#qid,topicrunall", "\x00", "é", "\r"])
text = st.lists(ALPHABET, max_size=200).map("".join)


def _read_or_data_error(reader, path, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ScorestdWarning)
        try:
            cube = reader(path, **kwargs)
        except ScoreDataError as exc:
            assert path.name in str(exc), str(exc)  # the message names the file
            return None
    assert cube.dims == ("topic", "system", "measure") and cube.dtype == np.float64
    assert not np.isinf(cube.values).any()
    return cube


TEXT_READERS = {  # reader, file name, first line written before the fuzzed text
    "matrix": (scorestd.read_matrix_csv, "fuzz_ap.csv", ""),
    "long": (scorestd.read_long_csv, "fuzz.csv", "system,topic,measure,value\n"),
    "trec_eval": (scorestd.read_trec_eval, "fuzz.eval", ""),
}


@pytest.mark.parametrize("which", sorted(TEXT_READERS))
@FUZZ
@given(body=text)
def test_text_readers_on_any_text(tmp_path_factory, body, which):
    reader, name, head = TEXT_READERS[which]
    path = tmp_path_factory.mktemp(which) / name
    path.write_text(head + body, encoding="utf-8")
    _read_or_data_error(reader, path)


@FUZZ
@given(raw=st.binary(max_size=200))
def test_readers_on_any_bytes(tmp_path_factory, raw):
    folder = tmp_path_factory.mktemp("b")
    for name, reader in (("b_ap.csv", scorestd.read_matrix_csv),
                         ("b.eval", scorestd.read_trec_eval), ("b.nc", scorestd.read_netcdf)):
        (folder / name).write_bytes(raw)
        _read_or_data_error(reader, folder / name)


labels = st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                 min_size=1, max_size=6).map(str.strip).filter(bool)
scores = st.one_of(st.floats(0, 1, allow_nan=False), st.just(np.nan))


@st.composite
def cubes(draw):
    shape = draw(st.tuples(st.integers(1, 4), st.integers(1, 4), st.integers(1, 2)))
    values = draw(arrays(np.float64, shape, elements=scores))
    names = [draw(st.lists(labels, min_size=n, max_size=n, unique=True)) for n in shape]
    return scorestd.cube(values, topics=names[0], systems=names[1],
                         measures=[f"m:{m}" for m in names[2]])


@FUZZ
@given(c=cubes(), delimiter=st.sampled_from([",", "\t"]))
def test_written_long_csv_reads_back_equal(tmp_path_factory, c, delimiter):
    path = tmp_path_factory.mktemp("w") / "c.csv"
    back = scorestd.read_long_csv(scorestd.write_long_csv(c, path, delimiter=delimiter),
                                  delimiter=delimiter)
    xr.testing.assert_identical(back, c)


@FUZZ
@given(c=cubes())
def test_written_matrix_csv_reads_back_equal(tmp_path_factory, c):
    one = c.isel(measure=[0])
    path = tmp_path_factory.mktemp("x") / "c.csv"
    scorestd.write_matrix_csv(one, path)
    back = scorestd.read_matrix_csv(path, measure=str(one.measure.values[0]), topic_column=True,
                                    delimiter=",", decimal=".")
    np.testing.assert_array_equal(back.values, one.values)
    assert back.topic.values.tolist() == one.topic.values.tolist()


ROLES = ["qid", "topic", "run", "system", "name", "measure", "value", "score", "AP", "x", 0]
cells = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-5, 500),
                  st.text(max_size=3), st.none(), st.booleans())


@FUZZ
@given(columns=st.lists(st.sampled_from(ROLES), min_size=1, max_size=4, unique=True),
       rows=st.integers(1, 4), data=st.data(),
       index_name=st.sampled_from([None, "topic", "system", "qid", "other"]),
       columns_name=st.sampled_from([None, "system", "topic", "measure"]))
def test_frame_readers_on_any_frame(columns, rows, data, index_name, columns_name):
    frame = pd.DataFrame({c: data.draw(st.lists(cells, min_size=rows, max_size=rows))
                          for c in columns})
    frame.index = pd.Index([f"i{k}" for k in range(rows)], name=index_name)
    frame.columns.name = columns_name
    for read in (scorestd.from_dataframe, scorestd.validate,
                 lambda f: scorestd.from_dataframe(f, run_name="r")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ScorestdWarning)
            try:
                cube = read(frame)
            except ScoreDataError:
                continue
        assert cube.dims == ("topic", "system", "measure")
        assert not np.isinf(cube.values).any()


LONG_FIELD = 131_072 + 1  # one more than the csv module's default field limit


@pytest.mark.parametrize("which", sorted(TEXT_READERS))
@settings(FUZZ, max_examples=15)
@given(lines=st.lists(st.sampled_from(["401,0.5,0.25", "a,b,c", "x\t0.5", "map 401 0.25"]),
                      min_size=1, max_size=4),
       at=st.integers(0, 4), column=st.integers(0, 2), extra=st.integers(0, 5000),
       filler=st.sampled_from(["x", "1", "0.", "\"", " "]))
def test_a_field_over_the_csv_limit_anywhere_is_a_data_error(tmp_path_factory, which, lines,
                                                             at, column, extra, filler):
    reader, name, head = TEXT_READERS[which]
    big = filler * (LONG_FIELD + extra)
    rows = [line.split(",") if "," in line else [line] for line in lines]
    row = rows[min(at, len(rows) - 1)]
    row.insert(min(column, len(row)), big)
    path = tmp_path_factory.mktemp("wide") / name
    path.write_text(head + "\n".join(",".join(r) for r in rows) + "\n", encoding="utf-8")
    _read_or_data_error(reader, path)
    if which != "trec_eval":  # load() sniffs the format and the dialect first
        _read_or_data_error(scorestd.load, path)


def test_a_field_over_the_csv_limit_is_named_with_its_line(tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(f"topic,a,b\n401,0.5,0.25\n402,{'x' * LONG_FIELD},0.1\n")
    with pytest.raises(ScoreDataError, match=r"wide.csv, line 3: a field longer than 131,072"):
        scorestd.load(path)
    groups = tmp_path / "groups.csv"
    groups.write_text(f"run,group\nbm25,{'y' * LONG_FIELD}\n")
    with pytest.raises(ScoreDataError, match=r"groups.csv, line 2: a field longer"):
        scorestd.io.read_groups(groups)


@pytest.mark.parametrize("label", ["\x00", "run\x00", "\x00\x00"])
def test_a_nul_in_a_long_csv_label_is_named_with_file_and_line(tmp_path, label):
    # numpy text arrays drop trailing NULs: "\x00" would become an empty system label and
    # "run\x00" would merge with "run" (found by the fuzz test above)
    path = tmp_path / "nul.csv"
    path.write_text(f"topic,system,measure,score\n1,run,ap,0.5\n2,{label},ap,0.25\n")
    with pytest.raises(ScoreDataError, match=r"nul\.csv, line 3: system label .* NUL"):
        scorestd.read_long_csv(path)
