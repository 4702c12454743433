"""``scorestd swap-rate``: smallest difference with a swap rate below 5%, per n and scheme."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_figure_argument,
    add_output_argument,
    check_figure_path,
    load_data,
    print_table,
    split_list,
    write_figure,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "swap-rate", run, help="swap rates between disjoint topic sets (Voorhees & Buckley; Sakai)",
        description="Split the topics into two disjoint sets of n topics many times, bin "
                    "system pairs by their difference in mean score on the first set and "
                    "count how often the second set orders them the other way; prints the "
                    "smallest difference with a swap rate below the threshold for each n.")
    p.add_argument("--schemes", default="raw", help="comma-separated schemes, e.g. raw,N,U,E")
    p.add_argument("--sizes", help="comma-separated topic set sizes (default 5, 10, … T/2)")
    p.add_argument("--trials", type=int, default=1000, help="number of trials (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--bin-width", type=float, default=0.01, help="bin width (default 0.01)")
    p.add_argument("--threshold", type=float, default=0.05, help="swap rate bound (default 0.05)")
    add_figure_argument(p, help="write the swap-rate curves to this figure file (.png, .pdf, .svg)")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..experiments.swap_rates import swap_rate

    check_figure_path(args.figure)
    result = swap_rate(load_data(args), schemes=split_list(args.schemes),
                       sizes=split_list(args.sizes, int), trials=args.trials, seed=args.seed,
                       bin_width=args.bin_width, threshold=args.threshold)
    attrs = result.data.attrs
    print(f"swap rate: {attrs['data']} {attrs['measure']}, {args.trials} trials, seed "
          f"{args.seed}; smallest difference with swap rate < {args.threshold:g}")
    print_table(result.summary())
    write_table(result, args)
    write_figure(result, args.figure)
    return 0
