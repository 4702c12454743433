"""The documentation builds with every cross-reference resolved, and its command-line
reference is the parsers' own."""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from scorestd.cli import build_parser

DOCS = Path(__file__).parents[1] / "docs"
pytest.importorskip("sphinx", reason="the docs extra (pip install '.[docs]') builds the docs")


def _extension():
    spec = importlib.util.spec_from_file_location("scorestd_docs",
                                                  DOCS / "_ext" / "scorestd_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_signatures_print_plain_numbers():
    ext = _extension()
    sig, _ = ext.plain_numbers(None, "function", "f", None, None,
                               "(deltas=(np.float64(0.01), np.float64(0.1)), n=np.int64(3))",
                               None)
    assert sig == "(deltas=(0.01, 0.1), n=3)"


def test_only_real_objects_become_unlinked_code():
    ext = _extension()
    assert ext._exists("scorestd.experiments.engine.TrialDraws")
    assert ext._exists("scorestd.models")
    assert not ext._exists("scorestd.experiments.engine.no_such_helper")
    assert not ext._exists("scorestd.no_such_module.thing")


@pytest.mark.slow
def test_docs_build_with_every_reference_resolved(tmp_path):
    # the dummy builder reads every page and docstring and resolves every reference
    # (nitpicky, in conf.py), without writing HTML
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "dummy",
         str(DOCS), str(tmp_path)],
        capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]


def test_cli_reference_lists_every_command_and_option():
    ext = _extension()
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        shown = "\n".join(line for action in command._actions
                          for line in ext._option_lines(action))
        for action in command._actions:
            if action.help == argparse.SUPPRESS:
                continue
            for flag in action.option_strings:
                assert flag in shown, (name, flag)
