"""P@10 margins: this package's against those simIReff 1.0 selects in R, run by run.

``simireff_p10.R`` runs simIReff's own discrete selection (``effDiscFitAndSelect``: a
beta-binomial and Wang & van Ryzin's ordered kernel with R np's least-squares
cross-validated bandwidth × 1, 2, 5, 10, the best by AIC) on the P@10 runs the
error-rate study keeps and writes ``simireff_p10.csv``. This script fits the same runs
with ``scorestd.fit_margins`` (the study's margins) and prints:

- the selected family of each run, ours against R's, and the margins' means;
- the beta-binomial fits (shapes, AIC) side by side;
- the kernel's bandwidth before the multiplier: ours, R np's, and np's criterion
  re-computed here (``np_cv``): np's ``cv.ls`` for an ordered variable
  (``np_kernel_estimate_density_categorical_convolution_cv`` in np 0.60-9's
  ``src/jksum.c``) takes the integral of the squared estimate over all the integers
  (its convolution kernel ``np_econvol_owang_van_ryzin`` is the infinite sum), as the
  package's default does since 2026-11 (``OrderedKernelMargin(criterion="whole_line")``;
  before, it summed over the support only: ``criterion="support"``), and np minimises it
  by Powell's direction set from one start (``nmulti = 1`` for one variable) where ours
  searches a grid. Both criteria are minimised here on one fine grid each, so that the
  criterion and the search are seen apart.

Usage (from the worktree; a few seconds)::

    PYTHONPATH=src python tests/results/urbano2019_error_rates/simireff_p10_compare.py \\
        > tests/results/urbano2019_error_rates/simireff_p10_compare.txt
    # RR (simIReff's discrete families too; R's file without its 1,001 pmf columns)
    PYTHONPATH=src python .../simireff_p10_compare.py --measure rr \\
        --simireff .../simireff_rr.csv > .../simireff_rr_compare.txt
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

import scorestd
from scorestd.experiments.error_rate_pool import prepare_collection
from scorestd.models.discrete_margins import _counts, _smooth
from scorestd.models.margins import nearest_index
from scorestd.simulation import fit_margins

HERE = Path(__file__).parent
COLLECTIONS = ("adhoc5", "adhoc6", "adhoc7", "adhoc8")
#: R's family names for ours
R_NAME = {"betabinom": "bbinom", "dkde": "dks(1)", "dkde(multiplier=2)": "dks(2)",
          "dkde(multiplier=5)": "dks(5)", "dkde(multiplier=10)": "dks(10)"}
GRID = np.linspace(0.0, 0.9999, 10_000)


def cv_scores(counts: np.ndarray, n: int, lam: np.ndarray, whole_line: bool) -> np.ndarray:
    """Least-squares cross-validation of the ordered kernel at each ``lam`` (one run's
    ``counts`` on the support): ``Σ f̂² − (2/n) Σ_i f̂₋ᵢ(k_i)``, the first sum over the
    support (ours) or over all the integers (np's, in closed form)."""
    conv = _smooth(counts[None, :], lam[None, :])[0]  # (G, K): Σ_i l(k, k_i)
    loo = (counts[None, :] * (conv - (1 - lam[:, None]))).sum(axis=-1) / (n - 1)
    if not whole_line:
        fhat = conv / n
        return (fhat * fhat).sum(axis=-1) - 2.0 / n * loo
    k = np.flatnonzero(counts)  # the indices the run takes (RR: tens of 1001)
    counts = counts[k]
    d = np.abs(k[:, None] - k[None, :])  # |k_i − k_j| between support indices
    lam_ = lam[:, None, None]
    l2 = lam_ * lam_
    same = 0.5 * (1 - lam_) ** 2 * (1 + 1 / (1 - l2))  # np_econvol_owang_van_ryzin, x == y
    other = (0.5 * (1 - lam_)) ** 2 * lam_ ** d * (1 + d + 2 / (1 - l2))
    kbar = np.where(d == 0, same, other)  # (G, K, K)
    cv1 = np.einsum("i,gij,j->g", counts, kbar, counts) / (n * n)
    return cv1 - 2.0 / n * loo


def closed_form_gap(counts: np.ndarray, n: int, lam: np.ndarray) -> float:
    """Largest gap between np's closed-form criterion and the same criterion summed
    plainly over the integers −400 … K + 400 (beyond, λ^400 ≤ 0.85^400 ≈ 1e-28)."""
    z = np.arange(-400, counts.size + 400)
    d = np.abs(z[:, None] - np.arange(counts.size)[None, :])
    gaps = []
    for la in lam:
        kern = np.where(d == 0, 1 - la, 0.5 * (1 - la) * la ** d)  # Wang & van Ryzin
        fhat = kern @ counts / n
        conv = _smooth(counts[None, :], np.array([[la]]))[0, 0]
        loo = (counts * (conv - (1 - la))).sum() / (n - 1)
        plain = (fhat * fhat).sum() - 2.0 / n * loo
        gaps.append(abs(plain - cv_scores(counts, n, np.array([la]), whole_line=True)[0]))
    return float(max(gaps))


def ours_and_r(r: pd.DataFrame, measure: str) -> pd.DataFrame:
    rows = []
    for name in COLLECTIONS:
        kept = prepare_collection(scorestd.datasets.load(name), measure)
        m = fit_margins(kept)
        labels = [f.label for f in m.families]
        kernel = labels.index("dkde")
        bb = labels.index("betabinom")
        support = m.support
        idx = nearest_index(support, np.asarray(kept.values))[0]
        counts = _counts(idx.T, support.size)
        n = idx.shape[0]
        for s, run in enumerate(map(str, kept["system"].values)):
            theirs = r.loc[(name, run)]
            c = counts[s]
            ours_cv = GRID[np.argmin(cv_scores(c, n, GRID, whole_line=False))]
            np_cv = GRID[np.argmin(cv_scores(c, n, GRID, whole_line=True))]
            pmf = [f"p{k}" for k in range(support.size)]
            r_table = (np.cumsum(theirs[pmf].to_numpy(float)) if pmf[-1] in theirs.index
                       else np.full(support.size, np.nan))  # RR's file: no pmf
            if name == COLLECTIONS[0] and s == 0:
                gap = closed_form_gap(c, n, np.array([0.05, 0.3, 0.5, 0.7, 0.85]))
                print(f"# np's closed form against the plain sum over the integers "
                      f"({name} {run}, λ = .05 … .85): largest gap {gap:.1e}")
            rows.append({
                "collection": name, "run": run, "ours": R_NAME[m.family[s]], "r": theirs.type,
                "mean_ours": m.mean[s], "mean_r": theirs["mean"],
                "cdf_maxdiff": np.abs(m.table[s] - r_table).max(),
                "bw_ours": m.params[kernel]["bandwidth"][s], "bw_r": theirs.bw,
                "bw_ours_fine": ours_cv, "bw_np_fine": np_cv,
                "a_ours": m.params[bb]["alpha"][s], "b_ours": m.params[bb]["beta"][s],
                "a_r": theirs.shape1, "b_r": theirs.shape2,
                **{f"aic_ours_{R_NAME[lab]}": m.stats["aic"].values[f, s]
                   for f, lab in enumerate(labels)},
                **{f"aic_r_{k}": theirs[f"aic_{k}"]
                   for k in ("bbinom", "dks1", "dks2", "dks5", "dks10")},
            })
    return pd.DataFrame(rows)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--measure", default="p10", help="p10 or rr (adhoc5–8)")
    ap.add_argument("--simireff", default=str(HERE / "simireff_p10.csv"))
    args = ap.parse_args()
    r = pd.read_csv(args.simireff).set_index(["collection", "run"])
    print(f"# {args.measure}, R: {Path(args.simireff).name}")
    t = ours_and_r(r, args.measure)
    total = len(t)
    only_r = sorted(set(r.index) - set(zip(t.collection, t.run, strict=True)))
    print(f"# {total} runs kept here ({', '.join(COLLECTIONS)}); R keeps {len(r)}; kept "
          f"by R only: {', '.join(' '.join(k) for k in only_r) or 'none'}")
    differ = t.ours != t.r
    print(f"\n## Selected family (rows ours, columns simIReff's in R): {differ.sum()} of "
          f"{total} runs differ")
    print(pd.crosstab(t.ours, t.r).to_string())
    dm = t.mean_r - t.mean_ours
    print(f"\n## Margin means, R's − ours: mean {dm.mean():+.5f}, mean |·| "
          f"{dm.abs().mean():.5f}, largest |·| {dm.abs().max():.4f}; on the runs whose "
          f"family differs: mean {dm[differ].mean():+.5f}, largest |·| "
          f"{dm[differ].abs().max():.4f}; " + (
              f"the cdf tables differ by more than 0.01 on {(t.cdf_maxdiff > 0.01).sum()} "
              f"runs (largest {t.cdf_maxdiff.max():.3f})" if t.cdf_maxdiff.notna().all()
              else "(no pmf in R's file)"))
    ok = t.a_r.notna() & t.a_ours.notna()
    da = (t.a_r - t.a_ours)[ok].abs() / t.a_r[ok]
    db = (t.b_r - t.b_ours)[ok].abs() / t.b_r[ok]
    daic = (t.aic_r_bbinom - t["aic_ours_bbinom"])[ok].abs()
    print(f"\n## Beta-binomial: fitted in both on {ok.sum()} runs (R only {(t.a_r.notna() & ~ok).sum()}, "
          f"ours only {(t.a_ours.notna() & ~ok).sum()}); shapes' relative difference: median "
          f"{np.median(np.maximum(da, db)):.1e}, largest {np.maximum(da, db).max():.1e}; "
          f"AIC |difference| largest {daic.max():.2e}")
    bw = t.dropna(subset=["bw_r"])
    rel = (bw.bw_ours - bw.bw_r).abs()
    fine_ours = (bw.bw_np_fine - bw.bw_ours).abs()
    fine_np = (bw.bw_np_fine - bw.bw_r).abs()
    support = bw.bw_ours_fine
    print(f"\n## Kernel bandwidth λ before the multiplier ({len(bw)} runs with R's)")
    print(f"ours: median {bw.bw_ours.median():.4f}; R np's: median {bw.bw_r.median():.4f}; "
          f"ours larger on {(bw.bw_ours > bw.bw_r + 1e-3).sum()}, smaller on "
          f"{(bw.bw_ours < bw.bw_r - 1e-3).sum()}, within 0.001 on {(rel <= 1e-3).sum()}")
    print(f"the same criterion on a fine grid against our bandwidth (its 50 + 21 + 21-point "
          f"search): within 0.001 on {(fine_ours <= 1e-3).sum()} of {len(bw)} (largest |·| "
          f"{fine_ours.max():.4f})")
    print(f"the former criterion (the support only, criterion='support') on a fine grid: "
          f"median {support.median():.4f}, larger than R np's on "
          f"{(support > bw.bw_r + 1e-3).sum()} of {len(bw)}")
    print(f"np's criterion (the whole integer line) on a fine grid against R np's bandwidth: "
          f"within 0.001 on {(fine_np <= 1e-3).sum()} of {len(bw)}, within 0.01 on "
          f"{(fine_np <= 1e-2).sum()} (largest |·| {fine_np.max():.4f})")
    far = bw[fine_np > 1e-2]
    if len(far):
        print("runs where R np's bandwidth is not np's criterion's minimum on the grid "
              "(Powell from one start ends elsewhere):")
        print(far[["collection", "run", "bw_r", "bw_np_fine", "bw_ours"]].round(4)
              .to_string(index=False))
    print("\n## Runs whose family differs")
    cols = ["collection", "run", "ours", "r", "mean_ours", "mean_r", "bw_ours", "bw_r",
            "cdf_maxdiff"]
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(t[differ][cols].round(4).to_string(index=False))


if __name__ == "__main__":
    main()
