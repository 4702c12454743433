"""``scorestd experiment``: prints the summary table and writes the figure."""

from __future__ import annotations

import pytest

from scorestd.cli import main


def test_within_prints_table_and_writes_figure(capsys, tmp_path):
    out = tmp_path / "within.png"
    code = main(["experiment", "within", "--data", "adhoc8_ap", "--trials", "6", "--seed", "3",
                 "--schemes", "raw,E", "--figure", str(out), "--no-progress"])
    text = capsys.readouterr().out
    assert code == 0
    assert "within-collection: adhoc8 ap, 6 trials, seed 3" in text
    lines = {line.split()[0]: line.split()[1:] for line in text.splitlines()[2:] if line}
    assert float(lines["raw"][0]) == 1.0  # raw ranking against itself: τ = 1
    assert 0 < float(lines["E"][0]) < 1
    assert out.stat().st_size > 0


@pytest.mark.parametrize("name", ["between", "split-half", "smoothing"])
def test_other_experiments_run_and_write_the_default_figure(capsys, name, tmp_path,
                                                           monkeypatch):
    monkeypatch.chdir(tmp_path)
    data = "adhoc8_ap" if name != "smoothing" else "robust2004"
    code = main(["experiment", name, "--data", data, "--trials", "3", "--no-progress",
                 "--schemes", "raw,N"])
    assert code == 0
    assert "raw" in capsys.readouterr().out
    assert (tmp_path / f"experiment-{name}.png").stat().st_size > 0


def test_bad_scheme_is_a_clean_error(capsys):
    code = main(["experiment", "within", "--data", "adhoc8_ap", "--trials", "2",
                 "--schemes", "raw,nope", "--no-progress", "--no-figure"])
    assert code == 1
    assert "unknown scheme 'nope'" in capsys.readouterr().err


def test_on_a_local_dask_cluster_same_table(capsys):
    args = ["experiment", "split-half", "--data", "adhoc8_ap", "--trials", "4", "--seed", "1",
            "--schemes", "raw", "--batch-size", "2", "--no-progress", "--no-figure"]
    assert main(args) == 0
    local = capsys.readouterr().out
    assert main([*args, "--workers", "1"]) == 0
    assert capsys.readouterr().out == local


def test_a_memory_budget_gives_the_same_table(capsys):
    args = ["experiment", "within", "--data", "adhoc8_ap", "--trials", "5", "--seed", "2",
            "--schemes", "raw,E", "--no-progress", "--no-figure"]
    assert main(args) == 0
    default = capsys.readouterr().out
    assert main([*args, "--memory", "2MiB"]) == 0
    assert capsys.readouterr().out == default
    assert main([*args, "--memory", "a lot"]) == 1
    assert "memory must be a size in bytes" in capsys.readouterr().err


def test_error_rates_plot_kinds(tmp_path, capsys):
    from matplotlib.image import imread

    out = tmp_path / "power.png"
    assert main(["experiment", "error-rates", "--data", "adhoc8", "-m", "ap", "--n-topics",
                 "25", "--deltas", "0.05,0.1", "--trials", "20", "--resamples", "50",
                 "--tests", "paired_t,sign", "--plot", "power", "--figure", str(out), "-q"]) == 0
    height, width = imread(out).shape[:2]
    assert width >= 400 and height >= 340  # one panel, readable
    assert main(["experiment", "error-rates", "--data", "adhoc8", "--deltas", "none",
                 "--plot", "type3", "--figure", str(tmp_path / "t3.png")]) == 1
    assert "--plot type3 needs the Type II trials" in capsys.readouterr().err


