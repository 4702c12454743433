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
    first, per_slice = _blocks("python")
    namespace: dict = {}
    exec(first.replace("trials=100", "trials=10"), namespace)  # trial 7 is shown
    sims, tests = namespace["sims"], namespace["tests"]
    assert namespace["means"].dims == ("trial", "system", "measure")
    import scorestd

    one = scorestd.compare(sims.sel(trial=3, drop=True), baseline="run1")
    assert (tests.p_value.sel(trial=3, drop=True) == one.p_value).all()
    # one object per slice: a PerSlice, by label and by dim name, tabulated per trial
    exec(per_slice.replace("trials=20", "trials=4"), namespace)
    fits, power = namespace["fits"], namespace["power"]
    assert isinstance(fits, scorestd.PerSlice) and fits.dims == ("trial",)
    assert fits[3] is fits.sel(trial=3) and len(fits) == 4
    assert repr(fits).startswith("PerSlice of fit_simulator over trial (4 slices):")
    assert scorestd.table(power).values.index.names[0] == "trial"


@pytest.mark.filterwarnings("ignore::scorestd.ScorestdWarning")
def test_the_console_examples_run(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    commands = [line[2:] for block in _blocks("console") for line in block.splitlines()
                if line.startswith("$ ")]
    assert len(commands) == 8
    for command in commands:
        argv = shlex.split(command)
        assert argv[0] == "scorestd"
        assert main(argv[1:]) == 0, (command, capsys.readouterr().err)
    assert (tmp_path / "sims.nc").exists() and (tmp_path / "estd.png").exists()
    assert "significant" in (tmp_path / "across.md").read_text()  # compare over the trials
