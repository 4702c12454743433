"""``scorestd evaluate``: TREC runs + qrels → a score cube, through ir_measures."""

from __future__ import annotations

import argparse
import sys
from typing import get_args

from .._options import MissingRun
from ..errors import ScorestdError
from ._common import (
    add_command,
    add_output_argument,
    notice,
    print_table,
    split_list,
    write_table,
)
from ._selection import add_systems_argument, select_systems
from .info import SUMMARY_TITLE


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
    p.add_argument("--missing", choices=get_args(MissingRun), default="zero",
                   help="a qrels topic a run retrieved nothing for: 0, as trec_eval -c "
                        "(default), or a missing score")
    p.add_argument("--collection", help="collection name stored with the scores")
    p.add_argument("--strict", action="store_true",
                   help="stop on scores outside their measure's range (default: warn)")
    add_systems_argument(p)
    add_output_argument(p, metavar="FILE", help="score file to write (required): .nc "
                        "(netCDF), .csv/.tsv (long), .parquet; the printed summary is what "
                        "scorestd info FILE --output TABLE writes")
    p.add_argument("--out", dest="legacy_out", help=argparse.SUPPRESS)
    p.set_defaults(resolve_outputs=_earlier_outputs)


def run(args: argparse.Namespace) -> int:
    from ..io import evaluate, save
    from ..stats.descriptive import describe

    runs = args.runs[0] if len(args.runs) == 1 else args.runs
    cube = evaluate(args.qrels, runs, split_list(args.measures), missing=args.missing,
                    collection=args.collection, strict=args.strict)
    cube = select_systems(cube, args.systems)
    out = save(cube, args.output)
    notice(f"wrote {out} ({cube.sizes['topic']} topics, {cube.sizes['system']} runs, "
           f"{cube.sizes['measure']} measures)")
    summary = describe(cube)
    print(SUMMARY_TITLE)
    print_table(summary)
    if args.table_output:
        write_table(summary, argparse.Namespace(output=args.table_output),
                    caption=f"Scores of {cube.sizes['system']} runs on "
                            f"{cube.sizes['topic']} topics ({args.qrels}).")
    return 0


def _earlier_outputs(args: argparse.Namespace) -> None:
    """``--out SCORES`` of earlier releases, where ``--output`` was the summary table."""
    args.table_output = None
    if args.legacy_out is not None:
        print(f"scorestd: --out is deprecated; use --output {args.legacy_out}",
              file=sys.stderr)
        if args.output is not None:
            print(f"scorestd: with --out, --output {args.output} is read as the summary "
                  f"table, as in earlier releases; write it with scorestd info "
                  f"{args.legacy_out} --output {args.output}", file=sys.stderr)
        args.output, args.table_output = args.legacy_out, args.output
    if args.output is None:
        raise ScorestdError("the score file is required: --output FILE (-o FILE)")
