"""Files with extra dims on the command line: ``scorestd simulate --out sims.nc`` is read back
by ``info``, ``convert`` and ``standardize`` whole, and by every other command one slice at
a time (``--select trial=K``); the studies take the user's files (``--data FILE ...``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import scorestd
from scorestd.cli import build_parser, main

#: Commands that read a whole file with extra dims (compare sums its tests up over them).
WHOLE = {"info", "convert", "standardize", "compare"}
#: Arguments each DATA command needs besides DATA (OUT files go to the test's folder).
EXTRA_ARGS = {"convert": ["--output", "{tmp}/copy.nc"], "standardize": ["--output", "{tmp}/std.nc"],
              "simulate": ["--output", "{tmp}/again.nc", "--trials", "2", "--seed", "1"],
              "report": ["--no-plots", "--figures", "{tmp}/report"],
              "bayes": ["--closed-form"], "power": ["--min-diff", "0.1", "--power", "0.8"],
              "topics": ["--min-diff", "0.1"]}


@pytest.fixture(scope="module")
def sims(tmp_path_factory):
    """``scorestd simulate`` output: 3 trials × 20 topics × 8 systems of AP."""
    folder = tmp_path_factory.mktemp("sims")
    small = folder / "small.nc"
    scorestd.save(scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 8)), small)
    out = folder / "sims.nc"
    assert main(["simulate", str(small), "--output", str(out), "--trials", "3", "--n-topics",
                 "20", "--seed", "4", "--no-progress"]) == 0
    return out


def _data_commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return sorted(name for name, p in sub.choices.items()
                  if any(a.dest == "data" and not a.option_strings for a in p._actions))


def test_every_data_command_is_listed():
    assert set(_data_commands()) == {
        "aggregate", "bayes", "compare", "convert", "discriminative-power", "info",
        "leave-one-out", "power", "report", "simulate", "standardize", "swap-rate",
        "topics"}


@pytest.mark.parametrize("command", sorted(set(_data_commands()) - WHOLE))
def test_a_command_of_one_collection_asks_for_a_slice(command, sims, tmp_path, capsys):
    args = [a.format(tmp=tmp_path) for a in EXTRA_ARGS.get(command, [])]
    assert main([command, str(sims), *args]) == 1
    err = capsys.readouterr().err
    assert "extra dims: trial (3)" in err and "--select trial=0" in err


def test_info_shows_the_extra_dims_and_describes_each_slice(sims, capsys):
    assert main(["info", str(sims)]) == 0
    out = capsys.readouterr().out
    assert "3 trials × 20 topics × 8 systems × 1 measures" in out
    cube = scorestd.load(sims)
    means = scorestd.describe(cube)["mean"]
    for trial in range(3):
        line = next(line for line in out.splitlines() if line.startswith(f"{trial}     ap"))
        assert f"{means.loc[(trial, 'ap')]:.4f}" in line.split()


def test_convert_and_standardize_keep_the_extra_dims(sims, tmp_path):
    cube = scorestd.load(sims)
    assert main(["convert", str(sims), "--output", str(tmp_path / "copy.nc")]) == 0
    xr.testing.assert_identical(scorestd.load(tmp_path / "copy.nc"), cube)
    assert main(["standardize", str(sims), "--output", str(tmp_path / "e.nc")]) == 0
    e = scorestd.load(tmp_path / "e.nc")
    assert e.dims == ("trial", "topic", "system", "measure")
    one = scorestd.standardize(cube.sel(trial=2, drop=True))
    np.testing.assert_allclose(e.sel(trial=2).values, one.values)


def test_select_picks_one_trial(sims, capsys):
    assert main(["aggregate", str(sims), "--select", "trial=2"]) == 0
    out = capsys.readouterr().out
    want = scorestd.aggregate(scorestd.load(sims).sel(trial=2, drop=True)).sel(measure="ap")
    best = want.idxmax("system").item()
    assert out.splitlines()[3].split()[:2] == [best, f"{want.max().item():.4f}"]


@pytest.mark.parametrize("selection, message", [
    ("trial=7", "has no trial '7' (trials: 0, 1, 2)"),
    ("fold=1", "has no extra dim 'fold'"),
])
def test_a_bad_selection_is_named(sims, capsys, selection, message):
    assert main(["info", str(sims), "--select", selection]) == 1
    assert message in capsys.readouterr().err


def test_error_rates_on_the_users_files(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap")
    scorestd.save(ap.isel(system=slice(0, 30)), tmp_path / "a8.nc")
    scorestd.save(ap.isel(system=slice(30, 60)), tmp_path / "b8.nc")
    argv = ["experiment", "error-rates", "--data", str(tmp_path / "a8.nc"),
            str(tmp_path / "b8.nc"), "--trials", "64", "--deltas", "none", "--n-topics", "25",
            "--tests", "paired_t", "--seed", "1", "--no-figure", "--no-progress"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "error rates (Urbano, Lima & Hanjalic 2019): a8, b8; 64 Type I trials" in out
    api = scorestd.error_rates([tmp_path / "a8.nc", tmp_path / "b8.nc"], deltas=None,
                               n_topics=[25], tests=["paired_t"], trials=64, seed=1,
                               progress=False)
    rate = api.summary()["type1(α=.05, 2-tailed)"].item()
    assert f" {rate:.4f} " in out


@pytest.mark.parametrize("study, function, systems", [
    ("topic-set-validation", "topic_set_validation", 30),
    ("estd-stability", "estd_stability", 129),  # pools of up to 100 other systems
])
def test_simulation_studies_on_the_users_files(study, function, systems, tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, systems))
    paths = [tmp_path / "x.nc", tmp_path / "y.nc"]
    scorestd.save(ap, paths[0])
    scorestd.save(ap.isel(topic=slice(0, 40)), paths[1])
    assert main(["experiment", study, "--data", *map(str, paths), "--trials", "8",
                 "--seed", "3", "--no-figure"]) == 0
    out = capsys.readouterr().out
    for path in paths:
        want = getattr(scorestd, function)(path, measure="ap", trials=8, seed=3).summary()
        assert want.to_string(float_format="{:.4f}".format).splitlines()[-1].split()[-1] in out
    assert out.count(" ap, 8 trials, seed 3") == 2


def test_a_study_of_one_slice_names_the_file_and_the_slice(sims, capsys):
    assert main(["experiment", "estd-stability", "--data", str(sims), "--select", "trial=1",
                 "--trials", "4", "--seed", "1", "--no-figure", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "E-std stability: sims (trial 1) ap, 4 trials, seed 1"
    api = scorestd.estd_stability(scorestd.load(sims).isel(trial=1), trials=4, seed=1)
    assert api.data.attrs["data"] == "simulated from adhoc8"  # no file name in the API
    assert api.summary().index.tolist() == [5]  # the pool sizes 8 systems allow
    assert main(["experiment", "estd-stability", "--data", str(sims), "--select", "trial=1",
                 "--trials", "4", "--seed", "1", "--no-figure", "--pool-sizes", "3,7"]) == 0
    assert "sims (trial 1)" in capsys.readouterr().out


def test_compare_sums_up_the_trials(sims, tmp_path, capsys):
    out_md = tmp_path / "across.csv"
    assert main(["compare", str(sims), "--systems", "run1,run2,run3,run4", "--alpha", "0.05",
                 "--output", str(out_md)]) == 0
    printed = capsys.readouterr().out
    assert "over trial (3): significant at 0.05 in every slice:" in printed
    for column in ("significant:", "mean_diff:", "true_diff:", "agree:"):
        assert column in printed  # the legend
    written = pd.read_csv(out_md).set_index(["system", "system2"])
    # reference: a plain loop over the trials, one comparison each
    cube = scorestd.load(sims).sel(system=["run1", "run2", "run3", "run4"])
    truth = cube.true_mean.to_series()
    runs = [scorestd.compare(cube.isel(trial=k, drop=True), correction="holm")
            .sel(measure="ap").to_dataframe().set_index(["system", "system2"])
            for k in range(3)]
    for pair, row in written.iterrows():
        p = np.array([r.loc[pair, "p_adjusted"] for r in runs])
        diffs = np.array([r.loc[pair, "mean_diff"] for r in runs])
        true_diff = truth[pair[0]] - truth[pair[1]]
        assert row["significant"] == pytest.approx(np.mean(p < 0.05))
        assert row["mean_diff"] == pytest.approx(diffs.mean())
        assert row["sd_diff"] == pytest.approx(diffs.std(ddof=1))
        assert row["true_diff"] == pytest.approx(true_diff)
        assert row["agree"] == pytest.approx(np.mean(np.sign(diffs) == np.sign(true_diff)))
        assert row["slices"] == 3
    assert len(written) == 6


def test_compare_across_a_collection_dim_without_truth(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 3))
    folds = xr.concat([ap.isel(topic=slice(0, 25)), ap.isel(topic=slice(25, 50))
                       .assign_coords(topic=ap.topic.values[:25])],
                      dim=pd.Index(["first", "second"], name="fold"))
    path = scorestd.save(folds, tmp_path / "folds.nc")
    assert main(["compare", str(path), "--correction", "none"]) == 0
    printed = capsys.readouterr().out
    assert "over fold (2)" in printed and "agree" not in printed
    assert "no true_mean coord" in printed
