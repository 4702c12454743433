"""One flat public API: ``scorestd.__all__`` is exactly what the docs' API pages list, and
no public name is shadowed (a module where a function is expected, or the reverse)."""

from __future__ import annotations

import importlib
import inspect
import re
import types
from pathlib import Path

import scorestd

API_PAGES = Path(__file__).parents[1] / "docs" / "api"
DIRECTIVE = re.compile(r"^\.\. auto(?:function|class|exception|data|module):: "
                       r"scorestd\.(__version__|[A-Za-z]\w*)\s*$", re.MULTILINE)


def documented_top_level_names() -> set[str]:
    names = set()
    for page in API_PAGES.glob("*.rst"):
        names.update(DIRECTIVE.findall(page.read_text(encoding="utf-8")))
    return names


def test_all_is_exactly_what_the_api_pages_list():
    documented = documented_top_level_names()
    exported = set(scorestd.__all__)
    assert not exported - documented, f"exported but not in docs/api: {exported - documented}"
    assert not documented - exported, f"in docs/api but not exported: {documented - exported}"


def test_every_exported_name_exists_and_subpackages_are_modules():
    subpackages = {"accessor", "bayes", "datasets", "design", "experiments", "io", "kernels",
                   "models", "plots", "simulation", "stats", "tables"}
    for name in scorestd.__all__:
        obj = getattr(scorestd, name)
        assert isinstance(obj, types.ModuleType) == (name in subpackages), name


def test_no_submodule_is_shadowed_by_a_function_of_its_name():
    # scorestd.<pkg>.<name> is the module when there is a module <name>.py in <pkg>
    root = Path(scorestd.__file__).parent
    for path in root.rglob("*.py"):
        if path.name == "__init__.py" or path.name.startswith("_"):
            continue
        parts = path.relative_to(root).with_suffix("").parts
        package = importlib.import_module(".".join(("scorestd", *parts[:-1])))
        if hasattr(package, parts[-1]):
            assert isinstance(getattr(package, parts[-1]), types.ModuleType), path


def test_every_public_function_has_a_docstring_with_an_example():
    for name in scorestd.__all__:
        obj = getattr(scorestd, name)
        if inspect.isfunction(obj):
            doc = inspect.getdoc(obj) or ""
            assert "Examples" in doc and ">>>" in doc, f"scorestd.{name} has no example"
