"""Every bad input of issue 14 (and more), with what it gets: an error or a warning that
names it, or the right reading. docs/data.rst ("Bad input") lists the same cases."""

from __future__ import annotations

import shutil
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import scorestd
from scorestd.cli import main
from scorestd.errors import OptionError, ScoreDataError, ScorestdWarning

DATA = __import__("pathlib").Path(__file__).parents[1] / "data"


# -- frames by labels ------------------------------------------------------------------

def test_systems_as_rows_said_by_the_index_name_are_read_as_systems():
    frame = pd.DataFrame([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
                         index=pd.Index(["bm25", "qld"], name="system"),
                         columns=["401", "402", "403"])
    c = scorestd.validate(frame)
    assert c.system.values.tolist() == ["bm25", "qld"]
    assert c.sel(system="qld", topic="402").item() == 0.5


def test_per_query_frame_never_makes_qid_a_system():
    frame = pd.DataFrame({"qid": [401, 402, 403], "AP": [0.25, 0.5, 0.0]})
    with pytest.raises(ScoreDataError, match=r"tidy \(long\) table.*scorestd.from_dataframe"):
        scorestd.aggregate(frame)
    c = scorestd.from_dataframe(frame, run_name="bm25")
    assert c.system.values.tolist() == ["bm25"] and c.topic.values.tolist() == ["401", "402", "403"]
    assert scorestd.aggregate(c).sel(system="bm25", measure="AP").item() == 0.25


def test_unnamed_wide_frame_is_refused_with_the_call_to_make():
    frame = pd.DataFrame({"bm25": [0.1, 0.2]}, index=["401", "402"])
    with pytest.raises(ScoreDataError, match=r"rename_axis\(index='topic', columns='system'\)"):
        scorestd.describe(frame)


def test_wide_frame_with_a_column_of_ids_is_refused():
    frame = pd.DataFrame({"number": [401, 402, 403], "bm25": [0.1, 0.2, 0.3]},
                         index=pd.Index(["a", "b", "c"], name="topic"))
    with pytest.raises(ScoreDataError, match="column 'number' holds sorted distinct whole"):
        scorestd.validate(frame)


def test_tidy_frame_given_to_a_function_points_at_from_dataframe():
    tidy = pd.read_csv(DATA / "pyterrier_perquery.csv", dtype={"qid": str})
    with pytest.raises(ScoreDataError, match=r"scorestd.from_dataframe\(frame\)"):
        scorestd.aggregate(tidy)


def test_from_dataframe_reads_both_wide_orientations_by_axis_names():
    wide = pd.DataFrame({"bm25": [0.1, 0.2], "qld": [0.3, 0.4]},
                        index=pd.Index(["401", "402"], name="qid")).rename_axis(columns="run")
    a = scorestd.from_dataframe(wide, measure_name="ap")
    b = scorestd.from_dataframe(wide.T, measure_name="ap")
    xr.testing.assert_equal(a, b.transpose(*a.dims))
    assert a.sel(system="qld", topic="402", measure="ap").item() == 0.4
    # a named index counts as a column
    c = scorestd.from_dataframe(pd.read_csv(DATA / "pyterrier_perquery.csv", dtype={"qid": str})
                                .set_index(["qid", "name"]))
    assert c.sizes == {"topic": 2, "system": 2, "measure": 2}


def test_a_series_with_named_levels():
    s = pd.Series([0.1, 0.2, 0.3, 0.4], index=pd.MultiIndex.from_product(
        [["401", "402"], ["bm25", "qld"]], names=["qid", "run"]))
    assert scorestd.validate(s).sel(topic="402", system="bm25").item() == 0.3
    with pytest.raises(ScoreDataError, match="index levels named topic and system"):
        scorestd.validate(s.rename_axis([None, None]))


# -- matrix CSV ------------------------------------------------------------------------

def test_ids_under_another_header_are_not_a_system():
    with pytest.raises(ScoreDataError, match=r"ids_header_ap.csv, line 1: the first column, "
                                             r"headed 'run', holds distinct whole numbers"):
        scorestd.read_matrix_csv(DATA / "ids_header_ap.csv")
    c = scorestd.read_matrix_csv(DATA / "ids_header_ap.csv", topic_column=True)
    assert c.topic.values.tolist() == ["401", "402"] and c.system.values.tolist() == ["s1", "s2"]


def test_semicolon_and_decimal_comma_are_sniffed(tmp_path):
    c = scorestd.load(DATA / "spreadsheet_ap.csv")
    assert c.sel(topic="401", system="qld", measure="ap").item() == 0.3013
    assert c.sel(topic="403", system="bm25", measure="ap").item() == 0.0
    tab = tmp_path / "tab_ap.tsv"
    tab.write_text("topic\tbm25\n401\t0.25\n")
    assert scorestd.load(tab).sel(topic="401").item() == 0.25
    # told the wrong mark, a number is refused rather than misread
    with pytest.raises(ScoreDataError, match=r"line 2: system 'bm25': '0,2531' is not a number"):
        scorestd.read_matrix_csv(DATA / "spreadsheet_ap.csv", delimiter=";", decimal=".")


def test_cli_delimiter_and_decimal(capsys, tmp_path):
    odd = tmp_path / "odd_ap.csv"
    odd.write_text("topic;bm25\n401;0,5\n402;0,25\n")
    assert main(["info", str(odd), "--delimiter", ";", "--decimal", ","]) == 0
    assert "0.3750" in capsys.readouterr().out  # the mean


# -- range ------------------------------------------------------------------------------

def test_out_of_range_matrix_warns_naming_the_file(tmp_path):
    p = tmp_path / "runs_ap.csv"
    p.write_text("topic,a,b\n401,0.5,1.5\n402,-0.3,7\n")
    with pytest.warns(ScorestdWarning, match=r"runs_ap.csv: 3 'ap' scores outside \[0, 1\]"):
        scorestd.read_matrix_csv(p)
    with pytest.raises(ScoreDataError, match="3 'ap' scores outside"):
        scorestd.read_matrix_csv(p, strict=True)


def test_cli_prints_the_warning_and_info_counts(capsys, tmp_path):
    p = tmp_path / "runs_ap.csv"
    p.write_text("topic,a,b\n401,0.5,1.5\n402,0.3,0.7\n")
    assert main(["info", str(p)]) == 0
    captured = capsys.readouterr()
    assert "scorestd info: warning:" in captured.err and "1 'ap' score outside" in captured.err
    assert "out_of_range" in captured.out and "zero_fraction:" in captured.out
    assert main(["info", str(p), "--strict"]) == 1


def test_trec_eval_line_out_of_range(tmp_path):
    p = tmp_path / "run.txt"
    p.write_text("P_10 401 0.4000\nP_10 402 0.3500\nrunid all bm25\n")
    with pytest.warns(ScorestdWarning, match=r"run.txt, line 2: 1 'P_10' score\(s\) of run "
                                             r"'bm25' outside multiples of 1/10"):
        scorestd.read_trec_eval(p)


# -- netCDF -----------------------------------------------------------------------------

def test_netcdf_with_flipped_bytes_is_an_error(tmp_path):
    c = scorestd.datasets.load("adhoc8")
    path = scorestd.write_netcdf(c, tmp_path / "a.nc")
    raw = bytearray(path.read_bytes())
    rng = np.random.default_rng(14)
    for i in rng.choice(len(raw), 2000, replace=False):  # the 2,000 flipped bytes
        raw[i] ^= 0xFF
    bad = tmp_path / "bad.nc"
    bad.write_bytes(bytes(raw))
    with pytest.raises(ScoreDataError, match="bad.nc"):
        scorestd.read_netcdf(bad)


def test_netcdf_one_changed_score_is_caught(tmp_path):
    c = scorestd.cube([[0.125, 0.25], [0.375, 0.5]], measures=["ap"])
    path = scorestd.write_netcdf(c, tmp_path / "a.nc")
    raw = bytearray(path.read_bytes())
    at = raw.find(np.float64(0.375).tobytes())
    assert at > 0
    raw[at:at + 8] = np.float64(0.875).tobytes()  # a plausible score: no range check helps
    (tmp_path / "b.nc").write_bytes(bytes(raw))
    with pytest.raises(ScoreDataError, match="b.nc.*damaged"):
        scorestd.read_netcdf(tmp_path / "b.nc")
    assert "scorestd_digest" not in scorestd.read_netcdf(path).attrs


# -- topic sets and collections ----------------------------------------------------------

@pytest.fixture
def uneven(tmp_path):
    folder = tmp_path / "evals"
    shutil.copytree(scorestd.datasets.example_path("trec_eval"), folder)
    text = (folder / "qld.txt").read_text().splitlines(keepends=True)
    (folder / "qld.txt").write_text("".join(line for line in text if "\t419\t" not in line
                                            and "\t420\t" not in line))
    return folder


def test_runs_with_different_topics(uneven):
    with pytest.warns(ScorestdWarning, match=r"20 in all, 18 in every run\): qld lacks 2 "
                                             r"\(419, 420\).*trec_eval -c"):
        union = scorestd.read_trec_eval(uneven)
    assert union.sizes["topic"] == 20 and np.isnan(union.sel(system="qld", topic="420")).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        common = scorestd.read_trec_eval(uneven, topics="intersection")
        assert common.sizes["topic"] == 18 and common.attrs["topics"] == "intersection"
    with pytest.raises(ScoreDataError, match="qld lacks 2"):
        scorestd.read_trec_eval(uneven, topics="strict")
    with pytest.raises(OptionError, match="topics must be one of"):
        scorestd.read_trec_eval(uneven, topics="all")


def test_compare_warns_when_pairs_use_different_topics(uneven):
    c = scorestd.read_trec_eval(uneven, topics="union", measures=["map"])
    with pytest.warns(ScorestdWarning, match=r"'map': .*n from 18 to 20 of 20"):
        res = scorestd.compare(c)
    n = res["n"].sel(measure="map").to_series()
    assert n["bm25 vs qld"] == 18 and n["bm25 vs rm3"] == 20


def test_folder_skips_files_that_are_not_trec_eval_output(uneven):
    (uneven / "README.md").write_text("# my runs\n")
    shutil.copy(scorestd.datasets.example_path("qrels"), uneven / "qrels.txt")
    with pytest.warns(ScorestdWarning, match=r"skipped 2 file\(s\).*README.md, qrels.txt"), \
            pytest.warns(ScorestdWarning, match="different topics"):
        c = scorestd.read_trec_eval(uneven)
    assert c.sizes["system"] == 4


def test_reference_from_another_collection_is_an_error():
    robust, adhoc = scorestd.datasets.load("robust2004_ap"), scorestd.datasets.load("adhoc8_ap")
    ref = adhoc.isel(topic=slice(0, 50))
    scores = robust.isel(topic=slice(0, 50))  # both label topics t01 … t50
    with pytest.raises(ScoreDataError, match="from collection 'adhoc8' but the scores from "
                                             "'robust2004'.*cross_collection=True"):
        scorestd.standardize(scores, "normal", reference=ref)
    ok = scorestd.standardize(scores, "normal", reference=ref, cross_collection=True)
    assert ok.sizes == scores.sizes
    with pytest.raises(ScoreDataError, match="prior is from collection"):
        scorestd.smooth(scores, ref, 0.5)


# -- outputs ----------------------------------------------------------------------------

def test_unsupported_output_suffix_is_refused_before_reading(tmp_path, capsys):
    assert main(["convert", "no-such-input.csv", "--output", str(tmp_path / "out.xlsx")]) == 1
    err = capsys.readouterr().err
    assert "cannot tell the format from the suffix '.xlsx'" in err
    assert not (tmp_path / "out.xlsx").exists()


def test_parquet_written_through_pandas(tmp_path):
    pytest.importorskip("pyarrow")
    c = scorestd.datasets.load("adhoc8")
    back = scorestd.load(scorestd.save(c, tmp_path / "a.parquet"))
    xr.testing.assert_identical(back, c)


def test_parquet_without_pyarrow_names_what_to_install(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ScoreDataError, match="pip install pyarrow"):
        scorestd.save(scorestd.cube([[0.5]]), tmp_path / "a.parquet")


def test_missing_output_directory_is_said_before_any_work(tmp_path, capsys):
    out = tmp_path / "no-such-dir" / "std.nc"
    assert main(["standardize", "adhoc8_ap", "--output", str(out)]) == 1
    assert "the directory" in capsys.readouterr().err
    with pytest.raises(FileNotFoundError, match="no-such-dir does not exist"):
        scorestd.save(scorestd.cube([[0.5]]), out)


def test_unwritable_directory_names_the_permission(tmp_path, monkeypatch):
    import os

    monkeypatch.setattr(os, "access", lambda path, mode: False)  # as for a non-root user
    with pytest.raises(PermissionError, match="no permission to write in the directory"):
        scorestd.io.check_writable(tmp_path / "x.nc")


def test_experiment_with_an_unwritable_figure_is_refused_before_running(monkeypatch, capsys):
    import scorestd.experiments as ex

    def never(*args, **kwargs):
        raise AssertionError("the experiment ran")

    monkeypatch.setattr(ex, "split_half", never)
    assert main(["experiment", "split-half", "--trials", "2", "--figure", "fig.xyz"]) == 1
    assert "a figure file needs the suffix" in capsys.readouterr().err


def test_bad_seed_is_an_option_error():
    ap = scorestd.datasets.load("adhoc8_ap")
    with pytest.raises(OptionError, match="seed must be a non-negative integer"):
        scorestd.split_half(ap, trials=2, seed="abc")
    with pytest.raises(OptionError, match="seed must be"):
        scorestd.compare(ap.isel(system=slice(0, 3)), "permutation", seed=-1)


def test_a_run_file_read_as_trec_eval_output_says_what_it_is():
    run = scorestd.datasets.example_path("runs") / "bm25.txt"
    with pytest.raises(ScoreDataError, match=r"bm25.txt, line 1: too many fields.*TREC run "
                                             r"file: evaluate runs with scorestd.evaluate"):
        scorestd.read_trec_eval(run)
