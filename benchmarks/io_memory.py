"""Reading a large matrix CSV and writing a large cube as long CSV: time and peak memory.

Each case runs in its own process and reports its wall time and its peak resident memory
above the interpreter's baseline (scorestd, numpy, xarray already imported):

    python benchmarks/io_memory.py read-matrix   # 2,000 topics × 5,000 systems (≈ 70 MB)
    python benchmarks/io_memory.py write-long    # 1,000 × 1,000 × 10 = 10 million cells
    python benchmarks/io_memory.py read-long [CELLS]  # a long CSV of CELLS cells (10 million)
    python benchmarks/io_memory.py read-trec-eval [RUNS]  # RUNS files of 50 topics × 110 measures

Targets (issue 14): the read peaks at ≤ 3× the cube's bytes above the baseline; the write
peaks at ≤ 300 MB and is ≥ 4× faster than the former writer (46 s, 3.3 GB).
"""

from __future__ import annotations

import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import scorestd


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def timed_read(read, path: Path):
    """``read(path)``, its seconds and its peak memory above the baseline (MB, × the cube)."""
    base = peak_mb()
    start = time.perf_counter()
    cube = read(path)
    seconds = time.perf_counter() - start
    cube_mb = cube.nbytes / 2**20
    above = peak_mb() - base
    return cube, seconds, above, above / cube_mb


def read_matrix(folder: Path) -> None:
    path = folder / "big_ap.csv"
    rng = np.random.default_rng(0)
    with path.open("w") as fh:  # written in rows, so the baseline holds no matrix
        fh.write("topic," + ",".join(f"run{j}" for j in range(5000)) + "\n")
        for t in range(2000):
            row = np.round(rng.random(5000), 4)
            fh.write(f"{t + 1}," + ",".join(map(str, row.tolist())) + "\n")
    del rng
    cube, seconds, above, times = timed_read(scorestd.read_matrix_csv, path)
    print(f"read-matrix: {path.stat().st_size / 2**20:.0f} MB file, cube "
          f"{cube.nbytes / 2**20:.0f} MB, {seconds:.1f} s, peak {above:.0f} MB above baseline "
          f"= {times:.2f}× the cube")


def write_long(folder: Path) -> None:
    values = np.round(np.random.default_rng(0).random((1000, 1000, 10)), 4)
    cube = scorestd.cube(values, measures=[f"m{k}" for k in range(10)])
    del values
    base = peak_mb()
    start = time.perf_counter()
    path = scorestd.write_long_csv(cube, folder / "long.csv")
    seconds = time.perf_counter() - start
    print(f"write-long: {cube.size / 1e6:.0f} million cells, {path.stat().st_size / 2**20:.0f} MB "
          f"file, {seconds:.1f} s, peak {peak_mb() - base:.0f} MB above baseline "
          f"(cube {cube.nbytes / 2**20:.0f} MB)")


def read_long(folder: Path, cells: int = 10_000_000) -> None:
    topics, measures = 1000, 10
    systems = max(1, cells // (topics * measures))
    values = np.round(np.random.default_rng(0).random((topics, systems, measures)), 4)
    cube = scorestd.cube(values, measures=[f"m{k}" for k in range(measures)])
    path = scorestd.write_long_csv(cube, folder / "long.csv")
    del values, cube
    back, seconds, above, times = timed_read(scorestd.read_long_csv, path)
    print(f"read-long: {back.size / 1e6:.1f} million cells, {path.stat().st_size / 2**20:.0f} "
          f"MB file, {seconds:.1f} s, peak {above:.0f} MB above baseline = "
          f"{times:.2f}× the cube ({back.nbytes / 2**20:.0f} MB)")


def read_trec_eval(folder: Path, runs: int = 300) -> None:
    rng = np.random.default_rng(0)
    measures = [f"m{k}" for k in range(110)]
    for r in range(runs):  # trec_eval -q output: 110 measures per topic, then "all"
        lines = [f"runid\tall\trun{r}"]
        for t in range(401, 451):
            lines += [f"{m}\t{t}\t{v:.4f}" for m, v in zip(measures, rng.random(110), strict=True)]
        lines += [f"{m}\tall\t0.5" for m in measures]
        (folder / f"run{r}.eval").write_text("\n".join(lines) + "\n")
    cube, seconds, above, times = timed_read(scorestd.read_trec_eval, sorted(folder.iterdir()))
    print(f"read-trec-eval: {runs} files, {cube.size / 1e6:.2f} million cells, {seconds:.1f} s, "
          f"peak {above:.0f} MB above baseline = {times:.2f}× the cube "
          f"({cube.nbytes / 2**20:.0f} MB)")


if __name__ == "__main__":
    case = sys.argv[1] if len(sys.argv) > 1 else "read-matrix"
    with tempfile.TemporaryDirectory() as tmp:
        if case == "read-long":
            read_long(Path(tmp), int(sys.argv[2]) if len(sys.argv) > 2 else 10_000_000)
        elif case == "read-trec-eval":
            read_trec_eval(Path(tmp), int(sys.argv[2]) if len(sys.argv) > 2 else 300)
        else:
            {"read-matrix": read_matrix, "write-long": write_long}[case](Path(tmp))
