"""The error-rate notebook runs top to bottom and shows the paper's findings."""

from __future__ import annotations

import json

import pytest

SMALL = """\
TRIALS = 512
TRIALS_TYPE2 = 128
B = 200
MEASURES = ["ap"]
N_TOPICS = [50]
DELTAS = [0.05]
MARGIN_TRIALS = 384
SEED = 2019
"""


@pytest.mark.slow
def test_notebook_reproduces_the_error_rates(run_notebook):
    nb = run_notebook("urbano2019_error_rates.ipynb", parameters=SMALL)
    text = "".join(o.get("text", "") for o in nb.cells[-2].outputs)
    findings = json.loads(text)
    assert findings["trials"] == 512
    se = (0.05 * 0.95 / 512) ** 0.5
    # the t-test keeps α; t and permutation agree with the published Type I rates
    assert abs(findings["t_type1_at_0.05"] - 0.05) < 4 * se
    assert findings["t_perm_type1_max_abs_z"] < 4
    # every published number has its rate in the large run's comparison
    assert findings["large_cells"] == 3150
    # the margins move power: the previous ones gave less than simIReff's (the default)
    power = findings["margin_power"]
    assert power["default (as simIReff)"] > power["previous default"]
