"""``scorestd discriminative-power``: fraction of system pairs significant at α."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_figure_argument,
    add_output_argument,
    add_resamples_argument,
    add_test_argument,
    check_figure_path,
    load_data,
    print_table,
    split_list,
    write_figure,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "discriminative-power", run, help="fraction of system pairs significant, per scheme",
        description="Discriminative power (Sakai): a significance test on every pair of "
                    "systems, per measure and scoring scheme; prints the fraction of pairs "
                    "with p < α and optionally writes the ASL curves.")
    add_test_argument(p, help="the paired test of every pair")
    p.add_argument("--schemes", default="raw", help="comma-separated schemes, e.g. raw,N,U,E")
    p.add_argument("--alpha", default="0.01,0.05,0.1", help="α levels (default 0.01,0.05,0.1)")
    add_resamples_argument(p, default=1000, help="resamples of the resampling tests")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the resampling tests (default: 0)")
    add_figure_argument(p, help="write the ASL curves to this figure file (.png, .pdf, .svg)")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..experiments.discrimination import discriminative_power

    check_figure_path(args.figure)
    result = discriminative_power(load_data(args), test=args.test,
                                  schemes=split_list(args.schemes),
                                  alphas=split_list(args.alpha, float), B=args.B, seed=args.seed)
    attrs = result.data.attrs
    print(f"discriminative power of the {args.test} test: {attrs['n_systems']} systems "
          f"({result.data.sizes['pair']} pairs), {attrs['n_topics']} topics; "
          f"data: {attrs['data']}")
    print_table(result.summary())
    write_table(result, args)
    write_figure(result, args.figure)
    return 0
