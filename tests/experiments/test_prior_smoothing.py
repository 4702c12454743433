"""Smoothing with partial prior information (Ravana, Park & Moffat 2009) against a loop."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

import scorestd
from scorestd import smoothing_experiment


def _trial_rng(seed, trials, k):
    return np.random.default_rng(np.random.SeedSequence(seed).spawn(trials)[k])


def _standardize(x, scheme):
    """Per-topic (row) standardization of a topic × system block against itself."""
    if scheme == "raw":
        return x
    return scorestd.standardize(scorestd.cube(x), model="normal").isel(measure=0).values


def test_matches_a_loop(robust2004):
    seed, trials, n = 6, 2, 10
    alphas = [0.0, 0.5, 0.8, 1.0]
    res = smoothing_experiment(robust2004, measure="ap", schemes=["raw", "N"], alphas=alphas,
                    n_topics=n, trials=trials, seed=seed)
    x = robust2004.sel(measure="ap").values
    n_sys = x.shape[1]
    for k in range(trials):
        rng = _trial_rng(seed, trials, k)
        topics = rng.permutation(x.shape[0])[: 3 * n]
        qa, qb, qc = topics[:n], topics[n:2 * n], topics[2 * n:]
        systems = rng.permutation(n_sys)
        sx, sy = systems[: n_sys // 2], systems[n_sys // 2:]
        for scheme in ("raw", "N"):
            truth = _standardize(x, scheme).mean(axis=0)
            prior = np.empty(n_sys)
            prior[sx] = _standardize(x[np.ix_(qa, sx)], scheme).mean(axis=0)
            prior[sy] = _standardize(x[np.ix_(qb, sy)], scheme).mean(axis=0)
            new = _standardize(x[qc], scheme)
            for alpha in alphas:
                # Eq. 1, then the mean over Q_c
                smoothed = (alpha * new + (1 - alpha) * prior).mean(axis=0)
                np.testing.assert_allclose(
                    res.data["tau"].sel(trial=k, scheme=scheme, alpha=alpha),
                    scipy.stats.kendalltau(smoothed, truth)[0], atol=1e-12)
            base = _standardize(x[np.concatenate([qa, qc])], scheme).mean(axis=0)
            np.testing.assert_allclose(res.data["tau_baseline"].sel(trial=k, scheme=scheme),
                                       scipy.stats.kendalltau(base, truth)[0], atol=1e-12)


def test_paper_pattern(robust2004):
    """Ravana et al. Figures 2-3: smoothing with prior information beats both α=0 and
    α=1, and stays below the 50-topic baseline."""
    res = smoothing_experiment(robust2004, measure="ap", trials=150, seed=2009, alphas=[0, 0.5, 0.8, 1])
    s = res.summary()
    for scheme in ("raw", "N"):
        best = s.loc[scheme, ["α=0.5", "α=0.8"]].max()
        assert best > s.loc[scheme, "α=0"] and best > s.loc[scheme, "α=1"]
        assert best < s.loc[scheme, "S×(Qa∪Qc)"]


def test_bad_input(robust2004):
    with pytest.raises(ValueError, match="alphas"):
        smoothing_experiment(robust2004, measure="ap", trials=2, alphas=[0.5, 1.5])
    with pytest.raises(ValueError, match="three disjoint"):
        smoothing_experiment(robust2004, measure="ap", trials=2, n_topics=34)


def test_plot(robust2004):
    res = smoothing_experiment(robust2004, measure="ap", trials=10, seed=0, alphas=[0, 0.5, 0.8, 1])
    assert len(res.plot().axes) == 2
