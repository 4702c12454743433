"""Every writer is whole or nothing: an interrupt (Ctrl-C) or an error half-way through
leaves the previous file byte for byte and no partial file beside it.

Each writer is interrupted at its lowest write call (the file object, pandas, pyarrow,
xarray, matplotlib) after part of the file has been written; the netCDF writers are also
sent a real SIGINT, from inside the HDF5 call and from another thread (in a child process,
so that a deadlock would fail the test instead of hanging the suite).
"""

from __future__ import annotations

import pathlib
import signal
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import xarray as xr

import scorestd
from scorestd.cli import main
from scorestd.errors import OptionError
from scorestd.io.atomic import atomic_netcdf, interrupts_deferred
from scorestd.io.figures import save_figure

OLD = b"the previous content, which must survive\n"


def small_cube():
    rng = np.random.default_rng(3)
    return scorestd.cube(rng.uniform(size=(4, 3)), topics=["1", "2", "3", "4"],
                         systems=["a", "b", "c"], measures=["ap"])


def _partial_then_interrupt(path_index: int, path_name: str):
    """A stand-in for a write call: writes a few bytes to its path, then Ctrl-C."""

    def write(*args, **kwargs):
        target = kwargs.get(path_name, args[path_index] if len(args) > path_index else None)
        if hasattr(target, "write"):  # pandas hands pyarrow an open file
            target.write(b"half a fi")
        else:
            pathlib.Path(target).write_bytes(b"half a fi")
        raise KeyboardInterrupt

    return write


