"""Helpers shared by the notebook build scripts: cells, the notebook, its execution.

Each notebook ``<stem>.ipynb`` has a script ``build_<stem>.py`` (``<stem>`` may be shortened)
that defines ``NAME`` (the notebook's file name), ``TIMEOUT`` (seconds of execution) and
``cells()`` (the notebook's cells, unexecuted). ``python notebooks/build.py [SCRIPT ...]``
builds, executes and writes them (all by default); ``--check`` only says whether each
committed notebook still has the cells its script builds.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType

import nbformat

HERE = Path(__file__).parent
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}

md = nbformat.v4.new_markdown_cell


def code(source: str, tags: Iterable[str] = ()) -> nbformat.NotebookNode:
    """A code cell, with cell tags (e.g. ``("parameters",)``) when given."""
    cell = nbformat.v4.new_code_cell(source)
    if tags:
        cell.metadata["tags"] = list(tags)
    return cell


def notebook(cells: list[nbformat.NotebookNode]) -> nbformat.NotebookNode:
    """A notebook of ``cells`` that runs on the ``python3`` kernel."""
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    return nb


def execute(nb: nbformat.NotebookNode, timeout: int) -> nbformat.NotebookNode:
    """Execute ``nb`` in place, in this folder (where relative paths in it point)."""
    from nbclient import NotebookClient

    NotebookClient(nb, timeout=timeout, kernel_name="python3",
                   resources={"metadata": {"path": str(HERE)}}).execute()
    return nb


def full_size_cell(note: str, figures: str) -> nbformat.NotebookNode:
    """The closing "At full size" section: ``note`` on how they were recorded, then ``figures``."""
    return md(f"## At full size\n\n{note}\n{figures}\n")


def full_size_text(name: str) -> str:
    """The recorded full-size figures in ``name`` (next to this module), if recorded."""
    path = HERE / name
    return path.read_text(encoding="utf-8") if path.exists() else "(not recorded yet)"


def scripts() -> list[str]:
    """Names of the build scripts (``build_<stem>``), sorted."""
    return sorted(p.stem for p in HERE.glob("build_*.py"))


def load_script(name: str) -> ModuleType:
    """Import the build script ``name`` (``build_<stem>`` or ``<stem>``)."""
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return importlib.import_module(name if name.startswith("build_") else f"build_{name}")


def build(script: ModuleType, *, run: bool = True) -> nbformat.NotebookNode:
    """The notebook of a build script, executed unless ``run`` is false."""
    nb = notebook(script.cells())
    return execute(nb, script.TIMEOUT) if run else nb


def stale_cells(script: ModuleType) -> list[int]:
    """Positions of the cells whose type or source differ from the committed notebook's."""
    built = script.cells()
    committed = nbformat.read(HERE / script.NAME, as_version=4).cells
    differ = [k for k, (a, b) in enumerate(zip(built, committed, strict=False))
              if a.cell_type != b.cell_type or a.source != b.source]
    if len(built) != len(committed):
        differ.append(min(len(built), len(committed)))
    return differ


def main(argv: Sequence[str] | None = None) -> int:
    """``python notebooks/build.py [SCRIPT ...] [--no-execute | --check]``."""
    parser = argparse.ArgumentParser(prog="python notebooks/build.py",
                                     description="Build, execute and write the notebooks.")
    parser.add_argument("names", nargs="*", metavar="SCRIPT",
                        help=f"build scripts (default: all of {', '.join(scripts())})")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--no-execute", action="store_true", help="write without executing")
    mode.add_argument("--check", action="store_true",
                      help="compare each script's cells with its committed notebook")
    args = parser.parse_args(argv)
    failed = 0
    for name in args.names or scripts():
        script = load_script(name)
        if args.check:
            differ = stale_cells(script)
            failed += bool(differ)
            print(f"{script.NAME}: {'cells differ at ' + str(differ) if differ else 'up to date'}")
            continue
        nbformat.write(build(script, run=not args.no_execute), HERE / script.NAME)
        print(f"wrote {HERE / script.NAME}")
    return 1 if failed else 0
