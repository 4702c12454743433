"""Benchmark: margins of every run and the error-rate study of Urbano et al. (SIGIR 2019).

1. Fit simIReff's margins with AIC selection (and a Gaussian copula) to every run of
   adhoc5–8 (ap, p10, rr) and web2010–2013 (ndcg20, err20), after the paper's run
   filtering (target: ≤ 30 s on 2 cores).
2. The Type I part of the study: 5 measures × n ∈ {25, 50, 100} × 5 tests × both tails,
   all α, ``--trials`` trials per (measure, n) (default 100,000; target ≤ 10 minutes on 2
   cores).
3. The Type II/III part: ``--trials-type2`` trials per (measure, n, δ), δ = .01 … .10
   (default 20,000).

Parts 2 and 3 run on a local 2-worker ``dask.distributed`` cluster (``--workers``; 0 runs
in this process, whose CPU time then measures the work independently of the machine's
load). The peak memory of each process (resident set size) is reported: it
is bounded by the batch size, not by the number of trials. ``--save PREFIX`` writes the
rates to ``PREFIX-type1.nc`` and ``PREFIX-type2.nc``.

Run by hand::

    python benchmarks/bench_simulation.py                      # full size
    python benchmarks/bench_simulation.py --trials 6400 --trials-type2 1280
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import resource
import time
import warnings

import scorestd
from scorestd.cli.experiment import _client as cluster
from scorestd.experiments.significance_errors import COLLECTIONS, _pool

MEASURES = ("ap", "p10", "rr", "ndcg20", "err20")


def peak_mb() -> float:
    """Peak resident set size of this process (MiB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def baseline(cubes, n: int, B: int, n_topics: int = 50) -> None:
    """The five tests, both tails, for ``n`` trials: vectorised kernels against a plain
    loop of ``scipy.stats`` calls per trial (the same simulated scores)."""
    import numpy as np
    from scipy import stats

    from scorestd.experiments import significance_errors as er
    from scorestd.simulation import _random

    pool = _pool(cubes, "ap")
    design = er._type1_design(pool, False)
    root = _random.root_sequence(1)
    base, exp = er._draw_pairs(design, [_random.block_generator(root, 0)], n, n_topics, None)
    alphas = np.asarray(er.ALPHAS)
    crit = {1: stats.t.ppf(1 - alphas, n_topics - 1), 2: stats.t.ppf(1 - alphas / 2,
                                                                      n_topics - 1)}
    start = time.process_time()
    for s in range(0, n, _random.BLOCK):
        er._rejections(base[s:s + 64], exp[s:s + 64], alphas, er.ERROR_RATE_TESTS, crit, B,
                       root, s)
    fast = (time.process_time() - start) / n
    rng = np.random.default_rng(0)
    m = min(n, 20)
    start = time.process_time()
    for b, e in zip(base[:m], exp[:m], strict=True):
        d = e - b
        for alt in ("greater", "two-sided"):
            stats.ttest_rel(e, b, alternative=alt)
            stats.wilcoxon(e, b, alternative=alt)
            ties = np.abs(d) < 0.01
            stats.binomtest(int((d[~ties] > 0).sum()), int((~ties).sum()), alternative=alt)
            stats.permutation_test((d,), np.mean, permutation_type="samples", n_resamples=B,
                                   alternative=alt, random_state=rng)
            boot = np.array([rng.choice(d, d.size).mean() for _ in range(B)]) - d.mean()
            (boot >= d.mean()).mean() if alt == "greater" else (np.abs(boot) >= abs(d.mean())
                                                               ).mean()
    slow = (time.process_time() - start) / m
    print(f"tests per trial (5 tests × 2 tails, B = {B}, 50 topics): kernels {fast * 1e3:.2f} "
          f"ms, plain scipy loop {slow * 1e3:.1f} ms ({slow / fast:.0f}×)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=100_000)
    parser.add_argument("--trials-type2", type=int, default=20_000)
    parser.add_argument("-B", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip", default="", help="comma list of parts to skip: fit,type1,type2")
    parser.add_argument("--save", default=None)
    parser.add_argument("--baseline", type=int, default=0,
                        help="also time N trials' tests with a plain per-trial scipy loop")
    args = parser.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    cubes = {name: scorestd.datasets.load(name) for name in COLLECTIONS}
    if "fit" not in skip:
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runs = sum(len(_pool(cubes, m).means) for m in MEASURES)
        print(f"fit: {runs} margins (+ copulas) in {time.perf_counter() - start:.1f} s, "
              f"peak {peak_mb():.0f} MiB")
    if args.baseline:
        baseline(cubes, args.baseline, args.B)
    common = {"collections": cubes, "measures": list(MEASURES), "B": args.B, "seed": 2019,
              "progress": False}
    with cluster(args.workers) as client:
        if "type1" not in skip:
            start, cpu = time.perf_counter(), time.process_time()
            res = scorestd.error_rates(deltas=None, trials=args.trials, client=client, **common)
            print(f"type I: {args.trials} trials × 5 measures × 3 sizes in "
                  f"{time.perf_counter() - start:.0f} s (this process's CPU: "
                  f"{time.process_time() - cpu:.0f} s), peak {peak_mb():.0f} MiB")
            if args.save:
                res.data.to_netcdf(f"{args.save}-type1.nc")
        if "type2" not in skip:
            start, cpu = time.perf_counter(), time.process_time()
            res = scorestd.error_rates(trials=64, trials_type2=args.trials_type2,
                                       client=client, **common)
            print(f"type II/III: {args.trials_type2} trials × 10 δ × 5 measures × 3 sizes in "
                  f"{time.perf_counter() - start:.0f} s (this process's CPU: "
                  f"{time.process_time() - cpu:.0f} s), peak {peak_mb():.0f} MiB")
            if args.save:
                res.data.to_netcdf(f"{args.save}-type2.nc")


if __name__ == "__main__":
    main()