class _InterruptedFile:
    """A text file whose second write is interrupted (the first reaches the disk)."""

    def __init__(self, fh):
        self._fh, self._writes = fh, 0

    def write(self, text):
        self._writes += 1
        if self._writes > 1:
            self._fh.flush()
            raise KeyboardInterrupt
        return self._fh.write(text)

    def __getattr__(self, name):
        return getattr(self._fh, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return self._fh.__exit__(*exc)


def _interrupt_file_writes(monkeypatch):
    real_open = pathlib.Path.open

    def open_(self, mode="r", *args, **kwargs):
        fh = real_open(self, mode, *args, **kwargs)
        return _InterruptedFile(fh) if "w" in mode else fh

    monkeypatch.setattr(pathlib.Path, "open", open_)


def _write_fitted(path):
    from scorestd.models import get_model, write_fitted

    write_fitted(get_model("normal").fit(small_cube()), path)


def _write_factors(path):
    from scorestd.models.factors import write_factors

    write_factors(small_cube(), path, path.with_name("sds.csv"))


def _figure(path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    try:
        save_figure(fig, path)
    finally:
        plt.close(fig)


def _posterior(path):
    tree = xr.DataTree.from_dict({"posterior": xr.Dataset({"mu": ("draw", np.arange(5.0))})})
    atomic_netcdf(tree, path)


def _patch_to_netcdf(monkeypatch):
    monkeypatch.setattr(xr.Dataset, "to_netcdf", _partial_then_interrupt(1, "path"))
    monkeypatch.setattr(xr.DataArray, "to_netcdf", _partial_then_interrupt(1, "path"))
    monkeypatch.setattr(xr.DataTree, "to_netcdf", _partial_then_interrupt(1, "filepath"))


def _patch_parquet(monkeypatch):
    import pyarrow.parquet as pq

    monkeypatch.setattr(pq, "write_table", _partial_then_interrupt(1, "where"))


def _patch_savefig(monkeypatch):
    from matplotlib.figure import Figure

    monkeypatch.setattr(Figure, "savefig", lambda self, fname, **kw:
                        _partial_then_interrupt(0, "fname")(fname))


def _patch_to_csv(monkeypatch):
    import pandas as pd

    monkeypatch.setattr(pd.DataFrame, "to_csv", lambda self, path, **kw:
                        _partial_then_interrupt(0, "path")(path))


WRITERS = {
    "write_netcdf": ("c.nc", lambda p: scorestd.io.write_netcdf(small_cube(), p), _patch_to_netcdf),
    "save .nc": ("c.nc", lambda p: scorestd.save(small_cube(), p), _patch_to_netcdf),
    "write_long_csv": ("c.csv", lambda p: scorestd.io.write_long_csv(small_cube(), p),
                       _interrupt_file_writes),
    "save .tsv": ("c.tsv", lambda p: scorestd.save(small_cube(), p), _interrupt_file_writes),
    "write_matrix_csv": ("m.csv", lambda p: scorestd.io.write_matrix_csv(small_cube(), p),
                         _interrupt_file_writes),
    "save matrix": ("m.csv", lambda p: scorestd.save(small_cube(), p, format="matrix"),
                    _interrupt_file_writes),
    "write_parquet": ("c.parquet", lambda p: scorestd.io.write_parquet(small_cube(), p),
                      _patch_parquet),
    "write_fitted": ("fit.nc", _write_fitted, _patch_to_netcdf),
    "write_factors": ("means.csv", _write_factors, _patch_to_csv),
    "save_figure": ("f.png", _figure, _patch_savefig),
    "posterior (DataTree)": ("post.nc", _posterior, _patch_to_netcdf),
}


@pytest.mark.parametrize("name", list(WRITERS))
def test_an_interrupted_writer_leaves_the_old_file_and_nothing_else(name, tmp_path, monkeypatch):
    filename, write, interrupt = WRITERS[name]
    if name == "write_parquet":
        pytest.importorskip("pyarrow")
    target = tmp_path / filename
    target.write_bytes(OLD)
    before = sorted(p.name for p in tmp_path.iterdir())
    with monkeypatch.context() as patched:
        interrupt(patched)
        with pytest.raises(KeyboardInterrupt):
            write(target)
    assert target.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    write(target)  # and without the interrupt, the same call replaces the file
    assert target.read_bytes() != OLD


@pytest.fixture
def sigint_delivered():
    """Ctrl-C raises KeyboardInterrupt here, and child processes start with SIGINT's
    default action, even when the tests were started with SIGINT ignored (a background job
    of a shell without job control): the writers respect an ignored SIGINT, as tested below."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("sigint_delivered")
def test_sigint_inside_the_hdf5_call_waits_for_it_then_cancels_the_save(tmp_path, monkeypatch):
    target = tmp_path / "c.nc"
    scorestd.io.write_netcdf(small_cube(), target)
    old = target.read_bytes()
    real = xr.DataArray.to_netcdf
    calls = []

    def interrupted_inside(self, *args, **kwargs):
        signal.raise_signal(signal.SIGINT)  # Ctrl-C arrives while the file is being written
        calls.append("write finished")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(xr.DataArray, "to_netcdf", interrupted_inside)
    with pytest.raises(KeyboardInterrupt):
        scorestd.io.write_netcdf(small_cube() * 0.5, target)
    assert calls == ["write finished"]  # the HDF5 call was not cut short
    assert target.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["c.nc"]


def test_interrupts_deferred_restores_the_handler_and_respects_an_ignored_sigint():
    before = signal.getsignal(signal.SIGINT)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with interrupts_deferred():
            signal.raise_signal(signal.SIGINT)  # ignored before, so ignored after
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert signal.getsignal(signal.SIGINT) is before


_SIGINT_FROM_A_THREAD = textwrap.dedent("""
    import os, pathlib, signal, sys, threading, time
    import numpy as np
    import scorestd
    from scorestd.io import read_netcdf, write_netcdf, write_long_csv, read_long_csv
    folder = pathlib.Path(sys.argv[1])
    kind, delay = sys.argv[2], float(sys.argv[3])
    rng = np.random.default_rng(0)
    old = scorestd.cube(rng.uniform(size=(5, 4)))
    new = scorestd.cube(rng.uniform(size=(200, 400)))
    write, read, target = ((write_netcdf, read_netcdf, folder / "c.nc") if kind == "nc" else
                           (write_long_csv, read_long_csv, folder / "c.csv"))
    write(old, target)
    threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT)).start()
    writes = 0
    try:
        while True:
            write(new, target)
            writes += 1
    except KeyboardInterrupt:
        pass
    back = read(target)
    assert back.identical(old) or back.identical(new), back.sizes
    assert sorted(p.name for p in folder.iterdir()) == [target.name], list(folder.iterdir())
    print("ok", writes)
