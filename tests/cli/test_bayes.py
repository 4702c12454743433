"""The ``scorestd bayes`` command."""

from __future__ import annotations

import arviz as az
import numpy as np
import pytest

import scorestd
from scorestd.cli import main


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "ap.csv"
    scorestd.write_matrix_csv(scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 6)),
                              path)
    return path


def test_summary_variance_components_pairs_and_files(small, tmp_path, capsys):
    forest, heat, draws = tmp_path / "f.png", tmp_path / "h.png", tmp_path / "post.nc"
    assert main(["bayes", str(small), "--draws", "500", "--warmup", "200", "--chains", "2",
                 "--rope", "0.01", "--pairs", "3", "--forest", str(forest), "--heatmap",
                 str(heat), "--save", str(draws)]) == 0
    out = capsys.readouterr().out
    assert "crossed random effects (normal errors)" in out
    assert "variance components (95% ETI)" in out
    assert "the 3 most uncertain of 15 pairs" in out
    rows = [ln.split() for ln in out.splitlines() if ln.startswith("run")]
    effects = [float(r[1]) for r in rows[:6]]
    assert effects == sorted(effects, reverse=True)  # best first
    # the same numbers as the library call with the same seed
    fit = scorestd.bayes_crossed(scorestd.load(small), chains=2, draws=500, warmup=200, seed=0)
    top = fit.summary().iloc[0]
    assert rows[0][0] == top.name and float(rows[0][1]) == pytest.approx(top["score"], abs=1e-4)
    assert forest.stat().st_size > 0 and heat.stat().st_size > 0
    saved = az.from_netcdf(draws)
    np.testing.assert_allclose(saved.posterior["system_effect"].values,
                               fit.posterior["system_effect"].values)


def test_closed_form_and_errors(small, capsys):
    assert main(["bayes", str(small), "--closed-form", "--pairs", "2", "--rope", "0.02"]) == 0
    out = capsys.readouterr().out
    assert "closed-form paired posterior" in out and "prob_in_rope" in out
    assert main(["bayes", "robust2004", "--forest", "x.png"]) == 1
    assert "pick one with --measure" in capsys.readouterr().err
    assert main(["bayes", str(small), "--draws", "0"]) == 1
    assert "draws must be an integer" in capsys.readouterr().err


def test_quiet_names_no_file_written(small, tmp_path, capsys):
    heat = tmp_path / "h.png"
    args = ["bayes", str(small), "--closed-form", "--pairs", "2", "--heatmap", str(heat)]
    assert main(args) == 0
    assert f"figure written to {heat}" in capsys.readouterr().out
    assert main([*args, "-q"]) == 0  # results only: the pairs, not the notices
    out = capsys.readouterr().out
    assert "written to" not in out and "prob_greater" in out and heat.stat().st_size > 0


def test_likelihood_compare_and_predictive_checks(small, tmp_path, capsys):
    ppc, effects = tmp_path / "ppc.png", tmp_path / "e.png"
    assert main(["bayes", str(small), "--likelihood", "censored", "--draws", "600",
                 "--warmup", "200", "--chains", "2", "--pairs", "0", "--ppc", str(ppc),
                 "--effects", str(effects)]) == 0
    out = capsys.readouterr().out
    fit = scorestd.bayes_crossed(scorestd.load(small), likelihood="censored", chains=2,
                                 draws=600, warmup=200, seed=0)
    assert "censored likelihood" in out and f"mu = {fit.summary().attrs['mu']:.4f}" in out
    assert "share_zero" in out and ppc.stat().st_size > 0 and effects.stat().st_size > 0
    assert main(["bayes", str(small), "--compare", "--draws", "600", "--warmup", "200",
                 "--chains", "2", "--pairs", "3"]) == 0
    out = capsys.readouterr().out
    assert "likelihoods compared by PSIS-LOO" in out and "rank agreement" in out
    assert "strictly inside (0, 1)" in out
    # the LOO table says what its columns mean (the stacking weight is not a probability)
    assert "elpd_diff, dse:" in out and "not the probability that it is right" in out
    # μ of each fit, as the library's fits with the same seed (each on its model's scale)
    with pytest.warns(scorestd.ScorestdWarning):  # (as the command: Pareto k, 0s and 1s)
        res = scorestd.compare_likelihoods(scorestd.load(small), chains=2, draws=600,
                                           warmup=200, seed=0, progress=False)
    mu = {lk: float(f.posterior["mu"].mean()) for lk, f in res.fits.items()}
    assert (f"normal {mu['normal']:.4f}; censored {mu['censored']:.4f} (latent score); "
            f"hurdle {mu['hurdle']:.4f} (logit), zero part") in out
    # the systems table: one column per likelihood under each statistic
    header = next(ln for ln in out.splitlines() if "expected score" in ln and "P(best)" in ln)
    assert header.index("expected score") < header.index("P(best)") < header.index("mean rank")
    assert "pairs decided (P(A > B) >= 0.95 or <= 0.05)" in out


def test_compare_warns_about_pareto_k_once(small, capsys, monkeypatch):
    # every score flagged: the comparison on all scores warns; the one on the scores
    # inside (0, 1), whose k are among those, does not warn again
    from scorestd.bayes import comparison

    monkeypatch.setattr(comparison, "PARETO_K", -np.inf)
    assert main(["bayes", str(small), "--compare", "--draws", "300", "--warmup", "100",
                 "--chains", "2", "--pairs", "0"]) == 0
    err = capsys.readouterr().err
    assert err.count("PSIS-LOO is unreliable") == 1, err


def test_figure_format_is_checked_before_sampling(small, capsys):
    import time

    start = time.perf_counter()
    assert main(["bayes", str(small), "--forest", "fig.xyz", "--draws", "100000"]) == 1
    assert "fig.xyz: a figure file needs the suffix" in capsys.readouterr().err
    assert time.perf_counter() - start < 10
    assert main(["bayes", str(small), "--likelihood", "hurdle", "--errors",
                 "student_t"]) == 1
    assert "is an option of likelihood='normal' only" in capsys.readouterr().err
