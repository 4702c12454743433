"""Standardizing a 2,000-topic × 1,000-system × 4-measure cube: time per model.

Targets (issue "Pluggable score-distribution models"): E-std within 3× the time of
``numpy.sort`` over the same array (along systems); N-std and U-std within 3× of one
vectorised pass. Run by hand:

    python benchmarks/bench_standardize.py [--topics 2000 --systems 1000 --measures 4]

and copy the table into benchmarks/README.md (section "Standardization").
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

import scorestd
from scorestd.kernels import standardize as k


def best_times(rows, repeat: int) -> list[tuple[str, float]]:
    """Best of ``repeat`` runs of each function, the runs interleaved so that a busy
    moment of the machine slows every row alike rather than one of them."""
    best = [float("inf")] * len(rows)
    for _ in range(repeat):
        for i, (_, func) in enumerate(rows):
            start = time.perf_counter()
            func()
            best[i] = min(best[i], time.perf_counter() - start)
    return [(name, seconds) for (name, _), seconds in zip(rows, best, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=2000)
    parser.add_argument("--systems", type=int, default=1000)
    parser.add_argument("--measures", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rng = np.random.default_rng(20190721)
    shape = (args.topics, args.systems, args.measures)
    # Scores like AP: beta-distributed, rounded to 4 decimals (so with ties, as real ones).
    raw = rng.beta(0.8, 2.5, size=shape)
    values = np.round(raw, 4)
    cube = scorestd.cube(values)
    by_system = np.ascontiguousarray(np.moveaxis(values, 1, -1))  # (T, M, S) kernel layout

    def one_pass():  # the vectorised z-score in plain numpy: mean, sd, one elementwise pass
        m = values.mean(axis=1, keepdims=True)
        s = values.std(axis=1, ddof=1, keepdims=True)
        return (values - m) / s

    rows = [
        ("baseline: numpy.sort along systems", lambda: np.sort(values, axis=1)),
        ("baseline: one vectorised pass (numpy z-score)", one_pass),
        ("kernel ecdf(x, x)", lambda: k.ecdf(by_system, by_system)),
        ("kernel normal_cdf(x, x)", lambda: k.normal_cdf(by_system, *k.location_scale(by_system)[1:])),
        ("kernel uniform_cdf(x, x)", lambda: k.uniform_cdf(by_system, *k.location_scale(by_system)[1:])),
        ("kernel zscore(x, x)", lambda: k.zscore(by_system, *k.location_scale(by_system)[1:])),
    ]
    rows += [(f"standardize(cube, {m!r})", lambda m=m: scorestd.standardize(cube, m))
             for m in ("empirical", "normal", "uniform", "z")]
    rows.append(("standardize(cube, 'empirical', ties='mid')",
                 lambda: scorestd.standardize(cube, "empirical", ties="mid")))
    # The same scores unrounded (few ties), and with 1% of them missing (NaN).
    unrounded = scorestd.cube(raw)
    rows.append(("standardize(unrounded, 'empirical')",
                 lambda: scorestd.standardize(unrounded, "empirical")))
    holes = values.copy()
    holes[rng.random(shape) < 0.01] = np.nan
    with_nan = scorestd.cube(holes)
    rows.append(("standardize(1% NaN, 'empirical')",
                 lambda: scorestd.standardize(with_nan, "empirical")))
    ref = cube.isel(system=slice(0, args.systems // 2))
    rows.append(("standardize(cube, 'empirical', reference=half)",
                 lambda: scorestd.standardize(cube, "empirical", reference=ref)))
    results = best_times(rows, args.repeat)
    sort_time, pass_time = results[0][1], results[1][1]
    print(f"cube {shape[0]} topics × {shape[1]} systems × {shape[2]} measures, "
          f"numpy {np.__version__}, {platform.processor() or platform.machine()}, "
          f"best of {args.repeat}")
    print(f"| {'what':<48} | seconds | × sort | × one pass |")
    print(f"|{'-' * 50}|---------|--------|------------|")
    for name, seconds in results:
        print(f"| {name:<48} | {seconds:7.3f} | {seconds / sort_time:6.2f} | "
              f"{seconds / pass_time:10.2f} |")


if __name__ == "__main__":
    main()
