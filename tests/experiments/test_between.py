"""Between-collection experiment (Urbano et al. 2019, §3.2) against a scipy loop."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import scorestd
from scorestd.experiments import between_collection


def _trial_rng(seed, trials, k):
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(trials)[k])


@pytest.fixture(scope="module")
def synthetic():
    rng = np.random.default_rng(4)
    values = np.clip(rng.beta(2, 5, (24, 1)) + rng.normal(0, 0.1, (24, 7))
                     + np.linspace(-0.1, 0.1, 7), 0.001, 0.999)
    return scorestd.cube(values, measures=["ap"])


def test_matches_a_scipy_loop(synthetic):
    seed, trials, n = 3, 3, 10
    alphas = [0.01, 0.05, 0.1]
    res = between_collection(synthetic, schemes=["raw", "E"], n_topics=n, trials=trials,
                             seed=seed, alphas=alphas, batch_size=2)
    raw = synthetic.isel(measure=0).values
    ecdf = scorestd.standardize(synthetic, model="empirical").isel(measure=0).values
    for k in range(trials):
        perm = _trial_rng(seed, trials, k).permutation(24)
        a, b = perm[:n], perm[n:2 * n]
        for scheme, x in (("raw", raw), ("E", ecdf)):
            got = res.data.sel(trial=k, scheme=scheme)
            m1, m2 = x[a].mean(axis=0), x[b].mean(axis=0)
            np.testing.assert_allclose(got["tau_b"], scipy.stats.kendalltau(m2, m1)[0],
                                       atol=1e-12)
            np.testing.assert_allclose(got["pearson"], scipy.stats.pearsonr(m2, m1)[0],
                                       atol=1e-12)
            # Welch's unpaired t-test, R's t.test default
            p = np.array([[scipy.stats.ttest_ind(x[a, i], x[b, j], equal_var=False).pvalue
                           for j in range(7)] for i in range(7)])
            same = np.eye(7, dtype=bool)
            np.testing.assert_allclose(got["type1"], [np.mean(p[same] < al) for al in alphas],
                                       atol=1e-12)
            np.testing.assert_allclose(got["power"], [np.mean(p[~same] < al) for al in alphas],
                                       atol=1e-12)


def test_paper_findings_on_robust2004(robust2004, reference):
    """Urbano et al. Figure 3 (robust2004, AP): Type I error ≈ α for every scheme;
    standardization has about twice the power of raw scores and more stable rankings."""
    # The authors' own 10,000-trial power (github.com/julian-urbano/
    # sigir2019-standardization, out/02-between/robust2004_ap/power.csv), α = .001/.01/.05
    published = reference("urbano2019_between_robust2004_ap_power").set_index("alpha")
    alphas = [0.001, 0.01, 0.05]
    res = between_collection(robust2004, measure="ap", trials=60, seed=2019)
    s = res.summary(alphas=alphas)
    for scheme in published.columns:  # raw, z, N, U, E
        got = s.loc[scheme, [f"power@{a}" for a in alphas]].to_numpy(dtype=float)
        np.testing.assert_allclose(got, published.loc[alphas, scheme], atol=0.02)
    # 60 trials × 110 systems: the binomial sd of the rate at α=0.05 is about 0.003
    assert ((s["type1@0.05"] - 0.05).abs() < 0.015).all()
    assert ((s["type1@0.01"] - 0.01).abs() < 0.008).all()
    ratio = s.loc[["z", "N", "U", "E"], "power@0.05"] / s.loc["raw", "power@0.05"]
    assert (ratio > 1.4).all() and (ratio < 3).all()
    assert (s.loc[["N", "E"], "tau_b"] > s.loc["raw", "tau_b"]).all()


def test_sizes(synthetic):
    res = between_collection(synthetic, trials=2, seed=0, schemes=["raw"])
    assert res.data.attrs["n_topics"] == 12  # min(50, T // 2)
    with pytest.raises(ValueError, match="disjoint"):
        between_collection(synthetic, n_topics=13, trials=2)


def test_plot(synthetic):
    res = between_collection(synthetic, schemes=["raw", "N"], trials=10, seed=0)
    assert len(res.plot().axes) == 4


def test_same_numbers_whatever_the_memory_budget_and_block_size(robust2004, monkeypatch):
    from scorestd.kernels import t_decisions

    ap = robust2004.sel(measure=["ap"])
    default = between_collection(ap, schemes=["raw", "N"], trials=5, seed=3).data
    monkeypatch.setattr(t_decisions, "BLOCK_CELLS", 3000)
    small = between_collection(ap, schemes=["raw", "N"], trials=5, seed=3,
                               memory="1MiB").data
    assert small.identical(default)
