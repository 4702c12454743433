"""``scorestd compare``: significance tests between systems, with multiple-comparison control."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import Alternative, Correction
from ..dims import MEASURE, SYSTEM
from ._common import (
    add_command,
    add_output_argument,
    add_resamples_argument,
    add_test_argument,
    load_data,
    print_table,
    write_table,
)

COLUMNS = ["system", "system2", "mean_diff", "effect_size", "ci_low", "ci_high", "statistic",
           "p_value", "p_adjusted", "n"]


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "compare", run, help="significance tests between systems",
        description="Paired tests of every pair of systems (or each against --baseline): "
                    "mean difference, effect size (Cohen's d), confidence interval and "
                    "(adjusted) p-value, one table per measure. A file with extra dims "
                    "(the trials of `scorestd simulate`) is summed up over them: for each "
                    "pair, how often it is significant, its mean difference and, with the "
                    "simulated true means, how often its direction is the true one "
                    "(--select DIM=LABEL tests one slice).")
    p.add_argument("--baseline", "-b", metavar="RUN", help="compare every system against RUN")
    add_test_argument(p, help="the paired test")
    p.add_argument("--correction", "-c", choices=(*get_args(Correction), "none"), default="holm",
                   help="p-value adjustment over the pairs (default: holm, as the counts of "
                        "significant pairs need it; the API's scorestd.compare defaults to "
                        "none; ignored by the Tukey tests, which adjust by construction)")
    p.add_argument("--alternative", choices=get_args(Alternative),
                   default="two-sided", help="alternative hypothesis (default: two-sided)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the 'significant' count (default: 0.05)")
    p.add_argument("--min-diff", type=float, default=0.01,
                   help="sign test: differences below this are ties (default: 0.01)")
    add_resamples_argument(p, default=10_000, help="resamples of the resampling tests")
    p.add_argument("--seed", type=int, default=0, help="seed of the resamples (default: 0)")
    p.add_argument("--sort", choices=("pair", "p", "diff"), default="pair",
                   help="row order (default: pair order)")
    p.add_argument("--top", type=int, help="print only the first N rows per measure")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..kernels.significance import FAMILY_TESTS
    from ..score_cube import extra_dims_of
    from ..stats.significance import compare, fraction_significant

    cube = load_data(args, extra_dims=True)
    family = args.test in FAMILY_TESTS  # adjusted by construction, over all pairs
    correction = None if args.correction == "none" or family else args.correction
    res = compare(cube, args.test, baseline=args.baseline, alternative=args.alternative,
                  correction=correction, min_diff=args.min_diff, B=args.B, seed=args.seed)
    p_name = "p_adjusted" if correction else "p_value"
    if extra_dims_of(cube):  # the trials of a simulated collection …: summed up over them
        return _across_slices(args, cube, res, correction=correction, family=family)
    share = fraction_significant(res[p_name], [args.alpha]).isel(alpha=0)
    for measure in res[MEASURE].values:
        frame = res.sel({MEASURE: measure}).to_dataframe()
        frame = frame[[c for c in COLUMNS if c in frame.columns]]
        if args.sort == "p":
            frame = frame.sort_values(p_name, kind="stable")
        elif args.sort == "diff":
            frame = frame.sort_values("mean_diff", ascending=False, kind="stable")
        tested = int(frame[p_name].notna().sum())
        significant = round(float(share.sel({MEASURE: measure})) * tested)
        adjusted = (f"family-wise by {args.test}" if family else correction or "none")
        print(f"measure: {measure}{_scale(cube)}   test: {args.test}   correction: "
              f"{adjusted}   pairs: {len(frame)}   significant at {args.alpha}: "
              f"{significant}")
        shown = (frame if args.top is None else frame.head(args.top)).reset_index(drop=True)
        for col in ("p_value", "p_adjusted"):  # small p-values need significant digits
            if col in shown:
                shown[col] = shown[col].map(lambda v: f"{v:.3g}")
        print_table(shown, legend=_legend(res, shown.columns, adjusted, len(frame)))
        print()
    if args.output:  # the paper's table: systems × measures, markers for the significant pairs
        from ..tables import significance_table

        write_table(significance_table(res, cube, alpha=args.alpha), args)
    return 0


def _scale(cube) -> str:
    """`` (standardized by MODEL)`` for standardized scores: not the measure's own."""
    model = cube.attrs.get("standardization")
    return f" (standardized by {model})" if model else ""


