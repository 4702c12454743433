"""``scorestd evaluate``: TREC runs + qrels → a score cube, through ir_measures."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import MissingRun
from ._common import (
    add_command,
    add_output_argument,
    notice,
    print_table,
    split_list,
    write_table,
)
from ._selection import add_systems_argument, select_systems


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "evaluate", run, help="evaluate TREC runs against qrels into a score file",
        description="Score TREC run files (topic Q0 docid rank score tag) against a qrels "
                    "file with ir_measures (trec_eval's own code for AP, P@k, nDCG@k …; "
                    "needs pip install \"scorestd[eval]\"), print a per-measure summary and "
                    "write the per-topic scores for every other command.", data=False)
    p.add_argument("qrels", metavar="QRELS", help="TREC qrels file (topic 0 docid relevance)")
    p.add_argument("runs", metavar="RUNS", nargs="+",
                   help="run files, or directories of them (a run is named by its tag)")
    p.add_argument("--measures", "-m", required=True, metavar="LIST",
                   help="comma-separated ir_measures names, e.g. AP,nDCG@20,P@10,RR")
    p.add_argument("--out", "-o", required=True,
                   help="score file to write: .nc (netCDF), .csv/.tsv (long), .parquet")
    p.add_argument("--missing", choices=get_args(MissingRun), default="zero",
                   help="a qrels topic a run retrieved nothing for: 0, as trec_eval -c "
                        "(default), or a missing score")
    p.add_argument("--collection", help="collection name stored with the scores")
    p.add_argument("--strict", action="store_true",
                   help="stop on scores outside their measure's range (default: warn)")
    add_systems_argument(p)
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..io import evaluate, save
    from ..stats.descriptive import describe

    runs = args.runs[0] if len(args.runs) == 1 else args.runs
    cube = evaluate(args.qrels, runs, split_list(args.measures), missing=args.missing,
                    collection=args.collection, strict=args.strict)
    cube = select_systems(cube, args.systems)
    out = save(cube, args.out)
    notice(f"wrote {out} ({cube.sizes['topic']} topics, {cube.sizes['system']} runs, "
           f"{cube.sizes['measure']} measures)")
    summary = describe(cube)
    print_table(summary)
    write_table(summary, args, caption=f"Scores of {cube.sizes['system']} runs on "
                                       f"{cube.sizes['topic']} topics ({args.qrels}).")
    return 0
