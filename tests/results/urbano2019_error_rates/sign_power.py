"""Why the sign test's power is above the published one: each suspect on the same trials.

The error-rate study (``scorestd.error_rates``, copula="vine", margins as simIReff fits
them) gives the sign test more power than Urbano, Lima & Hanjalic (SIGIR 2019) publish
(AP, n = 50, δ = .05, α = .05, two-tailed: .601 against .566 in ``comparison.csv``),
Wilcoxon less so, while the t-test agrees. This script draws Type II trials of one
cell (default AP, n = 50, δ = .05) exactly as the study draws them (same design, pair
copulas, margins, decisions: the functions of
``scorestd.experiments.significance_errors``), then changes one thing at a time and
prints the power of the t, Wilcoxon and sign tests at α = .05 beside the published rate
(``reference.csv``: the authors' output files, 167,000 trials per cell; see
``extract.py``), with the tie statistics the sign test depends on.

Variants (``--variant``, several allowed), each on the same seed:

- ``default``: the study as it is; with ``--r-checks N`` its first ``N`` trials are also
  decided by the published tests in R (``r_tests.R``: ``t.test``, ``wilcox.test`` and the
  published sign test, ``|e − b| <= 0.01`` a tie, ``binom.test`` on the rest, a trial with
  only ties NA) and the decisions that differ are counted.
- ``r-transform``: the pairs whose mean transform simIReff's ``effTransform`` (R's
  ``optim(c(1, 1), ..., method = "L-BFGS-B", lower = c(1, 1))``) fails to solve are left
  out of the design, as the published ``02-margins_transform.R`` leaves them out (it
  saves only successful transforms). Which fail was computed in R by that optimisation
  on these very margins (``r_transform.R``; its output ``r_transform_ap_delta0.05.csv``,
  ``--r-failures``), which also gives the shapes ``(a, b)`` it finds.
- ``coarse-cdf``: the margins' cdfs interpolated linearly between nodes 0.01 apart, as
  bde's beta kernel (simIReff's ``bks``) tabulates its cdf (ks's grid is finer).
- ``pyvinecopulib-draws``: every trial's pair copula drawn by ``pyvinecopulib``'s own
  ``Bicop.sample`` instead of ``scorestd.kernels.pair_copulas`` (same pairs, margins).
- ``simireff-margins``: every run's margin of the family simIReff 1.0 itself selects
  (``effContFitAndSelect``, run in R by ``simireff_margins.R``; its output is
  ``--simireff FILE``): the truncated normal and the beta with R's own parameters
  (``MASS::fitdistr``'s L-BFGS-B, which on a flat ridge stops and reports a fit where this
  package's rule takes the family out), the two kernels fitted here (their bandwidths and
  tables agree with R's, ``tests/results/simireff_margins``). For P@10 (discrete),
  ``simireff_p10.R`` runs simIReff's ``effDiscFitAndSelect`` (beta-binomial, and the
  ordered kernel with R np's cross-validated bandwidth × 1, 2, 5, 10) and writes each
  run's pmf on the support; the margin is that pmf's cdf (``simireff_p10.csv``).
- a split of the default trials by the direction of the transform (experimental run
  moved up, ``G = F^a``, or down, ``G = 1 − (1 − F)^b``) and by the pair copula's family.

Usage (from the worktree; about a minute a variant once the pair copulas are fitted)::

    PYTHONPATH=src python tests/results/urbano2019_error_rates/sign_power.py \\
        --trials 16384 --seed 2019 --pool /tmp/pool_ap.npz --r-checks 4096 \\
        --variant default --variant r-transform --variant coarse-cdf \\
        --variant pyvinecopulib-draws \\
        --r-failures tests/results/urbano2019_error_rates/r_transform_ap_delta0.05.csv \\
        > tests/results/urbano2019_error_rates/sign_power.txt
    # then the default trials with the pair copulas selected as R VineCopula selects them
    PYTHONPATH=src python .../sign_power.py --trials 16384 --seed 2019 \
        --pool /tmp/pool_ap_bicopselect.npz --pair-families bicopselect >> .../sign_power.txt

    # the transform problems for R, then R's effTransform optimisation on them
    PYTHONPATH=src python .../sign_power.py --export /tmp/ap05
    Rscript .../r_transform.R /tmp/ap05 > /tmp/ap05/r_transform.csv
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import numpy as np
import pandas as pd

import scorestd
from scorestd.experiments import significance_errors as se
from scorestd.experiments.error_rate_pool import ErrorRatePool, family_names
from scorestd.kernels import pair_copulas
from scorestd.kernels.paired_decisions import paired_decisions
from scorestd.models import _grid
from scorestd.simulation import _random

HERE = Path(__file__).parent
TESTS = ("paired_t", "wilcoxon", "sign")
ALPHA = 0.05


def published(measure: str, n: int, delta: float) -> pd.DataFrame:
    ref = pd.read_csv(HERE / "reference.csv")
    ref = ref[(ref.kind == "power") & (ref.measure == measure) & (ref.n_topics == n)
              & np.isclose(ref.delta, delta) & np.isclose(ref.alpha, ALPHA)]
    return ref.set_index(["test", "tails"])["rate"]


def draw(design, pool, n_topics: int, trials: int, seed: int):
    """Scores of ``trials`` Type II trials as ``error_rates`` draws them (its blocks,
    generators and sampling), with the pair and baseline group of each trial."""
    root = se.child_sequence(se._random.root_sequence(seed), 0, 0, 1)
    n_blocks = -(-trials // _random.BLOCK)
    rngs = [_random.block_generator(root, b) for b in range(n_blocks)]
    picks = [se._select(design, _random.block_generator(root, b).random((_random.BLOCK, 3)))
             for b in range(n_blocks)]
    drawn = np.unique(np.concatenate([p for _, p in picks]))
    design.copulas = np.zeros((len(design.keys), 6))
    ordered = np.sort(design.keys[drawn, 1:], axis=1)
    design.copulas[drawn] = pool.pair_copulas(np.column_stack([design.keys[drawn, 0], ordered]))
    base, exp = se._draw_pairs(design, rngs, _random.BLOCK, n_topics, pool.support)
    group = np.concatenate([g for g, _ in picks])
    pair = np.concatenate([p for _, p in picks])
    return base[:trials], exp[:trials], group[:trials], pair[:trials]


def decide(d: np.ndarray):
    r = paired_decisions(d, [ALPHA], TESTS, min_diff=se._SIGN_MIN_DIFF)
    return r.reject[..., 0], r.valid  # (tests, tails, N), (tests, N)


def summary(name: str, d: np.ndarray, pub: pd.Series | None, mask=None) -> list[dict]:
    reject, valid = decide(d) if mask is None else mask
    ties = np.abs(d) <= se._SIGN_MIN_DIFF
    rows = []
    for k, test in enumerate(TESTS):
        for tails in (1, 2):
            ok = valid[k]
            rate = reject[k, tails - 1][ok].mean()
            sd = np.sqrt(rate * (1 - rate) / ok.sum())
            row = {"variant": name, "test": test, "tails": tails, "trials": int(ok.sum()),
                   "power": rate, "se": sd}
            if pub is not None:
                p = pub.loc[(test, tails)]
                row.update(published=p, difference=rate - p, z=(rate - p) / sd)
            rows.append(row)
    rows[0]["tied_share"] = ties.mean(axis=1).mean()
    rows[0]["all_ties"] = int(ties.all(axis=1).sum())
    rows[0]["P(d>0.01)"] = (d > se._SIGN_MIN_DIFF).mean()
    rows[0]["P(d<-0.01)"] = (d < -se._SIGN_MIN_DIFF).mean()
    rows[0]["|d|==0.01"] = int((np.abs(d) == se._SIGN_MIN_DIFF).sum())
    return rows


def coarse(tables: np.ndarray, step: float = 0.01) -> np.ndarray:
    nodes = np.linspace(0.0, 1.0, round(1 / step) + 1)
    at = np.array([np.interp(nodes, _grid.X, row) for row in tables])
    return np.array([np.interp(_grid.X, nodes, row) for row in at])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--measure", default="ap")
    ap.add_argument("--n-topics", type=int, default=50)
    ap.add_argument("--delta", type=float, default=0.05)
    ap.add_argument("--trials", type=int, default=16384)
    ap.add_argument("--seed", type=int, default=2019)
    ap.add_argument("--pool", default=None, help=".npz of fitted pair copulas (kept)")
    ap.add_argument("--variant", action="append", default=None)
    ap.add_argument("--pair-families", default=None,
                    help="ErrorRatePool(pair_families=...): the pair copulas' family set")
    ap.add_argument("--r-failures", default=None,
                    help="the output of r_transform.R (exp_margin, base_margin, convergence…)")
    ap.add_argument("--simireff", default=None,
                    help="the output of simireff_margins.R (collection, run, type, mean, "
                         "var, p1, p2) or, for P@10, of simireff_p10.R (… p0..p10, the pmf "
                         "on the support) for --variant simireff-margins")
    ap.add_argument("--dump", default=None,
                    help="write the default trials' baseline and experimental scores here "
                         "(CSV, one trial a row: b_1..b_n, e_1..e_n) for r_tests.R")
    ap.add_argument("--r-checks", type=int, default=0, metavar="TRIALS",
                    help="decide the first TRIALS default trials with the published R tests "
                         "(r_tests.R, needs Rscript) and count the decisions that differ")
    ap.add_argument("--export", default=None,
                    help="write the design's transform problems for r_transform.R here")
    args = ap.parse_args()
    variants = args.variant or ["default"]
    # the study's eight collections (a measure's pool keeps those that have it), so that
    # the full-size study's pool file can be read
    names = ["adhoc5", "adhoc6", "adhoc7", "adhoc8", "web2010", "web2011", "web2012", "web2013"]
    cubes = {n: scorestd.datasets.load(n) for n in names}
    path = Path(args.pool) if args.pool else None
    kw = {"pair_families": args.pair_families} if args.pair_families else {}
    pool = (ErrorRatePool.load(path, cubes) if path and path.exists()
            else ErrorRatePool(cubes, **kw))
    if args.pair_families and getattr(pool, "pair_families", None) != args.pair_families:
        raise SystemExit(f"pool file {path} was fitted with other pair families")
    mp = pool[args.measure]
    pub = published(args.measure, args.n_topics, args.delta)
    print(f"# {args.measure}, n = {args.n_topics}, δ = {args.delta:g}, α = {ALPHA}, "
          f"pair families {getattr(pool, 'pair_families', 'vinecopulib')}, "
          f"{args.trials} trials, seed {args.seed}; published: reference.csv "
          "(167,000 trials a cell)")
    if args.export:
        export(mp, args.delta, Path(args.export))
        return
    rows = []
    for variant in variants:
        design = se._type2_design(mp, args.delta, True)
        if variant == "r-transform":
            r_transform_summary(Path(args.r_failures))
            design = without_r_failures(mp, args.delta, pd.read_csv(args.r_failures))
        elif variant == "coarse-cdf":
            design.exp_tables = coarse(design.exp_tables)
            design.base_tables = coarse(design.base_tables)
            design.__post_init__()
        elif variant == "simireff-margins":
            mp_variant = simireff_margins(mp, cubes, Path(args.simireff))
            design = se._type2_design(mp_variant, args.delta, True)
        elif variant not in ("default", "pyvinecopulib-draws"):
            raise SystemExit(f"unknown variant {variant!r}")
        source = mp_variant if variant == "simireff-margins" else mp
        base, exp, group, pair = draw(design, source, args.n_topics, args.trials, args.seed)
        if variant == "pyvinecopulib-draws":
            base, exp = redraw_with_pyvinecopulib(design, mp, group, pair, args.n_topics,
                                                  args.seed)
        if path:
            pool.save(path)
        d = exp - base
        if variant == "default" and args.r_checks:
            r_checks(base[:args.r_checks], exp[:args.r_checks])
        if variant == "default" and args.dump:
            np.savetxt(args.dump, np.hstack([base, exp]), delimiter=",", fmt="%.17g")
            reject, valid = decide(d)
            np.savetxt(Path(args.dump).with_suffix(".decisions.csv"),
                       np.hstack([reject[:, :, :].transpose(2, 0, 1).reshape(len(d), -1),
                                  valid.T]).astype(int), delimiter=",", fmt="%d",
                       header=",".join([f"{t}{k}" for t in "tws" for k in (1, 2)]
                                       + [f"valid_{t}" for t in "tws"]), comments="")
        rows += summary(variant, d, pub)
        if variant == "default":
            split = breakdowns(mp, design, d, group, pair, args.delta)
    table = pd.DataFrame(rows)
    with pd.option_context("display.width", 200, "display.max_columns", 20,
                           "display.max_rows", 500):
        print(table.round(4).to_string(index=False))
        if "default" in variants:
            print("\n# default trials split (two-tailed power at α = .05)")
            print(split.round(4).to_string(index=False))


def simireff_margins(mp, cubes, path: Path):
    """``mp`` with each run's margin of the family simIReff selected for it in R: for a
    continuous measure R's parameters (truncated normal, beta) or the kernels fitted here;
    for a discrete one (P@10) the pmf on the support that R wrote (``simireff_p10.R``)."""
    from dataclasses import replace

    from scorestd.experiments.error_rate_pool import prepare_collection
    from scorestd.models.continuous_margins import Beta1Margin, TruncNormalMargin
    from scorestd.simulation import fit_margins

    r = pd.read_csv(path).set_index(["collection", "run"])
    discrete = mp.support is not None
    tables, changed = mp.tables.copy(), {}
    for name, off in zip(mp.collections, mp.offsets, strict=True):
        kept = prepare_collection(cubes[name], mp.measure)
        ours = fit_margins(kept).family
        for s, run in enumerate(map(str, kept["system"].values)):
            row = r.loc[(name, run)]
            if discrete:  # R's pmf on the support; the table is its cdf there
                pmf = row[[f"p{k}" for k in range(mp.support.size)]].to_numpy(np.float64)
                table = np.minimum(np.cumsum(pmf), 1.0)
                table[-1] = 1.0
            elif row.type == "norm":
                table = TruncNormalMargin()._tabulate(mu=np.array(row.p1), sigma=np.array(row.p2))
            elif row.type == "beta":
                table = Beta1Margin()._tabulate(a=np.array(row.p1), b=np.array(row.p2))
            else:
                family = {"nks": "nkde", "bks": "bkde"}[row.type]
                table = fit_margins(kept.isel(system=[s]), families=[family]).table[0]
            tables[off + s] = table
            key = (ours[s], row.type)
            changed[key] = changed.get(key, 0) + 1
    means = _grid.table_moments(tables, mp.support)[0]
    print(f"# simireff-margins: {path.name}; (ours, simIReff's) family per run: "
          + ", ".join(f"{a}/{b} {n}" for (a, b), n in sorted(changed.items()))
          + f"; margin means moved by up to {np.abs(means - mp.means).max():.4f}")
    return replace(mp, tables=tables, means=means, fitted=mp.fitted)


def r_checks(base: np.ndarray, exp: np.ndarray) -> None:
    """The published tests in R on these trials against our decisions, and what R's
    effTransform did on this design's transforms (``r_transform_*.csv``)."""
    import subprocess
    import tempfile

    reject, valid = decide(exp - base)
    with tempfile.TemporaryDirectory() as tmp:
        trials = Path(tmp) / "trials.csv"
        np.savetxt(trials, np.hstack([base, exp]), delimiter=",", fmt="%.17g")
        out = subprocess.run(["Rscript", str(HERE / "r_tests.R"), str(trials)], check=True,
                             capture_output=True, text=True).stdout
    r = pd.read_csv(io.StringIO(out), skipinitialspace=True)
    print(f"# r_tests.R (the published tests in R) on the first {len(base)} trials:")
    for k, test in enumerate(TESTS):
        for tails in (1, 2):
            theirs = r[f"{ {'paired_t': 't'}.get(test, test[0])}{tails}"]
            ok = theirs.notna().to_numpy()
            ours = reject[k, tails - 1][ok]
            differ = int((ours != theirs[ok].to_numpy().astype(bool)).sum())
            print(f"#   {test} {tails}-tailed: R rejects {theirs[ok].mean():.4f}, scorestd "
                  f"{ours.mean():.4f}, decisions that differ: {differ} of {ok.sum()} "
                  f"(R's NA: {(~ok).sum()}, ours not valid: {(~valid[k]).sum()})")


