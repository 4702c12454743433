"""Where the time and the bytes of ``scorestd simulate`` go, phase by phase.

Run by hand:  python benchmarks/bench_simulate_cli.py [--trials N] [--copula vine|gaussian]

Times are CPU seconds of this process (``time.process_time``: the machine may be shared),
for the phases of ``scorestd simulate adhoc8 -m ap``: fitting the simulator, drawing the
trials, the diagnostics, writing the netCDF file; then the file's size against the bytes
of the scores themselves (trials × topics × systems × 8).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import scorestd
from scorestd.io.atomic import atomic_netcdf


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--copula", default="vine")
    args = parser.parse_args()
    cube = scorestd.datasets.load("adhoc8")
    phases = {}

    def timed(name, fn):
        start = time.process_time()
        out = fn()
        phases[name] = time.process_time() - start
        return out

    sim = timed("fit", lambda: scorestd.fit_simulator(cube, measure="ap", copula=args.copula))
    cubes = timed("simulate", lambda: scorestd.simulate(sim, trials=args.trials, seed=0,
                                                        progress=False))
    timed("diagnostics", lambda: scorestd.simulation_diagnostics(sim, cubes).summary())
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.nc")
        timed("write", lambda: atomic_netcdf(cubes.to_dataset(name="score"), path))
        size = os.path.getsize(path)
    total = sum(phases.values())
    print(f"adhoc8 ap, {args.trials} trials, {args.copula} copula: {total:.1f} s CPU")
    for name, seconds in phases.items():
        print(f"  {name:<12} {seconds:8.2f} s  {100 * seconds / total:5.1f} %")
    per_trial = phases["simulate"] / args.trials
    print(f"  per trial    {per_trial * 1e3:8.2f} ms (50 topics × {len(sim.systems)} systems)")
    scores = cubes.values.nbytes
    print(f"file {size / 1e6:.1f} MB; the scores alone {scores / 1e6:.1f} MB "
          f"({100 * scores / size:.1f} % of the file)")


if __name__ == "__main__":
    main()
