"""``scorestd info``: shape, measures, missing cells and per-measure summary."""

from __future__ import annotations

import argparse

from ..describe import describe
from ..dims import MEASURE, SYSTEM, TOPIC
from ._common import add_data_argument, load_data, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("info", help="describe a score file or bundled dataset",
                       description="Shape, measures, missing cells and a per-measure summary.")
    add_data_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cube = load_data(args)
    print(f"data:     {args.data}")
    for key, value in cube.attrs.items():
        print(f"{key + ':':<9} {value}")
    print(f"shape:    {cube.sizes[TOPIC]} topics × {cube.sizes[SYSTEM]} systems × "
          f"{cube.sizes[MEASURE]} measures")
    print(f"measures: {', '.join(cube[MEASURE].values.tolist())}")
    missing = int(cube.isnull().sum())
    print(f"missing:  {missing} of {cube.size} cells")
    print()
    print_table(describe(cube))
    return 0
