"""scorestd report and scorestd standardize on the command line."""


from __future__ import annotations

import numpy as np
import pytest

import scorestd
from scorestd.cli import main


def test_cli_report_default_is_robust2004_ap(tmp_path, capsys):
    assert main(["report", "--figures", str(tmp_path / "rep"), "--models", "normal", "empirical",
                 "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert "robust2004_ap, ap: 99 topics, 110 systems" in out
    assert "Kendall tau_b" in out
    # run74 has the best raw mean AP of the robust2004 data.
    first_row = next(line for line in out.splitlines() if line.startswith("run"))
    assert first_row.split()[0] == "run74"
    assert (tmp_path / "rep" / "figure1_ap.png").stat().st_size > 10_000
    assert (tmp_path / "rep" / "mappings_ap.png").exists()


def test_cli_standardize_writes_and_reads_back(tmp_path, capsys):
    out = tmp_path / "e.nc"
    assert main(["standardize", "adhoc8_ap", "--output", str(out), "--model", "uniform",
                 "--reference", "adhoc8_ap"]) == 0
    back = scorestd.load(out)
    np.testing.assert_allclose(back.values,
                               scorestd.standardize(scorestd.datasets.load("adhoc8_ap"),
                                                    "uniform").values)
    assert "uniform standardization of 50 topics" in capsys.readouterr().out


def test_cli_standardize_with_factors(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap")
    scorestd.write_factors(ap, tmp_path / "m.csv", tmp_path / "s.csv")
    assert main(["standardize", "adhoc8_ap", "--output", str(tmp_path / "n.csv"), "--model", "normal",
                 "--factors", str(tmp_path / "m.csv"), str(tmp_path / "s.csv")]) == 0
    back = scorestd.load(tmp_path / "n.csv")
    np.testing.assert_allclose(back.values, scorestd.standardize(ap, "normal").values)


def test_cli_saves_a_fitted_reference_and_standardizes_new_runs_against_it(tmp_path, capsys):
    ap = scorestd.datasets.load("adhoc8_ap")
    reference, new_runs = ap.isel(system=slice(0, 60)), ap.isel(system=slice(60, None))
    scorestd.save(reference, tmp_path / "reference.nc")
    scorestd.save(new_runs, tmp_path / "new.nc")
    assert main(["standardize", str(tmp_path / "reference.nc"), "--output", str(tmp_path / "r.nc"),
                 "--model", "kde", "--save-fitted", str(tmp_path / "fitted.nc")]) == 0
    assert "the fitted kde model" in capsys.readouterr().out
    assert main(["standardize", str(tmp_path / "new.nc"), "--output", str(tmp_path / "y.nc"),
                 "--fitted", str(tmp_path / "fitted.nc")]) == 0
    assert "kde standardization of 50 topics, 69 systems" in capsys.readouterr().out
    expected = scorestd.standardize(new_runs, "kde", reference=reference)
    np.testing.assert_allclose(scorestd.load(tmp_path / "y.nc").values, expected.values,
                               rtol=1e-12)
    with pytest.raises(SystemExit):  # one source of the reference at a time
        main(["standardize", "adhoc8_ap", "--output", str(tmp_path / "o.nc"), "--reference", "adhoc8_ap",
              "--fitted", str(tmp_path / "fitted.nc")])


def test_cli_errors_name_the_problem(tmp_path, capsys):
    ref = tmp_path / "ref.csv"
    scorestd.save(scorestd.datasets.load("adhoc8_ap").isel(topic=slice(0, 10)), ref)
    assert main(["standardize", "adhoc8_ap", "--output", str(tmp_path / "o.nc"), "--reference",
                 str(ref)]) == 1
    assert "has no topic 't11'" in capsys.readouterr().err
    # models are looked up when the command runs (--help imports none of them)
    assert main(["standardize", "adhoc8_ap", "--output", str(tmp_path / "o.nc"), "--model", "gamma"]) == 1
    assert "unknown model 'gamma'" in capsys.readouterr().err


