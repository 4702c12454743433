"""The "Designing a test collection" notebook runs top to bottom and shows real numbers."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

import scorestd
from scorestd.design.power import design_variance
from scorestd.design.topic_sets import topic_set_size
from scorestd.design.variance import estimate_variance

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "designing_a_test_collection.ipynb"


def _text(nb: nbformat.NotebookNode) -> str:
    parts = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            parts.append(out.get("text", "") or out.get("data", {}).get("text/plain", ""))
    return "\n".join(parts)


@pytest.fixture(scope="module")
def executed(run_notebook):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SCORESTD_NOTEBOOK_REDUCED", "1")
        return run_notebook(NOTEBOOK.name)


@pytest.mark.slow
def test_notebook_shows_the_variances_and_topic_set_sizes(executed):
    text = _text(executed)
    rb = scorestd.datasets.load("robust2004")
    variances = estimate_variance(rb, schemes=["raw", "N", "U", "E"])
    # the pooled variance table (one collection in the reduced run), rounded to 5 places
    for scheme in ("raw", "N", "U", "E"):
        row = re.search(rf"^{scheme}\s+([0-9.]+)\s+([0-9.]+)\s*$", text, re.M)
        assert row is not None, scheme
        assert float(row.group(1)) == pytest.approx(
            variances.sel(scheme=scheme, measure="ap").item(), abs=6e-6)
    # the sentence comparing U-std and N-std for AP at minD = 0.05
    sentence = re.search(r"U-std needs (\d+) topics, N-std (\d+)", text)
    paired = topic_set_size(variance=design_variance(rb, "paired_t", schemes=["U", "N"]),
                            min_diff=0.05)
    assert int(sentence.group(1)) == paired.sel(scheme="U", measure="ap")
    assert int(sentence.group(2)) == paired.sel(scheme="N", measure="ap")
    # the CLI table repeats the numbers
    assert "scorestd topics robust2004 --schemes raw,N,U,E" in text
    u_row = re.search(r"^U\s+ap\s+0\.05\s+0\.2\s+[0-9.]+\s+(\d+)\s+(\d+)\s*$", text, re.M)
    assert int(u_row.group(1)) == paired.sel(scheme="U", measure="ap")


def test_committed_notebook_has_outputs():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("outputs") for c in code)
    assert any("image/png" in o.get("data", {}) for c in code for o in c["outputs"])
