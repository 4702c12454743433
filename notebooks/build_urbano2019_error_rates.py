"""Build and execute ``urbano2019_error_rates.ipynb``.

Run ``python notebooks/build_urbano2019_error_rates.py`` from the project root; the
notebook is written executed (outputs included) next to this script.
"""

from __future__ import annotations

import nbformat
from _nbbuild import HERE, code, execute, full_size_cell, full_size_text, md, notebook

NAME = "urbano2019_error_rates.ipynb"
TIMEOUT = 1200

INTRO = """\
# Statistical significance testing in IR: Type I, II and III errors by simulation

Urbano, Lima & Hanjalic (SIGIR 2019) simulate collections whose true system means are
known (Urbano & Nagler's simIReff: a margin per run, a copula per pair of runs) from
TREC adhoc 5–8 (AP, P@10, RR) and Web 2010–2013 (nDCG@20, ERR@20), and count how often
five paired tests — t, Wilcoxon, sign, permutation, bootstrap — reject:

* **Type I**: both runs simulated from one run's margin (H0 true);
* **Type II** (power): the experimental run transformed to mean baseline + δ;
* **Type III**: rejections with the wrong sign.

`scorestd.error_rates` runs the same design by the paper's method (its defaults: a
bivariate copula per pair of runs selected by AIC, as the paper's R call selects it). This notebook runs it at a reduced size
(parameters below), puts every rate beside the authors' published one
(`tests/results/urbano2019_error_rates/reference.csv`, from their output files) with
`ErrorRates.compare`, reads the comparison of the run at the paper's full size (every
published rate: `tests/results/urbano2019_error_rates/comparison.csv`), and shows by
experiment why some rates differ.
"""

PARAMETERS = """\
TRIALS = 1000        # Type I trials per (measure, n); the paper 1,667,000
TRIALS_TYPE2 = 300   # Type II trials per (measure, n, δ); the paper 167,000
B = 2000             # permutation / bootstrap resamples (the paper 10^6)
MEASURES = ["ap", "p10", "ndcg20"]
N_TOPICS = [50]
DELTAS = [0.02, 0.05]
MARGIN_TRIALS = 1536  # Type II trials of each margin variant (nDCG@20, n = 50, δ = .05)
SEED = 2019
"""

SETUP = """\
import functools
import json
from pathlib import Path
from unittest import mock

import matplotlib
import numpy as np
import pandas as pd

import scorestd
from scorestd.experiments import agreement_counts, error_rate_pool
from scorestd.simulation import BetaKernelMargin, NormalKernelMargin, TruncNormalMargin
from scorestd.simulation.fitting import fit_margins

matplotlib.rcParams["figure.dpi"] = 70
pd.set_option("display.precision", 4)
RESULTS = Path("..") / "tests" / "results" / "urbano2019_error_rates"
REFERENCE = RESULTS / "reference.csv"
"""

SIM_MD = """\
## The simulator on one collection

Margins (AIC among truncated normal, beta with shapes ≥ 1, truncated Gaussian kernel and
beta kernel densities) and a vine copula fitted to the runs of adhoc8 (AP); simulated
against observed means, variances and between-run dependence:
"""

SIM = """\
adhoc8 = scorestd.datasets.load("adhoc8")
sim = scorestd.fit_simulator(adhoc8, measure="ap")
print(sim.summary()["family"].value_counts().to_string())
diag = scorestd.simulation_diagnostics(sim, scorestd.simulate(sim, trials=50, seed=SEED))
diag.plot()
diag.summary()
"""

RUN_MD = """\
## The study

Type I error rates, power and Type III error rates of every test, one- and two-tailed, at
every α of the grid, with Monte Carlo standard errors, by the paper's method (the
defaults: a bivariate copula per pair of runs, selected by AIC as the paper's R selects it):
"""

