"""Webber et al.'s factor files: layout, round trip, new runs, bad files."""


from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import scorestd
from scorestd.errors import ScoreDataError


def test_factors_round_trip_and_layout(robust2004, tmp_path):
    means, sds = scorestd.write_factors(robust2004, tmp_path / "m.csv", tmp_path / "s.csv")
    frame = pd.read_csv(means, index_col=0)
    assert frame.columns.tolist() == ["ap", "ndcg"] and frame.index[0] == "t01"
    # Reference: pandas on the raw matrix.
    want = robust2004.sel(measure="ndcg").to_pandas().mean(axis=1)
    np.testing.assert_allclose(frame["ndcg"].to_numpy(), want.to_numpy(), rtol=1e-15)
    sd = pd.read_csv(sds, index_col=0)["ap"]
    np.testing.assert_allclose(sd, robust2004.sel(measure="ap").to_pandas().std(axis=1, ddof=1))
    factors = scorestd.read_factors(means, sds)
    for model in ["normal", "uniform", "z"]:
        np.testing.assert_array_equal(
            scorestd.standardize(robust2004, model, reference=factors).values,
            scorestd.standardize(robust2004, model).values)


def test_factors_apply_to_new_runs(robust2004, tmp_path):
    old, new = robust2004.isel(system=slice(0, 80)), robust2004.isel(system=slice(80, None))
    scorestd.write_factors(old, tmp_path / "m.csv", tmp_path / "s.csv")
    y = scorestd.standardize(new, "normal",
                             reference=scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv"))
    x = new.sel(topic="t10", system="run90", measure="ap").item()
    r = old.sel(topic="t10", measure="ap").values
    assert y.sel(topic="t10", system="run90", measure="ap").item() == pytest.approx(
        stats.norm.cdf(x, r.mean(), r.std(ddof=1)))


def test_degenerate_topic_factors_are_zero_and_one(tmp_path):
    p10 = scorestd.datasets.load("adhoc5_p10")
    with pytest.warns(scorestd.ScorestdWarning):
        f = scorestd.standardization_factors(p10)
    assert float(f["mean"].sel(topic="t17")[0]) == 0 and float(f["sd"].sel(topic="t17")[0]) == 1
    scorestd.write_factors(f, tmp_path / "m.csv", tmp_path / "s.csv")
    back = scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    y = scorestd.standardize(p10, "z", reference=back)
    np.testing.assert_array_equal(y.sel(topic="t17").values, p10.sel(topic="t17").values)


def test_bad_factor_files(tmp_path):
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n402,zero\n")
    (tmp_path / "s.csv").write_text("topic,ap\n401,0.1\n402,0.1\n")
    with pytest.raises(ScoreDataError, match=r"m.csv, line 3: 'zero' is not a number.*'402'"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n403,0.3\n")
    with pytest.raises(ScoreDataError, match=r"different topics: \['402', '403'\]"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    (tmp_path / "m.csv").write_text("topic,ap\n401,0.2\n402,0.3\n")
    (tmp_path / "s.csv").write_text("topic,ap\n401,0.1\n402,-0.1\n")
    with pytest.raises(ScoreDataError, match=r"s.csv, line 3: negative.*'402'"):
        scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")


def test_factors_missing_a_measure(robust2004, tmp_path):
    scorestd.write_factors(robust2004.sel(measure=["ap"]), tmp_path / "m.csv", tmp_path / "s.csv")
    f = scorestd.read_factors(tmp_path / "m.csv", tmp_path / "s.csv")
    with pytest.raises(ScoreDataError, match="has no measure 'ndcg'"):
        scorestd.standardize(robust2004, "normal", reference=f)
    with pytest.raises(ScoreDataError, match=r"needs parameters"):
        scorestd.standardize(robust2004.sel(measure=["ap"]), "beta", reference=f)


