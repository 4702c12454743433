"""Benchmark: the numpy vine sampler (inverse Rosenblatt transform) on a fitted vine.

The vine of adhoc8 AP (114 kept runs, pair copulas selected by AIC among the parametric
families, as ``fit_simulator``), fitted once and kept as JSON in ``--vine`` (default
``$TMPDIR/adhoc8_ap_vine.json``); each run draws ``--rows`` rows (default 5,000, seed 1)
with :func:`scorestd.kernels.vine.inverse_rosenblatt` and prints the time of the drawing
and the time spent in the edges of each family (``--by-family``). Run by hand, e.g. to
compare two versions of the kernels as whole processes::

    PYTHONPATH=src python benchmarks/bench_vine_edges.py --rows 5000
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np


def fitted_vine(path: Path):
    import pyvinecopulib as pv

    from scorestd.simulation.copula import VineCopula

    if path.exists():
        return VineCopula(pv.Vinecop.from_file(str(path)))
    import scorestd
    from scorestd.experiments.error_rate_pool import prepare_collection

    kept = prepare_collection(scorestd.datasets.load("adhoc8"), "ap")
    vine = VineCopula.fit(np.asarray(kept.values, dtype=np.float64))
    vine.vine.to_file(str(path))
    return vine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    parser.add_argument("--vine", type=Path,
                        default=Path(tempfile.gettempdir()) / "adhoc8_ap_vine.json")
    parser.add_argument("--by-family", action="store_true")
    args = parser.parse_args()
    from scorestd.kernels import vine as kv

    copula = fitted_vine(args.vine)
    plan = copula.plan
    u = np.random.default_rng(1).random((args.rows, plan.dim))
    spent: dict[str, float] = {}
    if args.by_family:  # time each edge's kernel call, by family
        import scorestd.kernels.vine as module

        def timed(name):
            real = getattr(module, name)

            def wrapper(family, *a, **k):
                t0 = time.process_time()
                out = real(family, *a, **k)
                spent[family] = spent.get(family, 0.0) + time.process_time() - t0
                return out
            return wrapper

        module.rotated_hinv2 = timed("rotated_hinv2")
        module.rotated_hinv2_hfunc1 = timed("rotated_hinv2_hfunc1")
    t0 = time.process_time()
    x = kv.inverse_rosenblatt(plan, u)
    cpu = time.process_time() - t0
    print(f"{args.rows} rows × {plan.dim} variables: {cpu:.2f} s CPU, "
          f"{1e3 * cpu / args.rows:.3f} ms a row (checksum {x.sum():.10f})")
    total = sum(spent.values())
    for family, seconds in sorted(spent.items(), key=lambda kv_: -kv_[1]):
        print(f"  {family:10s} {seconds:7.2f} s  {100 * seconds / total:5.1f} %")


if __name__ == "__main__":
    main()
