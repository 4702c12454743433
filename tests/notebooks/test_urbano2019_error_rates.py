"""The error-rate notebook runs top to bottom and shows the paper's findings."""

from __future__ import annotations

import json

import pytest

SMALL = """\
TRIALS = 1280
TRIALS_TYPE2 = 256
B = 200
VINE_TRIALS = 192
MEASURES = ["ap", "p10"]
N_TOPICS = [50]
DELTAS = [0.05]
SEED = 2019
"""


@pytest.mark.slow
def test_notebook_reproduces_the_error_rates(run_notebook):
    pytest.importorskip("pyvinecopulib")
    nb = run_notebook("urbano2019_error_rates.ipynb", parameters=SMALL)
    text = "".join(o.get("text", "") for o in nb.cells[-2].outputs)
    findings = json.loads(text)
    assert findings["trials"] == 1280
    se = (0.05 * 0.95 / 1280) ** 0.5
    # the t-test keeps α and agrees with the published Type I rates
    assert abs(findings["t_type1_at_0.05"] - 0.05) < 4 * se
    assert findings["t_type1_mean_abs_diff"] < 0.01
    # with the Gaussian copula Wilcoxon keeps α too; power is a little below the paper's
    assert abs(findings["wilcoxon_type1_at_0.05"] - 0.05) < 4 * se
    assert -0.2 < findings["power_diff_mean"] < 0.02
    # with the per-pair copulas the t-test still keeps α
    assert abs(findings["vine_t_type1_at_0.05"] - 0.05) < 4 * (0.05 * 0.95 / 192) ** 0.5