def test_error_rates_default_figure_is_type1_and_power(tmp_path, monkeypatch):
    """Without --plot: the Type I panels and the power panels below them when the run
    computed Type II trials (what the table beside it has), the Type I panels alone with
    --deltas none; the figure drawn is the one written."""
    import xarray as xr
    from matplotlib.image import imread

    from scorestd.experiments import _error_rate_figures

    drawn = []
    save = _error_rate_figures.save_figure
    monkeypatch.setattr(_error_rate_figures, "save_figure",
                        lambda fig, path: drawn.append(fig) or save(fig, path))
    out, rates = tmp_path / "rates.png", tmp_path / "rates.nc"
    args = ["experiment", "error-rates", "--data", "adhoc8", "-m", "ap", "--n-topics", "25",
            "--trials", "64", "--trials-type2", "32", "--resamples", "50", "--tests",
            "paired_t,sign", "--copula", "gaussian", "-q"]
    assert main([*args, "--deltas", "0.02,0.05", "--figure", str(out), "--save",
                 str(rates)]) == 0
    fig = drawn.pop()
    assert [sub.get_suptitle() for sub in fig.subfigs] == [
        "Type I error rate against α (two-tailed; grey: nominal)",
        "power against the true difference δ (α = 0.05, two-tailed)"]
    assert [ax.get_ylabel() for ax in fig.axes] == ["Type I error rate", "power"]
    with xr.open_dataset(rates) as data:
        power = {line.get_label(): line.get_ydata() for line in fig.axes[1].get_lines()}
        for test in ("paired_t", "sign"):
            assert list(power[test]) == data["power"].sel(test=test, tails=2,
                                                          alpha=0.05).values.ravel().tolist()
    height, width = imread(out).shape[:2]
    assert height > 1.5 * width and width >= 400  # two panels, one above the other
    assert main([*args, "--deltas", "none", "--figure", str(out)]) == 0
    fig = drawn.pop()
    assert not fig.subfigs and [ax.get_ylabel() for ax in fig.axes] == ["Type I error rate"]


def test_error_rates_alpha_sets_the_table_and_the_power_panels(tmp_path, monkeypatch,
                                                               capsys):
    from scorestd.experiments import _error_rate_figures

    drawn = []
    save = _error_rate_figures.save_figure
    monkeypatch.setattr(_error_rate_figures, "save_figure",
                        lambda fig, path: drawn.append(fig) or save(fig, path))
    table = tmp_path / "rates.md"
    args = ["experiment", "error-rates", "--data", "adhoc8", "-m", "ap", "--n-topics", "25",
            "--trials", "64", "--trials-type2", "32", "--resamples", "50", "--tests",
            "paired_t", "--copula", "gaussian", "--deltas", "0.05", "--no-progress"]
    assert main([*args, "--alpha", "0.01", "-o", str(table), "--figure",
                 str(tmp_path / "rates.png")]) == 0
    out = capsys.readouterr().out
    assert "type1(α=.01, 2-tailed)" in out and "power(δ=.05, α=.01, 2-tailed)" in out
    assert "power(δ=.05, α=.01, 2-tailed)" in table.read_text()
    assert drawn.pop().subfigs[1].get_suptitle() == (
        "power against the true difference δ (α = 0.01, two-tailed)")
    # a level the study does not compute: refused before the run
    assert main([*args, "--alpha", "0.015", "--no-figure"]) == 1
    assert ("alpha must be one of the levels computed, 0.001, 0.002"
            in capsys.readouterr().err)
    assert main(["experiment", "within", "--alpha", "0.01", "--no-figure"]) == 1
    assert "--alpha is an option of error-rates" in capsys.readouterr().err


def test_error_rates_say_how_many_type2_trials(tmp_path, capsys):
    table = tmp_path / "rates.md"
    assert main(["experiment", "error-rates", "--data", "adhoc8", "-m", "AP", "--n-topics",
                 "25", "--deltas", "0.05", "--trials", "20", "--trials-type2", "10",
                 "--resamples", "50", "--tests", "paired_t", "--seed", "2", "--no-figure",
                 "--no-progress", "-o", str(table)]) == 0
    out = capsys.readouterr().out
    assert ("adhoc8; 20 Type I trials, 10 Type II trials per δ, pair copulas selected as "
            "BiCopSelect, seed 2") in out
    # -m AP: the study labels the measure as the collection spells it (ap)
    assert table.read_text().splitlines()[0].endswith(
        "adhoc8 ap; 20 Type I trials, 10 Type II trials per δ, pair copulas selected "
        "as BiCopSelect, seed 2.")
