"""Every ``scorestd …`` command shown in the documentation runs.

The commands are collected from the code blocks of ``docs/*.rst`` (``code-block`` and
``::`` literal blocks) and from the shell blocks of README.md other than its ``console``
blocks (``tests/test_readme.py`` runs those, in order). Each page's commands run one after
the other in a new folder, as a reader would type them, on the bundled data. Counts of
trials and resamples are capped (:data:`CAPS`) so that the suite stays short: the command
line, its options and its output are exercised, not the precision. A command whose comment
says ``not run by the tests`` (with the reason) is skipped and reported. The Python blocks
of the getting-started page run too.
"""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

import matplotlib
import pytest

from scorestd.cli import main

matplotlib.use("Agg")

ROOT = Path(__file__).parents[1]
#: Largest value of these options when the tests run a documented command.
CAPS = {"--trials": 40, "--trials-type2": 20, "-B": 200, "--resamples": 200, "--draws": 300,
        "--warmup": 100}
SKIP_MARK = "not run by the tests"

_RST_BLOCK = re.compile(r"(?:^\.\. code-block::[^\n]*|::)\n((?:[ \t]*\n|[ \t]+[^\n]*\n)+)",
                        flags=re.MULTILINE)
_MD_BLOCK = re.compile(r"```(\w*)\n(.*?)```", flags=re.DOTALL)


def _commands_in(lines: list[str]) -> list[str]:
    found = []
    for raw in lines:
        line = raw.strip().removeprefix("$ ")
        if "&& scorestd " in line:  # e.g. pip install . && scorestd report
            line = line[line.index("&& scorestd ") + 3:]
        if line.startswith("scorestd "):
            found.append(line)
    return found


def collect() -> dict[str, list[str]]:
    """The commands of each document, in the order they are shown."""
    pages: dict[str, list[str]] = {}
    for path in sorted((ROOT / "docs").glob("*.rst")):
        text = path.read_text(encoding="utf-8")
        lines = [line for block in _RST_BLOCK.findall(text) for line in block.splitlines()]
        if commands := _commands_in(lines):
            pages[f"docs/{path.name}"] = commands
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line for kind, block in _MD_BLOCK.findall(readme)
             if kind in ("bash", "sh", "shell") for line in block.splitlines()]
    if commands := _commands_in(lines):
        pages["README.md"] = commands
    return pages


PAGES = collect()


def _argv(command: str) -> list[str]:
    """The arguments of a command line, its comment dropped and its counts capped."""
    words = shlex.split(command, comments=True)[1:]
    for k, word in enumerate(words[:-1]):
        if word in CAPS and words[k + 1].isdigit():
            words[k + 1] = str(min(int(words[k + 1]), CAPS[word]))
    return words


_PY_BLOCK = re.compile(r"^\.\. code-block:: python\n\n((?:[ \t]*\n|[ \t]+[^\n]*\n)+)",
                       flags=re.MULTILINE)
FIRST_HOUR_PYTHON = _PY_BLOCK.findall(
    (ROOT / "docs" / "getting_started.rst").read_text(encoding="utf-8"))


@pytest.mark.parametrize("block", range(len(FIRST_HOUR_PYTHON)))
def test_getting_started_python_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code = textwrap.dedent(FIRST_HOUR_PYTHON[block])
    exec(compile(code, f"docs/getting_started.rst python block {block}", "exec"), {})


def test_commands_are_collected():
    # the pages known to show commands, so that a change of markup cannot empty the test
    assert {"docs/getting_started.rst", "docs/power.rst", "docs/data.rst",
            "docs/simulation.rst", "README.md"} <= set(PAGES)
    assert sum(map(len, PAGES.values())) >= 25
    assert FIRST_HOUR_PYTHON
    assert _argv("scorestd swap-rate x --trials 1000 -B 5  # note") == [
        "swap-rate", "x", "--trials", "40", "-B", "5"]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_documented_commands_run(page, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    skipped = []
    for command in PAGES[page]:
        if SKIP_MARK in command:
            skipped.append(command)
            continue
        code = main(_argv(command))
        captured = capsys.readouterr()
        assert code == 0, (page, command, captured.err)
        assert captured.out.strip(), (page, command)
    if skipped:
        pytest.skip(f"{page}: ran all but {skipped} (marked '{SKIP_MARK}')")
