"""Time of the published error-rate study at full size, estimated from measured costs.

Run by hand: ``python benchmarks/bench_full_study.py [--B 10000] [--pool FILE]
[--copulas vine,gaussian] [--fit-sample 60]``. The full study (``scorestd experiment
error-rates --full-size``) is 5 measures × n ∈ {25, 50, 100} × (1,667,000 Type I +
10 × 167,000 Type II trials), by default with the paper's pair copulas (``copula="vine"``).
Its CPU time is the fixed costs plus trials × the marginal cost of a trial:

- marginal cost per trial, per measure, n and copula, Type I and Type II (δ = 0.05): the
  CPU time (``time.process_time``, one BLAS thread) of ``_run`` on 4,096 and on 16,384
  trials of an already built design whose pair copulas are all fitted; the slope between
  the two is the cost of one more trial, the intercept the fixed cost of a run;
- fixed costs per measure: fitting the margins (``ErrorRatePool``), building the Type II
  design of each δ (``_type2_design``, timed at δ = 0.05) and, with pair copulas, fitting
  the copula of every pair of runs of a collection (the full study draws them all): the
  CPU time of ``--fit-sample`` pairs fitted one by one, times the number of pairs.

``--pool FILE`` keeps every pair's copula (fitted on the first run, read afterwards), so
that a second run times the trials without refitting. The wall time on 2 cores is the
CPU time / 2: the cells run as independent batches on a 2-worker cluster (``--workers 2``;
the engine measured 1.97× on 2 workers) and the pair fits are shared out the same way.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from scorestd.experiments import significance_errors as se
from scorestd.experiments.error_rate_pool import ErrorRatePool, _fit_pairs
from scorestd.experiments.result import ALPHAS
from scorestd.kernels.blas import single_threaded_blas

TYPE1, TYPE2, DELTAS = 1_667_000, 167_000, 10
SIZES = (25, 50, 100)
SMALL, LARGE = 4096, 16384


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def run_cost(design, pool, n, trials, B):
    root = np.random.SeedSequence(1)
    batch = max(1, 256 * 2**20 // (8 * (B * n + 64 * B + 20 * 64 * n)))
    kw = dict(tests=se.ERROR_RATE_TESTS, alphas=ALPHAS, B=B, batch_size=batch,
              progress=False, client=None, desc="")
    return cpu(lambda: se._run(design, pool, n, trials, root, **kw))[0]


def all_pairs(pool) -> np.ndarray:
    return np.array([(c, i, j) for c, size in enumerate(pool.sizes)
                     for i in range(size) for j in range(i + 1, size)], dtype=np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--B", type=int, default=10_000)
    parser.add_argument("--pool", default=None, help=".npz file of every pair's copula")
    parser.add_argument("--copulas", default="vine,gaussian")
    parser.add_argument("--fit-sample", type=int, default=60)
    parser.add_argument("--measures", default=None)
    args = parser.parse_args()
    copulas = args.copulas.split(",")
    cubes = se._collections(None)
    measures = (args.measures.split(",") if args.measures else
                list(dict.fromkeys(str(m) for c in cubes.values() for m in c["measure"].values)))
    path = Path(args.pool) if args.pool else None
    study = ErrorRatePool.load(path, cubes) if path and path.exists() else ErrorRatePool(cubes)
    total = dict.fromkeys(copulas, 0.0)
    print(f"B = {args.B}; CPU seconds (one BLAS thread)")
    print(f"{'measure':<10} {'n':>4} {'kind':<5} {'copula':<9} {'µs/trial':>9} {'fixed s':>8} "
          f"{'cell s':>9}")
    with single_threaded_blas():
        for measure in measures:
            t_pool, pool = cpu(lambda m=measure: ErrorRatePool(cubes)[m])
            pool = study[measure]
            pairs = all_pairs(pool)
            fixed = dict.fromkeys(copulas, t_pool)
            if "vine" in copulas:
                rng = np.random.default_rng(0)
                sample = pairs[rng.choice(len(pairs), min(args.fit_sample, len(pairs)),
                                          replace=False)]
                t_fit = cpu(lambda s=sample, p=pool: _fit_pairs(list(map(tuple, s.tolist())),
                                                                p.scores, 1))[0]
                fit_all = t_fit / len(sample) * len(pairs)
                fixed["vine"] += fit_all
                new = sum(tuple(k) not in pool.fitted for k in pairs.tolist())
                t_new = cpu(lambda p=pool, k=pairs: p.pair_copulas(k))[0]
                if path is not None and new:
                    study.save(path)
                print(f"{measure:<10} margins {t_pool:.1f} s; {len(pairs)} pairs, "
                      f"{t_fit / len(sample) * 1e3:.1f} ms a pair fitted (sample of "
                      f"{len(sample)}) = {fit_all:.0f} s; {new} fitted now in {t_new:.0f} s")
            for copula in copulas:
                vine = copula == "vine"
                design1 = se._type1_design(pool, vine)
                t_design2, design2 = cpu(lambda v=vine, pool=pool: se._type2_design(pool, 0.05, v))
                fixed[copula] += DELTAS * t_design2
                for n in SIZES:
                    for kind, design, trials, cells in (("I", design1, TYPE1, 1),
                                                        ("II", design2, TYPE2, DELTAS)):
                        small = run_cost(design, pool, n, SMALL, args.B)
                        large = run_cost(design, pool, n, LARGE, args.B)
                        marginal = (large - small) / (LARGE - SMALL)
                        intercept = max(0.0, small - marginal * SMALL)
                        cell = cells * (intercept + marginal * trials)
                        total[copula] += cell
                        print(f"{measure:<10} {n:>4} {kind:<5} {copula:<9} "
                              f"{marginal * 1e6:9.1f} {intercept:8.2f} {cell:9.0f}", flush=True)
                total[copula] += fixed[copula]
                print(f"{measure:<10} {copula}: fixed {fixed[copula]:.0f} s", flush=True)
    for copula, cpu_s in total.items():
        print(f"\nwhole study, {copula}: {cpu_s:.0f} CPU s = {cpu_s / 3600:.2f} CPU h; "
              f"on 2 cores ≈ {cpu_s / 2 / 3600:.2f} h ({cpu_s / 2 / 60:.0f} min)")


if __name__ == "__main__":
    main()