def r_transform_summary(path: Path) -> None:
    r = pd.read_csv(path)
    up = r["mean"] < r["target"]
    failed = r["convergence"] != 0  # NA or an R error: -1
    print(f"# {path.name}: R's effTransform optimisation on the design's {len(r)} transforms: "
          f"failed (convergence code ≠ 0) {failed.sum()} ({failed.mean():.1%}; moved up "
          f"{failed[up].mean():.1%}, down {failed[~up].mean():.1%}); solved on the path "
          f"scorestd takes (a = 1 or b = 1) {((r.a == 1) | (r.b == 1))[~failed].mean():.1%}; "
          f"both shapes above 1.001 {((r.a > 1.001) & (r.b > 1.001)).sum()}")


def redraw_with_pyvinecopulib(design, mp, group, pair, n_topics: int, seed: int):
    """The same trials (pairs, margins) with each pair copula drawn by pyvinecopulib's
    own ``Bicop.simulate`` instead of :mod:`scorestd.kernels.pair_copulas`."""
    import pyvinecopulib as pv

    n_params = {"indep": 0, "gaussian": 1, "student": 2, "clayton": 1, "gumbel": 1,
                "frank": 1, "joe": 1, "bb1": 2, "bb6": 2, "bb7": 2, "bb8": 2, "tawn": 3}
    uu = np.empty((len(pair), n_topics, 2))
    for k, p in enumerate(np.unique(pair)):
        rows = np.flatnonzero(pair == p)
        code, rot, *par = design.copulas[p, :5]
        name = pair_copulas.FAMILIES[int(code)]
        kw = ({"parameters": np.array(par[:n_params[name]])[:, None]} if n_params[name]
              else {})
        cop = pv.Bicop(family=getattr(pv.BicopFamily, name), rotation=int(rot), **kw)
        draws = np.asarray(cop.sample(len(rows) * n_topics, seeds=[seed, k]))
        uu[rows] = draws.reshape(len(rows), n_topics, 2)
    flip = (design.keys[pair, 1] > design.keys[pair, 2])[:, None, None]
    uu = np.where(flip, uu[..., ::-1], uu)
    base = _grid.table_inverse(design.base_tables, uu[..., 0],
                               rows=design.base_margin[group][:, None], support=mp.support,
                               flat=design.base_flat)
    exp = _grid.table_inverse(design.exp_tables, uu[..., 1],
                              rows=design.exp_rows[pair][:, None], support=mp.support,
                              flat=design.exp_flat)
    return base, exp


