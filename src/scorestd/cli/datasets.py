"""``scorestd datasets``: list the bundled collections."""

from __future__ import annotations

import argparse

from ._common import add_command, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "datasets", run, help="list the bundled TREC collections",
                    description="List the bundled TREC score collections.", data=False)
    p.add_argument("--attribution", action="store_true",
                   help="print the data's attribution and licence instead")


def run(args: argparse.Namespace) -> int:
    from ..datasets import LICENSE, SOURCES, attribution
    from ..datasets import list as list_datasets

    if args.attribution:
        print(attribution())
        return 0
    print_table(list_datasets().drop(columns="source").set_index("collection"))
    print("\nSources: " + "; ".join(sorted(SOURCES.values())))
    print(f"Licence: {LICENSE} (scorestd datasets --attribution)")
    return 0
