"""Cells of ``significance.ipynb``: rank correlations and significance tests on robust2004
(``python notebooks/build.py significance``)."""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

NAME = "significance.ipynb"
TIMEOUT = 600

CELLS = [
    new_markdown_cell(
        "# Correlations and significance tests\n\n"
        "How similarly do two halves of the robust2004 topics rank the 110 systems, and "
        "which of the 5,995 system pairs differ significantly? All statistics are computed "
        "for every pair at once."),
    new_code_cell("QUICK = False  # True: fewer resamples, for a fast check"),
    new_code_cell(
        "import matplotlib.pyplot as plt\n"
        "import numpy as np\n\n"
        "import scorestd\n\n"
        "B = 200 if QUICK else 2000\n"
        'ap = scorestd.datasets.load("robust2004").sel(measure="ap")\n'
        'first, second = ap.isel(topic=slice(0, 50)), ap.isel(topic=slice(50, 99))\n'
        'ap.sizes'),
    new_markdown_cell(
        "## Rank correlations between the two halves\n\n"
        "System means on each half; τ_AP weights agreement at the top of the ranking "
        "(the first half is the estimate, the second the reference). Some runs tie "
        "(e.g. run67 and run69 have identical scores), so Yilmaz et al.'s τ_AP is "
        "undefined (NaN) and the tie-aware τ_AP,b of Urbano & Marrero is the one to use."),
    new_code_cell(
        'for method in ["tau_b", "tau_ap", "tau_ap_b", "pearson", "spearman"]:\n'
        '    value = scorestd.correlation(first, second, method).item()\n'
        '    print(f"{method} halves = {value:.4f}")'),
    new_markdown_cell(
        "## All pairs of systems\n\n"
        "Paired t-tests on all 99 topics, with Holm's correction over the 5,995 pairs."),
    new_code_cell(
        'res = scorestd.compare(ap, "paired_t", correction="holm")\n'
        'print(f"pairs = {res.sizes[\'pair\']}")\n'
        'print(f"significant t raw = {int((res.p_value < 0.05).sum())}")\n'
        'print(f"significant t holm = {int((res.p_adjusted < 0.05).sum())}")\n'
        'res.to_dataframe().sort_values("p_value").head()'),
    new_markdown_cell(
        "Tukey's HSD (two-way ANOVA, topics as blocks) and its randomised version "
        "control the family-wise error by construction."),
    new_code_cell(
        'tukey = scorestd.tukey_hsd(ap)\n'
        'rtukey = scorestd.randomised_tukey_hsd(ap, B=B, seed=1)\n'
        'print(f"significant tukey = {int((tukey.p_value < 0.05).sum())}")\n'
        'print(f"significant randomised tukey = {int((rtukey.p_value < 0.05).sum())}")'),
    new_markdown_cell(
        "## Discriminative power\n\n"
        "The fraction of pairs found significant at each α, for several tests."),
    new_code_cell(
        "alphas = np.linspace(0.001, 0.1, 40)\n"
        "fig, ax = plt.subplots(figsize=(6, 4))\n"
        'for test in ["paired_t", "wilcoxon", "sign", "permutation"]:\n'
        "    p = scorestd.compare(ap, test, B=B, seed=1).p_value\n"
        "    frac = scorestd.fraction_significant(p, alphas)\n"
        "    ax.plot(alphas, frac, label=test)\n"
        '    print(f"power {test} at 0.05 = {float(scorestd.fraction_significant(p, [0.05])[0]):.4f}")\n'
        'ax.set_xlabel("α")\n'
        'ax.set_ylabel("fraction of pairs significant")\n'
        "ax.legend()\n"
        "plt.show()"),
]


def cells() -> list[nbformat.NotebookNode]:
    return CELLS
