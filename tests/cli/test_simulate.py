"""``scorestd simulate`` and ``scorestd experiment error-rates``."""

from __future__ import annotations

import xarray as xr

from scorestd.cli import main


def test_simulate_writes_netcdf_with_true_means(capsys, tmp_path):
    out = tmp_path / "sims.nc"
    code = main(["simulate", "adhoc8", "-m", "ap", "--trials", "3", "--n-topics", "20",
                 "--seed", "4", "--output", str(out), "--no-progress", "--copula", "gaussian"])
    assert code == 0
    assert "3 collections of 20 topics" in capsys.readouterr().out
    with xr.open_dataset(out) as ds:
        assert dict(ds["score"].sizes) == {"trial": 3, "topic": 20, "system": 129, "measure": 1}
        assert "true_mean" in ds.coords


def test_simulate_bad_family_is_a_clean_error(capsys, tmp_path):
    code = main(["simulate", "adhoc8", "-m", "ap", "--families", "nope",
                 "--output", str(tmp_path / "x.nc")])
    assert code == 1
    assert "unknown margin family 'nope'" in capsys.readouterr().err


def test_experiment_error_rates(capsys, tmp_path):
    save = tmp_path / "rates.nc"
    code = main(["experiment", "error-rates", "--data", "adhoc8,web2010", "--measure", "ap",
                 "--n-topics", "25", "--deltas", "0.05", "--tests", "paired_t,sign",
                 "--trials", "128", "--trials-type2", "64", "--no-progress",
                 "--save", str(save), "--figure", str(tmp_path / "er.png")])
    text = capsys.readouterr().out
    assert code == 0
    assert "adhoc8, web2010" in text and "paired_t" in text
    with xr.open_dataset(save) as ds:
        assert ds["type1"].sizes["alpha"] == 19
    assert (tmp_path / "er.png").stat().st_size > 0


def test_experiment_error_rates_with_pair_copulas_and_a_pool(capsys, tmp_path):
    save, pool = tmp_path / "rates.nc", tmp_path / "pool.npz"
    args = ["experiment", "error-rates", "--data", "adhoc8", "--measure", "ap",
            "--n-topics", "25", "--deltas", "none", "--tests", "paired_t",
            "--trials", "70", "--no-progress", "--no-figure", "--save", str(save),
            "--pool", str(pool)]
    assert main(args) == 0, capsys.readouterr().err
    assert pool.exists()
    with xr.open_dataset(save) as ds:
        assert ds.attrs["copula"] == "vine"
        first = ds["type1"].values
    assert main(args) == 0, capsys.readouterr().err  # the pool read back: same rates
    with xr.open_dataset(save) as ds:
        assert (ds["type1"].values == first).all()


def test_simulate_vine_options_are_checked_before_fitting(capsys, tmp_path):
    code = main(["simulate", "adhoc8", "-m", "ap", "--trunc-lvl", "0",
                 "--output", str(tmp_path / "x.nc")])
    assert code == 1
    assert "trunc_lvl must be an integer ≥ 1" in capsys.readouterr().err


def test_experiment_error_rates_resumes_from_its_results_dir(capsys, tmp_path):
    folder = tmp_path / "study"
    args = ["experiment", "error-rates", "--data", "adhoc8", "--measure", "ap",
            "--n-topics", "25", "--deltas", "none", "--tests", "paired_t,sign",
            "--trials", "128", "--no-progress", "--no-figure", "--results-dir", str(folder)]
    assert main([*args, "--save", str(tmp_path / "a.nc")]) == 0
    chunks = sorted(folder.glob("*/*.nc"))
    assert [p.parent.name for p in chunks] == ["type1_ap_n25"]
    assert main([*args, "--save", str(tmp_path / "b.nc")]) == 0  # read back, not recomputed
    with xr.open_dataset(tmp_path / "a.nc") as a, xr.open_dataset(tmp_path / "b.nc") as b:
        assert a["type1"].identical(b["type1"])
    capsys.readouterr()
    assert main([*args[:-2], "--seed", "3", "--results-dir", str(folder)]) == 1
    assert "run with seed=0, not seed=3" in capsys.readouterr().err


