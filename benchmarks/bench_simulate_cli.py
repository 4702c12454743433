"""Where the time and the bytes of ``scorestd simulate`` go, phase by phase.

Run by hand:  python benchmarks/bench_simulate_cli.py [--trials N] [--copula vine|gaussian]
                                                       [--pyvinecopulib-trials K]

Times are CPU seconds of this process (``time.process_time``: the machine may be shared),
for the phases of ``scorestd simulate adhoc8 -m ap``: fitting the simulator, drawing the
trials and writing them chunk by chunk to netCDF (``simulate(output=...)``), the
diagnostics (read back from the file); then the file's size against the bytes of the
scores themselves (trials × topics × systems × 8). Peak memory: run the command under
``/usr/bin/time -v``. With the vine copula, ``K`` trials are also
drawn as before the numpy sampler, one ``pyvinecopulib`` call per trial
(``Vinecop.sample``), on the same fitted vine.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import scorestd


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=200)
    parser.add_argument("--copula", default="vine")
    parser.add_argument("--pyvinecopulib-trials", type=int, default=20)
    args = parser.parse_args()
    cube = scorestd.datasets.load("adhoc8")
    phases = {}

    def timed(name, fn):
        start = time.process_time()
        out = fn()
        phases[name] = time.process_time() - start
        return out

    sim = timed("fit", lambda: scorestd.fit_simulator(cube, measure="ap", copula=args.copula))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "x.nc")
        cubes = timed("simulate+write", lambda: scorestd.simulate(
            sim, trials=args.trials, seed=0, progress=False, output=path))
        with cubes:
            timed("diagnostics", lambda: scorestd.simulation_diagnostics(sim, cubes).summary())
            scores = cubes.size * 8
        size = os.path.getsize(path)
    if args.copula == "vine" and args.pyvinecopulib_trials:
        start = time.process_time()
        for k in range(args.pyvinecopulib_trials):
            sim.copula.vine.sample(cube.sizes["topic"], seeds=[k, 1, 2, 3])
        before = (time.process_time() - start) / args.pyvinecopulib_trials
    total = sum(phases.values())
    print(f"adhoc8 ap, {args.trials} trials, {args.copula} copula: {total:.1f} s CPU")
    for name, seconds in phases.items():
        print(f"  {name:<12} {seconds:8.2f} s  {100 * seconds / total:5.1f} %")
    per_trial = phases["simulate+write"] / args.trials
    print(f"  per trial    {per_trial * 1e3:8.2f} ms (50 topics × {len(sim.systems)} systems, "
          "drawn and written)")
    if args.copula == "vine" and args.pyvinecopulib_trials:
        print(f"  pyvinecopulib, one call a trial: {before * 1e3:.2f} ms a trial "
              f"({before / per_trial:.1f}x the numpy sampler's whole trial)")
    print(f"file {size / 1e6:.1f} MB; the scores alone {scores / 1e6:.1f} MB "
          f"({100 * scores / size:.1f} % of the file)")


if __name__ == "__main__":
    main()
