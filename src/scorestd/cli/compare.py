"""``scorestd compare``: significance tests between systems, with multiple-comparison control."""

from __future__ import annotations

import argparse

from ..dims import MEASURE
from ..kernels.multiple import ADJUST_METHODS
from ..stats.significance import TESTS, compare
from ._common import add_command, load_data, print_table

COLUMNS = ["system", "system2", "mean_diff", "effect_size", "ci_low", "ci_high", "statistic",
           "p_value", "p_adjusted", "n"]


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "compare", run, help="significance tests between systems",
        description="Paired tests of every pair of systems (or each against --baseline): "
                    "mean difference, effect size (Cohen's d), confidence interval and "
                    "(adjusted) p-value, one table per measure.")
    p.add_argument("--baseline", "-b", metavar="RUN", help="compare every system against RUN")
    p.add_argument("--test", "-t", choices=TESTS, default="t", help="test (default: t)")
    p.add_argument("--correction", "-c", choices=(*ADJUST_METHODS, "none"), default="holm",
                   help="p-value adjustment over the pairs (default: holm; ignored by the "
                        "Tukey tests, which adjust by construction)")
    p.add_argument("--alternative", choices=("two-sided", "greater", "less"),
                   default="two-sided", help="alternative hypothesis (default: two-sided)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the 'significant' count (default: 0.05)")
    p.add_argument("--min-diff", type=float, default=0.01,
                   help="sign test: differences below this are ties (default: 0.01)")
    p.add_argument("-B", type=int, default=10_000,
                   help="resamples of the permutation/bootstrap tests (default: 10000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the resamples (default: 0)")
    p.add_argument("--sort", choices=("pair", "p", "diff"), default="pair",
                   help="row order (default: pair order)")
    p.add_argument("--top", type=int, help="print only the first N rows per measure")


def run(args: argparse.Namespace) -> int:
    cube = load_data(args)
    family = args.test in ("tukey_hsd", "randomised_tukey_hsd")
    correction = None if args.correction == "none" or family else args.correction
    res = compare(cube, args.test, baseline=args.baseline, alternative=args.alternative,
                  correction=correction, min_diff=args.min_diff, B=args.B, seed=args.seed)
    p_name = "p_adjusted" if correction else "p_value"
    for measure in res[MEASURE].values:
        frame = res.sel({MEASURE: measure}).to_dataframe()
        frame = frame[[c for c in COLUMNS if c in frame.columns]]
        if args.sort == "p":
            frame = frame.sort_values(p_name, kind="stable")
        elif args.sort == "diff":
            frame = frame.sort_values("mean_diff", ascending=False, kind="stable")
        significant = int((frame[p_name] < args.alpha).sum())
        print(f"measure: {measure}   test: {args.test}   correction: {correction or 'none'}   "
              f"pairs: {len(frame)}   significant at {args.alpha}: {significant}")
        shown = (frame if args.top is None else frame.head(args.top)).reset_index(drop=True)
        for col in ("p_value", "p_adjusted"):  # small p-values need significant digits
            if col in shown:
                shown[col] = shown[col].map(lambda v: f"{v:.3g}")
        print_table(shown)
        print()
    return 0
