"""Time of the published error-rate study at full size, estimated from measured costs.

Run by hand: ``python benchmarks/bench_full_study.py [B] [copula]`` (default B = 10000,
copula "gaussian"). The full study (``scorestd experiment error-rates --full-size``) is
5 measures × n ∈ {25, 50, 100} × (1,667,000 Type I + 10 × 167,000 Type II trials). Its
CPU time is the fixed costs plus trials × the marginal cost of a trial:

- marginal cost per trial, per measure and n, Type I and Type II (δ = 0.05): the CPU time
  (``time.process_time``, one BLAS thread) of ``_run`` on 4,096 and on 16,384 trials of an
  already built design; the slope between the two is the cost of one more trial, the
  intercept the fixed cost of a run;
- fixed costs per measure: fitting the pool of margins (``_pool``) and building the
  Type II design of each δ (``_type2_design``), timed once per measure (at δ = 0.05).

The wall time on 2 cores is the CPU time / 2: the cells run as independent batches on a
2-worker cluster (``--workers 2``; the engine measured 1.97× on 2 workers).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from scorestd.experiments import significance_errors as se
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
    kw = dict(tests=se.ERROR_RATE_TESTS, alphas=ALPHAS, B=B, batch_size=None,
              progress=False, client=None, desc="")
    batch = max(1, 256 * 2**20 // (8 * (B * n + 64 * B + 20 * 64 * n)))
    kw["batch_size"] = batch
    return cpu(lambda: se._run(design, pool, n, trials, root, **kw))[0]


def main(B: int, copula: str) -> None:
    cubes = se._collections(None)
    measures = list(dict.fromkeys(str(m) for c in cubes.values() for m in c["measure"].values))
    total = 0.0
    print(f"B = {B}, copula = {copula}; CPU seconds (one BLAS thread)")
    print(f"{'measure':<8} {'n':>4} {'kind':<6} {'µs/trial':>9} {'fixed s':>8} {'cell s':>9}")
    with single_threaded_blas():
        for measure in measures:
            t_pool, pool = cpu(lambda m=measure: se._pool(cubes, m, copula))
            design1 = se._type1_design(pool)
            t_design2, design2 = cpu(lambda: se._type2_design(pool, 0.05))
            fixed = t_pool + DELTAS * t_design2
            print(f"{measure:<8} pool {t_pool:.1f} s, Type II design {t_design2:.2f} s per δ")
            for n in SIZES:
                for kind, design, trials, cells in (("I", design1, TYPE1, 1),
                                                    ("II", design2, TYPE2, DELTAS)):
                    small = run_cost(design, pool, n, SMALL, B)
                    large = run_cost(design, pool, n, LARGE, B)
                    marginal = (large - small) / (LARGE - SMALL)
                    intercept = max(0.0, small - marginal * SMALL)
                    cell = cells * (intercept + marginal * trials)
                    total += cell
                    print(f"{measure:<8} {n:>4} {kind:<6} {marginal * 1e6:9.1f} "
                          f"{intercept:8.2f} {cell:9.0f}")
            total += fixed
    print(f"\nwhole study: {total:.0f} CPU s = {total / 3600:.2f} CPU h; "
          f"on 2 cores ≈ {total / 2 / 3600:.2f} h ({total / 2 / 60:.0f} min)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000,
         sys.argv[2] if len(sys.argv) > 2 else "gaussian")
