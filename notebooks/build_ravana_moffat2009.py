"""Cells of ``ravana_moffat2009_aggregation.ipynb``: ``python notebooks/build.py ravana_moffat2009``."""

from __future__ import annotations

import nbformat
from _nbbuild import code, full_size_cell, full_size_text, md

NAME = "ravana_moffat2009_aggregation.ipynb"
TIMEOUT = 900

INTRO = """\
# Score aggregation and smoothing: Ravana & Moffat (2009), Ravana, Park & Moffat (2009)

Two resampling studies on bundled TREC data:

1. **Split-half consistency** (Ravana & Moffat, ADC 2009, §4 and Table 3(c)): split the 50
   TREC-8 ad hoc topics (`adhoc8_ap`, 129 runs) into two halves, rank the systems on each
   half by an aggregate (AM, ε-GM with ε = 0.01, trec_eval's GM with ε = 10⁻⁵, …) of AP or
   of standardized AP (SP, the `"N"` scheme), and compare the orderings with Kendall's τ.
   Also the two deterministic splits by topic hardness, Hard/Easy and Middle/Rest.
2. **Smoothing with partial prior information** (Ravana, Park & Moffat, SIGIR 2009): three
   disjoint sets of 25 topics, systems split in halves; how close to the all-topics ranking
   does smoothing the new topics' scores towards the prior means get, for each α?

`TRIALS` sets the number of random trials (the papers: 10,000); the full-size figures are
recorded at the end.
"""

PARAMETERS = """\
TRIALS = 1000  # the papers run 10,000 (figures at the end); CI runs fewer
SEED = 2009
"""

SETUP = """\
import json

import matplotlib
import pandas as pd

import scorestd
from scorestd import smoothing_experiment, split_half

matplotlib.rcParams["figure.dpi"] = 80
pd.set_option("display.precision", 3)
"""

SPLIT_MD = """\
## Split-half consistency: Table 3(c)

Mean τ over random splits ("Random") and τ of the two fixed splits, next to the values
printed in the paper (`paper`) for TREC-8.
"""

SPLIT = """\
adhoc8 = scorestd.datasets.load("adhoc8_ap")
halves = split_half(adhoc8, trials=TRIALS, seed=SEED, schemes=["raw", "N"],
                    methods=["am", "egm", "gm_trec_eval"])
ours = halves.summary()
# Ravana & Moffat (2009), Table 3(c): TREC8, t = 50, s = 129 (AP, then SP)
paper = pd.DataFrame(
    [[0.773, 0.719, 0.753, 0.781, 0.739, 0.790],
     [0.755, 0.732, 0.760, 0.769, 0.714, 0.785],
     [0.681, 0.672, 0.676, 0.768, 0.680, 0.785]],
    index=ours.index, columns=ours.columns)
pd.concat({"scorestd": ours, "paper": paper}, axis=1).round(3)
"""

SPLIT_PLOT = "halves.plot();"

SPLIT_NOTE = """\
Every Hard/Easy and Middle/Rest entry is reproduced to the printed three decimals but
one: SP / trec_eval GM / Hard/Easy comes out 0.712 against a printed 0.680 (the same
split reproduces the AM and ε-GM entries of that column exactly). As in the paper, the
topic hardness (Eq. 2) of the SP columns is computed on the SP scores.
"""

SMOOTH_MD = """\
## Smoothing with partial prior information

Mean τ against the ranking on all 99 `robust2004` topics, for AP (`raw`) and standardized
AP (`N`), by α, and the baseline ranking on Q_a ∪ Q_c (50 complete topics). The bundled
Robust 2004 data have 99 topics (the paper used 249), so absolute τ differ from the paper's
Figures 2–3; the pattern is the point.
"""

SMOOTH = """\
robust = scorestd.datasets.load("robust2004")
smoothed = smoothing_experiment(robust, measure="ap", trials=TRIALS, seed=SEED)
smoothed.summary()
"""

SMOOTH_PLOT = "smoothed.plot();"

FINDINGS = """\
s = smoothed.summary()
alphas = [c for c in s.columns if c.startswith("α=")]
findings = {
    "trials": TRIALS,
    "random": {f"{scheme}/{method}": round(float(ours.loc[method, (scheme, "Random")]), 4)
               for scheme in ("raw", "N") for method in ours.index},
    "hard_easy": {f"{scheme}/{method}": round(float(ours.loc[method, (scheme, "Hard/Easy")]), 4)
                  for scheme in ("raw", "N") for method in ours.index},
    "middle_rest": {f"{scheme}/{method}": round(float(ours.loc[method, (scheme, "Middle/Rest")]),
                                                4)
                    for scheme in ("raw", "N") for method in ours.index},
    "smoothing_best_alpha": {k: s.loc[k, alphas].astype(float).idxmax() for k in s.index},
    "smoothing": s.round(4).to_dict(orient="index"),
}
print(json.dumps(findings, indent=1))
"""

FULL_SIZE_NOTE = "Recorded with 10,000 trials (`seed=2009`)."


def cells() -> list[nbformat.NotebookNode]:
    return [
        md(INTRO), code(PARAMETERS, tags=("parameters",)), code(SETUP), md(SPLIT_MD),
        code(SPLIT), code(SPLIT_PLOT), md(SPLIT_NOTE), md(SMOOTH_MD), code(SMOOTH),
        code(SMOOTH_PLOT), code(FINDINGS),
        full_size_cell(FULL_SIZE_NOTE, full_size_text("ravana_moffat2009_full_size.md"))]
