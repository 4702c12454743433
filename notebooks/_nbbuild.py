"""Helpers shared by the notebook build scripts: cells, the notebook, its execution.

The build scripts import this module as ``_nbbuild`` (they run as
``python notebooks/build_<name>.py``, which puts this folder on ``sys.path``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

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