def breakdowns(mp, design, d, group, pair, delta) -> pd.DataFrame:
    """The default trials split by transform direction and pair-copula family: share of
    trials, two-tailed power of each test, ties a trial, the share of wins among the
    decided differences, and the skew of the differences ((mean − median) / sd)."""
    reject, valid = decide(d)
    exp_mean = mp.means[mp.offsets[design.keys[:, 0]] + design.keys[:, 2]]
    base_mean = mp.means[design.base_margin[group]]
    up = exp_mean[pair] < base_mean + delta  # experimental moved up (G = F^a)
    fam = np.array(family_names(design.copulas[pair, 0]))
    splits = {"all": np.ones(len(d), bool), "moved up": up, "moved down": ~up}
    for f in sorted(set(fam)):
        splits[f"copula {f}"] = fam == f
    ties = np.abs(d) <= se._SIGN_MIN_DIFF
    wins = d > se._SIGN_MIN_DIFF
    skew = (d.mean(axis=1) - np.median(d, axis=1)) / d.std(axis=1, ddof=1)
    rows = []
    for label, m in splits.items():
        row = {"trials": label, "share": m.mean()}
        for k, test in enumerate(TESTS):
            ok = valid[k] & m
            row[test] = reject[k, 1][ok].mean()
        row["sign - t"] = row["sign"] - row["paired_t"]
        row["ties/trial"] = ties[m].mean() * d.shape[1]
        row["wins/decided"] = wins[m].sum() / (~ties[m]).sum()
        row["skew"] = skew[m].mean()
        rows.append(row)
    return pd.DataFrame(rows)