RUN = """\
res = scorestd.error_rates(measures=MEASURES, n_topics=N_TOPICS, deltas=DELTAS,
                           trials=TRIALS, trials_type2=TRIALS_TYPE2, B=B, seed=SEED,
                           progress=False)
res.summary(alpha=0.05)
"""

FIG_MD = """\
### Type I error rate against α (two-tailed; the grey diagonal is the nominal rate)
"""

FIG1 = """res.plot(kind="type1", tails=2);"""

FIG2_MD = """### Power against δ at α = 0.05 (two-tailed)"""

FIG2 = """res.plot(kind="power", tails=2, alpha=0.05);"""

FIG3_MD = """### Type III error rate against δ at α = 0.05"""

FIG3 = """res.plot(kind="type3", alpha=0.05);"""

COMPARE_MD = """\
## Against the published rates

`res.compare(REFERENCE)` puts every published rate (1,667,000 Type I trials, 167,000 Type
II trials per δ) beside ours, each with its binomial standard error, and `z`, the
difference in units of the standard error of the difference (two-proportion z-test). Rows
of cells this study did not compute are NaN. How many differ beyond 2 and 3 standard
errors, by kind and test (Monte Carlo error alone puts 4.6% beyond 2 and 0.3% beyond 3):
"""

COMPARE = """\
cmp = res.compare(REFERENCE)
cmp = cmp[cmp["rate"].notna()]
agreement_counts(cmp)
"""

TYPE1_MD = """\
Type I error at α = 0.05, two-tailed (published | ours):
"""

TYPE1 = """\
t1 = cmp[(cmp.kind == "type1") & (cmp.alpha == 0.05) & (cmp.tails == 2)]
t1.pivot_table(index=["measure", "n_topics"], columns="test",
               values=["published", "rate"]).round(4)
"""

LARGE_MD = """\
## Every published number: the full-size run

The published design at its full size — 5 measures, n = 25, 50, 100, 1,667,000 Type I
trials per measure and n and 167,000 Type II trials per δ (50 million trials), every test,
both tails, B = 10,000, seed 0 — run with `scorestd experiment error-rates --full-size
--workers 2` in 43 minutes on 2 cores (53, 66 and 71 with earlier code), pair copulas
selected as the paper's R selects them, the discrete kernels' bandwidth as R's np selects
it (the default since this run; it changed P@10's and RR's rates, the other measures' are
bit for bit those of the earlier runs)
(the default; the command, its time and the counts are in
`tests/results/urbano2019_error_rates/summary.md`). Our standard errors now equal the
published ones (Type I ≈ 0.0002, power ≤ 0.0012), so differences of a thousandth count:
591 of the 3,150 rates are beyond 3 SE, 293 of them by less than 0.005 (1,005 with
pyvinecopulib's family set, `family_sets.txt`). Beyond 2 and 3
standard errors, by kind and test:
"""

LARGE = """\
large = pd.read_csv(RESULTS / "comparison.csv")
agreement_counts(large)
"""

LARGE2_MD = """\
By kind, measure and topic set size (`mean_z`: the average signed departure):
"""

LARGE2 = """\
agreement_counts(large, by=("kind", "measure", "n_topics"))
"""

