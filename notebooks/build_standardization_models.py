"""Cells of ``standardization_models.ipynb``: ``python notebooks/build.py standardization_models``.

The notebook compares the standardization models on the bundled collections.
"""

from __future__ import annotations

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell

NAME = "standardization_models.ipynb"
TIMEOUT = 600

CELLS = [
    new_markdown_cell(
        "# Standardization models on the bundled collections\n\n"
        "Every standardization is `y = F̂(x)` for an estimate `F̂` of a topic's score "
        "distribution across systems (Urbano, Lima & Hanjalic 2019). This notebook fits "
        "every registered model on the bundled TREC collections and compares (1) what the "
        "standardized scores look like per topic, (2) how well each model describes the "
        "per-topic distributions and (3) how much each changes the system ranking."),
    new_code_cell(
        "# Parameters: QUICK uses fewer collections (for CI).\n"
        "QUICK = False"),
    new_code_cell(
        "import pandas as pd\n\n"
        "import scorestd\n\n"
        "pd.set_option(\"display.precision\", 3)\n"
        "COLLECTIONS = [\"robust2004\", \"adhoc8\"] if QUICK else [\n"
        "    \"robust2004\", \"terabyte2006\", \"adhoc8\", \"web2012\", \"web2013\"]\n"
        "cubes = {name: scorestd.datasets.load(name) for name in COLLECTIONS}\n"
        "MODELS = scorestd.models.model_names()\n"
        "print(MODELS)"),
    new_markdown_cell(
        "## Figure 1 of the paper\n\n"
        "Top: raw → standardized mapping per topic (robust2004 AP). Bottom: per-topic "
        "distributions, topics sorted by mean raw score."),
    new_code_cell(
        "fig = scorestd.plot_standardization(cubes[\"robust2004\"], measure=\"ap\")"),
    new_markdown_cell(
        "## Per-topic mean and sd of the standardized scores\n\n"
        "The paper reports for N-std per-topic means between 0.45 and 0.55 and sds between "
        "0.14 and 0.31; U-std keeps sd ≤ A = 0.15; E-std is near 1/2 and √(1/12) = 0.289."),
    new_code_cell(
        "rows = []\n"
        "for name, cube in cubes.items():\n"
        "    for model in MODELS:\n"
        "        y = scorestd.standardize(cube, model)\n"
        "        mean, sd = y.mean(\"system\"), y.std(\"system\", ddof=1)\n"
        "        for measure in cube.measure.values:\n"
        "            m, s = mean.sel(measure=measure), sd.sel(measure=measure)\n"
        "            rows.append({\"collection\": name, \"measure\": measure, \"model\": model,\n"
        "                         \"mean min\": float(m.min()), \"mean max\": float(m.max()),\n"
        "                         \"sd min\": float(s.min()), \"sd max\": float(s.max())})\n"
        "spread = pd.DataFrame(rows).set_index([\"collection\", \"measure\", \"model\"])\n"
        "spread = spread.sort_index()  # (a sorted index: fast, warning-free .loc)\n"
        "spread.loc[(\"robust2004\", \"ap\")].loc[MODELS].round(3)"),
    new_markdown_cell(
        "## Which distribution describes the topics best?\n\n"
        "Per topic: AIC for the parametric models and the Kolmogorov–Smirnov distance to "
        "the ecdf for all; the tables count the topics each model wins. (The KDE wins on "
        "distance by construction: it follows the sample closely.)"),
    new_code_cell(
        "wins = []\n"
        "for name, cube in cubes.items():\n"
        "    summary = scorestd.goodness_of_fit(cube).summary()\n"
        "    summary[\"collection\"] = name\n"
        "    wins.append(summary.reset_index())\n"
        "wins = pd.concat(wins).set_index([\"collection\", \"measure\", \"model\"])\n"
        "wins[[\"wins_aic\", \"wins_distance\", \"median_distance\"]].unstack(\"model\")"),
    new_markdown_cell(
        "## How much does each standardization change the system ranking?\n\n"
        "Kendall's τ_b between the ranking of systems by mean standardized score and by "
        "mean raw score."),
    new_code_cell(
        "taus = {}\n"
        "for name, cube in cubes.items():\n"
        "    report = scorestd.standardization_report(cube)\n"
        "    for measure in report.tau.columns:\n"
        "        taus[(name, measure)] = report.tau[measure]\n"
        "taus = pd.DataFrame(taus).T\n"
        "taus"),
    new_code_cell(
        "# One value checked by the test suite against scipy directly.\n"
        "print(f\"tau robust2004 ap normal = {taus.loc[('robust2004', 'ap'), 'normal']:.6f}\")\n"
        "print(f\"wins_aic robust2004 ap truncnorm = \"\n"
        "      f\"{int(wins.loc[('robust2004', 'ap', 'truncnorm'), 'wins_aic'])}\")"),
]


def cells() -> list[nbformat.NotebookNode]:
    return CELLS
