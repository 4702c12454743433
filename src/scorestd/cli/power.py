"""``scorestd power``: solve for the one of power, topics, difference or α left out."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_output_argument,
    load_data,
    print_table,
    write_table,
)
from ._design_args import add_collections_argument, as_frame, variance_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "power", run, help="power of a test collection (solve for the quantity left out)",
        description="Power analysis on score data, built on statsmodels: give all but one "
                    "of --min-diff, --n-topics, --alpha (default 0.05) and --power and the "
                    "missing one is solved for, per measure and scheme. Use --alpha solve "
                    "to solve for alpha.", data=False)
    add_collections_argument(p)
    p.add_argument("--test", choices=["paired_t", "unpaired_t", "anova"], default="paired_t",
                   help="test analysed (default paired_t)")
    p.add_argument("--min-diff", type=float, help="difference (ANOVA: range) to detect")
    p.add_argument("--n-topics", type=int, help="topics per system")
    p.add_argument("--alpha", default="0.05", help="significance level, or 'solve'")
    p.add_argument("--power", type=float, help="target power 1 − β")
    p.add_argument("--n-systems", type=int, help="systems of the ANOVA (default: in DATA)")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..design.power import SOLVED, solve_power

    variance = variance_from_args(args, args.test)
    alpha = None if args.alpha == "solve" else float(args.alpha)
    n_systems = args.n_systems
    if n_systems is None and args.test == "anova" and args.data:
        n_systems = int(load_data(args, args.data[0]).sizes["system"])
    result = solve_power(variance=variance, test=args.test, min_diff=args.min_diff,
                         n_topics=args.n_topics, alpha=alpha, power=args.power,
                         n_systems=n_systems)
    name = getattr(result, "name", None) or next(
        k for k, v in (("min_diff", args.min_diff), ("n_topics", args.n_topics),
                       ("alpha", alpha), ("power", args.power)) if v is None)
    given = ", ".join(f"{label} = {value:g}" for label, value in (
        ("min_diff", args.min_diff), ("n_topics", args.n_topics), ("α", alpha),
        ("power", args.power), ("systems", n_systems)) if value is not None)
    header = f"{args.test}: solving for {name}, given {given}"
    print(header)
    frame = as_frame(result, variance, name)
    kind = getattr(variance, "attrs", {}).get("kind")
    frame.attrs["columns"] = {
        "variance": (f"{kind} variance estimated from DATA" if kind
                     else "the variance given (--variance)"),
        name: SOLVED[name]}
    print_table(frame, floatfmt="{:.5g}")
    write_table(frame, args, caption=f"{header}.")
    return 0
