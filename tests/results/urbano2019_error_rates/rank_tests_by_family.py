"""Where the rank tests' excess Type I error comes from: AP, n = 100, by pair-copula family.

Usage: ``python rank_tests_by_family.py POOL.npz > rank_tests_by_family.txt`` with the pool
of AP pair copulas written by the large run (``--pool pool.npz``, summary.md; every AP pair
is fitted there). Type I trials of the error-rate design (two runs of one collection, both
on the first run's margin, the pair's copula), 48,000 at n = 100, split by the family of
the pair copula drawn: Tawn (the only asymmetric family) or the others (exchangeable: the
difference of the two runs is then symmetric and the tests of the median keep α). The
two-tailed rejection rates at α = .05 show that the Wilcoxon and sign tests' excess comes
from the Tawn pairs alone, so its size is set by how often and how asymmetric a Tawn copula
is selected.
"""
import sys

import numpy as np
import pandas as pd

from scorestd.experiments.error_rate_pool import ErrorRatePool, family_names
from scorestd.experiments.significance_errors import _collections, _select, _type1_design
from scorestd.kernels import pair_copulas
from scorestd.kernels.paired_decisions import paired_decisions
from scorestd.models._grid import table_inverse

N_TOPICS, TRIALS, CHUNK = 100, 48_000, 4000

cubes = _collections(None)
pool = ErrorRatePool.load(sys.argv[1], cubes)["ap"]
d = _type1_design(pool, True)
ordered = np.sort(d.keys[:, 1:], axis=1)
d.copulas = pool.pair_copulas(np.column_stack([d.keys[:, 0], ordered]))
rng = np.random.default_rng(11)
families, rejected = [], []
for start in range(0, TRIALS, CHUNK):
    group, pair = _select(d, rng.random((CHUNK, 3)))
    cop = d.copulas[pair]
    uu = pair_copulas.sample(cop[:, 0].astype(np.int64), cop[:, 1].astype(np.int64),
                             cop[:, 2:5], rng.random((CHUNK, N_TOPICS, 2)), tau=cop[:, 5])
    flip = (d.keys[pair, 1] > d.keys[pair, 2])[:, None]  # the first run drawn is the baseline
    ub = np.where(flip, uu[..., 1], uu[..., 0])
    ue = np.where(flip, uu[..., 0], uu[..., 1])
    base = table_inverse(d.base_tables, ub, rows=d.base_margin[group][:, None],
                         support=pool.support, flat=d.base_flat)
    exp = table_inverse(d.exp_tables, ue, rows=d.exp_rows[pair][:, None],
                        support=pool.support, flat=d.exp_flat)
    r = paired_decisions(exp - base, np.array([0.05]), ["paired_t", "wilcoxon", "sign"],
                         resamples=100, min_diff=0.01, seed=start)
    rejected.append(r.reject[:, 1, :, 0].T)  # two-tailed, α = .05: (trials, tests)
    families.append(np.array(family_names(cop[:, 0])))
df = pd.DataFrame(np.concatenate(rejected), columns=["t", "wilcoxon", "sign"])
df["family"] = np.where(np.concatenate(families) == "tawn", "tawn", "other (exchangeable)")
out = df.groupby("family").agg(trials=("t", "size"), t=("t", "mean"),
                               wilcoxon=("wilcoxon", "mean"), sign=("sign", "mean"))
out.loc["all"] = [len(df), df.t.mean(), df.wilcoxon.mean(), df.sign.mean()]
out["share"] = out["trials"] / len(df)
print(out.round(4).to_string())
