"""Marginal cost of an error-rate trial with the paper's pair copulas and with the Gaussian one.

Runs ``scorestd.error_rates`` (AP on adhoc5–8, one topic set size, Type I trials, the five
tests) with ``--copula vine`` or ``--copula gaussian`` and ``--trials N``; the pair copulas
come from a pool file fitted beforehand (``--pool``, written on the first run), so the
run times only simulation and tests. Time two trial counts of each copula as whole
processes (e.g. with ``/usr/bin/time -v``, several runs, medians); the marginal cost per
trial is the difference of the medians over the difference of the trial counts.

    python benchmarks/bench_pair_copulas.py --copula vine --trials 1024 --pool ap.npz  # fits
    /usr/bin/time -v python benchmarks/bench_pair_copulas.py --copula vine --trials 8192 --pool ap.npz
    /usr/bin/time -v python benchmarks/bench_pair_copulas.py --copula gaussian --trials 8192

``--marginal R`` measures the marginal costs in process instead: ``R`` rounds, each timing
(CPU time, one BLAS thread) ``--trials`` and ``--trials // 8`` Type I trials of each copula
in turn on designs built once (every pair's copula fitted beforehand); it prints each
round's slopes and their ratio, and the medians.

``--sampler-only`` times the copula draws alone (``pair_copulas.sample``, with the joint
draws and with the conditional inverse only, against the Gaussian pair draw) on 1,024 of
the pool's fitted copulas, in process (CPU time).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import special

import scorestd
from scorestd.kernels import pair_copulas


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--copula", choices=("vine", "gaussian"), default="vine")
    parser.add_argument("--trials", type=int, default=4096)
    parser.add_argument("--n-topics", type=int, default=50)
    parser.add_argument("--pool", default=None, help=".npz pool of fitted pair copulas")
    parser.add_argument("--tests", default="paired_t,wilcoxon,sign,permutation,bootstrap")
    parser.add_argument("--B", type=int, default=2000)
    parser.add_argument("--sampler-only", action="store_true")
    parser.add_argument("--marginal", type=int, default=0, metavar="ROUNDS")
    args = parser.parse_args()
    collections = ["adhoc5", "adhoc6", "adhoc7", "adhoc8"]
    if args.sampler_only:
        return sampler_only(collections, args)
    if args.marginal:
        return marginal(collections, args)
    scorestd.error_rates(collections, measures=["ap"], n_topics=[args.n_topics], deltas=None,
                         tests=args.tests.split(","), trials=args.trials, B=args.B,
                         copula=args.copula, pool=args.pool if args.copula == "vine" else None,
                         seed=1, progress=False)


def marginal(collections, args) -> None:
    from scorestd.experiments import significance_errors as se
    from scorestd.experiments.result import ALPHAS
    from scorestd.kernels.blas import single_threaded_blas

    cubes = {name: scorestd.datasets.load(name) for name in collections}
    pool = scorestd.experiments.ErrorRatePool.load(args.pool, cubes)["ap"]
    designs = {"vine": se._type1_design(pool, True), "gaussian": se._type1_design(pool, False)}
    root = np.random.SeedSequence(1)
    kw = dict(tests=args.tests.split(","), alphas=ALPHAS, B=args.B, batch_size=None,
              progress=False, client=None, desc="")
    small, large = args.trials // 8, args.trials

    def cost(copula, trials):
        start = time.process_time()
        se._run(designs[copula], pool, args.n_topics, trials, root, **kw)
        return time.process_time() - start

    with single_threaded_blas():
        for copula in designs:  # fit (or read) every pair the trials draw, once
            cost(copula, large)
        slopes = {"vine": [], "gaussian": []}
        for r in range(args.marginal):
            for copula in designs:
                slopes[copula].append((cost(copula, large) - cost(copula, small))
                                      / (large - small))
            print(f"round {r + 1}: pair copulas {slopes['vine'][-1] * 1e6:.1f} µs, Gaussian "
                  f"{slopes['gaussian'][-1] * 1e6:.1f} µs a trial, ratio "
                  f"{slopes['vine'][-1] / slopes['gaussian'][-1]:.2f}", flush=True)
    ratios = np.array(slopes["vine"]) / np.array(slopes["gaussian"])
    print(f"median: pair copulas {np.median(slopes['vine']) * 1e6:.1f} µs, Gaussian "
          f"{np.median(slopes['gaussian']) * 1e6:.1f} µs a trial; ratio {np.median(ratios):.2f} "
          f"(rounds {ratios.min():.2f}–{ratios.max():.2f})")


def sampler_only(collections, args) -> None:
    cubes = {name: scorestd.datasets.load(name) for name in collections}
    pool = scorestd.experiments.ErrorRatePool.load(args.pool, cubes)["ap"]
    rows = np.array(list(pool.fitted.values()))
    rng = np.random.default_rng(0)
    size = 1024  # trials sampled in one pass (a batch holds about 100 blocks of 64)
    pick = rows[rng.integers(0, len(rows), size)]
    rho = rng.uniform(0.3, 0.9, (size, 1))
    for name, draw in (
            ("pair copulas, joint draws", lambda: pair_copulas.sample(
                pick[:, 0].astype(int), pick[:, 1].astype(int), pick[:, 2:5],
                rng.random((size, args.n_topics, pair_copulas.UNIFORMS)), tau=pick[:, 5])),
            ("pair copulas, conditional inverse only", lambda: pair_copulas.sample(
                pick[:, 0].astype(int), pick[:, 1].astype(int), pick[:, 2:5],
                rng.random((size, args.n_topics, 2)), tau=pick[:, 5])),
            ("gaussian", lambda: (special.ndtr(z := rng.standard_normal((size, 2, args.n_topics))[:, 0]),
                                  special.ndtr(rho * z + np.sqrt(1 - rho**2)
                                               * rng.standard_normal((size, args.n_topics)))))):
        draw()
        start = time.process_time()
        for _ in range(5):
            draw()
        per_trial = (time.process_time() - start) / 5 / size
        print(f"{name}: {per_trial * 1e6:.1f} µs per trial of {args.n_topics} topics")
    families = np.bincount(rows[:, 0].astype(int), minlength=len(pair_copulas.FAMILIES))
    print("families of the pool's pairs:", {f: int(c) for f, c in
                                             zip(pair_copulas.FAMILIES, families, strict=True) if c})


if __name__ == "__main__":
    main()
