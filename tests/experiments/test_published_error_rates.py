"""The published error rates of Urbano, Lima & Hanjalic (SIGIR 2019), reproduced within
Monte Carlo error by the paper's method (the defaults), at a size CI affords.

Published: the authors' output files (tests/results/urbano2019_error_rates/reference.csv,
made by extract.py beside it), 1,667,000 Type I trials per (measure, n) and 167,000 Type II
trials per δ. Ours: three (measure, n) cells chosen to cover a continuous measure of the
adhoc collections at n = 100 (AP, where the rank tests are liberal), a discrete one at
n = 25 (P@10, ties everywhere) and a web measure at n = 50 (nDCG@20); all five tests, both
tails, α = .01, .05, .1; Type I, power and Type III at δ = .05.

Tolerance: every |z| < 4 (z: the two-proportion z-score of :func:`compare_error_rates`;
with about 200 cells, Monte Carlo error alone puts one beyond 4 with probability < 1.3%),
and no more than twice the expected share beyond 2 (4.55%) plus 3 cells; where fewer than
5 events are expected, the exact binomial test instead (p > 1e-4, as |z| < 4). Known departures
(the full comparison: tests/results/urbano2019_error_rates/comparison.csv and the
error-rate notebook) are tested for their reason below, not hidden by the tolerance: the
power lost with the previous margins. The pair copulas are selected as the paper's R call
selects them (``pair_families="bicopselect"``, the default).
"""

from __future__ import annotations

import functools
from pathlib import Path
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import scorestd
from scorestd.experiments import agreement_counts, error_rate_pool
from scorestd.simulation.fitting import fit_margins

REFERENCE = Path(__file__).parents[1] / "results" / "urbano2019_error_rates" / "reference.csv"
# measure: (n_topics, Type I trials, Type II trials at δ = .05)
CELLS = {"ap": (100, 2048, 1024), "p10": (25, 1024, 512), "ndcg20": (50, 1024, 1024)}
DELTA = 0.05

pytestmark = pytest.mark.slow  # about 2 min of CPU: ~5,000 pair copulas fitted


@pytest.fixture(scope="module")
def studies():
    return {m: scorestd.error_rates(measures=[m], n_topics=[n], deltas=[DELTA], trials=t1,
                                    trials_type2=t2, B=2000, seed=19, progress=False)
            for m, (n, t1, t2) in CELLS.items()}


@pytest.fixture(scope="module")
def table(studies):
    tables = [s.compare(REFERENCE) for s in studies.values()]
    out = pd.concat([t[t["rate"].notna()] for t in tables], ignore_index=True)
    assert len(out) == 3 * (30 + 30 + 15)
    return out


def _within_tolerance(t: pd.DataFrame) -> None:
    # z is a normal approximation: where fewer than 5 events are expected (Type III at
    # δ = .05 is about 0.002), the exact binomial test of our count against the published
    # rate instead (two-sided p > 1e-4, as |z| < 4 is)
    rare = t["published"] * t["trials"] < 5
    for _, row in t[rare].iterrows():
        k = round(row["rate"] * row["trials"])
        p = stats.binomtest(k, int(row["trials"]), row["published"]).pvalue
        assert p > 1e-4, row.to_dict()
    t = t[~rare]
    z = t["z"].abs()
    worst = t.loc[z.idxmax()]
    assert z.max() < 4, worst.to_dict()
    assert (z > 2).sum() <= 2 * 0.0455 * len(t) + 3, agreement_counts(t)


def test_type1_and_type3_rates_agree_within_monte_carlo_error(table):
    _within_tolerance(table[table["kind"] != "power"])


def test_power_agrees(table):
    # the sign test included: with pyvinecopulib's family set instead of BiCopSelect's
    # (pair_families="vinecopulib") its power is above the published by 0.006 to 0.011 on
    # AP, nDCG@20 and ERR@20 (sign_power_families.txt, summary.md)
    _within_tolerance(table[table["kind"] == "power"])


@pytest.mark.parametrize("test", ["paired_t", "wilcoxon", "sign"])
@pytest.mark.parametrize("tails", [1, 2])
def test_the_headline_is_reproduced(studies, table, test, tails):
    # AP, n = 100, α = .05, two-tailed, published: t .0511, Wilcoxon .0965, sign .1251; the
    # rank tests are liberal (beyond α by more than 3 SE) where the t-test keeps α.
    row = table[(table["kind"] == "type1") & (table["measure"] == "ap")
                & (table["test"] == test) & (table["tails"] == tails)
                & (table["alpha"] == 0.05)].iloc[0]
    assert abs(row["z"]) < 3.5, row.to_dict()
    if test != "paired_t":
        assert row["rate"] > 0.05 + 3 * np.sqrt(0.05 * 0.95 / row["trials"])
    attrs = studies["ap"].data.attrs
    assert attrs["copula"] == "vine" and attrs["copula_fallbacks"] == 0


def test_the_previous_margins_gave_power_below_the_published(studies, table):
    # The margins decide power: with those of earlier versions (kernels smoothed by
    # Silverman's rule, the truncated normal's exponential limit kept) power on nDCG@20
    # was below the published (n = 50, δ = .05: 0.49 against 0.556 for the two-tailed
    # t-test at α = .05); with simIReff's (the defaults) it agrees. The very same trials
    # (same pair copulas and seed) with the previous margins have lower power.
    from scorestd.simulation import BetaKernelMargin, NormalKernelMargin, TruncNormalMargin

    power = table[(table["kind"] == "power") & (table["measure"] == "ndcg20")]
    n, _, t2 = CELLS["ndcg20"]
    cubes = studies["ndcg20"].pool.cubes  # the same collections, margins fitted anew
    pool = scorestd.experiments.ErrorRatePool(cubes)
    previous = functools.partial(fit_margins, families=[
        TruncNormalMargin(exponential_limit=True), "beta1",
        NormalKernelMargin(bandwidth="silverman"), BetaKernelMargin(bandwidth="silverman")])
    with mock.patch.object(error_rate_pool, "fit_margins", previous):
        pool["ndcg20"].fitted.update(studies["ndcg20"].pool["ndcg20"].fitted)  # same copulas
    other = scorestd.error_rates(cubes, measures=["ndcg20"], n_topics=[n], deltas=[DELTA],
                                 trials=64, trials_type2=t2, B=2000, seed=19,
                                 tests=["paired_t", "wilcoxon"], progress=False, pool=pool)
    assert "bkde(bandwidth=silverman)" in other.data.attrs["margins"]
    moved = other.compare(REFERENCE)
    moved = moved[(moved["kind"] == "power") & moved["rate"].notna()].set_index(
        ["test", "tails", "alpha"])
    ours = power.set_index(["test", "tails", "alpha"]).loc[moved.index]
    assert (moved["rate"] < ours["rate"]).all()
    assert moved["z"].mean() < -1.5 < ours["z"].mean()
