"""``scorestd convert``: read scores in one format and write them in another."""

from __future__ import annotations

import argparse

from ..io import save
from ._common import add_data_argument, load_data


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="convert between score formats",
        description="Read scores (CSV matrix, long CSV, netCDF, trec_eval -q files, bundled "
                    "dataset) and write them as netCDF (.nc), long CSV (.csv) or a "
                    "topic-by-system matrix (--to matrix).")
    add_data_argument(p)
    p.add_argument("output", metavar="OUT", help="output file")
    p.add_argument("--to", choices=("netcdf", "long", "matrix"),
                   help="output format (default: from the suffix; .nc netCDF, else long CSV)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cube = load_data(args)
    out = save(cube, args.output, format=args.to, measure=args.measure)
    print(f"wrote {out} ({cube.sizes['topic']} topics, {cube.sizes['system']} systems, "
          f"{cube.sizes['measure']} measures)")
    return 0
