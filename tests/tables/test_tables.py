"""Tables for papers: the layout pinned by files, the numbers checked independently."""

from __future__ import annotations

import importlib.util
import io
import itertools
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats
from statsmodels.stats.multitest import multipletests

import scorestd
from scorestd.errors import OptionError, ScoreDataError
from scorestd.tables import significance_table, system_letters

EXPECTED = Path(__file__).parents[1] / "results" / "tables"


def _make_tables():
    spec = importlib.util.spec_from_file_location("make_tables", EXPECTED / "make_tables.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.tables()


@pytest.fixture(scope="module")
def made():
    return _make_tables()


@pytest.mark.parametrize("suffix", [".tex", ".md", ".csv"])
def test_tables_match_the_expected_files(made, suffix, tmp_path):
    for stem, table in made.items():
        path = table.write(tmp_path / f"{stem}{suffix}")
        assert path.read_text() == (EXPECTED / f"{stem}{suffix}").read_text(), stem


def test_latex_is_booktabs_with_caption_and_escaped_labels():
    values = pd.DataFrame({"P@10": [0.5, 0.25]}, index=pd.Index(["bm25_rm3", "a&b"], name="system"))
    text = scorestd.tables.Table(values, caption="α = 0.05", notes={"P@10": "100% of x"}).to_latex()
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert text.count(rule) == 1
    assert r"bm25\_rm3" in text and r"a\&b" in text and r"100\% of x" in text
    assert r"\caption{$\alpha$ = 0.05}" in text


def test_all_pairs_markers_follow_scipy_and_statsmodels(robust2004):
    # independent reference: scipy's paired t-test of every pair, Holm by statsmodels
    cube = robust2004.isel(system=slice(0, 6))
    table = significance_table(scorestd.compare(cube, correction="holm"), cube, alpha=0.05)
    systems = [str(s) for s in cube.system.values]
    letter = dict(zip(systems, system_letters(len(systems)), strict=True))
    for measure in cube.measure.values:
        x = cube.sel(measure=measure).transpose("topic", "system").values
        pairs = list(itertools.combinations(range(len(systems)), 2))
        p = [stats.ttest_rel(x[:, i], x[:, j]).pvalue for i, j in pairs]
        reject = multipletests(p, alpha=0.05, method="holm")[0]
        expected = {s: set() for s in systems}
        for (i, j), r in zip(pairs, reject, strict=True):
            if r:
                hi, lo = (i, j) if x[:, i].mean() > x[:, j].mean() else (j, i)
                expected[systems[hi]].add(letter[systems[lo]])
        got = table.marks[str(measure)]
        for s in systems:
            assert set(got[f"({letter[s]}) {s}"]) == expected[s], (measure, s)
        np.testing.assert_allclose(table.values[str(measure)].to_numpy(), x.mean(axis=0))
        assert table.bold[str(measure)].to_numpy().tolist() == (x.mean(0) == x.mean(0).max()).tolist()
    assert "holm correction over 15 pairs" in table.caption


def test_baseline_markers_and_caption(robust2004):
    cube = robust2004.isel(system=slice(0, 5)).sel(measure=["ap"])
    base = str(cube.system.values[2])
    res = scorestd.compare(cube, "sign", baseline=base, correction="bh")
    table = scorestd.table(res, scores=cube, alpha=0.1)
    p = res.p_adjusted.sel(measure="ap").values
    diff = res.mean_diff.sel(measure="ap").values
    for k, s in enumerate(res.system.values):
        want = "" if p[k] >= 0.1 else ("+" if diff[k] > 0 else "−")
        assert table.marks.loc[str(s), "ap"] == want
    assert table.marks.loc[base, "ap"] == ""
    assert f"baseline {base}" in table.caption and "sign test" in table.caption
    assert "bh correction over 4 pairs" in table.caption and "α = 0.1" in table.caption


def test_caption_says_when_the_scores_are_standardized(robust2004):
    cube = robust2004.isel(system=slice(0, 4)).sel(measure=["ap"])
    raw = scorestd.table(scorestd.compare(cube), scores=cube)
    assert raw.caption.startswith("Mean ap over 99 topics;")
    std = scorestd.standardize(cube, "empirical")
    table = scorestd.table(scorestd.compare(std), scores=std)
    # E-std means are not AP: the caption and the column note say what they are
    assert table.caption.startswith("Mean ap standardized by empirical over 99 topics;")
    assert "standardized by empirical" in table.notes["ap"]


def test_means_interval_is_scipys_t_interval(robust2004):
    cube = robust2004.isel(system=slice(0, 3))
    table = scorestd.table(cube, conf_level=0.9)
    for measure in cube.measure.values:
        x = cube.sel(measure=measure).transpose("topic", "system").values
        for k in range(x.shape[1]):
            low, high = stats.t.interval(0.9, len(x) - 1, loc=x[:, k].mean(),
                                         scale=stats.sem(x[:, k]))
            assert table.low.iat[k, list(cube.measure.values).index(measure)] == pytest.approx(low)
            assert table.high.iat[k, list(cube.measure.values).index(measure)] == pytest.approx(high)
    assert "90% t confidence interval" in table.caption


def test_means_leave_missing_scores_out(small_cube):
    cube = small_cube.copy()
    cube[0, 1, 0] = np.nan
    table = scorestd.table(cube)
    x = cube.values[:, 1, 0]
    assert table.values.iat[1, 0] == pytest.approx(np.nanmean(x))
    assert np.isfinite(table.low.iat[1, 0])


def test_csv_round_trips_the_numbers(robust2004):
    cube = robust2004.isel(system=slice(0, 4))
    table = scorestd.table(scorestd.compare(cube), scores=cube)
    back = pd.read_csv(io.StringIO(table.to_csv()), index_col=0, keep_default_na=False)
    np.testing.assert_allclose(back[["ap", "ndcg"]].to_numpy(), table.values.to_numpy())
    assert back["ap_marks"].tolist() == table.marks["ap"].tolist()


def test_bad_input_is_named(robust2004, tmp_path):
    res = scorestd.compare(robust2004.isel(system=slice(0, 3)))
    with pytest.raises(ScoreDataError, match="scores=cube"):
        scorestd.table(res)
    with pytest.raises(ScoreDataError, match="lack"):
        scorestd.table(res, scores=robust2004.isel(system=slice(3, 6)))
    with pytest.raises(OptionError, match="docx"):
        scorestd.table(robust2004).write(tmp_path / "t.docx")
    with pytest.raises(ScoreDataError, match="cannot make a table of a int"):
        scorestd.table(3)


def test_write_is_atomic(robust2004, tmp_path, monkeypatch):
    target = tmp_path / "t.md"
    target.write_text("old")
    table = scorestd.table(robust2004.isel(system=slice(0, 2)))

    def broken(self):
        raise RuntimeError("interrupted")

    monkeypatch.setattr(scorestd.tables.Table, "to_markdown", broken)
    with pytest.raises(RuntimeError):
        table.write(target)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["t.md"]


def test_error_rate_columns_say_their_parameters():
    res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=[0.05],
                               trials=64, trials_type2=64, B=100, copula="gaussian", seed=1)
    table = scorestd.table(res, alpha=0.01)
    columns = [str(c) for c in table.values.columns]
    assert "power(δ=.05, α=.01, 2-tailed)" in columns and "type1(α=.01, 2-tailed)" in columns
    assert table.notes["power(δ=.05, α=.01, 2-tailed)"] == \
        "power for a true difference δ = 0.05 at α = 0.01, two-tailed"
    assert table.notes["type1(α=.01, 2-tailed)"] == "Type I error rate at α = 0.01, two-tailed"
    assert ", B = 100," in table.caption  # the permutation and bootstrap tests resampled


