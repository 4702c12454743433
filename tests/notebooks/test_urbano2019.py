"""The Urbano et al. (2019) notebook runs top to bottom and shows the paper's findings."""

from __future__ import annotations

import json

import pytest


@pytest.mark.slow
def test_notebook_reproduces_the_findings(run_notebook):
    nb = run_notebook("urbano2019_standardization.ipynb", parameters="TRIALS = 40\nSEED = 2019\n")
    text = "".join(o.get("text", "") for o in nb.cells[-2].outputs)
    findings = json.loads(text)
    assert findings["trials"] == 40
    # Urbano et al. §3.1: E-std is furthest from the raw ranking; U-std ≈ z-std
    assert findings["lowest_tau_b"] == "E"
    assert findings["lowest_tau_ap_b"] == "E"
    assert abs(findings["tau_b_U_minus_z"]) < 0.02
    # §3.2: every standardization has far more power than raw scores ("about twice")
    assert min(findings["power_ratio_at_0.01"].values()) > 1.5
    # Type I error at α = 0.05 (40 trials × 110 systems: binomial sd ≈ 0.0033)
    assert all(abs(v - 0.05) < 0.02 for v in findings["type1_at_0.05"].values())
