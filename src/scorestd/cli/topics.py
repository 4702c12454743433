"""``scorestd topics``: topic set size design (Sakai 2016) over a grid of designs."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_output_argument,
    print_table,
    split_list,
    write_table,
)
from ._design_args import add_collections_argument, variance_from_args


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "topics", run, help="topic set size design: topics needed for a test, per scheme",
        description="Number of topics a new collection needs (Sakai, Topic set size design, "
                    "IRJ 2016) for the paired t-test, one-way ANOVA or a confidence interval "
                    "of given width, with the variance estimated (pooled) from DATA. Lists "
                    "are comma-separated and form a grid.", data=False)
    add_collections_argument(p)
    p.add_argument("--test", choices=["paired_t", "anova", "ci"], default="paired_t",
                   help="design (default paired_t)")
    p.add_argument("--min-diff", default="0.02,0.05,0.1",
                   help="minimum detectable difference(s) / range(s) / CI width(s) "
                        "(default 0.02,0.05,0.1)")
    p.add_argument("--alpha", default="0.05", help="α value(s) (default 0.05)")
    p.add_argument("--beta", default="0.2", help="β value(s) (default 0.2)")
    p.add_argument("--n-systems", default="2", help="m value(s) for anova (default 2)")
    p.add_argument("--method", choices=["sakai", "exact"], default="sakai",
                   help="Sakai's approximations or exact noncentral t/F (default sakai)")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..design.topic_sets import topic_set_size

    variance = variance_from_args(args, args.test)
    grid = {
        "alpha": split_list(args.alpha, float),
        "beta": split_list(args.beta, float),
        "min_diff": split_list(args.min_diff, float),
        "n_systems": split_list(args.n_systems, int),
    }
    if args.test != "anova":
        grid["n_systems"] = grid["n_systems"][:1]
    if args.test == "ci":
        grid["beta"] = grid["beta"][:1]
    sizes = topic_set_size(variance=variance, test=args.test, method=args.method, **grid)
    header = (f"topics needed: {args.test}, method {args.method}"
              + ("" if args.variance is not None else f", {variance.attrs['kind']} variance"))
    print(header)
    table = sizes.to_dataframe()["n_topics"].unstack("min_diff")
    table.columns = [f"minD={d:g}" for d in table.columns]
    drop = [lvl for lvl, v in (("beta", args.test == "ci"),
                               ("n_systems", args.test != "anova")) if v]
    table = table.reset_index(level=drop, drop=True) if drop else table
    if args.variance is None:
        table.insert(0, "variance", variance.to_series().reindex(
            table.index.droplevel([n for n in table.index.names
                                   if n not in variance.dims])).to_numpy())
    what = {"paired_t": "detect a difference of x with the paired t-test",
            "anova": "detect a range x of system means with the one-way ANOVA",
            "ci": "a confidence interval of the difference no wider than x"}[args.test]
    table.attrs["columns"] = {
        **({"variance": f"{variance.attrs['kind']} variance estimated from DATA"}
           if args.variance is None else {}),
        "minD=x": f"topics needed to {what}" + ("" if args.test == "ci" else " at power 1 − β"),
    }
    print_table(table, floatfmt="{:.5f}")
    write_table(table, args, caption=header)
    return 0
