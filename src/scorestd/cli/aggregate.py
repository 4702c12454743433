"""``scorestd aggregate``: aggregate scores over topics and rank the systems."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import AggregationMethod, TieRule, ZeroPolicy
from ..dims import MEASURE, SYSTEM
from ..errors import ScorestdError
from ._common import (
    add_command,
    add_output_argument,
    load_data,
    print_table,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "aggregate", run, help="system scores and ranks by AM, GM, εGM, HM, εHM or median",
        description="Aggregate per-topic scores into one score per system (Ravana & Moffat "
                    "2009) and rank the systems, best first.")
    p.add_argument("--method", choices=get_args(AggregationMethod), default="am",
                   help="aggregation (default: am; egm is exp(mean(log(x+eps)))-eps, "
                        "gm_trec_eval is exp(mean(log(max(x,eps)))))")
    p.add_argument("--eps", type=float,
                   help="epsilon of egm/ehm (default 0.01) and gm_trec_eval (default 1e-5)")
    p.add_argument("--skipna", action="store_true",
                   help="aggregate the present scores of a system with missing topics "
                        "(default: its aggregate is missing)")
    p.add_argument("--zeros", choices=get_args(ZeroPolicy), default="raise",
                   help="hm with a zero score: error (default) or a missing aggregate")
    p.add_argument("--ties", choices=get_args(TieRule), default="min",
                   help="ranks of tied systems (default: min, i.e. 1, 2, 2, 4)")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    import pandas as pd

    from ..kernels.aggregate import DEFAULT_EPS
    from ..stats.aggregation import aggregate, rank_systems

    if args.eps is not None and args.method not in DEFAULT_EPS:
        raise ScorestdError(f"--eps is used only by {', '.join(sorted(DEFAULT_EPS))}")
    cube = load_data(args)
    scores = aggregate(cube, args.method, eps=args.eps, skipna=args.skipna, zeros=args.zeros)
    ranks = rank_systems(scores, ties=args.ties)
    columns = {}
    for measure in scores[MEASURE].values.tolist():
        columns[measure] = scores.sel({MEASURE: measure}).to_series()
        rank = ranks.sel({MEASURE: measure}).to_series()
        whole = bool((rank.dropna() % 1 == 0).all())  # all but "average" ties
        columns[f"{measure} rank"] = rank.astype("Int64") if whole else rank
    table = pd.DataFrame(columns)
    table.index.name = SYSTEM
    table.attrs["columns"] = {"<measure>": scores.attrs["description"],
                              "<measure> rank": f"rank by it, 1 = best (ties: {args.ties})"}
    first_rank = table.columns[1]
    table = table.sort_values(first_rank, kind="stable", na_position="last")
    eps = f", eps={scores.attrs['eps']:g}" if "eps" in scores.attrs else ""
    header = (f"{args.method}{eps} over {cube.sizes['topic']} topics; "
              f"skipna={args.skipna}, ties={args.ties}; sorted by {first_rank}")
    print(header)
    print_table(table)
    write_table(table, args, caption=header)
    return 0