def _legend(res, columns, adjusted: str, pairs: int) -> dict[str, str]:
    """What each printed column is, from the result's descriptions, with the parameters."""
    legend = {c: str(res[c].attrs.get("description", "")) for c in columns if c in res}
    level = f"{float(res.attrs.get('conf_level', 0.95)):.0%}"
    for bound in ("ci_low", "ci_high"):
        if bound in legend:
            legend[bound] = legend[bound].replace("confidence interval",
                                                  f"{level} confidence interval")
    alternative = res.attrs.get("alternative", "two-sided")
    if "p_value" in legend:
        legend["p_value"] += f" ({alternative})"
    if "p_adjusted" in legend:
        legend["p_adjusted"] = f"p_value adjusted by {adjusted} over the {pairs} pairs"
    return {c: text for c, text in legend.items() if text}


ACROSS_COLUMNS = ["system", "system2", "significant", "mean_diff", "sd_diff", "true_diff",
                  "agree", "slices"]


def _across_slices(args: argparse.Namespace, cube, res, *, correction: str | None,
                   family: bool) -> int:
    """Each pair over the slices of the extra dims: how often significant, the mean
    difference, how often its sign is the true one (with a ``true_mean`` coord)."""
    import pandas as pd

    from ..score_cube import extra_dims_of
    from ..stats.across_slices import significance_across_slices
    from ..tables import frame_table

    extra = list(extra_dims_of(cube))
    truth = cube.coords.get("true_mean")
    truth = truth if truth is not None and truth.dims == (SYSTEM,) else None
    summary = significance_across_slices(res, extra, alpha=args.alpha,
                                         adjusted=correction is not None, true_mean=truth)
    adjusted = f"family-wise by {args.test}" if family else correction or "none"
    where = " × ".join(f"{dim} ({cube.sizes[dim]})" for dim in extra)
    frames = {}
    for measure in summary[MEASURE].values:
        part = summary.sel({MEASURE: measure}, drop=True)
        frame = part.to_dataframe().reset_index()
        frame = frame[[c for c in ACROSS_COLUMNS if c in frame.columns]]
        if args.sort == "p":
            frame = frame.sort_values("significant", ascending=False, kind="stable")
        elif args.sort == "diff":
            frame = frame.sort_values("mean_diff", ascending=False, kind="stable")
        always = int((part["significant"] == 1).sum())
        never = int((part["significant"] == 0).sum())
        print(f"measure: {measure}{_scale(cube)}   test: {args.test}   correction: "
              f"{adjusted}   pairs: {len(frame)}   over {where}: significant at {args.alpha} in every "
              f"slice: {always}, in none: {never}")
        shown = (frame if args.top is None else frame.head(args.top)).reset_index(drop=True)
        legend = {c: summary[c].attrs["description"] for c in shown.columns
                  if c in summary.data_vars}
        if "true_diff" in legend and cube.attrs.get("standardization"):
            legend["true_diff"] += (f" — of the raw scores, while mean_diff is of the "
                                    f"{cube.attrs['standardization']}-standardized ones: "
                                    "compare their signs, not their sizes")
        if "significant" in legend and correction:
            each = extra[0] if len(extra) == 1 else "slice"
            legend["significant"] += f" ({correction} over the pairs of each {each})"
        print_table(shown, floatfmt="{:.3f}", legend=legend)
        if truth is None:
            print("  (no true_mean coord: the file is not simulated, so no true direction)")
        print()
        frames[str(measure)] = frame.set_index(["system", "system2"])
    if args.output:  # the summary of every pair, one block of rows per measure
        written = pd.concat(frames, names=[MEASURE]) if len(frames) > 1 else frames[
            next(iter(frames))]
        written.attrs["columns"] = legend  # the printed legend
        write_table(frame_table(written, caption=f"{args.test} test ({adjusted} correction, "
                                                 f"α = {args.alpha:g}) of each pair over "
                                                 f"{where} of {args.data}."), args)
    return 0
