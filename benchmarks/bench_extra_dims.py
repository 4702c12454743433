"""Functions mapped over extra dims: one call on a cube of N simulated collections against a
Python loop calling the function on each collection.

Every mapped function hands the extra dims to the kernels as batch axes (the design
functions solve their root searches per variance value, which is their own work); their time should grow much slower than the loop's
as the number of collections grows (the loop pays the per-call overhead N times). Run by
hand:

    python benchmarks/bench_extra_dims.py [--trials 10 100 1000 --topics 50 --systems 30]
                                          [--only design_variance topic_set_size …]

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
    "compare_unpaired": lambda c: scorestd.compare_unpaired(c.isel(topic=slice(0, 25)),
                                                            c.isel(topic=slice(25, None))),
    "standardization_factors": lambda c: scorestd.standardization_factors(c),
    "anova_residual": lambda c: scorestd.anova_residual(c),
    "estimate_variance (paired_difference)":
        lambda c: scorestd.estimate_variance(c, kind="paired_difference"),
    "design_variance": lambda c: scorestd.design_variance(c),
    "solve_power (power)": lambda c: scorestd.solve_power(c, min_diff=0.05, n_topics=50),
    "topic_set_size": lambda c: scorestd.topic_set_size(c, min_diff=0.05),
    "assurance": lambda c: scorestd.assurance(c, min_diff=0.05, n_topics=50),
    "assurance_topic_set_size": lambda c: scorestd.assurance_topic_set_size(c, min_diff=0.05),
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
    parser.add_argument("--only", nargs="+", default=None,
                        help="time only the functions whose label starts with one of these")
    args = parser.parse_args()
    calls = {name: call for name, call in CALLS.items()
             if args.only is None or any(name.startswith(o) for o in args.only)}
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
        for name, call in calls.items():
            mapped = best(lambda call=call, sims=sims: call(sims), args.repeat)
            loop = best(lambda call=call, slices=slices: [call(s) for s in slices],
                        args.repeat)
            print(f"| {name} | {trials} | {mapped:.3f} | {loop:.3f} | {loop / mapped:.1f} |")


if __name__ == "__main__":
    main()