WHY_MD = """\
## Where and why the numbers differ

**Power**: agrees for the t, permutation and bootstrap tests on AP, nDCG@20, ERR@20 and
RR (mean difference over each measure's 120 cells within ±0.002 at full size; single
cells differ by up to 0.012, beyond their 0.001 standard errors) and on P@10 but for the
tie counting below. It did not with the margins of
earlier versions: power was below the published by 0.01 (AP) to 0.03 (nDCG@20, ERR@20) for
every test. The margins are now fitted as simIReff fits them (read in its R code, checked in
R, `tests/results/simireff_margins`): the Gaussian kernel's bandwidth by `ks::kde`'s
plug-in rule, the beta kernel's smoothing `b = n^(-2/5)` (R `bde`'s default), and no
truncated normal where its likelihood has no interior maximum (simIReff's `fitdistr` fails
there: 29 of 114 adhoc8 AP runs, 50 of 70 web2010 nDCG@20 runs). The experiment below runs
the same nDCG@20 Type II trials (n = 50, δ = .05; same seed and pair copulas) with three
sets of margins: today's, the previous ones, and today's but with the truncated normal's
exponential limit kept (the step that matters most).

With pyvinecopulib's family set for the pair copulas (`pair_families="vinecopulib"`), the
power of the sign test (and, less, Wilcoxon) is above the published (+0.006 to +0.011 on
average at full size); with the paper's (the default: VineCopula's `BiCopSelect`, two
two-parameter Tawn types) it agrees on AP, nDCG@20 and RR at full size, and on P@10 with
the discrete kernels' bandwidth as np selects it (below). That was found on
the same Type II trials first: with the pair copulas selected as the paper's R selects them
instead of among pyvinecopulib's families (one three-parameter Tawn), the sign test loses
0.005 to 0.020 of power against the t-test and agrees with the published rates (AP, δ = .05,
α = .05, two-tailed, n = 25/50/100: z = 4.5/5.5/6.4 before, 2.3/1.6/0.8 after; Wilcoxon
5.0/4.6/4.4 and 2.8/1.6/0.7), while the t,
permutation and bootstrap tests move by less than 0.007. An asymmetric (Tawn) copula skews
the differences, which costs the sign test and not the t-test; VineCopula's Tawn types are
the more asymmetric. How a Type II pair is built (R's `effTransform` run on our margins),
the tests' conventions (the published R tests on our trials: no decision differs), the
margins' cdf grids and our copula sampler are ruled out on the same trials
(`sign_power.txt`, `sign_power_families.txt`, `summary.md`).

**Type I, t, permutation and bootstrap tests**: agree with the published rates to a
thousandth (the bootstrap liberal at 25 topics, the permutation test exact, as published),
except on P@10 at 25 topics (below). At full size the thousandth shows on AP: our t-test
keeps α = .05 (.0497, .0501, .0503 at n = 25, 50, 100) where the published is slightly
liberal (.0509, .0512, .0511, 3–5 SE): skewed differences, which only an asymmetric pair
copula makes, the cause of the rank tests' gap that follows.

**Type I, Wilcoxon and sign tests**: liberal, as published, and by the same pattern
(growing with n: AP at n = 100, α = .05, two-tailed, .0957 and .1248 at full size against
.0965 and .1251; with pyvinecopulib's family set only .0892 and .1181). With both runs on
one margin, the difference of two runs is skewed only through an asymmetric copula, and
Tawn is the only
asymmetric family. Split by the family of the pair drawn (`rank_tests_by_family.py`: 48,000
AP Type I trials at n = 100, two-tailed, α = .05, with the margins of the earlier run),
the excess comes from the Tawn pairs alone (a quarter of the trials), where the Wilcoxon
test rejects 21% and the sign test 35% of the time; the other pairs keep α:

"""

RANK_FAMILY = """\
print((RESULTS / "rank_tests_by_family.txt").read_text())
"""

RANK_FAMILY_MD = """\
So the size of the rank tests' excess is set by how often, and how asymmetric, a Tawn
copula is selected (this split used pyvinecopulib's family set: the published .0965 is
what its per-trial rates give with Tawn pairs in 30% of the trials instead of 25%). The
paper's R (VineCopula's `BiCopSelect`, now the default) selects among two two-parameter
Tawn types (one of ψ₁, ψ₂ fixed at 1, the other bounded near τ̂), pyvinecopulib among one
three-parameter Tawn family: a different fit, hence a different share and asymmetry.
The tests themselves are not the cause: the t, permutation and bootstrap
tests agree on the same trials, and the Wilcoxon and sign decisions equal R's
(`tests/results/urbano2019_paired_tests`).

**Power and the margins** (the experiment announced above): the same nDCG@20 Type II trials
(n = 50, δ = .05, same seed and pair copulas) with today's margins, the previous ones, and
today's with the truncated normal's exponential limit kept. Power at α = .05 (published
beside it), then the families selected:
"""

