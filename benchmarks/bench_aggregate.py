"""Timings of the aggregation, hardness and smoothing kernels on resampling-sized batches.

Run by hand:  python benchmarks/bench_aggregate.py
A batch is 1000 trials × 25 topics × 129 systems (a split-half experiment on TREC-8).
"""

from __future__ import annotations

import timeit
from typing import get_args

import numpy as np

import scorestd
from scorestd._options import AggregationMethod
from scorestd.kernels.aggregate import aggregate_kernel
from scorestd.kernels.hardness import topic_hardness_kernel
from scorestd.kernels.ranking import rank_descending
from scorestd.kernels.smoothing import prior_mean, smooth_kernel


def best_of(stmt, number=5, repeat=5):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


def main() -> None:
    ap = scorestd.datasets.load("adhoc8_ap").sel(measure="ap").values  # (50, 129)
    rng = np.random.default_rng(0)
    trials = 1000
    idx = np.argsort(rng.random((trials, 50)), axis=1)[:, :25]
    batch = ap[idx]  # (1000, 25, 129)
    print(f"batch {batch.shape}")
    for method in get_args(AggregationMethod):
        x = batch + 1e-3 if method == "hm" else batch  # hm needs non-zero scores
        t = best_of(lambda x=x, m=method: aggregate_kernel(x, m, axis=-2))
        print(f"aggregate_kernel {method:<13} {t * 1e3:8.2f} ms")
    agg = aggregate_kernel(batch, "egm", axis=-2)
    print(f"rank_descending (1000 × 129) {best_of(lambda: rank_descending(agg)) * 1e3:8.2f} ms")
    print(f"topic_hardness_kernel zmax   "
          f"{best_of(lambda: topic_hardness_kernel(batch, axis=-1)) * 1e3:8.2f} ms")
    prior = np.where(rng.random(batch.shape) < 0.5, np.nan, batch)
    print(f"prior_mean + smooth_kernel   "
          f"{best_of(lambda: smooth_kernel(batch, prior_mean(prior), 0.8)) * 1e3:8.2f} ms")
    cube = scorestd.datasets.load("adhoc8_ap")
    print(f"aggregate(adhoc8_ap, 'egm')  "
          f"{best_of(lambda: scorestd.aggregate(cube, 'egm')) * 1e3:8.2f} ms")


if __name__ == "__main__":
    main()
