"""Leave-one-out standardization against a plain loop with scorestd.stats.standardization."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from scipy import stats

import scorestd
from scorestd.errors import ScoreDataError
from scorestd.experiments.leave_out import leave_one_out


@pytest.fixture(scope="module")
def sub(robust2004):
    return robust2004.isel(system=slice(0, 12), topic=slice(0, 40))


def test_per_run_values_equal_a_plain_loop(sub):
    res = leave_one_out(sub, schemes=["E", "U"])
    for model, scheme in (("empirical", "E"), ("uniform", "U")):
        full = scorestd.standardize(sub, model=model).mean("topic")
        for run in sub.system.values[:4]:
            alone = scorestd.standardize(sub.sel(system=[run]), model=model,
                                         reference=sub.drop_sel(system=run))
            got = res.data.sel(scheme=scheme, system=run)
            np.testing.assert_allclose(got["mean_loo"].values,
                                       alone.mean("topic").sel(system=run).values)
            np.testing.assert_allclose(got["mean_all"].values, full.sel(system=run).values)
            for m in ("ap", "ndcg"):
                others = full.sel(measure=m).drop_sel(system=run).values
                loo = got["mean_loo"].sel(measure=m).item()
                assert got["rank_loo"].sel(measure=m).item() == 1 + int((others > loo).sum())


def test_summary_matches_the_per_run_data(sub):
    res = leave_one_out(sub, schemes=["N"])
    d = res.data.sel(scheme="N", measure="ap")
    row = res.summary().loc[("ap", "N")]
    assert row["max_abs_change"] == pytest.approx(float(np.abs(d["change"]).max()))
    assert row["runs_rank_changed"] == int((d["rank_loo"] != d["rank_all"]).sum())
    tau = stats.kendalltau(d["mean_all"].values, d["mean_loo"].values).statistic
    assert row["tau"] == pytest.approx(tau)


def test_raw_scores_do_not_change(sub):
    res = leave_one_out(sub, schemes=["raw"])
    assert float(np.abs(res.data["change"]).max()) == 0.0
    assert (res.data["rank_change"] == 0).all()


def test_groups_leave_all_their_runs_out_together(sub):
    runs = sub.system.values.tolist()
    groups = {r: ("team_a" if k < 3 else f"solo{k}") for k, r in enumerate(runs)}
    res = leave_one_out(sub, schemes=["E"], groups=groups)
    team = runs[:3]
    alone = scorestd.standardize(sub.sel(system=team), model="empirical",
                                 reference=sub.drop_sel(system=team)).mean("topic")
    np.testing.assert_allclose(res.data["mean_loo"].sel(scheme="E", system=team).values,
                               alone.transpose("measure", "system").values)
    assert res.data["group"].sel(system=runs[0]).item() == "team_a"


@pytest.mark.parametrize("policy", ["unstandardized", "nan"])
def test_degenerate_topics_and_missing_scores_as_a_standardize_loop(policy):
    # adhoc5_p10's topic t17: every run scores the same; plus a few missing scores.
    p10 = scorestd.datasets.load("adhoc5_p10").isel(system=slice(0, 8), topic=slice(10, 20))
    p10 = p10.copy()
    p10[2, 3, 0] = np.nan
    with pytest.warns(scorestd.ScorestdWarning, match="t17"):
        res = leave_one_out(p10, schemes=["N", "E"], degenerate=policy)
    for model, scheme in (("normal", "N"), ("empirical", "E")):
        for run in p10.system.values[:3]:
            with pytest.warns(scorestd.ScorestdWarning, match="t17"):
                alone = scorestd.standardize(p10.sel(system=[run]), model, degenerate=policy,
                                             reference=p10.drop_sel(system=run))
            np.testing.assert_allclose(
                res.data["mean_loo"].sel(scheme=scheme, system=run).values,
                alone.mean("topic").sel(system=run).values, rtol=1e-12)


def test_bad_group_mappings(sub):
    runs = sub.system.values.tolist()
    with pytest.raises(ScoreDataError, match=r"misses 1 run.*'run12'"):
        leave_one_out(sub, groups={r: "g" for r in runs[:-1]})
    with pytest.raises(ScoreDataError, match="not in the scores: 'run999'"):
        leave_one_out(sub, groups={**{r: r for r in runs}, "run999": "x"})
    with pytest.raises(ScoreDataError, match="fewer than two runs"):
        leave_one_out(sub, groups={r: ("big" if k else "one") for k, r in enumerate(runs)})


@settings(max_examples=8)
@given(arrays(np.int64, (6, 5), elements=st.integers(0, 64)),
       arrays(np.int64, (6, 1), elements=st.integers(1, 4)),
       arrays(np.int64, (6, 1), elements=st.integers(-8, 8)))
def test_standardized_results_ignore_per_topic_affine_changes(x, scale, shift):
    # z, N, U and E standardize each topic by its own location and scale (or ranks), so a
    # positive affine change of a topic's scores changes nothing; distinct scores per topic
    # keep every topic non-degenerate. Dyadic values keep the arithmetic exact.
    x = (x + np.arange(5) * 65) / 64
    base = leave_one_out(scorestd.cube(x), schemes=["E", "N"]).data
    moved = leave_one_out(scorestd.cube(x * scale + shift / 8), schemes=["E", "N"]).data
    np.testing.assert_allclose(moved["mean_loo"].values, base["mean_loo"].values, atol=1e-12)
    np.testing.assert_array_equal(moved["rank_loo"].values, base["rank_loo"].values)
