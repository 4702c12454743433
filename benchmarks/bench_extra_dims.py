"""Functions mapped over extra dims: one call on a cube of N simulated collections against a
Python loop calling the function on each collection.

The vectorized functions (aggregate, describe, standardize, compare, correlation) hand the
extra dims to the kernels as batch axes; their time should grow much slower than the loop's
as the number of collections grows (the loop pays the per-call overhead N times). Run by
hand:

    python benchmarks/bench_extra_dims.py [--trials 10 100 1000 --topics 50 --systems 30]

and copy the table into benchmarks/README.md (section "Extra dimensions").
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import xarray as xr

import scorestd

#: The functions timed, as one call on a cube (with or without extra dims).
CALLS = {
    "aggregate": lambda c: scorestd.aggregate(c),
    "describe": lambda c: scorestd.describe(c),
    "standardize (E)": lambda c: scorestd.standardize(c),
    "standardize (N)": lambda c: scorestd.standardize(c, "normal"),
    "compare (paired t)": lambda c: scorestd.compare(c),
    "correlation (tau_b)": lambda c: scorestd.correlation(c, c.isel(topic=slice(0, 10))),
}


def best(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--systems", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(20190721)
    print(f"# {platform.processor() or platform.machine()}, numpy {np.__version__}, "
          f"xarray {xr.__version__}; {args.topics} topics × {args.systems} systems × 1 "
          f"measure per collection; best of {args.repeat}")
    print("| function | collections | one mapped call (s) | loop over slices (s) | "
          "loop / mapped |")
    print("|---|---:|---:|---:|---:|")
    for trials in args.trials:
        values = np.round(rng.beta(0.8, 2.5, (trials, args.topics, args.systems, 1)), 4)
        base = scorestd.cube(values[0])
        sims = xr.DataArray(values, dims=("trial", *base.dims),
                            coords={"trial": np.arange(trials),
                                    **{d: base[d].values for d in base.dims}})
        slices = [sims.isel(trial=k, drop=True) for k in range(trials)]
        for name, call in CALLS.items():
            mapped = best(lambda call=call, sims=sims: call(sims), args.repeat)
            loop = best(lambda call=call, slices=slices: [call(s) for s in slices],
                        args.repeat)
            print(f"| {name} | {trials} | {mapped:.3f} | {loop:.3f} | {loop / mapped:.1f} |")


if __name__ == "__main__":
    main()
