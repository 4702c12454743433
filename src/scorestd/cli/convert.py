"""``scorestd convert``: read scores in one format and write them in another."""

from __future__ import annotations

import argparse

from ._common import (
    add_command,
    add_legacy_positional_output,
    add_output_argument,
    check_output,
    load_data,
    notice,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "convert", run, help="convert between score formats",
        description="Read scores (CSV matrix, long CSV, netCDF, trec_eval -q files, bundled "
                    "dataset) and write them as netCDF (.nc), long CSV (.csv) or a "
                    "topic-by-system matrix (--to matrix).")
    add_output_argument(p, metavar="FILE", help="score file to write (required): .nc "
                        "netCDF, .csv/.tsv long CSV, .parquet, or a matrix with --to matrix")
    add_legacy_positional_output(p)
    p.add_argument("--to", choices=("netcdf", "long", "matrix", "parquet"),
                   help="output format (default: from the suffix: .nc netCDF, .csv/.tsv long "
                        "CSV, .parquet a long table; any other suffix is an error)")


def run(args: argparse.Namespace) -> int:
    from ..io import output_format, save

    output_format(args.output, args.to)  # an unknown suffix stops here, before reading
    check_output(args.output)
    cube = load_data(args, extra_dims=True)
    out = save(cube, args.output, format=args.to, measure=args.measure)
    outer = "".join(f"{cube.sizes[dim]} {dim}s, " for dim in cube.dims[:-3])
    notice(f"wrote {out} ({outer}{cube.sizes['topic']} topics, {cube.sizes['system']} systems, "
          f"{cube.sizes['measure']} measures)")
    return 0