def test_full_size_sets_the_published_design(monkeypatch, capsys):
    from scorestd.experiments import significance_errors

    seen = {}

    def fake(collections, *, deltas=significance_errors.DELTAS, **kwargs):
        seen.update(kwargs, deltas=deltas)
        raise ValueError("stop here")

    monkeypatch.setattr(significance_errors, "error_rates", fake)
    monkeypatch.setattr("scorestd.experiments.error_rates", fake)
    assert main(["experiment", "error-rates", "--full-size", "--no-figure"]) == 1
    assert (seen["trials"], seen["trials_type2"], seen["B"]) == (1_667_000, 167_000, 10_000)
    assert seen["results_dir"] == "error-rates-full-size" and seen["measures"] is None
    assert len(seen["deltas"]) == 10 and "n_topics" not in seen  # defaults: 25, 50, 100
    assert "stop here" in capsys.readouterr().err
    assert seen["pair_families"] == "bicopselect"  # the default family set: the paper's
    assert main(["experiment", "error-rates", "--full-size", "--no-figure",
                 "--pair-families", "vinecopulib"]) == 1
    assert seen["pair_families"] == "vinecopulib"


def test_simulate_writes_chunk_by_chunk_the_file_of_one_draw(capsys, tmp_path):
    # 40 trials in chunks of a few (a 2 MB budget) give the file of one in-memory draw
    import scorestd
    from scorestd.io.atomic import atomic_netcdf

    out = tmp_path / "sims.nc"
    assert main(["simulate", "adhoc8", "-m", "ap", "--trials", "40", "--n-topics", "20",
                 "--seed", "4", "--output", str(out), "-q", "--copula", "gaussian",
                 "--memory", "2MB"]) == 0
    sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8"), measure="ap",
                                 copula="gaussian")
    whole = scorestd.simulate(sim, n_topics=20, trials=40, seed=4)
    atomic_netcdf(whole.to_dataset(name="score"), tmp_path / "whole.nc")
    with xr.open_dataarray(out) as a, xr.open_dataarray(tmp_path / "whole.nc") as b:
        assert a.identical(b)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sims.nc", "whole.nc"]


CTRL_C_DURING_SIMULATION = """
import signal, sys
from scorestd.cli import main
from scorestd.simulation import simulator

real, calls = simulator.Simulator._draw, []

def interrupted(self, *args, **kw):
    calls.append(1)
    if len(calls) == 3:  # Ctrl-C while the third chunk is drawn
        signal.raise_signal(signal.SIGINT)
    return real(self, *args, **kw)

simulator.Simulator._draw = interrupted
sys.exit(main(["simulate", "adhoc8", "-m", "ap", "--copula", "gaussian", "--trials", "50",
               "--memory", "1MiB", "-q", "--output", sys.argv[1]]))
"""


def test_ctrl_c_while_simulating_leaves_the_old_file(tmp_path):
    import signal
    import subprocess
    import sys

    target = tmp_path / "sims.nc"
    target.write_bytes(b"old contents")
    child = subprocess.run(
        [sys.executable, "-c", CTRL_C_DURING_SIMULATION, str(target)],
        capture_output=True, text=True, timeout=300,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert child.returncode == 130, child.stderr
    assert target.read_bytes() == b"old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["sims.nc"]


def test_simulate_quiet_prints_nothing_the_file_is_the_result(capsys, tmp_path):
    args = ["simulate", "adhoc8_ap", "--systems", "top:4", "--copula", "gaussian",
            "--trials", "2", "--seed", "1"]
    assert main([*args, "-o", str(tmp_path / "q.nc"), "-q"]) == 0
    assert capsys.readouterr().out == ""  # as standardize -q and convert -q
    with xr.open_dataset(tmp_path / "q.nc") as ds:
        assert ds["score"].sizes["trial"] == 2
    assert main([*args, "-o", str(tmp_path / "v.nc")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith(f"written to {tmp_path / 'v.nc'}")
    assert out[1] == "how well the simulated collections reproduce the observed one:"
    assert out[2].split() == ["observed", "simulated", "mean_abs_diff", "correlation"]
