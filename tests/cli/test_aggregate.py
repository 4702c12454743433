"""``scorestd aggregate``: system scores and ranks on the command line."""

from __future__ import annotations

import re

import numpy as np
import pytest

from scorestd import aggregate
from scorestd.cli import main


def parse(out):
    """Rows of the printed table as {system: [values…]}."""
    rows = {}
    for line in out.splitlines()[3:]:
        if re.match(r"^  \S[^:]*: ", line):  # the legend under the table
            continue
        system, *values = line.split()
        rows[system] = values
    return rows


def test_egm_scores_and_ranks(capsys, adhoc8_ap):
    assert main(["aggregate", "adhoc8_ap", "--method", "egm", "--eps", "0.01"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("egm, eps=0.01 over 50 topics")
    rows = parse(out)
    want = aggregate(adhoc8_ap, "egm", eps=0.01).sel(measure="ap").to_series()
    assert len(rows) == 129
    assert next(iter(rows)) == want.idxmax()  # sorted best first
    for system, (score, rank) in rows.items():
        assert float(score) == pytest.approx(want[system], abs=5e-5)
        assert int(rank) == 1 + int((want > want[system]).sum())


def test_tie_rule(capsys, adhoc8_ap):
    # Median AP has ties among the 129 TREC-8 runs: average ranks are half-integers.
    assert main(["aggregate", "adhoc8_ap", "--method", "md", "--ties", "average"]) == 0
    rows = parse(capsys.readouterr().out)
    want = aggregate(adhoc8_ap, "md").sel(measure="ap").to_series()
    tied = want[want.duplicated(keep=False)]
    assert len(tied) >= 2
    for system in tied.index:
        higher = int((want > want[system]).sum())
        same = int((want == want[system]).sum())
        assert float(rows[system][1]) == pytest.approx(higher + (same + 1) / 2)


def test_two_measures(capsys, robust2004):
    assert main(["aggregate", "robust2004", "--method", "gm_trec_eval"]) == 0
    out = capsys.readouterr().out
    assert "ap rank" in out and "ndcg rank" in out
    rows = parse(out)
    want = aggregate(robust2004, "gm_trec_eval").sel(measure="ndcg").to_series()
    assert float(rows["run7"][2]) == pytest.approx(want["run7"], abs=5e-5)


def test_errors_exit_1(capsys):
    assert main(["aggregate", "adhoc8_ap", "--method", "am", "--eps", "0.1"]) == 1
    assert "--eps is used only by egm" in capsys.readouterr().err
    assert main(["aggregate", "adhoc8_ap", "--method", "hm"]) == 1
    assert "harmonic mean is undefined" in capsys.readouterr().err


def test_hm_with_zeros_as_missing(capsys):
    assert main(["aggregate", "adhoc8_ap", "--method", "hm", "--zeros", "nan"]) == 0
    captured = capsys.readouterr()  # the command line prints warnings, never raises them
    assert "scorestd aggregate: warning:" in captured.err and "undefined" in captured.err
    rows = parse(captured.out)
    assert any(v == ["NaN", "<NA>"] or v[0] in ("NaN", "nan") for v in rows.values())
    assert np.isfinite(float(next(iter(rows.values()))[0]))
