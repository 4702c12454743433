"""The Bayesian comparisons notebook runs and its numbers are checked independently."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

import scorestd

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "bayesian_comparisons.ipynb"
REDUCED = "CHAINS = 2\nDRAWS = 500\nWARMUP = 200\nROPE = 0.01\nSEED = 2026\n"


def _text(nb) -> str:
    return "\n".join(out.get("text", "") for cell in nb.cells if cell.cell_type == "code"
                     for out in cell.outputs)


def _check(text: str, chains: int, draws: int, warmup: int) -> None:
    for name, key in (("robust2004", "robust2004"), ("adhoc8", "adhoc8_ap")):
        ap = scorestd.datasets.load(key).sel(measure="ap")
        x = ap.transpose("topic", "system").values
        i, j = np.triu_indices(x.shape[1], k=1)
        # reference: scipy's paired t-tests of every pair and statsmodels' Holm
        p = stats.ttest_rel(x[:, i], x[:, j], axis=0).pvalue
        p = np.where(np.isnan(p), 1.0, p)  # identical systems: p = 1, as compare gives
        found = re.search(rf"{name}: pairs = (\d+), t raw = (\d+), holm = (\d+), "
                          rf"closed form = (\d+), crossed = (\d+)", text)
        pairs, raw, holm, closed, crossed = (int(g) for g in found.groups())
        assert pairs == i.size
        assert raw == closed == int((p < 0.05).sum())
        assert holm == int((multipletests(p, method="holm")[1] < 0.05).sum())
        fit = scorestd.bayes_crossed(ap, chains=chains, draws=draws, warmup=warmup, seed=2026)
        pr = fit.pairs()
        assert crossed == int((np.maximum(pr.prob_greater, pr.prob_less) >= 0.975).sum())
        agree = re.search(rf"{name}: closed form = t on (\d+) of (\d+) pairs; "
                          rf"max \|P\(delta <= 0\) - one-sided p\| = ([0-9.e+-]+)", text)
        assert agree.group(1) == agree.group(2) and float(agree.group(3)) < 1e-12
    pilot = scorestd.datasets.load("robust2004").sel(measure="ap").isel(
        topic=slice(0, 10), system=slice(0, 4))
    res = scorestd.assurance_topic_set_size(pilot, min_diff=0.05)
    assert (f"pilot, 10 topics x 4 systems: classical n = {int(res.n_topics_classical)}"
            in text)
    assert f"n for assurance 0.8 = {int(res.n_topics)}" in text


@pytest.mark.slow
def test_notebook_runs_at_reduced_size_with_checked_numbers(run_notebook, tmp_path):
    nb = run_notebook(NOTEBOOK.name, parameters=REDUCED, path=tmp_path)
    _check(_text(nb), chains=2, draws=500, warmup=200)
    images = [out for cell in nb.cells if cell.cell_type == "code" for out in cell.outputs
              if "image/png" in out.get("data", {})]
    assert len(images) == 5


def test_committed_notebook_is_executed_at_full_size():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    params = next(c for c in nb.cells if "parameters" in c.metadata.get("tags", []))
    assert "DRAWS = 2000" in params.source and "CHAINS = 4" in params.source
    text = _text(nb)
    assert "robust2004: pairs = 5995" in text and "adhoc8: pairs = 8256" in text
    rhat = [float(v) for v in re.findall(r"max R-hat = ([0-9.]+)", text)]
    assert rhat and max(rhat) <= 1.01
