"""The rank tests' Type I error with pyvinecopulib's family set and with R VineCopula's.

Usage: ``python tawn_types.py [TRIALS] > tawn_types.txt`` (default 8,000 trials; pools of
fitted pair copulas cached in ``$TMPDIR/tawn_types-*.npz``; with ``R_LIBS`` pointing at an
R library holding VineCopula, R's own ``BiCopSelect`` fits the same pairs too).

The error-rate design of ``scorestd.error_rates`` for AP (the eight bundled collections of
the paper), Type I: a collection by its runs, two runs of it, both on the first run's
margin, their pair copula; ``TRIALS`` trials drawn once (seed 2019) and scored at
n = 25, 50 and 100 topics with each family set on the same uniforms:

- **vinecopulib**: ``pair_families="vinecopulib"`` (the default of ``error_rates``):
  ``pyvinecopulib``'s parametric families, its three-parameter Tawn, its preselection;
- **bicopselect**: ``pair_families="bicopselect"``: R VineCopula's ``BiCopSelect(u1, u2,
  selectioncrit = "AIC")``, the call of the paper's ``R/03-bicops.R``
  (github.com/julian-urbano/sigir2019-statistical): two two-parameter Tawn types fitted
  within VineCopula's bounds (ψ ∈ [τ̂ − 0.1, τ̂ + 0.2]);
- **bicopselect, ψ free**: the same, the Tawn types fitted over ψ ∈ [0, 1], θ ∈ [1, 60]
  (which of the two differences matters: the parameter count or the bounds);
- **R VineCopula** (if available): R's ``BiCopSelect`` on the same pseudo-observations,
  its fits mapped to pyvinecopulib's parameters (its Tawn type 1 is pyvinecopulib's Tawn
  with ψ₂ = 1, type 2 with ψ₁ = 1, same rotations).

Each trial's paired t, Wilcoxon and sign tests (two-tailed, α = .05; the sign test's ties
within 0.01, trials with only ties left out, as the paper) beside the published rates
(``reference.csv``); the difference of a family set's rate from vinecopulib's with its
standard error over the same trials (paired); the share of trials drawn from a Tawn copula
and the rates among them.
"""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from scorestd.experiments.error_rate_pool import ErrorRatePool
from scorestd.experiments.significance_errors import _collections, _select, _type1_design
from scorestd.kernels import pair_copulas
from scorestd.kernels.paired_decisions import paired_decisions
from scorestd.models._grid import table_inverse
from scorestd.simulation import bicopselect as bs
from scorestd.simulation.copula import _row, pseudo_observations_random_ties

HERE = Path(__file__).parent
TRIALS = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
SIZES, CHUNK, TESTS = (25, 50, 100), 2000, ["paired_t", "wilcoxon", "sign"]
TMP = Path(os.environ.get("TMPDIR", tempfile.gettempdir()))
TAWN = pair_copulas.family_code("tawn")

cubes = _collections(None)
pools = {f: ErrorRatePool.load(TMP / f"tawn_types-{f}.npz", cubes)
         if (TMP / f"tawn_types-{f}.npz").exists() else ErrorRatePool(cubes, pair_families=f)
         for f in ("vinecopulib", "bicopselect")}
design = _type1_design(pools["vinecopulib"]["ap"], True)
rng = np.random.default_rng(2019)
group, pair = _select(design, rng.random((TRIALS, 3)))
keys = np.column_stack([design.keys[pair, 0], np.sort(design.keys[pair, 1:], axis=1)])
distinct = np.unique(keys, axis=0)
print(f"{TRIALS} Type I trials (AP, the 8 collections of the paper, seed 2019), "
      f"{len(distinct)} distinct pairs of runs\n")

