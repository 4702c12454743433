"""The error-rate study: its design, its Monte Carlo errors and the published rates."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

import scorestd
from scorestd.errors import OptionError, ScorestdWarning
from scorestd.experiments.error_rate_pool import ErrorRatePool, prepare_collection
from scorestd.experiments.significance_errors import _type1_design, _type2_design, error_rates

REFERENCE = Path(__file__).parents[1] / "results" / "urbano2019_error_rates" / "reference.csv"


def reference(kind, measure, n, test, tails, alpha, delta=""):
    with open(REFERENCE) as f:
        for row in csv.DictReader(f):
            if (row["kind"], row["measure"], row["n_topics"], row["test"], row["tails"],
                    row["alpha"], row["delta"]) == (kind, measure, str(n), test, str(tails),
                                                    str(alpha), delta):
                return float(row["rate"])
    raise KeyError((kind, measure, n, test, tails, alpha, delta))


@pytest.fixture(scope="module")
def normal_collection():
    # 14 systems (12 kept), 60 topics, scores far from the bounds: normal margins
    rng = np.random.default_rng(0)
    topic = rng.normal(0, 0.04, size=(60, 1))
    x = 0.5 + topic + rng.normal(0, 0.05, size=(60, 14)) + np.linspace(-0.05, 0.05, 14)
    return scorestd.cube(x, measures=["score"], attrs={"collection": "normal"})


def test_type1_error_of_the_t_test_on_normal_data_is_alpha(normal_collection):
    res = error_rates({"normal": normal_collection}, n_topics=[30], deltas=None,
                      tests=["paired_t", "permutation"], trials=6400, B=500, seed=3)
    for test in ("paired_t", "permutation"):
        for tails in (1, 2):
            for alpha in (0.01, 0.05, 0.1):
                rate = res.data["type1"].sel(test=test, tails=tails, alpha=alpha).item()
                se = np.sqrt(alpha * (1 - alpha) / 6400)
                assert abs(rate - alpha) < 4 * se, (test, tails, alpha, rate)
    se = res.data["type1_se"].sel(test="paired_t", tails=2, alpha=0.05).item()
    assert se == pytest.approx(np.sqrt(0.05 * 0.95 / 6400), rel=0.1)


def test_same_seed_same_rates_whatever_the_batch_size(normal_collection):
    kw = dict(n_topics=[25], deltas=[0.02], tests=["paired_t", "sign", "bootstrap"],
              trials=200, trials_type2=130, B=100, seed=5)
    a = error_rates({"normal": normal_collection}, batch_size=1, **kw)
    b = error_rates({"normal": normal_collection}, batch_size=3, **kw)
    np.testing.assert_array_equal(a.data["type1"].values, b.data["type1"].values)
    np.testing.assert_array_equal(a.data["power"].values, b.data["power"].values)


def test_design_follows_the_paper():
    cube = scorestd.datasets.load("adhoc8")
    kept = prepare_collection(cube, "ap")
    x = cube.sel(measure="ap").values
    # plain loop: drop runs equal (to 1e-5) to an earlier one, then the bottom 10% by mean
    unique = [j for j in range(x.shape[1])
              if not any(np.all(np.abs(x[:, i] - x[:, j]) <= 1e-5) for i in range(j))]
    means = x[:, unique].mean(axis=0)
    expected = [cube.system.values[j] for j, m in zip(unique, means, strict=True)
                if m >= np.quantile(means, 0.1)]
    assert list(kept.system.values) == expected
    pool = ErrorRatePool({"adhoc8": cube})["ap"]
    d1 = _type1_design(pool, False)
    s = pool.sizes[0]
    assert len(d1.rho) == s * (s - 1)  # ordered pairs of distinct runs
    assert np.array_equal(d1.exp_rows, np.repeat(np.arange(s), s - 1))  # H0: same margin
    d2 = _type2_design(pool, 0.05, False)
    # baselines exclude the top 25% by mean; each experimental margin has mean μ_b + δ
    assert len(d2.base_margin) <= s - round(s * 0.25)
    from scorestd.models._grid import table_moments

    mean_e, _ = table_moments(d2.exp_tables)
    group = np.repeat(np.arange(len(d2.base_margin)), np.diff(d2.group_pairs))
    np.testing.assert_allclose(mean_e, pool.means[d2.base_margin[group]] + 0.05, atol=1e-8)


@pytest.fixture(scope="module")
def ap_study():
    # the Gaussian copula (the fast option), against which the paper's copulas compare
    return error_rates(measures=["ap"], n_topics=[50], deltas=[0.05],
                       tests=["paired_t", "wilcoxon", "sign"], trials=3200, trials_type2=1600,
                       B=200, copula="gaussian", seed=2019)


def test_type1_rates_agree_with_the_published_ones(ap_study):
    # Published: 1,667,000 trials (SE ≈ 0.0002 at α = .05); ours: 3,200 trials.
    for tails in (1, 2):
        ours = ap_study.data.sel(test="paired_t", tails=tails, alpha=0.05)
        published = reference("type1", "ap", 50, "paired_t", tails, 0.05)
        assert abs(ours["type1"].item() - published) < 4 * ours["type1_se"].item() + 0.001


def test_type1_of_rank_tests_is_where_the_copulas_differ(ap_study):
    # A Gaussian copula is exchangeable: with both runs on one margin, the difference is
    # symmetric about 0 and the Wilcoxon and sign tests keep α. The published per-pair
    # copulas (asymmetric families) make it skewed, and those tests reject too often
    # (reproduced with the default copula="vine", below).
    # (The sign test is discrete, hence conservative: at most α.)
    for test in ("wilcoxon", "sign"):
        for tails in (1, 2):
            ours = ap_study.data.sel(test=test, tails=tails, alpha=0.05)
            rate, se = ours["type1"].item(), ours["type1_se"].item()
            assert rate < 0.05 + 4 * se
            if test == "wilcoxon":
                assert rate > 0.05 - 4 * se
            assert reference("type1", "ap", 50, test, tails, 0.05) > 0.06


def test_power_is_close_to_the_published_and_type3_is_rare(ap_study):
    # The Gaussian copula gives pairs of runs less linear dependence than the published
    # per-pair copulas (see the notebook): power is lower by up to about 0.12 here.
    for test in ("paired_t", "wilcoxon", "sign"):
        ours = ap_study.data["power"].sel(test=test, tails=2, alpha=0.05, delta=0.05).item()
        published = reference("power", "ap", 50, test, 2, 0.05, "0.05")
        assert published - 0.15 < ours < published + 0.05
        assert ap_study.data["type3"].sel(test=test, alpha=0.05, delta=0.05).item() < 0.005


def test_summary_and_figures(ap_study, tmp_path):
    table = ap_study.summary()
    assert list(table.columns) == ["type1(α=.05, 2-tailed)", "type1 se",
                                   "power(δ=.05, α=.05, 2-tailed)", "type3(δ=.05, α=.05)"]
    assert table.loc[("ap", 50, "paired_t"), "type1(α=.05, 2-tailed)"] == pytest.approx(
        ap_study.data["type1"].sel(test="paired_t", tails=2, alpha=0.05).item())
    import matplotlib.pyplot as plt

    for kind in ("type1", "power", "power_alpha", "type3"):
        fig = ap_study.plot(tmp_path / f"{kind}.png", kind=kind)
        assert (tmp_path / f"{kind}.png").stat().st_size > 0
        plt.close(fig)


def test_a_zero_type1_rate_is_marked_on_the_floor_not_drawn_down_to_it(tmp_path):
    """With B = 200 the bootstrap's p is at least 1/200: at α = .001 it never rejects, a
    rate of 0 that a log axis cannot draw. Its line starts at the first positive rate;
    a triangle on the axes' floor (x at α, y in axes coordinates) marks the zero, the
    legend says so; positive rates are drawn as computed."""
    import matplotlib.pyplot as plt

    res = error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=None,
                      alphas=[0.001, 0.01, 0.05], B=200, tests=["paired_t", "bootstrap"],
                      trials=256, seed=1, copula="gaussian")
    rates = res.data["type1"].sel(measure="ap", n_topics=25, tails=2)
    assert rates.sel(test="bootstrap", alpha=0.001).item() == 0
    fig = res.plot(tmp_path / "type1.png")
    ax = fig.axes[0]
    lines = {line.get_label(): line for line in ax.get_lines()}
    for test in ("paired_t", "bootstrap"):
        drawn = np.asarray(lines[test].get_ydata(), dtype=float)
        expected = rates.sel(test=test).values
        np.testing.assert_array_equal(drawn, np.where(expected == 0, np.nan, expected))
    floor = [line for line in ax.get_lines() if line.get_marker() == "v"]
    assert len(floor) == (rates.values == 0).any(axis=1).sum()
    marked = floor[-1]  # the bootstrap's, drawn after the paired t-test's if any
    assert marked.get_color() == lines["bootstrap"].get_color()
    assert np.asarray(marked.get_xdata()).tolist() == [0.001]
    assert np.asarray(marked.get_ydata()).tolist() == [0.0]
    assert not marked.get_clip_on()
    # y in axes coordinates: the triangle sits on the floor whatever the limits
    _, y_disp = marked.get_transform().transform((0.001, 0.0))
    assert y_disp == pytest.approx(ax.transAxes.transform((0, 0))[1])
    assert "rate 0 (no rejection in 256 trials)" in [
        t.get_text() for t in ax.get_legend().get_texts()]
    plt.close(fig)


def test_bad_arguments(normal_collection):
    with pytest.raises(OptionError, match="seed= is required"):
        error_rates({"n": normal_collection})
    with pytest.raises(OptionError, match="test must be one of"):
        error_rates({"n": normal_collection}, tests=["t"], seed=1)
    with pytest.raises(scorestd.ScoreDataError,
                       match=r"unknown measure 'ap'; the measures of the collections: \['score'\]"):
        error_rates({"n": normal_collection}, measures=["ap"], trials=64, deltas=None, seed=1)


def test_a_measure_is_labelled_as_the_collections_spell_it_and_studied_once():
    kw = dict(n_topics=[10], deltas=None, tests=["paired_t"], trials=64, copula="gaussian",
              seed=1)
    # the bundled collections spell average precision "ap"; asked for as "AP" (ir_measures)
    res = error_rates(["adhoc8"], measures=["AP"], **kw)
    assert res.data["measure"].values.tolist() == ["ap"]
    same = error_rates(["adhoc8"], measures=["ap"], **kw)
    np.testing.assert_array_equal(res.data["type1"].values, same.data["type1"].values)
    with pytest.raises(OptionError, match=r"measures 'AP' and 'map' are the same measure "
                                          r"\('ap' in the collections\)"):
        error_rates(["adhoc8"], measures=["AP", "map"], **kw)


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"deltas": [0.99]}, "δ = 0.99 cannot be reached"),
    ({"deltas": [1.5]}, r"deltas\[0\] must be strictly between 0 and 1"),
    ({"n_topics": [2]}, r"n_topics\[0\] must be an integer ≥ 3"),
    ({"n_topics": []}, "n_topics must hold at least one value"),
    ({"trials": 0}, "trials must be an integer ≥ 1"),
    ({"alphas": [0.05, 1]}, r"alphas\[1\] must be strictly between 0 and 1"),
    ({"copula": "t"}, "copula must be one of"),
    ({"batch_size": 0}, "batch_size must be an integer ≥ 1"),
    ({"pool": 3}, "pool must be an ErrorRatePool or a .npz path"),
    ({"pool": "pool.csv"}, "pool must be an ErrorRatePool or a .npz file"),
])
def test_bad_options_are_named(normal_collection, kwargs, match):
    kw = dict(n_topics=[10], deltas=[0.05], tests=["paired_t"], trials=64, trials_type2=64,
              copula="gaussian", seed=1) | kwargs
    with pytest.raises((OptionError, scorestd.ScoreDataError), match=match):
        error_rates({"n": normal_collection}, **kw)


def test_a_scalar_is_read_as_a_sequence_of_one(normal_collection):
    kw = dict(tests="paired_t", trials=64, trials_type2=64, B=50, copula="gaussian", seed=1)
    a = error_rates({"n": normal_collection}, n_topics=25, deltas=0.05, **kw)
    b = error_rates({"n": normal_collection}, n_topics=[25], deltas=[0.05], **kw)
    np.testing.assert_array_equal(a.data["power"].values, b.data["power"].values)
    assert a.data["n_topics"].values.tolist() == [25]


def test_summary_asks_for_levels_the_study_computed(ap_study):
    with pytest.raises(OptionError, match="alpha must be one of the levels computed"):
        ap_study.summary(alpha=0.045)
    with pytest.raises(OptionError, match="delta must be one of the levels computed"):
        ap_study.summary(deltas=[0.02])
    with pytest.raises(OptionError, match="tails must be one of 1, 2; got 3"):
        ap_study.summary(tails=3)
    with pytest.raises(OptionError, match="alpha must be one of the levels computed"):
        ap_study.plot(kind="power", alpha=0.045)
    one = ap_study.summary(alpha=0.01, tails=1)
    assert one.loc[("ap", 50, "sign"), "type1(α=.01, 1-tailed)"] == pytest.approx(
        ap_study.data["type1"].sel(test="sign", tails=1, alpha=0.01).item())


def _collection(n_runs, seed):
    rng = np.random.default_rng(seed)
    topic = rng.normal(0, 0.04, size=(40, 1))
    x = 0.5 + topic + rng.normal(0, 0.05, size=(40, n_runs)) + np.linspace(-.1, .1, n_runs)
    return scorestd.cube(np.clip(x, 0.01, 0.99), measures=["score"])


def test_a_baseline_is_never_paired_with_itself():
    # 12 runs: 10 kept after the bottom 10%, fewer than a baseline and 10 others
    small, large = _collection(12, 1), _collection(16, 2)
    assert prepare_collection(small).sizes["system"] == 10
    pool = ErrorRatePool({"small": small, "large": large})["score"]
    with pytest.warns(ScorestdWarning, match=r"\['small'\] keep fewer than 11 runs"):
        d2 = _type2_design(pool, 0.01, True)
    assert np.all(d2.keys[:, 1] != d2.keys[:, 2])
    assert np.all(d2.keys[:, 0] == 1)  # the large collection only
    with pytest.raises(scorestd.ScoreDataError, match=r"needs .*\['small'\]"):
        error_rates({"small": small}, n_topics=[20], deltas=[0.01], tests=["paired_t"],
                    trials=64, trials_type2=64, copula="gaussian", seed=1)


def test_a_collection_with_one_kept_run_is_left_out():
    lone, other = _collection(2, 3), _collection(14, 4)
    assert prepare_collection(lone).sizes["system"] == 1
    with pytest.warns(ScorestdWarning, match="collection 'lone' keeps 1 run"):
        pool = ErrorRatePool({"lone": lone, "other": other})["score"]
    assert pool.collections == ["other"]
    d1 = _type1_design(pool, True)
    assert np.all(d1.keys[:, 1] != d1.keys[:, 2])
    # both runs of a Type I pair come from one collection, the first's margin for both
    assert np.array_equal(d1.exp_rows, np.repeat(d1.base_margin, np.diff(d1.group_pairs)))


def test_pool_is_reused_saved_and_refused_for_other_data(normal_collection, tmp_path):
    kw = dict(n_topics=[20], deltas=[0.05], tests=["paired_t", "sign"], trials=128,
              trials_type2=64, seed=8)
    path = tmp_path / "pool.npz"
    first = error_rates({"n": normal_collection}, pool=path, **kw)
    fitted = dict(first.pool["score"].fitted)
    assert path.exists() and len(fitted) > 0
    again = error_rates({"n": normal_collection}, pool=ErrorRatePool.load(
        path, {"n": normal_collection}), **kw)
    for name in ("type1", "power"):
        np.testing.assert_array_equal(again.data[name].values, first.data[name].values)
    assert {k: v.tolist() for k, v in again.pool["score"].fitted.items()} == \
        {k: v.tolist() for k, v in fitted.items()}
    # another n and seed reuse the fits (the pool only grows with pairs not drawn yet)
    other = error_rates({"n": normal_collection}, pool=first.pool, **(kw | {"seed": 9}))
    assert set(fitted) <= set(other.pool["score"].fitted)
    with pytest.raises(OptionError, match="other scores of collection 'n'"):
        ErrorRatePool.load(path, {"n": normal_collection + 0.01})
    with pytest.raises(OptionError, match="fitted to collections"):
        error_rates({"m": normal_collection}, pool=first.pool, **kw)


def test_a_pool_with_every_pair_fitted_gives_the_same_rates_without_redrawing(
        normal_collection, monkeypatch):
    # a design whose pairs are all fitted (a complete pool file, or the Type I cell of a
    # study before its Type II cells) is not redrawn to find the pairs its trials use
    import scorestd.experiments.significance_errors as se

    kw = dict(n_topics=[20], deltas=[0.05], tests=["paired_t", "sign"], trials=128,
              trials_type2=64, seed=8)
    selects = []
    select = se._select
    monkeypatch.setattr(se, "_select", lambda *a: selects.append(1) or select(*a))
    fresh = error_rates({"n": normal_collection}, **kw)
    fresh_selects = len(selects)
    pool = ErrorRatePool({"n": normal_collection})
    size = int(pool["score"].sizes[0])
    pool["score"].pair_copulas(np.array([(0, i, j) for i in range(size)
                                         for j in range(i + 1, size)]))
    selects.clear()
    full = error_rates({"n": normal_collection}, pool=pool, **kw)
    assert len(selects) < fresh_selects  # the draws only, no search for the pairs drawn
    for name in ("type1", "power", "type3"):
        np.testing.assert_array_equal(full.data[name].values, fresh.data[name].values)


def test_a_second_pool_reuses_the_fitted_margins(monkeypatch, tmp_path):
    """Margins are fitted once per process for the same scores: another pool over the
    same collections (another family set, read from a file) reuses them, the same
    arrays as a fit from scratch; other scores are fitted anew."""
    from scorestd.experiments import error_rate_pool

    cubes = {"adhoc8": scorestd.datasets.load("adhoc8").isel(system=slice(0, 30))}
    monkeypatch.setattr(error_rate_pool, "_MARGIN_CACHE", type(error_rate_pool._MARGIN_CACHE)())
    fits = []
    real = error_rate_pool.fit_margins
    monkeypatch.setattr(error_rate_pool, "fit_margins", lambda kept: fits.append(kept) or real(kept))
    first = ErrorRatePool(cubes)["ap"]
    assert len(fits) == 1
    path = tmp_path / "pool.npz"
    ErrorRatePool(cubes).save(path)
    for again in (ErrorRatePool(cubes, pair_families="vinecopulib")["ap"],
                  ErrorRatePool.load(path, cubes)["ap"]):
        for name in ("tables", "means", "observed_means", "offsets", "sizes"):
            np.testing.assert_array_equal(getattr(again, name), getattr(first, name))
        assert (again.families, again.failures) == (first.families, first.failures)
    assert len(fits) == 1
    fresh = real(prepare_collection(cubes["adhoc8"], "ap"))  # as fitted from scratch
    np.testing.assert_array_equal(first.tables, fresh.table)
    np.testing.assert_array_equal(first.means, fresh.mean)
    with pytest.raises(ValueError, match="read-only"):
        error_rate_pool._MARGIN_CACHE[next(iter(error_rate_pool._MARGIN_CACHE))].table[0, 0] = 1
    # other scores (the kept runs' AP scaled), another measure: fitted anew
    changed = cubes["adhoc8"].copy(deep=True)
    changed.loc[{"measure": "ap"}] = 0.9 * changed.sel(measure="ap")
    ErrorRatePool({"adhoc8": changed})["ap"]
    ErrorRatePool(cubes)["p10"]
    assert len(fits) == 3


def _kept_margins_bytes() -> int:
    from scorestd.experiments import error_rate_pool

    return sum(m.nbytes for m in error_rate_pool._MARGIN_CACHE.values())


def test_the_fitted_margins_kept_are_bounded_by_half_the_memory_budget(monkeypatch):
    from scorestd.experiments import error_rate_pool

    cubes = {"adhoc8": scorestd.datasets.load("adhoc8").isel(system=slice(0, 20))}
    monkeypatch.setattr(error_rate_pool, "_MARGIN_CACHE", type(error_rate_pool._MARGIN_CACHE)())
    fits = []
    real = error_rate_pool.fit_margins
    monkeypatch.setattr(error_rate_pool, "fit_margins", lambda kept: fits.append(kept) or real(kept))
    big = ErrorRatePool(cubes, memory="64MiB")
    sizes = {m: big[m].tables.nbytes for m in ("ap", "rr", "p10")}
    # the 20 AP margins (4143-point tables) take more than half of 1 MiB; RR's and P@10's less
    assert sizes["ap"] > 2**19 > sizes["rr"] + sizes["p10"]
    assert sum(sizes.values()) < _kept_margins_bytes() < 1.05 * sum(sizes.values())  # + means, labels
    # a pool under a 1 MiB budget trims what the process keeps to 512 KiB at once
    small = ErrorRatePool(cubes, memory="1MiB")
    small["rr"]
    assert len(fits) == 3 and _kept_margins_bytes() <= 2**19
    kept = list(error_rate_pool._MARGIN_CACHE.values())
    assert [m.table.shape[1] for m in kept] == [11, 1001]  # AP, least recently used, went
    assert kept[0].support.tolist() == pytest.approx(np.arange(11) / 10)
    # margins over the budget on their own are fitted, served, not kept
    ap = small.measure_pool("ap")
    ap_small = ErrorRatePool(cubes, memory="1MiB")["ap"]
    assert len(fits) == 5 and _kept_margins_bytes() <= 2**19
    np.testing.assert_array_equal(ap_small.tables, ap.tables)
    np.testing.assert_array_equal(ap.tables, big["ap"].tables)
    # under a larger budget they are kept again, and reused
    ErrorRatePool(cubes, memory="64MiB")["ap"]
    ErrorRatePool(cubes)["ap"]
    assert len(fits) == 6 and _kept_margins_bytes() > 2**19
    # a pool's measure asked for again under a small budget trims them too
    assert big.measure_pool("p10", memory="1MiB") is big["p10"]
    assert len(fits) == 6 and _kept_margins_bytes() <= 2**19


def test_error_rates_keep_the_margins_within_their_budget_and_the_same_rates(monkeypatch):
    """The margins kept between studies follow each study's ``memory=``; whether they
    were kept (reused) or refitted, the rates are the same."""
    from scorestd.experiments import error_rate_pool

    cubes = {"adhoc8": scorestd.datasets.load("adhoc8").isel(system=slice(0, 24))}
    monkeypatch.setattr(error_rate_pool, "_MARGIN_CACHE", type(error_rate_pool._MARGIN_CACHE)())
    fits = []
    real = error_rate_pool.fit_margins
    monkeypatch.setattr(error_rate_pool, "fit_margins", lambda kept: fits.append(kept) or real(kept))
    kw = dict(measures=["ap", "rr"], n_topics=[20], deltas=[0.05], tests=["paired_t", "sign"],
              trials=192, trials_type2=64, B=100, copula="gaussian", seed=4, batch_size=2)
    small = error_rates(cubes, memory="1MiB", **kw)
    assert len(fits) == 2 and _kept_margins_bytes() <= 2**19  # RR's kept, not AP's
    large = error_rates(cubes, memory="1GiB", **kw)  # RR's reused, AP's refitted
    assert len(fits) == 3 and _kept_margins_bytes() > 2**19
    again = error_rates(cubes, memory="1GiB", **kw)  # both reused
    assert len(fits) == 3
    monkeypatch.setattr(error_rate_pool, "_MARGIN_CACHE", type(error_rate_pool._MARGIN_CACHE)())
    fresh = error_rates(cubes, memory="1GiB", **kw)  # both refitted
    assert len(fits) == 5
    for other in (large, again, fresh):
        for name in ("type1", "power", "type3"):
            np.testing.assert_array_equal(other.data[name].values, small.data[name].values)


def test_a_pair_that_fails_falls_back_to_the_next_family(monkeypatch):
    import pyvinecopulib as pv

    from scorestd.simulation import copula

    real = pv.Bicop.from_data

    def failing(u, controls):  # the selection over every family fails once
        if len(controls.family_set) > 1:
            raise RuntimeError("optimisation failed")
        return real(u, controls=controls)

    monkeypatch.setattr(pv.Bicop, "from_data", staticmethod(failing))
    x = scorestd.datasets.load("adhoc8").sel(measure="ap").values[:, :2]
    row, fell_back = copula.fit_pair_copula(x, seed=1, families="vinecopulib")
    assert fell_back and row[0] != 0  # a family was fitted, not independence
    monkeypatch.setattr(pv.Bicop, "from_data", staticmethod(real))
    best, _ = copula.fit_pair_copula(x, seed=1, families="vinecopulib")
    np.testing.assert_allclose(row, best)  # the best family that fits: AIC's choice


def test_a_bicopselect_candidate_that_fails_is_left_out_and_counted(monkeypatch):
    import pyvinecopulib as pv

    from scorestd.kernels.pair_copulas import family_code
    from scorestd.simulation import copula

    x = scorestd.datasets.load("adhoc8").sel(measure="ap").values[:, :2]
    best, fell_back = copula.fit_pair_copula(x, seed=1)  # the default: BiCopSelect's
    assert not fell_back and best[0] != 0
    real = pv.Bicop.fit
    chosen = best[0]

    def failing(self, data, controls):  # the family AIC selected cannot be fitted
        if family_code(str(self.family).split(".")[-1]) == chosen:
            raise RuntimeError("optimisation failed")
        return real(self, data, controls=controls)

    monkeypatch.setattr(pv.Bicop, "fit", failing)
    row, fell_back = copula.fit_pair_copula(x, seed=1)
    assert fell_back and row[0] not in (0, chosen)  # the next family, not independence


def test_vine_pair_copulas_make_rank_tests_liberal():
    # With a copula per pair selected by AIC (asymmetric Tawn copulas among them), the
    # difference of two runs on one margin is skewed: Wilcoxon rejects H0 too often, as
    # published (0.072 at α = .05, two-tailed, ap, n = 50; the large run: 0.069, the
    # t-test 0.050). 1,280 trials: the difference is about 2 of its standard errors.
    res = error_rates(["adhoc8"], measures=["ap"], n_topics=[50], deltas=None,
                      tests=["paired_t", "wilcoxon"], trials=1280, copula="vine", seed=4)
    t = res.data["type1"].sel(tails=2, alpha=0.05)  # the published rate's α
    assert res.data.attrs["copula"] == "vine"
    assert abs(t.sel(test="paired_t").item() - 0.05) < 4 * np.sqrt(0.05 * 0.95 / 1280)
    assert t.sel(test="wilcoxon").item() > t.sel(test="paired_t").item()


def test_vine_pair_copulas_fitted_on_a_cluster_give_the_same_rates(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from scorestd.experiments import error_rate_pool

    monkeypatch.setattr(error_rate_pool, "PAIRS_PER_TASK", 16)  # several tasks
    cube = scorestd.datasets.load("adhoc8").isel(system=slice(0, 30))
    # trial counts that leave a block part-used (its unused trials draw pairs too)
    kw = dict(measures=["ap"], n_topics=[25], deltas=[0.05], tests=["paired_t", "sign"],
              trials=100, trials_type2=70, copula="vine", seed=6)
    local = error_rates({"a8": cube}, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = error_rates({"a8": cube}, client=client, **kw)
    for name in ("type1", "power", "type3"):
        np.testing.assert_array_equal(remote.data[name].values, local.data[name].values)


def test_a_pool_read_from_a_file_fits_the_margins_of_a_measure_when_used(monkeypatch,
                                                                          tmp_path):
    """Reading a pool fits no margins (a study fits each measure's when it reaches it,
    while the cells before still run); the copulas of the measures not used stay in the
    file it saves."""
    from scorestd.experiments import error_rate_pool

    cubes = {"adhoc8": scorestd.datasets.load("adhoc8").isel(system=slice(0, 12))}
    pool = ErrorRatePool(cubes)
    for measure in ("ap", "p10"):
        m = pool[measure]
        m.pair_copulas(np.array([[0, 0, 1], [0, 2, 5]]))
        m.fallbacks = {"ap": 2, "p10": 3}[measure]
    path = tmp_path / "pool.npz"
    pool.save(path)
    built = []
    real = error_rate_pool._measure_pool
    monkeypatch.setattr(error_rate_pool, "_measure_pool",
                        lambda cubes, measure, *a: built.append(measure) or real(cubes, measure, *a))
    again = ErrorRatePool.load(path, cubes)
    assert built == [] and "'ap': 2" in repr(again) and "'p10': 2" in repr(again)
    ap = again["ap"]
    assert built == ["ap"] and ap.fallbacks == 2
    assert {k: v.tolist() for k, v in ap.fitted.items()} == \
        {k: v.tolist() for k, v in pool["ap"].fitted.items()}
    again.save(path)  # p10 never used: its copulas kept
    third = ErrorRatePool.load(path, cubes)
    assert third["p10"].fallbacks == 3
    assert {k: v.tolist() for k, v in third["p10"].fitted.items()} == \
        {k: v.tolist() for k, v in pool["p10"].fitted.items()}