def test_an_error_rate_caption_names_B_only_when_a_test_resampled():
    res = scorestd.error_rates(["adhoc8"], measures=["ap"], n_topics=[25], deltas=None,
                               tests=["paired_t", "sign"], trials=64, B=100,
                               copula="gaussian", seed=1)
    assert "B =" not in scorestd.table(res).caption


@given(st.integers(3, 7), st.integers(4, 15), st.integers(0, 2**32 - 1),
       st.sampled_from(["paired_t", "wilcoxon", "sign"]))
def test_markers_agree_with_the_means(n_systems, n_topics, seed, test):
    # a letter in a cell names a system with a lower mean (the direction of a paired
    # t-test, and of the others here where the mean difference and the test agree in sign
    # is checked on the p-values' pair), and every significant pair gives one letter
    rng = np.random.default_rng(seed)
    cube = scorestd.cube(rng.beta(2, 5, size=(n_topics, n_systems)) +
                         np.linspace(0, 0.3, n_systems), measures=["m"])
    res = scorestd.compare(cube, test, correction="holm")
    table = significance_table(res, cube, alpha=0.05)
    letters = system_letters(n_systems)
    mean = table.values["m"].to_numpy()
    n_letters = sum(len(m) for m in table.marks["m"])
    assert n_letters == int((res.p_adjusted < 0.05).sum())
    for k, marks in enumerate(table.marks["m"]):
        for other in marks:
            assert mean[letters.index(other)] < mean[k]
    assert table.bold["m"].sum() >= 1 and mean[table.bold["m"].to_numpy()].max() == np.max(mean)


_LABELS = st.text(alphabet="ab_&%$#{}~^\\ αδ−", min_size=1, max_size=8)


@given(st.lists(_LABELS, min_size=1, max_size=4, unique=True),
       st.lists(st.floats(-1e6, 1e6) | st.just(float("nan")), min_size=4, max_size=4))
