"""The measure registry: names of trec_eval, ir_measures, ranx and the bundled data, ranges,
supports, and the range checks of validate (warn, or raise with strict=True)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import xarray as xr
from hypothesis import given
from hypothesis import strategies as st

import scorestd
from scorestd.errors import OptionError, ScoreDataError, ScorestdWarning
from scorestd.measures import measure_info, out_of_range, out_of_range_by_measure, register_measure

# (name as the toolkit writes it, family, cut-off, range in words)
NAMES = [
    # trec_eval
    ("map", "ap", None, "[0, 1]"), ("ndcg_cut_20", "ndcg", 20, "[0, 1]"),
    ("P_10", "precision", 10, "multiples of 1/10 in [0, 1]"),
    ("recip_rank", "rr", None, "0 or 1/rank in [0, 1]"), ("recall_100", "recall", 100, "[0, 1]"),
    ("Rprec", "rprec", None, "[0, 1]"), ("bpref", "bpref", None, "[0, 1]"),
    ("iprec_at_recall_0.10", "iprec", 0.1, "[0, 1]"), ("success_10", "success", 10,
                                                      "whole numbers in [0, 1]"),
    ("num_rel_ret", "count", None, "whole numbers in [0, inf]"),
    # ir_measures
    ("AP", "ap", None, "[0, 1]"), ("nDCG@20", "ndcg", 20, "[0, 1]"),
    ("P@10", "precision", 10, "multiples of 1/10 in [0, 1]"), ("RR", "rr", None,
                                                            "0 or 1/rank in [0, 1]"),
    ("ERR@20", "err", 20, "[0, 1]"), ("R@100", "recall", 100, "[0, 1]"),
    ("nDCG(dcg='exp-log2')@10", "ndcg", 10, "[0, 1]"), ("P(rel=2)@5", "precision", 5,
                                                       "multiples of 1/5 in [0, 1]"),
    ("Judged@10", "judged", 10, "[0, 1]"), ("alpha_nDCG@20", "ndcg", 20, "[0, 1]"),
    # ranx
    ("ndcg@20", "ndcg", 20, "[0, 1]"), ("precision@10", "precision", 10,
                                        "multiples of 1/10 in [0, 1]"),
    ("mrr", "rr", None, "0 or 1/rank in [0, 1]"), ("hits@10", "hits", 10,
                                                 "whole numbers in [0, 10]"),
    ("ndcg_burges@10", "ndcg", 10, "[0, 1]"), ("dcg@10", "dcg", 10, "[0, inf]"),
    # the bundled data
    ("ap", "ap", None, "[0, 1]"), ("ndcg", "ndcg", None, "[0, 1]"),
    ("p10", "precision", 10, "multiples of 1/10 in [0, 1]"), ("rr", "rr", None,
                                                            "0 or 1/rank in [0, 1]"),
    ("ndcg20", "ndcg", 20, "[0, 1]"), ("err20", "err", 20, "[0, 1]"),
]


@pytest.mark.parametrize(("name", "family", "cutoff", "text"), NAMES)
def test_names_of_every_toolkit(name, family, cutoff, text):
    m = measure_info(name)
    assert (m.family, m.cutoff, m.describe()) == (family, cutoff, text)


@pytest.mark.parametrize("name", ["score", "my_gain", "11pt_avg", "runid", "utility"])
def test_unknown_names_are_unbounded(name):
    assert measure_info(name) is None
    c = scorestd.cube([[7.0, -3.0]], measures=[name])  # no warning: nothing known
    assert scorestd.describe(c).loc[name, "range"] == "unknown: unbounded"


def test_supports_by_hand():
    # P@10: multiples of 0.1; RR: 0 or 1/r (4-decimal rounding allowed); counts: integers
    assert out_of_range(np.array([0.0, 0.1, 0.3, 1.0, 0.35, 0.05]), measure_info("P_10")).tolist() \
        == [False, False, False, False, True, True]
    assert out_of_range(np.array([0.0, 1.0, 0.5, 0.3333, 0.0333, 0.7, 0.4]),
                        measure_info("recip_rank")).tolist() == [False] * 5 + [True, True]
    assert out_of_range(np.array([0, 3, 2.5, -1]), measure_info("num_ret")).tolist() \
        == [False, False, True, True]
    assert not out_of_range(np.array([np.nan]), measure_info("map")).any()


def test_every_bundled_dataset_is_in_range():
    for name in ("adhoc5", "adhoc6", "adhoc7", "adhoc8", "robust2004", "terabyte2006",
                 "web2010", "web2011", "web2012", "web2013"):
        d = scorestd.describe(scorestd.datasets.load(name))
        assert (d["out_of_range"] == 0).all(), name
        assert not d["range"].str.startswith("unknown").any(), name


@pytest.mark.parametrize("bad", [1.5, 7.0, -0.3])
def test_out_of_range_scores_warn_in_every_raw_function_naming_the_cell(bad, small_cube):
    c = small_cube.copy()
    c[2, 3, 0] = bad  # measure "ap"
    where = rf"{bad!r} at topic 't3', system 's4'".replace("(", r"\(")
    for call in (scorestd.validate, scorestd.describe, lambda x: scorestd.aggregate(x),
                 lambda x: scorestd.standardize(x, "empirical"),
                 lambda x: scorestd.standardize(x, "normal")):
        if call is scorestd.describe:  # counted, not warned
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert call(c).loc["ap", "out_of_range"] == 1
            continue
        with pytest.warns(ScorestdWarning, match=rf"1 'ap' score outside \[0, 1\] \({where}"):
            call(c)
    with pytest.raises(ScoreDataError, match=r"1 'ap' score outside"):
        scorestd.validate(c, strict=True)


def test_standardized_and_model_outputs_do_not_warn(small_cube):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = scorestd.standardize(small_cube, "z")  # negative z-scores of 'ap'
        assert float(z.min()) < 0
        scorestd.aggregate(z)
        scorestd.compare(z)
        scorestd.rank_systems(scorestd.aggregate(z))
        fitted = scorestd.fit_reference(small_cube, "normal")
        scorestd.validate(fitted.sample(50, rng=1))  # normal samples leave [0, 1]
        scorestd.validate(fitted.cdf(small_cube))
    assert scorestd.describe(z).loc["ap", "range"] == "not raw scores"


def test_register_measure_declares_other_bounds():
    register_measure("signed_gain", -1, 1)
    c = scorestd.cube([[-0.5, 0.5]], measures=["signed_gain"])
    assert scorestd.describe(c).loc["signed_gain", "out_of_range"] == 0
    with pytest.warns(ScorestdWarning, match="outside \\[-1, 1\\]"):
        scorestd.cube([[-2.0]], measures=["signed_gain"])
    with pytest.raises(OptionError, match="lower must be < upper"):
        register_measure("x", 1, 0)
    with pytest.raises(OptionError, match="support must be one of"):
        register_measure("x", support="discrete")


@given(st.lists(st.integers(0, 10), min_size=1, max_size=20))
def test_p_at_10_values_from_counts_are_always_in_range(hits):
    # a plain-loop reference: P@10 is (relevant in the top 10) / 10, rounded as trec_eval
    values = np.array([round(h / 10, 4) for h in hits])
    assert not out_of_range(values, measure_info("P_10")).any()


@given(st.lists(st.integers(1, 1000), min_size=1, max_size=20))
def test_reciprocal_ranks_rounded_to_4_decimals_are_in_range(ranks):
    values = np.array([round(1 / r, 4) for r in ranks])
    assert not out_of_range(values, measure_info("RR")).any()


def test_a_dask_cube_is_not_computed_for_the_check(small_cube):
    lazy = (small_cube + 5).chunk({"measure": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ScorestdWarning)  # nothing computed, nothing said
        checked = scorestd.validate(lazy)
    assert isinstance(checked.data, type(lazy.data))
    with pytest.warns(ScorestdWarning, match="outside"):  # said when computed
        computed = checked.compute()
    xr.testing.assert_identical(computed, scorestd.validate(lazy.compute(), check_range=False))


def test_out_of_range_by_measure_equals_one_measure_at_a_time():
    rng = np.random.default_rng(4)
    x = np.round(rng.uniform(-0.2, 1.2, (30, 8, 4)), 2)
    x[0, 0] = np.nan
    infos = [measure_info("ap"), measure_info("P@10"), None, measure_info("recip_rank")]
    bad = out_of_range_by_measure(x, infos)
    for k, info in enumerate(infos):
        expected = np.zeros(x.shape[:-1], bool) if info is None else out_of_range(x[..., k], info)
        np.testing.assert_array_equal(bad[..., k], expected)
    inside = np.clip(x[..., :1], 0, 1)  # one bounded measure, nothing outside: one pass
    assert not out_of_range_by_measure(inside, [measure_info("ap")]).any()


@pytest.mark.parametrize(("name", "family", "cutoff", "text"), NAMES)
def test_the_simulator_support_comes_from_the_same_registry_entry(name, family, cutoff, text):
    from scorestd.simulation import support_of

    m, support = measure_info(name), support_of(name)
    if m.support == "interval" or not np.isfinite(m.upper):
        assert support is None  # continuous (or unbounded counts): no finite support
        return
    assert not out_of_range(support, m).any()  # every simulated value passes the range check
    # and values the simulator never draws fail it (away from the rounding tolerance;
    # above 1/20, where 1/r for ranks past the simulated depth are not dense)
    grid = np.linspace(0.05, m.upper, 997)
    far = np.abs(grid[:, None] - support[None, :]).min(axis=1) > 2 * scorestd.measures.TOLERANCE
    assert out_of_range(grid[far], m).all()
    if m.support == "multiples":
        assert support.tolist() == [i / cutoff for i in range(int(cutoff) + 1)]


@pytest.mark.parametrize("spellings", [
    ("p10", "P_10", "P@10", "precision@10", "P.10"),
    ("rr", "recip_rank", "RR", "mrr"),
    ("RR@10", "mrr@10", "recip_rank@10"),
    ("success@10", "success_10", "Success@10"),
])
def test_every_toolkit_spelling_of_a_measure_simulates_the_same_support(spellings):
    from scorestd.simulation import support_of

    supports = [support_of(s).tolist() for s in spellings]
    assert all(s == supports[0] for s in supports)
    families = {(measure_info(s).family, measure_info(s).support) for s in spellings}
    assert len(families) == 1


def test_a_registered_measure_reaches_the_simulator():
    from scorestd.simulation import support_of

    register_measure("graded_p5", support="multiples", cutoff=5)
    assert support_of("graded_p5").tolist() == [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]


def test_inferred_ap_is_a_known_measure_of_its_own():
    # trec_eval's infAP (sample_eval) and its extended xinfAP: bounded in [0, 1], and not AP
    from scorestd.measures import measure_info, same_measure

    assert measure_info("infAP").family == measure_info("xinfAP").family == "infap"
    assert (measure_info("infAP").lower, measure_info("infAP").upper) == (0.0, 1.0)
    assert not same_measure("infAP", "AP")
