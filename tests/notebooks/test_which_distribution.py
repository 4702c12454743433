"""The "Which distribution do my scores follow?" notebook runs and its numbers are checked
independently (numpy counts, the library calls at the same sizes and seed)."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import nbformat
import numpy as np
import pytest

import scorestd

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "which_distribution.ipynb"
REDUCED = "CHAINS = 2\nDRAWS = 200\nTHIN = 1\nWARMUP = 100\nSEED = 2026\n"
DATA = {"robust2004 AP": ("robust2004", "ap"), "robust2004 nDCG": ("robust2004", "ndcg"),
        "web2012 ERR@20": ("web2012", "err20"), "adhoc8 P@10": ("adhoc8_p10", "p10")}


def _text(nb) -> str:
    return "\n".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                     for out in cell.outputs)


def _check_data_lines(text: str) -> None:
    for name, (key, measure) in DATA.items():
        y = scorestd.datasets.load(key).sel(measure=measure).values
        found = re.search(rf"{re.escape(name)}: (\d+) topics x (\d+) systems; zeros ([0-9.]+), "
                          rf"ones ([0-9.]+), distinct values (\d+)", text)
        assert found, name
        assert (int(found.group(1)), int(found.group(2))) == y.shape
        assert float(found.group(3)) == pytest.approx(np.mean(y == 0), abs=5e-5)
        assert float(found.group(4)) == pytest.approx(np.mean(y == 1), abs=5e-5)
        assert int(found.group(5)) == np.unique(y).size
    assert "adhoc8 P@10: bayes_crossed(likelihood='hurdle'): the scores of measure 'p10'" in text


@pytest.mark.slow
def test_notebook_runs_at_reduced_size_with_checked_numbers(run_notebook, tmp_path):
    nb = run_notebook(NOTEBOOK.name, parameters=REDUCED, path=tmp_path)
    text = _text(nb)
    _check_data_lines(text)
    # the comparison of one collection, recomputed with the same sizes and seed
    cube = scorestd.datasets.load("web2012").sel(measure="err20")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = scorestd.compare_likelihoods(cube, chains=2, draws=200, warmup=100, seed=2026,
                                           progress=False)
        cont = scorestd.compare_likelihoods(res.fits, cells="continuous")
    assert (f"web2012 ERR@20: best on all scores = {res.best}, on scores inside (0, 1) = "
            f"{cont.best}") in text
    tau = res.rank_agreement
    assert (f"web2012 ERR@20: tau normal-censored = {tau.loc['normal', 'censored']:.3f}, "
            f"normal-hurdle = {tau.loc['normal', 'hurdle']:.3f}; pairs = 1128, decisions "
            f"changed = {len(res.decisions)}") in text
    images = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if "image/png" in out.get("data", {})]
    assert len(images) == 3


def test_committed_notebook_is_executed_at_full_size():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert "CHAINS = 4" in params.source and "DRAWS = 2000" in params.source
    assert "THIN = 2" in params.source
    text = _text(nb)
    _check_data_lines(text)
    # at these sizes every fit passes the convergence gate, its zero part included
    assert "mixes slowly" not in text and "have not converged" not in text
    for name in ("robust2004 AP", "robust2004 nDCG", "web2012 ERR@20"):
        assert re.search(rf"{re.escape(name)}: best on all scores = \w+", text)
        assert re.search(rf"{re.escape(name)}: tau normal-censored = [0-9.]+", text)
    # the normal likelihood replicates scores below 0, the bounded ones none
    below = dict(re.findall(r"robust2004 AP / (\w+): replicated zeros [0-9.]+ \(observed "
                            r"[0-9.]+\), below 0 ([0-9.]+)", text))
    assert float(below["normal"]) > 0.01
    assert float(below["censored"]) == 0 and float(below["hurdle"]) == 0
