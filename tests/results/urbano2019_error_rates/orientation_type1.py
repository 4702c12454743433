"""One-tailed Type I errors of the rank tests: which run of a pair copula is the baseline.

The full-size study's one-tailed Type I errors of the sign and Wilcoxon tests depart from
the published ones (ERR@20, n = 100, α = .05, sign: .0678 against .0648, z 11) while the
two-tailed ones and the t-test's agree. The authors' ``R/11-type_1.R``
(github.com/julian-urbano/sigir2019-statistical) fits a pair copula only for runs
``i < j`` and, for a trial whose baseline is run ``i > j``, uses the ``(j, i)`` copula
without swapping its columns ("we only compute copulas for (i,j) where i<j, so we may
need to swap": it swaps the copula, not the columns), so the baseline's scores always
come from the lower-indexed run's column. ``scorestd.error_rates`` swaps the columns (the
baseline's scores from the baseline run's column). With an asymmetric copula (Tawn, and
BB families rotated by 90 or 270 degrees) the two orders give differences ``e − b`` of
the same mean (both runs share the baseline's margin under H0: the t-test cannot tell)
but skewed in opposite directions, which moves the one-tailed sign and Wilcoxon tests
and not their two-tailed versions.

This script draws the full-size study's own Type I trials (same seed, blocks, pairs,
pair copulas, margins: the functions of ``scorestd.experiments.significance_errors``,
``--seed 0`` and the study's child seeds reproduce its trials) twice: as the study does
(``study``), and with the published code's order (``published-order``), and prints the
t, Wilcoxon and sign tests' Type I errors of both beside the published rates
(``reference.csv``) with their z-scores. The ``study`` rows equal the full-size run's
rates (``rates_full_size.nc``) for the same trial count.

Usage (from the repository root; the pool file of a full-size run so that no pair
copula is fitted; about 40 s of CPU per million trials at n = 100)::

    PYTHONPATH=src python tests/results/urbano2019_error_rates/orientation_type1.py \\
        --pool rd/pool.npz --measure err20 --trials 1667000 \\
        >> tests/results/urbano2019_error_rates/orientation_type1.txt
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

import scorestd
from scorestd.experiments import significance_errors as se
from scorestd.experiments.error_rate_pool import ErrorRatePool
from scorestd.kernels.paired_decisions import paired_decisions
from scorestd.kernels.seeds import child_sequence
from scorestd.simulation import _random

HERE = Path(__file__).parent
TESTS = ("paired_t", "wilcoxon", "sign")
ALPHAS = (0.01, 0.05, 0.1)
#: The full-size study's order of measures and topic set sizes (its child seeds).
MEASURES = ("ap", "p10", "rr", "err20", "ndcg20")
SIZES = (25, 50, 100)
COLLECTIONS = ("adhoc5", "adhoc6", "adhoc7", "adhoc8", "web2010", "web2011", "web2012",
               "web2013")


def counts(design, mp, n_topics: int, trials: int, root, blocks_per_call: int = 64):
    """Rejections ``(tests, tails, alphas)`` and valid trials ``(tests,)`` of the first
    ``trials`` Type I trials of the cell seeded by ``root``."""
    blocks, keep = se._blocks(trials)
    reject = np.zeros((len(TESTS), 2, len(ALPHAS)), dtype=np.int64)
    valid = np.zeros(len(TESTS), dtype=np.int64)
    for start in range(0, len(blocks), blocks_per_call):
        part = blocks[start:start + blocks_per_call]
        rngs = [_random.block_generator(root, int(b)) for b in part]
        base, exp = se._draw_pairs(design, rngs, _random.BLOCK, n_topics, mp.support)
        rows = np.concatenate([r * _random.BLOCK + np.arange(k)
                               for r, k in enumerate(keep[start:start + blocks_per_call])])
        r = paired_decisions(exp[rows] - base[rows], ALPHAS, TESTS,
                             min_diff=se._SIGN_MIN_DIFF)
        reject += (r.reject & r.valid[:, None, :, None]).sum(axis=2)
        valid += r.valid.sum(axis=1)
    return reject, valid


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pool", required=True, help="pool file of a full-size run (read only)")
    ap.add_argument("--measure", default="err20", choices=MEASURES)
    ap.add_argument("--n-topics", type=int, action="append", default=None)
    ap.add_argument("--trials", type=int, default=1_667_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cubes = {name: scorestd.datasets.load(name) for name in COLLECTIONS}
    pool = ErrorRatePool.load(args.pool, cubes)
    mp = pool[args.measure]
    ref = pd.read_csv(HERE / "reference.csv")
    ref = ref[(ref.kind == "type1") & (ref.measure == args.measure)]
    root = _random.root_sequence(args.seed)
    m = MEASURES.index(args.measure)
    print(f"# {args.measure}: {args.trials} Type I trials a cell, seed {args.seed} (the "
          "full-size study's trials); published: reference.csv (1,667,000 trials a cell)")
    rows = []
    for n in args.n_topics or SIZES:
        cell_root = child_sequence(root, m, SIZES.index(n), 0)
        for order in ("study", "published-order"):
            design = se._type1_design(mp, True)
            ordered = np.column_stack([design.keys[:, 0], np.sort(design.keys[:, 1:], axis=1)])
            design.copulas = pool[args.measure].pair_copulas(ordered)
            if order == "published-order":  # the baseline is always the lower run's column
                design.keys = ordered
            started = time.process_time()
            reject, valid = counts(design, mp, n, args.trials, cell_root)
            cpu = time.process_time() - started
            for k, test in enumerate(TESTS):
                for tails in (1, 2):
                    for a, alpha in enumerate(ALPHAS):
                        rate = reject[k, tails - 1, a] / valid[k]
                        se_ = np.sqrt(rate * (1 - rate) / valid[k])
                        pub = ref[(ref.n_topics == n) & (ref.test == test)
                                  & (ref.tails == tails) & np.isclose(ref.alpha, alpha)].rate
                        pub = float(pub.iloc[0])
                        rows.append({"n": n, "order": order, "test": test, "tails": tails,
                                     "alpha": alpha, "rate": rate, "se": se_,
                                     "published": pub, "z": (rate - pub) / se_})
            print(f"# n = {n}, {order}: {cpu:.0f} s of CPU", flush=True)
    wide = pd.DataFrame(rows).pivot_table(index=["n", "test", "tails", "alpha"],
                                          columns="order", values=["rate", "z"])
    wide[("published", "")] = [float(ref[(ref.n_topics == n) & (ref.test == t)
                                         & (ref.tails == tl) & np.isclose(ref.alpha, a)]
                                     .rate.iloc[0]) for n, t, tl, a in wide.index]
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(wide.round(4).to_string())


if __name__ == "__main__":
    main()
