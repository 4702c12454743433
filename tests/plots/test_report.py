"""The standardization report: means, ranks and τ under every model."""


from __future__ import annotations

import pytest
from scipy import stats

import scorestd
from scorestd.plots.report import standardization_report


def test_report_means_ranks_and_tau(adhoc8_ap):
    r = standardization_report(adhoc8_ap, ["normal", "empirical"])
    table = r.tables["ap"]
    e = scorestd.standardize(adhoc8_ap, "empirical").sel(measure="ap")
    assert table.loc["run5", "empirical"] == pytest.approx(float(e.sel(system="run5").mean()))
    raw = adhoc8_ap.sel(measure="ap").mean("topic").to_pandas()
    assert table.index[0] == raw.idxmax() and table["raw#"].iloc[0] == 1
    # Reference: scipy's tau_b between the two vectors of system means.
    tau = stats.kendalltau(table["normal"], table["raw"]).statistic
    assert r.tau.loc["normal", "ap"] == pytest.approx(tau)


