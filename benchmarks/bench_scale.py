"""Benchmark: within- and between-collection experiments as the number of systems grows.

Synthetic AP-like scores (beta-distributed topic difficulty plus system effects, 4
decimals) of 100 topics and S systems; five schemes (raw, z, N, U, E), 50 topics per
trial. Each configuration runs in a fresh process, so that its peak resident memory is
its own; the figures are the time per trial and scheme and that peak. Run by hand::

    python benchmarks/bench_scale.py                          # S = 100 … 1,600
    python benchmarks/bench_scale.py --systems 1600 --batch-sizes 1,2,3,6,12
    python benchmarks/bench_scale.py --one within 1600 20     # one configuration

Scaling no worse than S² means the time per trial and scheme, divided by the number of
system pairs, does not grow with S.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np


def synthetic_cube(n_systems: int, n_topics: int = 100, seed: int = 1):
    import scorestd

    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2, 5, (n_topics, 1))
    quality = rng.normal(0, 0.08, n_systems)
    values = np.clip(difficulty + quality + rng.normal(0, 0.1, (n_topics, n_systems)),
                     0, 1).round(4)
    return scorestd.cube(values, measures=["ap"])


def run_one(experiment: str, n_systems: int, trials: int, batch_size: int | None,
            memory: str | None) -> dict:
    """Time one configuration in this process; the cube and a first trial come first."""
    from scorestd import between_collection, within_collection

    function = within_collection if experiment == "within" else between_collection
    cube = synthetic_cube(n_systems)
    function(cube, trials=1, seed=0, progress=False)  # imports, tables
    start, cpu = time.perf_counter(), time.process_time()
    budget = {} if memory is None else {"memory": memory}  # (earlier releases had none)
    function(cube, trials=trials, seed=1, progress=False, batch_size=batch_size, **budget)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB → MiB
    pairs = n_systems * (n_systems - 1) / 2
    per = wall / (trials * 5)
    return {"experiment": experiment, "systems": n_systems, "trials": trials,
            "batch_size": batch_size, "memory": memory, "wall_s": round(wall, 3),
            "cpu_s": round(cpu, 3), "ms_per_trial_scheme": round(1e3 * per, 3),
            "ns_per_pair": round(1e9 * per / pairs, 2), "peak_mib": round(peak, 1),
            "load": round(os.getloadavg()[0], 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", default="100,200,400,800,1600")
    parser.add_argument("--experiments", default="within,between")
    parser.add_argument("--batch-sizes", default=None,
                        help="comma-separated trials per batch (default: from the budget)")
    parser.add_argument("--memory", default=None, help="memory budget, e.g. 256MB")
    parser.add_argument("--work", type=float, default=3e8,
                        help="system pairs × trials × schemes per configuration")
    parser.add_argument("--one", nargs=3, metavar=("EXPERIMENT", "SYSTEMS", "TRIALS"))
    parser.add_argument("--batch-size", type=int, default=None)
    args = parser.parse_args()
    if args.one:
        exp, s, trials = args.one
        print(json.dumps(run_one(exp, int(s), int(trials), args.batch_size, args.memory)))
        return
    sizes = [None] if args.batch_sizes is None else [int(b) for b in args.batch_sizes.split(",")]
    for exp in args.experiments.split(","):
        for s in (int(v) for v in args.systems.split(",")):
            trials = max(4, int(args.work / (s * (s - 1) / 2 * 5)))
            for bs in sizes:
                cmd = [sys.executable, __file__, "--one", exp, str(s), str(trials)]
                cmd += ["--batch-size", str(bs)] if bs else []
                cmd += ["--memory", args.memory] if args.memory else []
                out = subprocess.run(cmd, capture_output=True, text=True, check=True)
                print(out.stdout.strip(), flush=True)


if __name__ == "__main__":
    main()
