"""The significance notebook executes on the bundled data and shows checked values."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import scorestd

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "significance.ipynb"


def outputs_text(nb) -> str:
    return "\n".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                     for out in cell.outputs)


def check_values(text: str) -> None:
    ap = scorestd.datasets.load("robust2004").sel(measure="ap")
    first = ap.isel(topic=slice(0, 50)).mean("topic").values
    second = ap.isel(topic=slice(50, 99)).mean("topic").values
    tau = float(re.search(r"tau_b halves = ([-0-9.]+)", text).group(1))
    # Reference: scipy's Kendall tau_b of the two halves' system means.
    assert tau == pytest.approx(stats.kendalltau(first, second).statistic, abs=1e-4)
    x = ap.transpose("topic", "system").values
    i, j = np.triu_indices(x.shape[1], k=1)
    # Reference: scipy's paired t-tests (vectorised over pairs) and statsmodels' Holm.
    p = stats.ttest_rel(x[:, i], x[:, j], axis=0).pvalue
    holm = int((multipletests(p, method="holm")[1] < 0.05).sum())
    assert int(re.search(r"significant t holm = (\d+)", text).group(1)) == holm
    assert int(re.search(r"significant t raw = (\d+)", text).group(1)) == int((p < 0.05).sum())


@pytest.mark.slow
def test_notebook_runs_and_reports_checked_values(run_notebook, tmp_path):
    nb = run_notebook(NOTEBOOK.name, parameters="QUICK = True",  # the reduced size
                      marker="QUICK =", path=tmp_path)
    check_values(outputs_text(nb))
    assert any(out.get("output_type") == "display_data" and "image/png" in out.get("data", {})
               for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs)


def test_committed_notebook_is_executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert all(c.execution_count is not None for c in nb.cells if c.cell_type == "code")
    check_values(outputs_text(nb))
