"""``scorestd discriminative-power``: fraction of system pairs significant at α."""

from __future__ import annotations

import argparse

from ..experiments.discrimination import discriminative_power
from ._common import add_command, load_data, print_table, split_list, write_figure


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "discriminative-power", run, help="fraction of system pairs significant, per scheme",
        description="Discriminative power (Sakai): a significance test on every pair of "
                    "systems, per measure and scoring scheme; prints the fraction of pairs "
                    "with p < α and optionally writes the ASL curves.")
    p.add_argument("--test", choices=["paired_t", "randomised_tukey"], default="paired_t",
                   help="paired t-tests or randomised Tukey HSD (default paired_t)")
    p.add_argument("--schemes", default="raw", help="comma-separated schemes, e.g. raw,N,U,E")
    p.add_argument("--alpha", default="0.01,0.05,0.1", help="α levels (default 0.01,0.05,0.1)")
    p.add_argument("--B", type=int, default=1000, help="permutations of randomised Tukey HSD")
    p.add_argument("--seed", type=int, default=0, help="seed of randomised Tukey HSD")
    p.add_argument("--out", "-o", help="write the ASL curves to this file")


def run(args: argparse.Namespace) -> int:
    result = discriminative_power(load_data(args), test=args.test,
                                  schemes=split_list(args.schemes),
                                  alphas=split_list(args.alpha, float), B=args.B, seed=args.seed)
    print(f"discriminative power: {result.data.attrs['data']}, {args.test}, "
          f"{result.data.sizes['pair']} system pairs")
    print_table(result.summary())
    write_figure(result, args.out)
    return 0
