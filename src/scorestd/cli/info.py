"""``scorestd info``: shape, measures, missing cells and per-measure summary."""

from __future__ import annotations

import argparse

from ..dims import MEASURE, SYSTEM, TOPIC
from ._common import (
    add_command,
    add_output_argument,
    load_data,
    print_table,
    write_table,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "info", run, help="describe a score file or bundled dataset",
                    description="Shape, measures, missing cells and a per-measure summary.")
    add_output_argument(p)


#: The title of the summary table ``info`` and ``evaluate`` print.
SUMMARY_TITLE = "each measure's scores, over every topic × system cell:"


def run(args: argparse.Namespace) -> int:
    from ..score_cube import extra_dims_of
    from ..stats.descriptive import describe

    cube = load_data(args, extra_dims=True)
    lines = {"data": args.data, **cube.attrs}
    outer = "".join(f"{cube.sizes[dim]} {dim}s × " for dim in extra_dims_of(cube))
    lines["shape"] = (f"{outer}{cube.sizes[TOPIC]} topics × {cube.sizes[SYSTEM]} systems × "
                      f"{cube.sizes[MEASURE]} measures")
    lines["measures"] = ", ".join(cube[MEASURE].values.tolist())
    lines["missing"] = f"{int(cube.isnull().sum())} of {cube.size} cells"
    width = max(len(key) for key in lines) + 2
    for key, value in lines.items():
        print(f"{key + ':':<{width}}{value}")
    print()
    summary = describe(cube)  # per slice of the extra dims, if any
    print(SUMMARY_TITLE)
    print_table(summary)  # with what each column means
    write_table(summary, args, caption=f"{args.data}: {lines['shape']}.")
    return 0
