"""``scorestd datasets``: list the bundled collections."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from ..errors import ScorestdError
from ._common import add_command, print_table


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "datasets", run, help="list the bundled TREC collections",
                    description="List the bundled TREC score collections.", data=False)
    p.add_argument("--attribution", action="store_true",
                   help="print the data's attribution and licence instead")
    p.add_argument("--copy-examples", metavar="DIR", nargs="?", const="examples",
                   help="copy the example files (a folder of trec_eval -q outputs, TREC runs "
                        "and qrels) into DIR (default: ./examples), to try the commands on")


def run(args: argparse.Namespace) -> int:
    from ..datasets import LICENSE, SOURCES, attribution
    from ..datasets import list as list_datasets

    if args.attribution:
        print(attribution())
        return 0
    if args.copy_examples is not None:
        return _copy_examples(Path(args.copy_examples))
    print_table(list_datasets().drop(columns="source").set_index("collection"))
    print("\nSources: " + "; ".join(sorted(SOURCES.values())))
    print(f"Licence: {LICENSE} (scorestd datasets --attribution)")
    return 0


def _copy_examples(target: Path) -> int:
    from ..datasets import example_path

    source = example_path("trec_eval").parent
    if target.exists() and any(target.iterdir()):
        raise ScorestdError(f"{target} exists and is not empty; give another folder")
    shutil.copytree(source, target, dirs_exist_ok=True)
    print(f"copied the example files to {target}: "
          f"{', '.join(sorted(p.name for p in target.iterdir()))}")
    return 0
