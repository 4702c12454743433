"""The README runs as written: its Python blocks execute and its command lines exit 0.

The command lines run one after the other in a new folder, as a reader would type them
(one of them copies the package's example files there).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import matplotlib
import pytest

import scorestd
from scorestd.cli import main

matplotlib.use("Agg")

README = Path(__file__).parents[1] / "README.md"
TEXT = README.read_text(encoding="utf-8")
PYTHON_BLOCKS = re.findall(r"```python\n(.*?)```", TEXT, flags=re.DOTALL)
CONSOLE_LINES = [re.split(r"\s+# ", line[2:])[0].strip()
                 for block in re.findall(r"```console\n(.*?)```", TEXT, flags=re.DOTALL)
                 for line in block.splitlines() if line.startswith("$ ")]


def test_the_readme_has_a_tour_and_command_lines():
    assert PYTHON_BLOCKS and len(CONSOLE_LINES) >= 5
    assert all(line.startswith("scorestd ") for line in CONSOLE_LINES)


@pytest.mark.parametrize("block", range(len(PYTHON_BLOCKS)))
def test_python_block_runs(block, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    exec(compile(PYTHON_BLOCKS[block], f"README.md block {block}", "exec"), {})


def test_command_lines_run_in_order_in_a_new_folder(tmp_path, monkeypatch, capsys):
    # as a reader would: one folder, the lines one after the other (the second copies the
    # example files the later ones read)
    monkeypatch.chdir(tmp_path)
    for line in CONSOLE_LINES:
        assert main(shlex.split(line)[1:]) == 0, (line, capsys.readouterr().err)
        assert capsys.readouterr().out.strip(), line


def test_readme_examples_path_is_the_package_folder():
    assert (scorestd.datasets.example_path("trec_eval").parent / "runs").is_dir()
    assert os.path.basename(scorestd.datasets.example_path("qrels")) == "qrels.txt"
