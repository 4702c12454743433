"""Every kernel of the benchmark tables in README.md, timed the same way, quiet or busy.

The rows of the significance, correlation, standardization, aggregation and design tables
(and the labelled ``compare`` and ``standardize``), each the median of ``--repeat`` runs,
the runs of all rows interleaved so that a busy moment slows every row alike. With
``--busy`` another process keeps one core busy (a spinning loop) while they run: the
kernels should stay within 1.5× of their quiet times. ``--json FILE`` writes the medians,
and ``--compare FILE`` prints the ratio to an earlier run (e.g. of the previous release:
``PYTHONPATH=old/src python benchmarks/bench_kernels.py --json old.json``). Run by hand::

    python benchmarks/bench_kernels.py --repeat 15 --json quiet.json
    python benchmarks/bench_kernels.py --repeat 15 --busy --compare quiet.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings

import numpy as np

import scorestd
from scorestd.kernels import correlation as kc
from scorestd.kernels import significance as ks
from scorestd.kernels import standardize as kstd
from scorestd.kernels.aggregate import aggregate_kernel


def rows() -> list[tuple[str, object]]:
    rb = scorestd.datasets.load("robust2004")
    cube50 = rb.sel(measure="ap").isel(topic=slice(0, 50))
    x = cube50.transpose("topic", "system").values  # (50, 110)
    batch = np.stack([x] * 100)
    rng = np.random.default_rng(2017)
    a, b = rng.random((1000, 110)), rng.random((1000, 110))
    ap = scorestd.datasets.load("adhoc8_ap").sel(measure="ap").values
    idx = np.argsort(rng.random((1000, 50)), axis=1)[:, :25]
    agg_batch = ap[idx]
    big = np.round(rng.beta(0.8, 2.5, (400, 4, 1000)), 4)  # (topic, measure, system)
    out = [
        ("paired t, all 5,995 pairs", lambda: ks.paired_t_all_pairs(x)),
        ("paired t, 100 trials x all pairs", lambda: ks.paired_t_all_pairs(batch)),
        ("Wilcoxon, all pairs", lambda: ks.wilcoxon_all_pairs(x)),
        ("sign test, all pairs", lambda: ks.sign_test_all_pairs(x)),
        ("permutation B=1000", lambda: ks.permutation_all_pairs(x, B=1000, seed=1)),
        ("bootstrap B=1000", lambda: ks.bootstrap_all_pairs(x, B=1000, seed=1)),
        ("Tukey HSD", lambda: ks.tukey_hsd_all_pairs(x)),
        ("randomised Tukey HSD B=1000",
         lambda: ks.randomised_tukey_hsd_all_pairs(x, B=1000, seed=1)),
        ("Holm over 5,995 p-values", lambda: ks.adjust_pvalues(np.linspace(0, 1, 5995))),
        ("Welch 110 x 110", lambda: ks.unpaired_t_all_pairs(x[:25], x[25:])),
        ("compare(paired_t), labelled", lambda: scorestd.compare(cube50, "paired_t")),
        ("compare(paired_t, holm), labelled",
         lambda: scorestd.compare(cube50, "paired_t", correction="holm")),
        ("kendall_tau_b, 1,000 pairs", lambda: kc.kendall_tau_b(a, b)),
        ("tau_ap, 1,000 pairs", lambda: kc.tau_ap(a, b)),
        ("tau_ap_a, 1,000 pairs", lambda: kc.tau_ap_a(a, b)),
        ("tau_ap_b, 1,000 pairs", lambda: kc.tau_ap_b(a, b)),
        ("tau_b + tau_ap_b, 1,000 pairs", lambda: (kc.kendall_tau_b(a, b), kc.tau_ap_b(a, b))),
        ("pearson, 1,000 pairs", lambda: kc.pearson(a, b)),
        ("spearman, 1,000 pairs", lambda: kc.spearman(a, b)),
        ("numpy.sort, robust2004 cube", lambda: np.sort(rb.values, axis=1)),
    ]
    out += [(f"standardize(robust2004, {m!r})", lambda m=m: scorestd.standardize(rb, m))
            for m in ("empirical", "normal", "uniform", "z")]
    out += [
        ("numpy.sort, 400 x 4 x 1,000", lambda: np.sort(big, axis=-1)),
        ("kernel ecdf(x, x), 400 x 4 x 1,000", lambda: kstd.ecdf(big, big)),
        ("kernel normal_cdf, 400 x 4 x 1,000",
         lambda: kstd.normal_cdf(big, *kstd.location_scale(big)[1:])),
    ]
    positive = agg_batch + 1e-3  # hm needs non-zero scores
    out += [(f"aggregate_kernel {m}, 1000 x 25 x 129",
             lambda m=m: aggregate_kernel(positive if m == "hm" else agg_batch, m, axis=-2))
            for m in ("am", "gm", "egm", "hm", "md")]
    out += [
        ("discriminative_power paired t, robust2004 x 4 schemes",
         lambda: scorestd.discriminative_power(rb, schemes=["raw", "N", "U", "E"])),
        ("swap_rate 100 trials, robust2004 ap x 4 schemes",
         lambda: scorestd.swap_rate(rb, measure="ap", schemes=["raw", "N", "U", "E"],
                                    trials=100, seed=1, progress=False)),
    ]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--busy", action="store_true", help="keep one core busy meanwhile")
    parser.add_argument("--json", help="write the medians (seconds) to this file")
    parser.add_argument("--compare", help="print ratios to the medians in this file")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    table = rows()
    for _, fn in table:  # imports, caches, first-call costs
        fn()
    spinner = None
    if args.busy:
        spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
        time.sleep(0.5)
    times: dict[str, list[float]] = {name: [] for name, _ in table}
    try:
        for _ in range(args.repeat):
            for name, fn in table:
                start = time.perf_counter()
                fn()
                times[name].append(time.perf_counter() - start)
    finally:
        if spinner is not None:
            spinner.kill()
            spinner.wait()
    medians = {name: statistics.median(v) for name, v in times.items()}
    earlier = json.load(open(args.compare)) if args.compare else {}
    print(f"scorestd {scorestd.__file__}; {'one core busy' if args.busy else 'no extra load'};"
          f" load average {os.getloadavg()[0]:.2f}; median of {args.repeat}")
    for name, seconds in medians.items():
        ratio = f"{seconds / earlier[name]:6.2f}x" if name in earlier else ""
        print(f"| {name:<58} | {seconds * 1e3:10.3f} ms | {ratio} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(medians, f, indent=1)


if __name__ == "__main__":
    main()