# R's own BiCopSelect on the same pseudo-observations (in its own process, meanwhile)
scores = pools["vinecopulib"]["ap"].scores
r_job = None
if os.environ.get("R_LIBS"):
    obs, fits = TMP / "tawn_types-pobs.csv", TMP / "tawn_types-r.csv"
    with open(obs, "w") as fh:
        fh.write("pair,u1,u2\n")
        for k, (c, i, j) in enumerate(distinct):
            u = pseudo_observations_random_ties(scores[c][:, [i, j]],
                                                np.random.default_rng((c, i, j)))
            fh.writelines(f"{k},{a!r},{b!r}\n" for a, b in u.tolist())
    if not fits.exists():
        r_job = subprocess.Popen(["Rscript", "-e", """
            library(VineCopula); d <- read.csv(commandArgs(TRUE)[1])
            out <- lapply(split(d, d$pair), function(g) {
              s <- BiCopSelect(g$u1, g$u2, selectioncrit = "AIC")
              data.frame(pair = g$pair[1], family = s$family, par = s$par, par2 = s$par2) })
            write.csv(do.call(rbind, out), commandArgs(TRUE)[2], row.names = FALSE)""", str(obs), str(fits)])

rows = {}
for families, pool in pools.items():
    rows[families] = pool["ap"].pair_copulas(keys)
    pool.save(TMP / f"tawn_types-{families}.npz")

# ψ free: the same selection, the Tawn types over their whole parameter space
free_path = TMP / "tawn_types-free.npz"
free = dict(np.load(free_path)) if free_path.exists() else {}
for c, i, j in distinct:
    name = f"{c}_{i}_{j}"
    if name not in free:
        u = pseudo_observations_random_ties(scores[c][:, [i, j]], np.random.default_rng((c, i, j)))
        free[name] = _row(bs.bicopselect(np.asfortranarray(u), tawn_bounds="full").copula)
np.savez(free_path, **free)
rows["bicopselect, ψ free"] = np.array([free[f"{c}_{i}_{j}"] for c, i, j in keys])

if os.environ.get("R_LIBS"):
    if r_job is not None and r_job.wait() != 0:
        raise SystemExit("R's BiCopSelect failed")
    r = pd.read_csv(fits).sort_values("pair")
    import pyvinecopulib as pv

    r_rows = []
    for fam, par, par2 in r[["family", "par", "par2"]].itertuples(index=False):
        family, rotation, tawn_type = bs.vinecopula_family(int(fam))
        if tawn_type:
            cop = bs._tawn(pv, tawn_type, rotation, abs(par), par2)
        elif family == "indep":
            cop = pv.Bicop()
        else:
            two = family in ("student", "bb1", "bb6", "bb7", "bb8")
            first = par if family in ("gaussian", "student", "frank") else abs(par)
            cop = pv.Bicop(family=getattr(pv.BicopFamily, family), rotation=rotation,
                           parameters=np.array([first, abs(par2)] if two else [first],
                                               dtype=np.float64).reshape(-1, 1))
        r_rows.append(_row(cop))
    r_rows = np.array(r_rows)
    index = {tuple(k): n for n, k in enumerate(distinct.tolist())}
    rows["R VineCopula"] = r_rows[[index[tuple(k)] for k in keys.tolist()]]
    ours = pools["bicopselect"]["ap"].pair_copulas(distinct)
    same = np.sum((ours[:, 0] == r_rows[:, 0]) & (ours[:, 1] == r_rows[:, 1])
                  & np.all(np.abs(ours[:, 2:5] - r_rows[:, 2:5]) < 0.05, axis=1))
    print(f"bicopselect against R's BiCopSelect on the {len(distinct)} pairs: the same "
          f"family and rotation (parameters within 0.05) for {same}")
    differ = ~((ours[:, 0] == r_rows[:, 0]) & (ours[:, 1] == r_rows[:, 1]))
    print("  where the family or rotation differs (ours, R's):",
          pd.Series([f"{pair_copulas.FAMILIES[int(a)]} {int(b)}° / "
                     f"{pair_copulas.FAMILIES[int(c)]} {int(d)}°" for a, b, c, d in
                     np.column_stack([ours[differ, :2], r_rows[differ, :2]])]
                    ).value_counts().to_dict())
    far = ~differ & ~np.all(np.abs(ours[:, 2:5] - r_rows[:, 2:5]) < 0.05, axis=1)
    print("  same family, a parameter 0.05 or more apart:",
          pd.Series([pair_copulas.FAMILIES[int(a)] for a in ours[far, 0]]).value_counts()
          .to_dict(), "\n")

