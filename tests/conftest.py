"""Shared fixtures: the bundled data, small synthetic cubes and the reference values."""

from __future__ import annotations

import json
import os
from pathlib import Path

import matplotlib
import nbformat
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, settings
from nbclient import NotebookClient

import scorestd

matplotlib.use("Agg")

# The scripts beside the reference values (tests/results/) made those values once, by hand:
# they are records, not tests, and importing one would rerun it (and write its files).
collect_ignore_glob = ["results/*.py", "results/*/*.py"]

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=100, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def robust2004():
    """The bundled robust2004 cube (99 topics × 110 systems × ap, ndcg)."""
    return scorestd.datasets.load("robust2004")


@pytest.fixture(scope="session")
def adhoc8_ap():
    """The bundled TREC-8 ad hoc AP cube (50 topics × 129 systems)."""
    return scorestd.datasets.load("adhoc8_ap")


@pytest.fixture
def small_cube():
    """A reproducible 12-topic × 6-system × 2-measure cube of scores in (0, 1)."""
    rng = np.random.default_rng(20190721)
    values = rng.beta(2.0, 5.0, size=(12, 6, 2))
    return scorestd.cube(values, measures=["ap", "ndcg"], attrs={"collection": "synthetic"})


RESULTS = Path(__file__).parent / "results"


@pytest.fixture(scope="session")
def reference():
    """A function loading the external reference values ``tests/results/<name>``.

    ``<name>.csv`` gives a pandas DataFrame (an empty cell is NaN), ``<name>.json`` a dict.
    Where each file comes from: tests/results/README.md.
    """

    def load(name: str) -> pd.DataFrame | dict:
        path = RESULTS / f"{name}.csv"
        if path.exists():
            return pd.read_csv(path)
        return json.loads((RESULTS / f"{name}.json").read_text(encoding="utf-8"))

    return load


NOTEBOOKS = Path(__file__).parents[1] / "notebooks"


@pytest.fixture(scope="session")
def run_notebook():
    """A function that executes ``notebooks/<name>`` with nbclient and returns it, outputs included.

    ``parameters`` replaces the source of the parameters cell (the cell tagged
    ``parameters``, or the first code cell containing ``marker``), to run at reduced size;
    ``path`` is the working directory of the kernel (default: ``notebooks/``).
    """

    def run(name: str, *, parameters: str | None = None, marker: str | None = None,
            path: Path = NOTEBOOKS) -> nbformat.NotebookNode:
        nb = nbformat.read(NOTEBOOKS / name, as_version=4)
        code = [cell for cell in nb.cells if cell.cell_type == "code"]
        for cell in code:
            cell.outputs = []
        if parameters is not None:
            next(cell for cell in code
                 if (marker in cell.source if marker
                     else "parameters" in cell.metadata.get("tags", []))).source = parameters
        NotebookClient(nb, timeout=600, kernel_name="python3",
                       resources={"metadata": {"path": str(path)}}).execute()
        return nb

    return run


@pytest.fixture(params=["numpy", "dask"])
def backend(request):
    """The array backends of the labelled layer: a function putting a cube on one of them.

    ``"dask"`` chunks the cube one measure per chunk (the dims the labelled functions work
    along stay whole, as ``xr.apply_ufunc(..., dask="parallelized")`` needs).
    """
    if request.param == "numpy":
        return lambda cube: cube
    return lambda cube: cube.chunk({"measure": 1})
