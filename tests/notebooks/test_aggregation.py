"""notebooks/aggregation.ipynb runs top to bottom and reproduces Table 3(c)."""

from __future__ import annotations

import io
from pathlib import Path

import nbformat
import pandas as pd
import pytest

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "aggregation.ipynb"

# The notebook's names of the aggregation methods of Table 3(c).
METHODS = {"AM": "am", "εGM": "egm", "GM trec_eval": "gm_trec_eval"}


def tagged_output(nb, tag):
    for cell in nb.cells:
        if tag in cell.metadata.get("tags", []):
            return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    raise AssertionError(f"no cell tagged {tag!r}")


def check_table3c(nb, paper):
    # paper: Ravana & Moffat (2009), Table 3(c): TREC8 (t = 50, s = 129), AP, Kendall's τ.
    table = pd.read_csv(io.StringIO(tagged_output(nb, "table3c")))
    assert len(table) == 6
    for row in table.itertuples():
        assert row.paper == paper.loc[METHODS[row.aggregation], row.split]
        assert row.tau_b == pytest.approx(row.paper, abs=5e-4)


@pytest.fixture(scope="module")
def paper(reference):
    table = reference("ravana_moffat2009_table3c")
    return table[table["scores"] == "AP"].set_index("aggregation")


@pytest.mark.slow
def test_notebook_executes_and_reproduces_table3c(run_notebook, paper):
    check_table3c(run_notebook(NOTEBOOK.name), paper)


def test_committed_notebook_has_its_outputs(paper):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    check_table3c(nb, paper)