MARGINS = """\
previous = [TruncNormalMargin(exponential_limit=True), "beta1",
            NormalKernelMargin(bandwidth="silverman"), BetaKernelMargin(bandwidth="silverman")]
variants = {"default (as simIReff)": None,
            "previous default": previous,
            "truncated normal with its exponential limit": [
                TruncNormalMargin(exponential_limit=True), "beta1", "nkde", "bkde"]}
web = {name: scorestd.datasets.load(name) for name in ("web2010", "web2011", "web2012",
                                                        "web2013")}
copulas, rows = None, []
for label, families in variants.items():
    pool = scorestd.experiments.ErrorRatePool(web)
    fit = fit_margins if families is None else functools.partial(fit_margins,
                                                                  families=families)
    with mock.patch.object(error_rate_pool, "fit_margins", fit):
        if copulas is not None:
            pool["ndcg20"].fitted.update(copulas)  # the same pair copulas
        r = scorestd.error_rates(web, measures=["ndcg20"], n_topics=[50], deltas=[0.05],
                                 trials=64, trials_type2=MARGIN_TRIALS, B=B, seed=SEED,
                                 tests=["paired_t", "wilcoxon"], progress=False, pool=pool)
    copulas = dict(pool["ndcg20"].fitted)
    c = r.compare(REFERENCE)
    c = c[(c.kind == "power") & c.rate.notna() & (c.alpha == 0.05)]
    for row in c.itertuples():
        rows.append({"margins": label, "selected": r.data.attrs["margins"],
                     "test": row.test, "tails": row.tails, "published": row.published,
                     "power": row.rate, "se": row.se, "z": row.z})
margin_power = pd.DataFrame(rows)
margin_power.pivot_table(index=["test", "tails", "published"], columns="margins",
                         values="power").round(3)
"""

MARGINS2 = """\
margin_power.drop_duplicates("margins")[["margins", "selected"]]
"""

WHY2_MD = """\
**Type III**: agrees but where a departure above carries over: P@10's permutation and
bootstrap, mostly at n = 25 (the tie counting below; 14 of the 27 cells beyond 3 SE at
full size, the rest single cells, mostly of the rank tests, by 0.002 at most). Its denominator in the published code is every trial (`sum(d < 0 & p <= α) /
nrow`), ours the trials with a decision; they differ only for the sign test and only by
the trials whose differences are all ties (≤ 0.01), too few to move the rates.

**Type I of the permutation and bootstrap tests on P@10 at 25 topics** (lower than
published by 0.001–0.009; their P@10 power too, by 0.0085 and 0.0067 on average at full
size): how ties are counted (`resampling_ties.py`). P@10 differences lie
on a lattice, and 8.6% of the permuted means equal the observed one. Ours counts a tie as
extreme (the exact randomisation test); the published C++ compares floating-point sums with
`>=`, so rounding decides each tie. Emulated operation for operation on the same trials and
resamples, it counts 59% of the permutation ties and 51% of the bootstrap ones and gives
the published rates; the difference between the two conventions matches the gap in every
cell:
"""

TIES = """\
print((RESULTS / "resampling_ties.txt").read_text())
"""

TIES_MD = """\
The default is kept: counting ties is the test's definition and keeps its level, while the
published count depends on the order of a floating-point sum.

**Conventions that do not show**: permutation and bootstrap p-values here are
`(1 + #)/(B + 1)` and the published `#/B` (B = 10⁶ there): the two differ by at most
`1/(B + 1)` = 10⁻⁴ at B = 10,000, below the rates' Monte Carlo error. R's Wilcoxon (exact
below 50 without ties, else normal with continuity correction) is followed exactly
(checked against R in `tests/results/urbano2019_paired_tests`).
"""

