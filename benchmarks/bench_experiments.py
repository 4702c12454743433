"""Benchmark: Urbano, Lima & Hanjalic (2019)'s whole study at the paper's size.

Both experiments (within- and between-collection) on the four collection × measure pairs
(robust2004 and terabyte2006 × ap and ndcg), five schemes (raw, z, N, U, E), every
statistic at every α, ``--trials`` trials each (default 5,000). Compares the per-trial
time with a straightforward loop over system pairs with ``scipy.stats`` (a few trials,
extrapolated), and reruns the study on a local 2-worker ``dask.distributed`` cluster,
checking that the numbers are identical.

Run by hand::

    python benchmarks/bench_experiments.py               # full size
    python benchmarks/bench_experiments.py --trials 500  # quicker look
"""

from __future__ import annotations

import os

# The matrices are small (110 × 110): BLAS threads only contend with each other and with
# the process-level parallelism of the dask run. Set before numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import time

import numpy as np
import scipy.stats

import scorestd
from scorestd import between_collection, within_collection
from scorestd.models.schemes import URBANO2019_SCHEMES, standardized_stack

PAIRS = [("robust2004", "ap"), ("robust2004", "ndcg"),
         ("terabyte2006", "ap"), ("terabyte2006", "ndcg")]
EXPERIMENTS = {"within": within_collection, "between": between_collection}


def run_study(trials: int, seed: int, batch_size: int | None, client=None) -> tuple[dict, dict]:
    """Every experiment of the study; returns (results, seconds) keyed by (exp, data, m)."""
    results, seconds = {}, {}
    for name, measure in PAIRS:
        cube = scorestd.datasets.load(name).sel(measure=[measure])
        for exp, function in EXPERIMENTS.items():
            start = time.perf_counter()
            results[exp, name, measure] = function(cube, trials=trials, seed=seed,
                                                   batch_size=batch_size, client=client,
                                                   progress=False)
            seconds[exp, name, measure] = time.perf_counter() - start
    return results, seconds


def loop_within_trial(stack: np.ndarray, topics: np.ndarray, pairs: np.ndarray) -> None:
    """One within-collection trial the straightforward way: scipy per pair and scheme."""
    raw_means = stack[0][topics].mean(axis=0)
    for layer in stack:
        x = layer[topics]
        means = x.mean(axis=0)
        scipy.stats.kendalltau(means, raw_means)
        scipy.stats.pearsonr(means, raw_means)
        p = np.array([scipy.stats.ttest_rel(x[:, i], x[:, j]).pvalue for i, j in pairs])
        _ = [np.mean(p < a) for a in scorestd.experiments.ALPHAS]


def loop_between_trial(stack: np.ndarray, a: np.ndarray, b: np.ndarray,
                       pairs: np.ndarray) -> None:
    """One between-collection trial the straightforward way."""
    for layer in stack:
        x1, x2 = layer[a], layer[b]
        scipy.stats.kendalltau(x1.mean(axis=0), x2.mean(axis=0))
        scipy.stats.pearsonr(x1.mean(axis=0), x2.mean(axis=0))
        p = np.array([scipy.stats.ttest_ind(x1[:, i], x2[:, j], equal_var=False).pvalue
                      for i, j in pairs])
        _ = [np.mean(p < al) for al in scorestd.experiments.ALPHAS]


def time_loop(loop_trials: int, max_pairs: int) -> float:
    """Seconds per trial of the whole study (all pairs, both experiments) by scipy loops.

    Each trial tests at most ``max_pairs`` pairs per scheme; the time is scaled up to
    all pairs (the per-pair cost of the loop does not depend on which pairs).
    """
    per_trial = 0.0
    rng = np.random.default_rng(0)
    for name, measure in PAIRS:
        cube = scorestd.datasets.load(name).sel(measure=[measure])
        stack = standardized_stack(cube, URBANO2019_SCHEMES)
        n_topics, n_sys = stack.shape[1], stack.shape[2]
        paired = np.transpose(np.triu_indices(n_sys, k=1))
        ordered = np.argwhere(np.ones((n_sys, n_sys), dtype=bool))
        for pairs, run in ((paired, "within"), (ordered, "between")):
            subset = pairs[rng.choice(len(pairs), min(max_pairs, len(pairs)), replace=False)]
            start = time.perf_counter()
            for _ in range(loop_trials):
                if run == "within":
                    loop_within_trial(stack, rng.choice(n_topics, 50, replace=False), subset)
                else:
                    n = min(50, n_topics // 2)
                    perm = rng.permutation(n_topics)
                    loop_between_trial(stack, perm[:n], perm[n:2 * n], subset)
            per_trial += (time.perf_counter() - start) / loop_trials * len(pairs) / len(subset)
    return per_trial


def identical(first: dict, second: dict) -> bool:
    return all(first[k].data.identical(second[k].data) for k in first)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--batch-size", type=int, default=None)
    parser.add_argument("--loop-trials", type=int, default=2,
                        help="trials of the scipy loop to time (per collection-measure)")
    parser.add_argument("--loop-pairs", type=int, default=500,
                        help="system pairs per scheme in a timed loop trial (scaled up)")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()

    start, cpu = time.perf_counter(), time.process_time()
    results, seconds = run_study(args.trials, args.seed, args.batch_size)
    total, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"Urbano et al. (2019) study, {args.trials} trials per experiment, 5 schemes, "
          f"{len(scorestd.experiments.ALPHAS)} alphas")
    for key, s in seconds.items():
        print(f"  {' '.join(key):<28} {s:7.2f} s")
    print(f"total (one process): {total:.1f} s wall, {cpu:.1f} s CPU; "
          f"{1000 * total / args.trials:.2f} ms per trial of the whole study")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    loop = time_loop(args.loop_trials, args.loop_pairs)
    print(f"scipy per-pair loop: {loop:.2f} s per trial of the whole study "
          f"({args.loop_trials} trials × {args.loop_pairs} pairs per scheme and experiment, "
          f"scaled to all pairs) → ratio "
          f"{loop / (total / args.trials):.0f}×; the full study would take "
          f"{loop * args.trials / 3600:.1f} h")

    if not args.no_dask:
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            start = time.perf_counter()
            on_cluster, _ = run_study(args.trials, args.seed, args.batch_size, client=client)
            dask_total = time.perf_counter() - start
        print(f"2-worker local dask cluster: {dask_total:.1f} s; numbers identical: "
              f"{identical(results, on_cluster)}")


if __name__ == "__main__":
    main()
