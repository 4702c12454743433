"""Topic set size validation and E-std stability on simulated collections."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import scorestd
from scorestd.errors import OptionError
from scorestd.simulation import fit_simulator


@pytest.fixture(scope="module")
def sim():
    return fit_simulator(scorestd.datasets.load("adhoc8").isel(system=slice(0, 40)),
                         measure="ap")


def test_achieved_power_is_near_the_promised_power(sim, tmp_path):
    res = scorestd.topic_set_validation(sim, schemes=["raw", "N"], min_diff=0.1, trials=60,
                                        truth_topics=4000, seed=1)
    table = res.summary()
    design = scorestd.topic_set_size(sim.observed, min_diff=0.1, schemes=["raw", "N"])
    assert table["n_topics"].tolist() == design.values.ravel().tolist()
    assert (table["promised_power"] == 0.8).all()
    assert (table["pairs"] > 0).all()
    # Sakai's design is approximate (a normal approximation, a pooled variance): the
    # achieved power is near 1 − β, not equal to it
    assert np.all(np.abs(table["achieved_power"] - 0.8) < 0.15)
    import matplotlib.pyplot as plt

    plt.close(res.plot(tmp_path / "tss.png"))


def test_achieved_power_against_a_scipy_loop(sim):
    res = scorestd.topic_set_validation(sim, schemes=["raw"], min_diff=0.1, trials=12,
                                        truth_topics=2000, seed=3)
    # reference: the same simulated collections (spawn keys 0 for the truth, 1 for the
    # first scheme), every near pair tested with scipy.stats.ttest_rel, trial by trial
    root = np.random.SeedSequence(3)
    truth = scorestd.simulate(sim, n_topics=2000, seed=np.random.SeedSequence(
        root.entropy, spawn_key=(0,))).values[0, :, :, 0]
    n = int(res.data["n_topics"].item())
    cubes = scorestd.simulate(sim, n_topics=n, trials=12, seed=np.random.SeedSequence(
        root.entropy, spawn_key=(1,))).values[..., 0]
    means = truth.mean(axis=0)
    pairs = [(i, j) for i in range(40) for j in range(i + 1, 40)
             if abs(abs(means[i] - means[j]) - 0.1) <= 0.2 * 0.1]
    rates = [np.mean([stats.ttest_rel(c[:, i], c[:, j]).pvalue < 0.05 for i, j in pairs])
             for c in cubes]
    assert int(res.data["pairs"].item()) == len(pairs)
    np.testing.assert_allclose(res.data["trial_power"].sel(scheme="raw"), rates)
    assert res.data["achieved_power"].item() == pytest.approx(np.mean(rates))
    assert res.data["achieved_se"].item() == pytest.approx(np.std(rates, ddof=1) / np.sqrt(12))


def test_the_paired_t_tests_run_a_block_of_trials_at_a_time_within_the_budget(sim, monkeypatch):
    from scorestd.experiments import simulation_studies

    blocks = []
    real = simulation_studies.paired_t_complete
    monkeypatch.setattr(simulation_studies, "paired_t_complete",
                        lambda x: blocks.append(len(x)) or real(x))
    kw = dict(schemes=["raw", "E"], min_diff=0.1, trials=30, truth_topics=400, seed=3)
    small = scorestd.topic_set_validation(sim, memory="1MiB", **kw)
    # 40 systems over 24 and 80 topics: 66 and 101 kB a trial, 15 and 10 trials a block
    assert len(blocks) > 2 * 2 and max(blocks) < 30
    blocks.clear()
    whole = scorestd.topic_set_validation(sim, **kw)
    assert blocks == [30, 30]
    assert small.data.identical(whole.data)


def test_estd_spread_shrinks_with_the_pool(sim, tmp_path):
    res = scorestd.estd_stability(sim, pool_sizes=[3, 10, 39], trials=60, seed=2)
    table = res.summary()
    assert table["sd"].is_monotonic_decreasing
    assert ((table["q025"] <= table["mean"]) & (table["mean"] <= table["q975"])).all()
    # with every other system in the pool the score is the E-std of the simulated cube
    from scorestd.models import get_model

    cubes = scorestd.simulate(sim, trials=60, seed=np.random.SeedSequence(
        np.random.SeedSequence(2).entropy, spawn_key=(0,))).values[..., 0]
    s = list(sim.systems).index(res.data.attrs["system"])
    others = np.delete(np.arange(40), s)
    ref = get_model("empirical")().transform(cubes[..., others], cubes[..., [s]])[..., 0]
    np.testing.assert_allclose(res.data["estd"].sel(pool_size=39).values, ref.mean(axis=1))
    import matplotlib.pyplot as plt

    plt.close(res.plot(tmp_path / "estd.png"))
    with pytest.raises(OptionError, match="at most 39"):
        scorestd.estd_stability(sim, pool_sizes=[50], trials=2, seed=1)
    with pytest.raises(OptionError, match=r"^system: unknown system 'nope'; the systems are \["):
        scorestd.estd_stability(sim, system="nope", trials=2, seed=1)
    for study in (scorestd.estd_stability, scorestd.topic_set_validation):
        with pytest.raises(OptionError, match="seed= is required"):
            study(sim, trials=2)


def test_summaries_say_what_each_column_is(sim):
    res = scorestd.topic_set_validation(sim, schemes=["raw"], min_diff=0.9, trials=3,
                                        truth_topics=500, seed=1)
    table = res.summary()
    assert table["pairs"].item() == 0 and np.isnan(table["achieved_power"].item())
    assert set(table.attrs["columns"]) == set(table.columns)
    assert "NaN: no pair that near min_diff" in table.attrs["columns"]["achieved_power"]
    assert "min_diff = 0.9" in table.attrs["columns"]["pairs"]
    estd = scorestd.estd_stability(sim, pool_sizes=[5], trials=4, seed=1).summary()
    assert set(estd.attrs["columns"]) == {"pool_size", "mean", "sd", "q025, q975"}


def test_estd_figure_of_one_pool_size_shows_its_range(sim):
    import matplotlib.pyplot as plt

    res = scorestd.estd_stability(sim, pool_sizes=[5], trials=10, seed=1)
    fig = res.plot()
    (segment,) = fig.axes[0].collections[0].get_segments()
    table = res.summary()
    np.testing.assert_allclose(segment[:, 1], [table["q025"].item(), table["q975"].item()])
    assert "95% of the trials" in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    plt.close(fig)
