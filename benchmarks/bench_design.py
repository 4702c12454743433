"""Timings of power analysis, topic set size design and Sakai's evaluation suite.

Run by hand from the repository root:  python benchmarks/bench_design.py
Figures are recorded in benchmarks/README.md.
"""

from __future__ import annotations

import time
import warnings

import scorestd
from scorestd import (
    design_variance,
    discriminative_power,
    leave_one_out,
    swap_rate,
    topic_set_size,
)

SCHEMES = ["raw", "N", "U", "E"]


def best_of(fn, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    warnings.simplefilter("ignore")
    rb = scorestd.datasets.load("robust2004")
    tb = scorestd.datasets.load("terabyte2006")
    var = design_variance([rb, tb], "paired_t", schemes=SCHEMES)
    rows = [
        ("design_variance, 2 collections × 4 schemes",
         lambda: design_variance([rb, tb], "anova", schemes=SCHEMES)),
        ("topic_set_size sakai, 8 variances × 4 α × 3 β × 10 minD",
         lambda: topic_set_size(variance=var, alpha=[0.01, 0.05, 0.1, 0.2], beta=[0.1, 0.2, 0.3],
                                min_diff=[0.01 * k for k in range(1, 11)])),
        ("topic_set_size exact, same grid",
         lambda: topic_set_size(variance=var, alpha=[0.01, 0.05, 0.1, 0.2], beta=[0.1, 0.2, 0.3],
                                min_diff=[0.01 * k for k in range(1, 11)], method="exact")),
        ("discriminative_power paired t, robust2004 × 4 schemes",
         lambda: discriminative_power(rb, schemes=SCHEMES)),
        ("discriminative_power randomised Tukey B=1000, robust2004 × 4 schemes",
         lambda: discriminative_power(rb, schemes=SCHEMES, test="randomised_tukey_hsd", B=1000,
                                      seed=1)),
        ("swap_rate 1000 trials, robust2004 ap × 4 schemes × 9 sizes",
         lambda: swap_rate(rb, measure="ap", schemes=SCHEMES, trials=1000, seed=1,
                           progress=False)),
        ("leave_one_out, robust2004 (110 runs) × N, U, E",
         lambda: leave_one_out(rb)),
    ]
    for name, fn in rows:
        print(f"| {name} | {best_of(fn, repeat=1 if 'swap' in name or 'Tukey' in name else 3):.2f} s |")


if __name__ == "__main__":
    main()
