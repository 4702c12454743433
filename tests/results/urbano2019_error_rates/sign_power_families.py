"""Power of the five tests with pyvinecopulib's and R VineCopula's pair-copula family sets.

The suspect left by ``sign_power.py`` is the pair copula. Here the same Type II trials
(same design, pairs, uniforms and margins; ``sign_power.draw``) are drawn with the pair
copulas selected among ``pyvinecopulib``'s families (``ErrorRatePool(pair_families=
"vinecopulib")``: its three-parameter Tawn) and as R VineCopula's ``BiCopSelect`` selects
them (``pair_families="bicopselect"``: two two-parameter Tawn types and VineCopula's
preselection, the paper's), and every test is decided at α = .05 (permutation and
bootstrap with ``--B`` resamples). Published rates: ``reference.csv`` (the authors'
output files, 167,000 trials a cell; ``extract.py``).

Usage (from the worktree; pair copulas kept in ``--pools DIR`` between runs)::

    PYTHONPATH=src python tests/results/urbano2019_error_rates/sign_power_families.py \\
        --cells ap:25:0.05,ap:50:0.05,ap:100:0.05,ap:50:0.02 --trials 16384 \\
        --pools /tmp/pools >> sign_power_families.txt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

import scorestd
from scorestd.experiments import significance_errors as se
from scorestd.experiments.error_rate_pool import ErrorRatePool
from scorestd.kernels.paired_decisions import paired_decisions

sys.path.insert(0, str(Path(__file__).parent))
from sign_power import ALPHA, draw, published

TESTS = ("paired_t", "wilcoxon", "sign", "permutation", "bootstrap")
FAMILY_SETS = ("vinecopulib", "bicopselect")


def collections(measure: str) -> dict:
    names = (["adhoc5", "adhoc6", "adhoc7", "adhoc8"] if measure in ("ap", "p10", "rr")
             else ["web2010", "web2011", "web2012", "web2013"])
    return {n: scorestd.datasets.load(n) for n in names}


def pool_for(measure: str, families: str, folder: Path | None) -> tuple[ErrorRatePool, Path]:
    cubes = collections(measure)
    path = None if folder is None else folder / f"pool_{measure}_{families}.npz"
    if path is not None and path.exists():
        pool = ErrorRatePool.load(path, cubes)
        if pool.pair_families != families:
            raise SystemExit(f"{path} was fitted with pair families {pool.pair_families}")
        return pool, path
    return ErrorRatePool(cubes, pair_families=families), path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", default="ap:50:0.05",
                    help="measure:n:δ, comma-separated")
    ap.add_argument("--trials", type=int, default=16384)
    ap.add_argument("--B", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=2019)
    ap.add_argument("--pools", default=None, help="folder of the pools' .npz files")
    args = ap.parse_args()
    folder = Path(args.pools) if args.pools else None
    if folder:
        folder.mkdir(parents=True, exist_ok=True)
    cells = [(m, int(n), float(d)) for m, n, d in (c.split(":") for c in args.cells.split(","))]
    print(f"# {args.trials} Type II trials a cell, seed {args.seed}, B = {args.B}, α = {ALPHA}; "
          "the same trials (pairs, uniforms, margins) under each family set")
    pools = {}
    for measure, n, delta in cells:
        pub = published(measure, n, delta)
        rows, decisions = {}, {}
        for families in FAMILY_SETS:
            if (measure, families) not in pools:
                pools[measure, families] = pool_for(measure, families, folder)
            pool, path = pools[measure, families]
            mp = pool[measure]
            design = se._type2_design(mp, delta, True)
            base, exp, _, _ = draw(design, mp, n, args.trials, args.seed)
            if path is not None:
                pool.save(path)
            r = paired_decisions(exp - base, [ALPHA], TESTS, resamples=args.B,
                                 min_diff=se._SIGN_MIN_DIFF, seed=args.seed)
            decisions[families] = r
            for k, test in enumerate(TESTS):
                ok = r.valid[k]
                for tails in (1, 2):
                    rate = r.reject[k, tails - 1, ok, 0].mean()
                    sd = np.sqrt(rate * (1 - rate) / ok.sum())
                    p = pub.loc[(test, tails)]
                    row = rows.setdefault((test, tails), {"test": test, "tails": tails,
                                                          "published": p})
                    row[families] = rate
                    row[f"z {families}"] = (rate - p) / sd
        # the change between family sets on the same trials, with its paired standard
        # error (trials valid under both), and the same for the sign − t gap
        a, b = (decisions[f] for f in FAMILY_SETS)
        t_index = TESTS.index("paired_t")
        for k, test in enumerate(TESTS):
            ok = a.valid[k] & b.valid[k] & a.valid[t_index] & b.valid[t_index]
            for tails in (1, 2):
                x = (b.reject[k, tails - 1, ok, 0].astype(float)
                     - a.reject[k, tails - 1, ok, 0])
                g = x - (b.reject[t_index, tails - 1, ok, 0].astype(float)
                         - a.reject[t_index, tails - 1, ok, 0])
                row = rows[test, tails]
                for f, r in zip(FAMILY_SETS, (a, b), strict=True):
                    v = (r.reject[k, tails - 1, ok, 0].astype(float)
                         - r.reject[t_index, tails - 1, ok, 0])
                    row[f"{f} - t"] = v.mean()
                    row[f"se {f} - t"] = v.std(ddof=1) / np.sqrt(ok.sum())
                row["change"] = x.mean()
                row["change se"] = x.std(ddof=1) / np.sqrt(ok.sum())
                row["change - t's"] = g.mean()
                row["its se"] = g.std(ddof=1) / np.sqrt(ok.sum())
        table = pd.DataFrame(list(rows.values()))
        t_pub = table[table.test == "paired_t"].set_index("tails")["published"]
        table.insert(3, "published - t", table["published"] - table["tails"].map(t_pub))
        print(f"\n## {measure}, n = {n}, δ = {delta:g}")
        rates = table[["test", "tails", "published", *FAMILY_SETS,
                       *[f"z {f}" for f in FAMILY_SETS]]]
        gaps = table[["test", "tails", "published - t",
                      *[c for f in FAMILY_SETS for c in (f"{f} - t", f"se {f} - t")],
                      "change", "change se", "change - t's", "its se"]]
        print(rates.round(4).to_string(index=False))
        print("# each test's power minus the t-test's (on the same trials), and the change "
              "from vinecopulib to bicopselect (paired standard errors)")
        print(gaps[gaps.test != "paired_t"].round(4).to_string(index=False))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
