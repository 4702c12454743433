"""Cells of ``urbano2019_standardization.ipynb``: ``python notebooks/build.py urbano2019``."""

from __future__ import annotations

import nbformat
from _nbbuild import code, full_size_cell, full_size_text, md

NAME = "urbano2019_standardization.ipynb"
TIMEOUT = 900

INTRO = """\
# A New Perspective on Score Standardization — the experiments

Urbano, Lima & Hanjalic (SIGIR 2019) compare raw scores with four standardizations
(z-std, N-std, U-std, E-std) in two resampling experiments on TREC 2004 Robust
(`robust2004`, 99 topics × 110 systems) and TREC 2006 Terabyte (`terabyte2006`, 149 × 61),
with AP and nDCG:

* **within-collection** (§3.1, Figure 2): sample 50 topics; τ_b and τ_AP,b between the
  raw and the standardized ranking (lower: standardization says something new), power of
  paired t-tests over all pairs of systems;
* **between-collection** (§3.2, Figure 3): two disjoint sets of 50 topics; τ_b and τ_AP,b
  between the two rankings (higher: more stable), Type I error of Welch t-tests of each
  system against itself, power of tests between different systems.

`TRIALS` sets the number of trials (the paper: 10,000). The figures at full size are
recorded at the end of this notebook.
"""

PARAMETERS = """\
TRIALS = 300  # the paper runs 10,000 (figures at the end); CI runs fewer
SEED = 2019
"""

SETUP = """\
import json

import matplotlib
import pandas as pd

import scorestd
from scorestd import between_collection, within_collection

matplotlib.rcParams["figure.dpi"] = 80
pd.set_option("display.precision", 3)
robust = scorestd.datasets.load("robust2004")
"""

WITHIN_MD = """\
## Within-collection comparisons (§3.1)

Standardization factors come from all 99 topics and 110 systems; each trial samples
50 topics. Means over trials, one row per scheme:
"""

WITHIN = """\
within = within_collection(robust, measure="ap", trials=TRIALS, seed=SEED)
within.summary()
"""

WITHIN_PLOT = "within.plot();"

BETWEEN_MD = """\
## Between-collection comparisons (§3.2)

Two disjoint sets of 50 topics per trial. `type1@α` should be α for every scheme;
`power@α` is the fraction of pairs of *different* systems found significantly different.
"""

BETWEEN = """\
between = between_collection(robust, measure="ap", trials=TRIALS, seed=SEED)
between.summary()
"""

BETWEEN_PLOT = "between.plot();"

FINDINGS_MD = """\
## The paper's findings, checked

* E-std gives the rankings least like the raw ones (lowest τ_b and τ_AP,b);
* U-std and z-std are nearly the same;
* between collections every standardization has far more power than raw scores;
* Type I error stays at α for every scheme.
"""

FINDINGS = """\
w, b = within.summary(), between.summary()
standardized = ["z", "N", "U", "E"]
findings = {
    "trials": TRIALS,
    "lowest_tau_b": w["tau_b"].drop("raw").idxmin(),
    "lowest_tau_ap_b": w["tau_ap_b"].drop("raw").idxmin(),
    "tau_b_U_minus_z": float(w.loc["U", "tau_b"] - w.loc["z", "tau_b"]),
    "power_ratio_at_0.05": (b.loc[standardized, "power@0.05"]
                            / b.loc["raw", "power@0.05"]).round(3).to_dict(),
    "power_ratio_at_0.01": (b.loc[standardized, "power@0.01"]
                            / b.loc["raw", "power@0.01"]).round(3).to_dict(),
    "type1_at_0.05": b["type1@0.05"].round(4).to_dict(),
}
print(json.dumps(findings, indent=1))
"""

FULL_SIZE_NOTE = "Recorded with 10,000 trials per experiment (`seed=2019`), means over trials."


def cells() -> list[nbformat.NotebookNode]:
    return [
        md(INTRO), code(PARAMETERS, tags=("parameters",)), code(SETUP), md(WITHIN_MD),
        code(WITHIN), code(WITHIN_PLOT), md(BETWEEN_MD), code(BETWEEN), code(BETWEEN_PLOT),
        md(FINDINGS_MD), code(FINDINGS),
        full_size_cell(FULL_SIZE_NOTE, full_size_text("urbano2019_full_size.md"))]
