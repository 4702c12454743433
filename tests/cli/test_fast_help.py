"""``scorestd --help`` answers without the heavy libraries; ``import scorestd`` is light."""

from __future__ import annotations

import subprocess
import sys

import pytest

import scorestd
from scorestd._options import BUILTIN_MODELS
from scorestd.cli import COMMANDS

HEAVY = ("numpy", "pandas", "xarray", "scipy", "matplotlib", "numba")


def _imported_after(code: str) -> list[str]:
    probe = (f"import sys\n{code}\n"
             f"print('MODULES:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    listed = done.stdout.rsplit("MODULES:", 1)[1].strip()
    return [m for m in listed.split(",") if m]


def test_building_the_parser_imports_no_heavy_library():
    assert _imported_after("from scorestd.cli import build_parser\nbuild_parser()") == []


@pytest.mark.parametrize("command", ["", "compare", "standardize", "experiment"])
def test_help_imports_no_heavy_library(command):
    code = ("from scorestd.cli import main\ntry:\n    main([" + (f"{command!r}, " if command
                                                               else "") + "'--help'])\n"
            "except SystemExit:\n    pass")
    assert _imported_after(code) == []


def test_import_scorestd_is_light_and_the_accessor_follows_xarray():
    assert _imported_after("import scorestd") == []
    code = ("import scorestd\nimport xarray as xr\n"
            "da = xr.DataArray([[0.5, 0.25]], dims=('topic', 'system'),"
            " coords={'topic': ['q1'], 'system': ['a', 'b']})\n"
            "assert da.scorestd.aggregate().values.tolist() == [0.5, 0.25]")
    assert "xarray" in _imported_after(code)


def test_numba_is_loaded_only_by_the_compiled_loops_when_they_run():
    # the error-rate study, the simulation and the bounded Bayesian samplers import their
    # kernels without numba ...
    code = ("import scorestd.experiments.significance_errors, scorestd.models._grid, "
            "scorestd.bayes.bounded")
    assert "numba" not in _imported_after(code)
    # ... which loads it at the first compiled count
    code = ("import numpy as np\nfrom scorestd.kernels.paired_decisions import paired_decisions\n"
            "paired_decisions(np.array([[0.1, 0.2, -0.05]]), [0.05], ['permutation'], seed=1)")
    assert "numba" in _imported_after(code)


def test_every_command_is_listed_and_the_builtin_models_are_the_registry():
    assert set(BUILTIN_MODELS) <= set(scorestd.model_names())
    assert list(BUILTIN_MODELS) == scorestd.model_names()[:len(BUILTIN_MODELS)]
    assert len(COMMANDS) == len(set(COMMANDS))


def test_report_default_data_is_the_plots_default():
    from scorestd.cli.report import DEFAULT_DATA
    from scorestd.plots.report import DEFAULT_DATA as PLOTS_DEFAULT

    assert DEFAULT_DATA == PLOTS_DEFAULT