""")


@pytest.mark.usefixtures("sigint_delivered")
@pytest.mark.parametrize("kind", ["nc", "csv"])
@pytest.mark.parametrize("delay", [0.01, 0.3])
def test_sigint_from_a_thread_never_hangs_or_loses_the_file(kind, delay, tmp_path):
    script = tmp_path / "interrupt.py"
    script.write_text(_SIGINT_FROM_A_THREAD)
    folder = tmp_path / "out"
    folder.mkdir()
    done = subprocess.run([sys.executable, str(script), str(folder), kind, str(delay)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("ok")


# -- outputs checked before any work ------------------------------------------------

@pytest.mark.parametrize("writer, filename", [
    (scorestd.io.write_netcdf, "c.csv"), (scorestd.io.write_long_csv, "c.nc"),
    (scorestd.io.write_matrix_csv, "c.parquet"), (scorestd.io.write_parquet, "c.csv"),
])
def test_a_writer_refuses_a_suffix_of_another_format(writer, filename, tmp_path):
    with pytest.raises(OptionError, match="file needs the suffix"):
        writer(small_cube(), tmp_path / filename)
    assert list(tmp_path.iterdir()) == []


def test_save_refuses_a_format_that_contradicts_the_suffix(tmp_path):
    with pytest.raises(OptionError, match="a netcdf file needs the suffix .nc"):
        scorestd.save(small_cube(), tmp_path / "c.csv", format="netcdf")
    with pytest.raises(OptionError, match="a csv file needs the suffix"):
        scorestd.save(small_cube(), tmp_path / "c.nc", format="matrix")


def test_figure_suffix_is_checked_before_drawing(tmp_path):
    with pytest.raises(OptionError, match="a figure file needs the suffix"):
        save_figure(object(), tmp_path / "f.xyz")


def _never(*args, **kwargs):
    raise AssertionError("the command read or computed before checking its outputs")


@pytest.mark.parametrize("argv, message", [
    (["convert", "{data}", "--output", "{data}"], "the output is also an input"),
    (["standardize", "{data}", "--output", "{tmp}/z.nc", "--fitted", "{nc}", "--save-fitted", "{nc}"],
     "the output is also an input"),
    (["standardize", "{data}", "--output", "{tmp}/no-dir/z.nc"], "no-dir does not exist"),
    (["simulate", "{data}", "--output", "{tmp}/sim.csv"], "a netcdf file needs the suffix"),
    (["simulate", "{data}", "--output", "{tmp}/none/sim.nc"], "none does not exist"),
    (["bayes", "{data}", "--save", "{tmp}/post.csv"], "a netcdf file needs the suffix"),
    (["bayes", "{data}", "--forest", "{tmp}/f.xyz"], "a figure file needs the suffix"),
    (["bayes", "{data}", "--heatmap", "{tmp}/gone/h.png"], "gone does not exist"),
    (["experiment", "error-rates", "--save", "{tmp}/r.txt"], "a netcdf file needs the suffix"),
    (["swap-rate", "{data}", "--figure", "{data}"], "a figure file needs the suffix"),
    (["aggregate", "{data}", "--output", "{data}"], "the output is also an input"),
    (["aggregate", "{data}", "--output", "{tmp}/t.docx"], "cannot write a table as '.docx'"),
    (["report", "{data}", "--figures", "{data}"], "the output folder is also an input"),
    (["report", "{data}", "--figures", "{nc}"], "it exists and is not a directory"),
])
def test_cli_checks_every_output_before_reading(argv, message, tmp_path, monkeypatch, capsys):
    import scorestd.io as io

    data = tmp_path / "scores.csv"
    scorestd.io.write_matrix_csv(small_cube(), data)
    nc = tmp_path / "fitted.nc"
    nc.write_bytes(OLD)
    before = data.read_bytes()
    monkeypatch.setattr(io, "load", _never)
    args = [a.format(data=data, tmp=tmp_path, nc=nc) for a in argv]
    assert main(args) == 1
    assert message in capsys.readouterr().err
    assert data.read_bytes() == before and nc.read_bytes() == OLD
