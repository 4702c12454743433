"""Published error rates beside a study's: the comparison table against a plain loop."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.experiments import agreement_counts, compare_error_rates

REFERENCE = Path(__file__).parents[1] / "results" / "urbano2019_error_rates" / "reference.csv"


@pytest.fixture(scope="module")
def small_study():
    # two measures (one left out below), two sizes, one published δ and one not, every test
    return scorestd.error_rates(["adhoc8"], measures=["ap", "p10"], n_topics=[25, 50],
                                deltas=[0.02, 0.03], trials=192, trials_type2=128, B=200,
                                copula="gaussian", seed=4)


def plain_comparison(result, path):
    """One published row at a time, with ``.sel`` and the textbook formulas."""
    data = result.data
    out = []
    with open(path) as f:
        for row in csv.DictReader(f):
            kind, tails, alpha = row["kind"], int(row["tails"]), float(row["alpha"])
            p = float(row["rate"])
            big_n = 1_667_000 if kind == "type1" else 167_000
            sel = {"measure": row["measure"], "n_topics": int(row["n_topics"]),
                   "test": row["test"]}
            try:
                if kind == "type1":
                    cell = data.sel(sel).sel(tails=tails).sel(alpha=alpha)
                    r, n = float(cell["type1"]), float(cell["type1_trials"])
                else:
                    cell = data.sel(sel).sel(delta=float(row["delta"])).sel(alpha=alpha)
                    n = float(cell["type2_trials"])
                    r = float(cell["power"].sel(tails=tails) if kind == "power"
                              else cell["type3"])
            except KeyError:
                r = n = math.nan
            pooled = (r * n + p * big_n) / (n + big_n)
            scale = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / big_n))
            z = (r - p) / scale if scale > 0 else (0.0 if r == p else math.nan)
            out.append((p, math.sqrt(p * (1 - p) / big_n), r, n,
                        math.sqrt(r * (1 - r) / n) if n == n else math.nan, r - p, z))
    return np.array(out)


def test_comparison_equals_a_plain_loop_over_every_published_rate(small_study):
    table = small_study.compare(REFERENCE)
    assert len(table) == 3150  # every published number, in the file's order
    expected = plain_comparison(small_study, REFERENCE)
    got = table[["published", "published_se", "rate", "trials", "se", "difference",
                 "z"]].to_numpy(float)
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-15, equal_nan=True)
    # what the study computed is there: ap and p10 at n = 25, 50, Type I and δ = .02
    computed = np.isfinite(table["rate"])
    assert computed.sum() == 2 * 2 * (30 + 30 + 15)
    assert set(table.loc[computed, "measure"]) == {"ap", "p10"}
    assert set(table.loc[computed & table["delta"].notna(), "delta"]) == {0.02}
    # the same through the function and a DataFrame
    pd.testing.assert_frame_equal(compare_error_rates(small_study, pd.read_csv(REFERENCE)),
                                  table)


def test_sign_test_uses_its_own_trial_count(small_study):
    table = small_study.compare(REFERENCE)
    sign = table[(table["test"] == "sign") & table["rate"].notna() & (table["kind"] == "type1")]
    trials = small_study.data["type1_trials"].sel(test="sign")
    for _, row in sign.iterrows():
        assert row["trials"] == trials.sel(measure=row["measure"],
                                           n_topics=row["n_topics"]).item()


def test_agreement_counts_count_by_kind_and_test(small_study):
    table = small_study.compare(REFERENCE)
    counts = agreement_counts(table)
    finite = table[np.isfinite(table["z"])]
    assert counts["cells"].sum() == len(finite)
    for (kind, test), row in counts.iterrows():
        z = finite.loc[(finite["kind"] == kind) & (finite["test"] == test), "z"]
        assert row["beyond_2se"] == (z.abs() > 2).sum()
        assert row["beyond_3se"] == (z.abs() > 3).sum()
        assert row["max_abs_z"] == pytest.approx(z.abs().max())


def test_published_trials_can_be_given_per_row_or_per_kind(small_study):
    published = pd.read_csv(REFERENCE).head(3)
    a = compare_error_rates(small_study, published, trials={"type1": 10_000})
    b = compare_error_rates(small_study, published.assign(trials=10_000))
    pd.testing.assert_frame_equal(a.drop(columns="published_trials"),
                                  b.drop(columns="published_trials"))
    assert (a["published_trials"] == 10_000).all()
    p = published["rate"].to_numpy()
    np.testing.assert_allclose(a["published_se"], np.sqrt(p * (1 - p) / 10_000))


def test_bad_published_tables_are_refused_naming_the_column_or_row(small_study, tmp_path):
    published = pd.read_csv(REFERENCE).head(4)
    with pytest.raises(ScoreDataError, match="no column 'rate'"):
        compare_error_rates(small_study, published.drop(columns="rate"))
    bad = published.copy()
    bad.loc[2, "kind"] = "type2"
    path = tmp_path / "published.csv"
    bad.to_csv(path, index=False)
    with pytest.raises(ScoreDataError, match=r"published.csv, row 3: kind 'type2'"):
        compare_error_rates(small_study, path)
    bad = published.copy()
    bad.loc[1, "tails"] = 3
    with pytest.raises(ScoreDataError, match="row 2: tails 3"):
        compare_error_rates(small_study, bad)


def _one_cell(rate: float, trials: int):
    data = xr.Dataset(
        {"type1": (("measure", "n_topics", "test", "tails", "alpha"), [[[[[rate]]]]]),
         "type1_trials": (("measure", "n_topics", "test"), [[[trials]]])},
        coords={"measure": ["ap"], "n_topics": [50], "test": ["sign"], "tails": [2],
                "alpha": [0.05]})
    return SimpleNamespace(data=data)


def _row(rate: float) -> pd.DataFrame:
    return pd.DataFrame({"kind": ["type1"], "measure": ["ap"], "n_topics": [50],
                         "delta": [np.nan], "alpha": [0.05], "test": ["sign"], "tails": [2],
                         "rate": [rate]})


counts = st.integers(1, 10**6)


@given(st.integers(0, 10**6), counts, st.integers(0, 10**6), counts)
def test_z_is_antisymmetric_finite_and_signed_as_the_difference(k1, n1, k2, n2):
    r, p = min(k1, n1) / n1, min(k2, n2) / n2
    z = compare_error_rates(_one_cell(r, n1), _row(p), trials={"type1": n2})["z"].item()
    back = compare_error_rates(_one_cell(p, n2), _row(r), trials={"type1": n1})["z"].item()
    assert np.isfinite(z)
    assert z == pytest.approx(-back, abs=1e-9)
    assert np.sign(z) == np.sign(r - p)


@given(st.floats(0.001, 0.999), counts, counts)
def test_z_uses_both_standard_errors_when_the_rates_agree(p, n1, n2):
    table = compare_error_rates(_one_cell(p, n1), _row(p), trials={"type1": n2})
    assert table["z"].item() == 0
    se2 = table["se"].item() ** 2 + table["published_se"].item() ** 2
    assert se2 == pytest.approx(p * (1 - p) * (1 / n1 + 1 / n2))


def test_published_measures_are_matched_under_any_spelling(small_study):
    """The paper's ``ap``/``p10`` are the study's ``AP``/``P@10`` (as ir_measures names
    them): the same rates, not NaN."""
    relabelled = type(small_study)(small_study.data.assign_coords(measure=["AP", "P@10"]))
    ours = compare_error_rates(small_study, REFERENCE)
    theirs = compare_error_rates(relabelled, REFERENCE)
    assert ours["rate"].notna().sum() > 0
    np.testing.assert_array_equal(theirs["rate"].to_numpy(), ours["rate"].to_numpy())
    np.testing.assert_array_equal(theirs["z"].to_numpy(), ours["z"].to_numpy())