def test_rendering_keeps_every_cell_and_escapes_every_label(labels, numbers):
    # LaTeX: each body row splits into exactly label + 2 cells at its unescaped "&";
    # Markdown: one line per row; CSV: the numbers come back to the last digit
    values = pd.DataFrame({"x&y": numbers[:len(labels)], "p_1": numbers[-len(labels):]},
                          index=pd.Index(labels, name="system"))
    table = scorestd.tables.Table(values, caption="α_1 & {b}")
    latex = table.to_latex()
    body = latex.split("\\midrule\n")[1].split("\\bottomrule")[0].strip().splitlines()
    assert len(body) == len(labels)
    for line in body:
        assert len(re.split(r"(?<!\\)&", line)) == 3
    assert r"\caption{$\alpha$\_1 \& \{b\}}" in latex
    assert len(table.to_markdown().splitlines()) == 2 + 2 + len(labels)
    back = pd.read_csv(io.StringIO(table.to_csv()), index_col=0, keep_default_na=False,
                       na_values=[""], dtype={"system": str})
    np.testing.assert_array_equal(back.to_numpy(), values.to_numpy())
    assert back.index.tolist() == labels


@pytest.mark.parametrize("make", [
    lambda ap: scorestd.split_half(ap, trials=4, seed=1),
    lambda ap: scorestd.swap_rate(ap, trials=4, seed=1),
    lambda ap: scorestd.leave_one_out(ap),
    lambda ap: scorestd.discriminative_power(ap),
    lambda ap: scorestd.goodness_of_fit(ap, ["normal", "kde"]),
    pytest.param(lambda ap: scorestd.bayes_crossed(ap.isel(system=slice(0, 3)), draws=100,
                                                   warmup=50, chains=2, seed=1),
                 # a short run: its convergence warning is not what this test is about
                 marks=pytest.mark.filterwarnings("ignore::scorestd.errors.ScorestdWarning")),
], ids=["split_half", "swap_rate", "leave_one_out", "discriminative_power", "goodness_of_fit",
        "bayes_crossed"])
def test_every_result_with_a_summary_renders_its_numbers(make, adhoc8_ap):
    result = make(adhoc8_ap.isel(system=slice(0, 8)))
    table = scorestd.table(result)
    summary = result.summary()
    for text in (table.to_latex(), table.to_markdown()):
        assert text.count("\n") >= len(summary)
    back = pd.read_csv(io.StringIO(table.to_csv()), index_col=list(range(summary.index.nlevels)))
    numeric = summary.select_dtypes("number")
    np.testing.assert_allclose(back[[str(c) if numeric.columns.nlevels == 1 else " ".join(c)
                                     for c in numeric.columns]].to_numpy(dtype=float),
                               numeric.to_numpy(dtype=float))


def test_pairs_table_of_a_bayesian_comparison(adhoc8_ap):
    ap = adhoc8_ap.isel(system=slice(0, 3))
    res = scorestd.bayes_compare(ap)
    table = scorestd.table(res)
    assert table.values.loc[("ap", "run2", "run3"), "prob_greater"] == \
        float(res.prob_greater.sel(measure="ap", pair="run2 vs run3"))
    assert "reference prior" in table.caption and "system minus system2" in table.caption
    assert table.notes["prob_greater"].startswith("P(delta > 0")
    frequentist = scorestd.tables.pairs_table(scorestd.compare(ap, correction="holm"))
    assert " 2.51e-15 |" in frequentist.to_markdown()  # p-values in significant digits


def test_standard_errors_keep_significant_digits():
    # A Monte Carlo SE of 600,000 trials (about 0.0003) printed as 0.000 at 3 decimals.
    import pandas as pd

    from scorestd.tables import frame_table

    frame = pd.DataFrame({"type1": [0.0481], "type1 se": [0.000276], "se": [0.0123]})
    row = frame_table(frame).to_markdown().splitlines()[-1]
    assert [cell.strip() for cell in row.strip("|").split("|")] == ["0.048", "0.00028",
                                                                         "0.012"]


def test_topic_set_sizes_over_schemes_and_measures_are_rows():
    # raised "Cannot convert arrays with 3 dimensions into pandas objects"
    cube = scorestd.datasets.load("adhoc8")
    n = scorestd.topic_set_size(cube, schemes=["raw", "N"], min_diff=[0.05, 0.1])
    t = scorestd.table(n)
    assert t.values.index.names == ["scheme", "measure"]
    for (scheme, measure), row in t.values.iterrows():
        assert row.tolist() == n.sel(scheme=scheme, measure=measure).values.tolist()
    one = scorestd.topic_set_size(cube.sel(measure=["ap"]), min_diff=[0.05, 0.1])
    assert scorestd.table(one).caption.startswith("Topics needed (measure ap): paired_t")


def test_a_solved_power_design_says_what_it_is():
    cube = scorestd.datasets.load("adhoc8")
    n = scorestd.solve_power(cube, min_diff=0.1, power=0.8)
    t = scorestd.table(n)
    assert t.caption == ("Topics needed, rounded up, to detect min_diff with the power given "
                         "(paired_t test; min_diff = 0.1, α = 0.05, power = 0.8).")
    assert t.values["n_topics"].tolist() == n.values.tolist()