_, first = np.unique(keys, axis=0, return_index=True)
print("Selected families (share of the distinct pairs):")
print(pd.DataFrame({name: pd.Series([pair_copulas.FAMILIES[int(c)] for c in r[first, 0]])
                    .value_counts(normalize=True) for name, r in rows.items()})
      .fillna(0).round(3).to_string(), "\n")

published = pd.read_csv(HERE / "reference.csv")
published = published[(published.kind == "type1") & (published.measure == "ap")
                      & (published.alpha == 0.05) & (published.tails == 2)]
results = []
for n in SIZES:
    # the same uniforms for every family set
    draws = np.random.default_rng((2019, n)).random((TRIALS, n, pair_copulas.UNIFORMS))
    for name, cop in rows.items():
        reject, valid = [], []
        for start in range(0, TRIALS, CHUNK):
            sl = slice(start, start + CHUNK)
            c = cop[sl]
            uu = pair_copulas.sample(c[:, 0].astype(np.int64), c[:, 1].astype(np.int64),
                                     c[:, 2:5], draws[sl], tau=c[:, 5])
            flip = (design.keys[pair[sl], 1] > design.keys[pair[sl], 2])[:, None]
            ub = np.where(flip, uu[..., 1], uu[..., 0])
            ue = np.where(flip, uu[..., 0], uu[..., 1])
            support = pools["vinecopulib"]["ap"].support
            base = table_inverse(design.base_tables, ub, support=support, flat=design.base_flat,
                                 rows=design.base_margin[group[sl]][:, None])
            exp = table_inverse(design.exp_tables, ue, support=support, flat=design.exp_flat,
                                rows=design.exp_rows[pair[sl]][:, None])
            dec = paired_decisions(exp - base, np.array([0.05]), TESTS, resamples=100,
                                   min_diff=0.01, seed=start)
            reject.append(dec.reject[:, 1, :, 0].T)
            valid.append(dec.valid.T)
        results.append((n, name, np.concatenate(reject), np.concatenate(valid),
                        cop[:, 0] == TAWN))

base_of = {n: (rej, val) for n, name, rej, val, _ in results if name == "vinecopulib"}
lines = []
for n, name, rej, val, tawn in results:
    rej = np.where(val, rej, np.nan)
    for t, test in enumerate(TESTS):
        ok = val[:, t]
        rate = np.nanmean(rej[:, t])
        se = np.sqrt(rate * (1 - rate) / ok.sum())
        b_rej, b_val = base_of[n]
        both = ok & b_val[:, t]
        diff = rej[both, t] - b_rej[both, t]
        pub = published[(published.n_topics == n) & (published.test == test)].rate.item()
        lines.append({"n": n, "families": name, "test": test, "rate": rate, "se": se,
                      "published": pub, "z_published": (rate - pub) / se,
                      "minus_vinecopulib": diff.mean(),
                      "se_paired": diff.std(ddof=1) / np.sqrt(len(diff)),
                      "tawn_share": tawn.mean(), "rate_in_tawn": np.nanmean(rej[tawn, t]),
                      "rate_in_others": np.nanmean(rej[~tawn, t])})
table = pd.DataFrame(lines)
pd.set_option("display.width", 200)
print("Type I error, two-tailed, α = .05 (rate ± se; published: 1,667,000 trials, "
      "se ≈ .0002):")
print(table.round(4).to_string(index=False))