def export(mp, delta: float, folder: Path) -> None:
    """The transform problems of the design: unique experimental margins' cdf tables
    (float64, row-major, on the grid) and one (margin, target) row per pair."""
    folder.mkdir(parents=True, exist_ok=True)
    design = se._type2_design(mp, delta, True)
    exp = mp.offsets[design.keys[:, 0]] + design.keys[:, 2]
    base = mp.offsets[design.keys[:, 0]] + design.keys[:, 1]
    target = mp.means[base] + delta
    np.ascontiguousarray(mp.tables, dtype="<f8").tofile(folder / "tables.bin")
    np.ascontiguousarray(_grid.X, dtype="<f8").tofile(folder / "grid.bin")
    pd.DataFrame({"exp_margin": exp, "base_margin": base, "target": target,
                  "mean": mp.means[exp]}).to_csv(folder / "problems.csv", index=False)
    print(f"# exported {len(exp)} transform problems of {mp.tables.shape[0]} margins "
          f"({mp.tables.shape[1]} grid points) to {folder}")


def without_r_failures(mp, delta: float, failures: pd.DataFrame):
    """The Type II design with the pairs R's effTransform failed on left out."""
    failed = (failures["convergence"] != 0).set_axis(
        pd.MultiIndex.from_frame(failures[["exp_margin", "base_margin"]]))
    design = se._type2_design(mp, delta, True)
    exp = mp.offsets[design.keys[:, 0]] + design.keys[:, 2]
    base = mp.offsets[design.keys[:, 0]] + design.keys[:, 1]
    drop = np.array([bool(failed.get((e, b), False)) for e, b in zip(exp, base, strict=True)])
    print(f"# r-transform: {drop.sum()} of {len(drop)} pairs left out (R's optim failed)")
    return _subset(design, ~drop)


def _subset(design, keep: np.ndarray):
    """The design with only the pairs ``keep``; baselines left without pairs dropped,
    collections weighted by their remaining baselines (as the published code samples)."""
    group_of = np.repeat(np.arange(len(design.base_margin)), np.diff(design.group_pairs))
    per_group = np.bincount(group_of[keep], minlength=len(design.base_margin))
    has = per_group > 0
    coll_of_group = np.repeat(np.arange(len(design.coll_prob)), np.diff(design.coll_groups))
    coll_counts = np.bincount(coll_of_group[has], minlength=len(design.coll_prob))
    return se._Design(coll_counts / coll_counts.sum(),
                      np.concatenate([[0], np.cumsum(coll_counts)]),
                      design.base_margin[has],
                      np.concatenate([[0], np.cumsum(per_group[has])]),
                      design.exp_tables, design.exp_rows[keep], design.rho[keep],
                      design.base_tables, design.keys[keep])


if __name__ == "__main__":
    main()
