"""Peak memory and time of :func:`scorestd.simulation_diagnostics` as systems and topics grow.

Run by hand: ``python benchmarks/bench_diagnostics_memory.py SYSTEMS TOPICS TRIALS [MEMORY]``.
Fits a simulator (beta margins, Gaussian copula) to synthetic AP-like scores of SYSTEMS
systems over TOPICS topics, simulates TRIALS collections of TOPICS topics and prints the
diagnostics' time and their peak of numpy allocations (tracemalloc) under the memory
budget MEMORY (default ``$SCORESTD_MEMORY``, else 256 MiB). With ``--save FILE`` the
pairwise statistics are written to FILE (``.npy``) to compare two versions.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

import scorestd


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("systems", type=int)
    parser.add_argument("topics", type=int)
    parser.add_argument("trials", type=int)
    parser.add_argument("memory", nargs="?", default=None)
    parser.add_argument("--save", default=None)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    scores = rng.beta(2, 5, size=(args.topics, args.systems))
    scores = np.clip(scores + rng.normal(0, 0.05, size=(args.topics, 1)), 0, 1)
    sim = scorestd.fit_simulator(scorestd.cube(scores, measures=["ap"]), copula="gaussian",
                                 families=["beta1"])
    sims = scorestd.simulate(sim, trials=args.trials, seed=1, progress=False)
    tracemalloc.start()
    start = time.perf_counter()
    out = scorestd.simulation_diagnostics(sim, sims, max_trials=args.trials,
                                          memory=args.memory)
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    pairs = args.systems * (args.systems - 1) // 2
    print(f"{args.systems} systems ({pairs} pairs) × {args.topics} topics × {args.trials} "
          f"trials, memory={args.memory}: {seconds:.2f} s, peak {peak / 2**20:.1f} MiB")
    if args.save:
        np.save(args.save, np.stack([out.data[name].values for name in (
            "observed_tau", "simulated_tau", "observed_r", "simulated_r")]))


if __name__ == "__main__":
    main()
