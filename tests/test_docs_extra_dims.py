"""The examples of docs/extra_dims.rst run as written (in a fresh folder)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from scorestd.cli import main

PAGE = (Path(__file__).parents[1] / "docs" / "extra_dims.rst").read_text(encoding="utf-8")


def _blocks(language: str) -> list[str]:
    pattern = rf"\.\. code-block:: {language}\n\n((?:   .*\n|\n)+)"
    return [re.sub(r"^   ", "", block, flags=re.MULTILINE)
            for block in re.findall(pattern, PAGE)]


def test_the_python_example_runs_and_its_claim_holds():
    (code,) = _blocks("python")
    namespace: dict = {}
    exec(code.replace("trials=100", "trials=10"), namespace)  # trial 7 is shown
    sims, tests = namespace["sims"], namespace["tests"]
    assert namespace["means"].dims == ("trial", "system", "measure")
    import scorestd

    one = scorestd.compare(sims.sel(trial=3, drop=True), baseline="run1")
    assert (tests.p_value.sel(trial=3, drop=True) == one.p_value).all()


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
def test_the_console_examples_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    commands = [line[2:] for block in _blocks("console") for line in block.splitlines()
                if line.startswith("$ ")]
    assert len(commands) == 7
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "scorestd"
        assert main(argv[1:]) == 0, (command, capsys.readouterr().err)
    assert (tmp_path / "sims.nc").exists() and (tmp_path / "estd.png").exists()