ORIENTATION_MD = """\
**One-tailed Type I errors of the sign and Wilcoxon tests** (ERR@20 above the published by
up to 0.004, AP below, z beyond 10 at full size, while the two-tailed rates agree): which
run's column of the pair copula is the baseline. The published `R/11-type_1.R` fits a copula
only for runs `i < j` and, for a trial whose baseline is run `i > j`, takes the `(j, i)`
copula without swapping its columns (its Type II code swaps them), so the baseline's scores
always come from the lower-indexed run's column; the study takes them from the baseline
run's own column. With an asymmetric copula (Tawn; BB families rotated by 90 or 270
degrees) the two orders give differences of equal mean, skewed in opposite directions: the
two-tailed tests cannot tell them apart, the one-tailed ones can. The full-size study's own
Type I trials drawn in both orders (`orientation_type1.py`; z with our standard error, 9
cells a row: 3 n × 3 α) — with the published order the one-tailed departures go:
"""

ORIENTATION = """\
print((RESULTS / "orientation_summary.txt").read_text())
"""

SIMIREFF_MD = """\
**ERR@20's rank-test power and nDCG@20's power by δ** (beyond 3 SE at full size: ERR@20
Wilcoxon and sign +0.005 at n ≥ 50; nDCG@20 above the published at δ = .01–.02 and below
at δ = .05 for every test): the margins. simIReff's own selection, run in R on the same
kept runs (`simireff_margins.R`), differs from ours on 17 of 193 ERR@20 runs and 26 of 193
nDCG@20 runs — half of them where R's `MASS::fitdistr` reports a truncated normal that
our rule leaves out, because R's L-BFGS-B stops on the flat ridge towards the exponential
limit (where, and whether, it stops there depends on R's own optimiser code; scipy's,
given R's gradient and objective, disagrees on 143 of 713 runs:
`tests/results/simireff_margins/fitdistr_emulation.txt`). The same Type II trials with
simIReff's margins instead of ours (same seed, pairs and pair copulas; R's `BiCopSelect`
selects our pair copula on 997 of 1,000 ERR@20 pairs, so they are not the cause) bring
the rank tests and nDCG@20's tests to the published rates:
"""

SIMIREFF = """\
print((RESULTS / "simireff_margins_power.txt").read_text())
"""

SIMIREFF_P10_MD = """\
**P@10's t, Wilcoxon and sign power** (18, 18 and 41 cells beyond 3 SE at full size with
the former bandwidth of the discrete kernel, all above the published, the sign test most:
n = 100, δ = .10, α = .05, two-tailed, z 9.4; now 1, 1 and 9, z 2.9 there): the margins
too, here the bandwidth of simIReff's discrete kernel. simIReff's own
selection (`effDiscFitAndSelect`, as the paper's `R/01-margins.R` calls it), run in R
with np 0.60-9 on the 326 kept runs (`simireff_p10.R`), selected another family than
ours on 76. Its beta-binomial fits are ours (shapes within 5·10⁻⁴ relative), but np's
least-squares cross-validated bandwidth of the ordered kernel was smaller than ours on
every run (median 0.44 against 0.51): np integrates the squared estimate over all the
integers (its convolution kernel is the infinite sum), ours summed over the support only, so np also counts the mass the kernel puts beyond 0 and 1. Computed
here, np's criterion gives R's bandwidth on all 326 runs (within 10⁻⁴), and it is now
the default (`OrderedKernelMargin(criterion="whole_line")`; the former one is
`criterion="support"`): our family is simIReff's on all 326 runs
(`simireff_p10_compare.txt`), and at full size the
mean z of the t, Wilcoxon and sign tests' P@10 power is −0.05, 0.28 and 0.55 (1.94, 2.25
and 3.72 before). Found first on the same Type II trials with simIReff's margins (R's
pmfs) against the former ones (rows `default`, the default then):
"""

