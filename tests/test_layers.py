"""Imports only go down: no module below the front ends imports one of them.

The front ends (``tables``, ``plots``, ``cli``, the accessor) draw, print and parse by
delegating to the layers below; a result's own ``plot()`` or ``summary()`` therefore draws
with code of its own layer (e.g. ``experiments/_error_rate_figures.py``, which
``plots/error_rates.py`` exports), never by importing a front end. Imports inside
functions count too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import scorestd

ROOT = Path(scorestd.__file__).parent
FRONT_ENDS = {"tables", "plots", "cli", "accessor"}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import of the package in ``path``, as
    ``"plots.error_rates"`` (relative to the package root)."""
    package = list(path.relative_to(ROOT).parent.parts)
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[: len(package) - (node.level - 1)]
            names = ([node.module] if node.module
                     else [alias.name for alias in node.names])
            found += [(node.lineno, ".".join([*base, name])) for name in names]
        elif isinstance(node, ast.ImportFrom | ast.Import):
            names = [node.module] if isinstance(node, ast.ImportFrom) else [
                alias.name for alias in node.names]
            found += [(node.lineno, name.removeprefix("scorestd.")) for name in names
                      if name and name.startswith("scorestd.")]
    return found


def test_no_module_below_the_front_ends_imports_one():
    wrong = []
    for path in sorted(ROOT.rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[0] in FRONT_ENDS or parts in (("__init__",), ("__main__",)):
            continue  # the root names its subpackages; __main__ runs the command line
        wrong += [f"{path.relative_to(ROOT)}:{line} imports {module}"
                  for line, module in imported_modules(path)
                  if module.split(".")[0] in FRONT_ENDS]
    assert not wrong, wrong


def test_the_check_sees_imports_inside_functions():
    # cli/experiment.py imports this inside run(), plots/error_rates.py at its top
    inside = [m for _, m in imported_modules(ROOT / "cli" / "experiment.py")]
    assert "experiments._common" in inside
    top = [m for _, m in imported_modules(ROOT / "plots" / "error_rates.py")]
    assert "experiments._error_rate_figures" in top and "_options" in top
