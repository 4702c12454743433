"""``scorestd leave-one-out``: how standardization treats a run left out of the reference."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_output_argument,
    load_data,
    print_table,
    split_list,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "leave-one-out", run, help="re-standardize each run (or group) against the others",
        description="Leave each run, or each group of runs, out of the standardization "
                    "reference, standardize it against the others and compare its mean and "
                    "rank with standardizing against all runs (Sakai 2016).")
    p.add_argument("--schemes", default="N,U,E", help="comma-separated schemes (default N,U,E)")
    p.add_argument("--groups", help="CSV file of run,group lines (e.g. run → team)")
    p.add_argument("--per-run", action="store_true", help="also print every run's changes")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..experiments.leave_out import leave_one_out
    from ..io.groups import read_groups

    groups = read_groups(args.groups) if args.groups else None
    result = leave_one_out(load_data(args), schemes=split_list(args.schemes), groups=groups)
    print(f"leave-one-out: {result.data.attrs['data']}, {result.data.attrs['n_groups']} "
          f"groups of {result.data.attrs['n_systems']} runs")
    print_table(result.summary())
    write_table(result, args)
    if args.per_run:
        frame = result.data[["mean_all", "mean_loo", "change", "rank_all", "rank_loo"]]
        print()
        print_table(frame.to_dataframe().drop(columns="group"))
    return 0