SIMIREFF_P10 = """\
print((RESULTS / "simireff_p10_power.txt").read_text())
"""

FINDINGS = """\
t = cmp[(cmp.kind == "type1") & (cmp.test.isin(["paired_t", "permutation"]))]
findings = {
    "trials": TRIALS,
    "t_perm_type1_max_abs_z": float(t["z"].abs().max()),
    "t_type1_at_0.05": float(res.data["type1"].sel(test="paired_t", tails=2, alpha=0.05)
                             .mean()),
    "wilcoxon_type1_at_0.05": float(res.data["type1"].sel(test="wilcoxon", tails=2,
                                                           alpha=0.05).mean()),
    "large_cells": int(np.isfinite(large["z"]).sum()),
    "margin_power": margin_power.groupby("margins")["power"].mean().to_dict(),
}
print(json.dumps(findings, indent=1))
"""

FULL_SIZE_NOTE = """\
The full-size run's rates (`tests/results/urbano2019_error_rates/summary.md` has the
command), at α = 0.05:
"""


def cells() -> list[nbformat.NotebookNode]:
    """The notebook's cells (the full-size section from the recorded file)."""
    full_size = full_size_text("urbano2019_error_rates_full_size.md")
    return [md(INTRO), code(PARAMETERS, tags=("parameters",)), code(SETUP), md(SIM_MD),
            code(SIM), md(RUN_MD), code(RUN), md(FIG_MD), code(FIG1), md(FIG2_MD), code(FIG2),
            md(FIG3_MD), code(FIG3), md(COMPARE_MD), code(COMPARE), md(TYPE1_MD), code(TYPE1),
            md(LARGE_MD), code(LARGE), md(LARGE2_MD), code(LARGE2), md(WHY_MD),
            code(RANK_FAMILY), md(RANK_FAMILY_MD), code(MARGINS), code(MARGINS2), md(WHY2_MD), code(TIES), md(TIES_MD),
            md(ORIENTATION_MD), code(ORIENTATION), md(SIMIREFF_MD),
            code(SIMIREFF), md(SIMIREFF_P10_MD), code(SIMIREFF_P10), code(FINDINGS),
            full_size_cell(FULL_SIZE_NOTE, full_size)]


def record() -> str:
    """Markdown tables of the full-size run, from ``comparison.csv`` (ours beside published)."""
    import pandas as pd

    results = HERE.parent / "tests" / "results" / "urbano2019_error_rates"
    table = pd.read_csv(results / "comparison.csv")
    parts = []

    def block(title: str, rows: pd.DataFrame, digits: int) -> None:
        wide = rows.pivot_table(index=["measure", "n_topics"], columns="test",
                                values=["rate", "published"])
        wide = wide.swaplevel(axis=1).sort_index(axis=1)
        parts.append(f"{title}\n\n```\n{wide.round(digits).to_string()}\n```\n")

    at = (table.alpha == 0.05)
    block("Type I error rate, two-tailed (ours: `rate`; SE ≈ 0.0002 for both, 1,667,000 "
          "trials):",
          table[at & (table.kind == "type1") & (table.tails == 2)], 4)
    block("Power at δ = 0.05, two-tailed (SE ≈ 0.001 for both, 167,000 trials):",
          table[at & (table.kind == "power") & (table.tails == 2) & (table.delta == 0.05)], 3)
    block("Type III error rate at δ = 0.01:", table[at & (table.kind == "type3")
                                                    & (table.delta == 0.01)], 4)
    return "\n".join(parts)


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1 and sys.argv[1] == "--record":  # write the full-size section
        (HERE / "urbano2019_error_rates_full_size.md").write_text(record(),
                                                                    encoding="utf-8")
    nbformat.write(execute(notebook(cells()), timeout=TIMEOUT), HERE / NAME)
