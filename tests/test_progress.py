"""One progress bar per job: shares of nested jobs, silence passed on, terminals only."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import scorestd
from scorestd._progress import progress_bar, quiet

SRC = str(Path(scorestd.__file__).resolve().parents[1])


@given(st.lists(st.floats(0.5, 100), min_size=1, max_size=5),
       st.lists(st.integers(1, 20), min_size=1, max_size=5))
def test_parts_add_up_to_the_whole(shares, inner_totals):
    """Whatever the inner jobs report, each part moves its share and the job ends done."""
    shares = shares[:len(inner_totals)]
    with progress_bar(sum(shares), "outer", show=False) as outer:
        for share, inner_total in zip(shares, inner_totals, strict=False):
            before = outer.done
            with outer.part(share), progress_bar(inner_total, "inner") as inner:
                for k in range(inner_total):
                    inner.advance(1)
                    expected = before + share * (k + 1) / inner_total
                    assert outer.done == pytest.approx(expected)
                inner.advance(5)  # beyond its total: ignored
            assert outer.done == pytest.approx(before + share)
    assert outer.done == pytest.approx(sum(shares))


def test_a_part_counts_as_done_when_its_job_reports_nothing():
    with progress_bar(10, "outer", show=False) as outer:
        with outer.part(4):
            pass
        assert outer.done == 4


def _bars(text: str) -> set[str]:
    """Labels of the bars drawn in ``text`` (``label: NN%|``)."""
    import re

    return set(re.findall(r"([\w -]+):\s+\d+%\|", text.replace("\r", "\n")))


def test_nested_jobs_draw_no_bar_of_their_own(capsys):
    with progress_bar(2, "outer", show=True) as outer:
        with outer.part(1), progress_bar(3, "inner", show=True) as inner:
            inner.advance(3)
        with progress_bar(3, "unshared", show=True) as other:  # inside, given no part
            other.advance(3)
            assert outer.done == 1
    assert _bars(capsys.readouterr().err) == {"outer"}


def test_a_hidden_job_keeps_its_inner_jobs_hidden(capsys):
    with progress_bar(1, "outer", show=False) as outer, outer.part(1):
        with progress_bar(3, "inner", show=True) as inner:
            inner.advance(3)
    with quiet(), progress_bar(3, "quiet", show=True) as job:
        job.advance(3)
    assert capsys.readouterr().err == ""


def test_error_rates_shows_one_bar_over_the_study(capsys):
    """Two measures × two sizes × (Type I + one δ): one bar, not eight."""
    small = scorestd.datasets.load("adhoc8").isel(system=slice(0, 15))
    res = scorestd.error_rates({"small": small}, measures=["ap", "p10"], n_topics=[10, 20],
                               deltas=[0.05], tests=["paired_t"], trials=64,
                               trials_type2=64, seed=1, progress=True)
    assert _bars(capsys.readouterr().err) == {"error rates"}
    assert np.isfinite(res.data["type1"]).all()


def test_simulate_bar_counts_trials(capsys):
    sim = scorestd.fit_simulator(scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5)))
    scorestd.simulate(sim, trials=130, batch_size=64, seed=1, progress=True)
    err = capsys.readouterr().err.replace("\r", "\n")
    assert "simulate: 100%" in err and "130/130 trial" in err


def _run_cli(args: list[str], tmp_path: Path, *, terminal: bool) -> str:
    """Run the CLI with standard error on a terminal (a pty of 100 columns) or a pipe;
    return what reached standard error."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    cmd = [sys.executable, "-m", "scorestd", *args]
    if not terminal:
        done = subprocess.run(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=300, check=True)
        return done.stderr.decode()
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL,
                            stderr=child)
    os.close(child)
    chunks = []
    while True:
        ready, _, _ = select.select([main], [], [], 300)
        if not ready:
            proc.kill()
            raise TimeoutError(" ".join(args))
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child closed the terminal (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(main)
    assert proc.wait(timeout=60) == 0
    return b"".join(chunks).decode(errors="replace")


CLI_JOBS = {
    "simulate": (["simulate", "small.nc", "--trials", "3", "--output", "sims.nc"], "simulate"),
    "experiment": (["experiment", "within", "--data", "small.nc", "--trials", "40",
                    "--schemes", "raw", "--no-figure"], "within-collection"),
}


@pytest.mark.parametrize("job", sorted(CLI_JOBS))
def test_cli_bar_only_on_a_terminal(job, tmp_path, adhoc8_ap):
    adhoc8_ap.isel(system=slice(0, 12)).to_netcdf(tmp_path / "small.nc")
    args, label = CLI_JOBS[job]
    on_terminal = _run_cli(args, tmp_path, terminal=True)
    assert _bars(on_terminal) == {label}
    assert "100%" in on_terminal
    assert _bars(_run_cli(args, tmp_path, terminal=False)) == set()
    assert _bars(_run_cli([*args, "--quiet"], tmp_path, terminal=True)) == set()


class _Terminal:
    """Standard error as a terminal that keeps what is written to it."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


API_JOBS = {
    "fit margins": lambda cube: scorestd.fit_margins(cube.isel(system=slice(0, 6)),
                                                     measure="ap"),
    "standardization report": lambda cube: scorestd.standardization_report(
        cube.isel(system=slice(0, 6)), ["normal", "empirical"]),
    "discriminative power": lambda cube: scorestd.discriminative_power(
        cube.isel(system=slice(0, 6)), test="randomised_tukey_hsd", B=500, seed=1),
}


@pytest.mark.parametrize("label", sorted(API_JOBS))
def test_long_jobs_show_one_bar_on_a_terminal(label, adhoc8_ap, monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    API_JOBS[label](adhoc8_ap)
    assert _bars(terminal.text) == {label}
    assert "100%" in terminal.text
    with quiet():
        terminal.text = ""
        API_JOBS[label](adhoc8_ap)
    assert terminal.text == ""


def test_randomised_tukey_alone_shows_a_bar_only_when_long(monkeypatch):
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    x = np.random.default_rng(1).uniform(size=(20, 5))
    scorestd.randomised_tukey_hsd(scorestd.cube(x), B=200, seed=1)
    assert terminal.text == ""  # a moment's work: no bar flashing by
    from scorestd.kernels.multiple import randomised_tukey_hsd_all_pairs

    randomised_tukey_hsd_all_pairs(np.random.default_rng(2).uniform(size=(50, 40)),
                                   B=5000, seed=1)
    assert _bars(terminal.text) == {"randomised Tukey HSD"}
