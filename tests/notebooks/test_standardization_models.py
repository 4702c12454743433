"""The standardization-models notebook executes on the bundled data and shows real values."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from scipy import stats

import scorestd

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "standardization_models.ipynb"


@pytest.mark.slow
def test_notebook_runs_and_reports_checked_values(run_notebook, tmp_path):
    nb = run_notebook(NOTEBOOK.name, parameters="QUICK = True",  # the reduced size
                      marker="QUICK =", path=tmp_path)
    text = "\n".join(
        out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
        for out in cell.outputs)
    tau = float(re.search(r"tau robust2004 ap normal = ([0-9.]+)", text).group(1))
    ap = scorestd.datasets.load("robust2004").sel(measure="ap")
    raw = ap.mean("topic").values
    normal = scorestd.standardize(ap, "normal").mean("topic").values
    # Reference: scipy's tau_b between the raw and N-std system means.
    assert tau == pytest.approx(stats.kendalltau(normal, raw).statistic, abs=1e-6)
    wins = int(re.search(r"wins_aic robust2004 ap truncnorm = (\d+)", text).group(1))
    comparison = scorestd.goodness_of_fit(scorestd.datasets.load("robust2004"))
    assert wins == int(comparison.wins("aic").sel(model="truncnorm", measure="ap"))
    assert any(out.get("output_type") == "display_data" and "image/png" in out.get("data", {})
               for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs)


def test_committed_notebook_is_executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code)
    assert "tau robust2004 ap normal = 0.95" in "".join(
        out.get("text", "") for out in code[-1].outputs)
