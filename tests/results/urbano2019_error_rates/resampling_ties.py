"""Why our permutation and bootstrap Type I rates on P@10 at n = 25 are below the published.

Usage: ``python resampling_ties.py > resampling_ties.txt`` (about 10 min on one core).

Type I trials of the error-rate design on P@10 (two runs of one adhoc collection, both on
the first run's margin, the pair's copula fitted as the default does), n = 25. P@10
differences lie on the lattice k/10, so many resampled means equal the observed one in
exact arithmetic. On the same trials and the same resamples (B = 10,000 per trial, a
matrix per block of 512 trials as in the study), every test is decided two ways:

- **ours** (scorestd): a resampled mean within 1e-9 (relative) of the observed one counts
  as "as extreme" (ties count; the randomisation test is then exact);
- **published**: the authors' C++ (github.com/julian-urbano/sigir2019-statistical,
  ``R/test.cpp``, ``testCpp_permutation`` and ``testCpp_bootstrap``) emulated operation for
  operation: each resampled mean a double sum in topic order divided by n, the observed
  mean Rcpp's (two-pass, long double), compared with ``>=``; the bootstrap's resampled
  means centred on *their own* mean (off the lattice) instead of the observed one.

- **ties as one half** (a mid-p value): each tie counted as one half, for comparison.

All then give p = #/B and reject when round(p, 6) <= α (the published ``ecdf``), so the
only difference is how ties are counted. The last lines give the share of the ties the
published C++ counts as extreme (its rounding decides each one).
"""
import numpy as np
import pandas as pd

from scorestd.experiments.error_rate_pool import ErrorRatePool
from scorestd.experiments.significance_errors import (
    _collections,
    _draw_pairs,
    _select,
    _type1_design,
)
from scorestd.simulation import _random

N_TOPICS, TRIALS, B, BLOCK = 25, 8192, 10_000, 512
ALPHAS = np.array([0.01, 0.05, 0.1])


def rcpp_mean(x):
    """Rcpp sugar ``mean``: long double sum, then a correction pass (rows of ``x``)."""
    x = np.asarray(x, dtype=np.longdouble)
    s = np.zeros(x.shape[0], dtype=np.longdouble)
    for i in range(x.shape[1]):
        s += x[:, i]
    s /= x.shape[1]
    t = np.zeros_like(s)
    for i in range(x.shape[1]):
        t += x[:, i] - s
    return (s + t / x.shape[1]).astype(np.float64)


def sequential_means(d, pick):
    """``(N, B)`` resampled means: ``Σ_i pick(i)`` in topic order, in doubles, / n."""
    acc = np.zeros((d.shape[0], B))
    for i in range(d.shape[1]):
        acc += pick(i)
    return acc / d.shape[1]


cubes = _collections(None)
pool = ErrorRatePool({k: v for k, v in cubes.items() if k.startswith("adhoc")})["p10"]
design = _type1_design(pool, True)
root = _random.root_sequence(2019)
blocks = range(TRIALS // _random.BLOCK)
rngs = [_random.block_generator(root, b) for b in blocks]
drawn = np.unique(np.concatenate([_select(design, _random.block_generator(root, b).random(
    (_random.BLOCK, 3)))[1] for b in blocks]))
design.copulas = np.zeros((len(design.keys), 6))
design.copulas[drawn] = pool.pair_copulas(np.column_stack(
    [design.keys[drawn, 0], np.sort(design.keys[drawn, 1:], axis=1)]))
base, exp = _draw_pairs(design, rngs, _random.BLOCK, N_TOPICS, pool.support)
d = exp - base  # as the published e - b

rows = []
share = {key: np.zeros(2) for key in (("permutation", 2), ("permutation", 1),
                                      ("bootstrap", 2), ("bootstrap", 1))}
rng = np.random.default_rng(7)
for start in range(0, TRIALS, BLOCK):
    x = d[start:start + BLOCK]
    mean = rcpp_mean(x)
    tol = 1e-9 * np.abs(x).sum(axis=1, keepdims=True) / N_TOPICS
    signs = rng.integers(0, 2, size=(B, N_TOPICS)) * 2 - 1
    perm = sequential_means(x, lambda i, x=x, signs=signs: x[:, i:i + 1] * signs[:, i])
    draws = rng.integers(0, N_TOPICS, size=(B, N_TOPICS))
    boot = sequential_means(x, lambda i, x=x, draws=draws: x[:, draws[:, i]])
    centred = boot - rcpp_mean(boot)[:, None]
    m, am = mean[:, None], np.abs(mean)[:, None]
    # "as extreme" resamples: with ties (ours), strictly beyond, published (C++)
    beyond = {("permutation", 2): (np.abs(perm), am), ("permutation", 1): (perm, m),
              ("bootstrap", 2): (np.abs(boot - m), am), ("bootstrap", 1): (boot - m, m)}
    published = {("permutation", 2): np.abs(perm) >= am, ("permutation", 1): perm >= m,
                 ("bootstrap", 2): np.abs(centred) >= am, ("bootstrap", 1): centred >= m}
    counts = {}
    for (test, tails), (stat, at) in beyond.items():
        with_ties = (stat >= at - tol).sum(axis=1)
        strict = (stat > at + tol).sum(axis=1)
        counts[test, "ours", tails] = with_ties
        counts[test, "published", tails] = published[test, tails].sum(axis=1)
        counts[test, "ties as one half", tails] = (with_ties + strict) / 2
        tied = with_ties - strict
        share[test, tails] += [(counts[test, "published", tails] - strict).sum(), tied.sum()]
    for (test, convention, tails), hits in counts.items():
        p = np.round(hits / B, 6)
        for alpha in ALPHAS:
            rows.append({"test": test, "convention": convention, "tails": tails,
                         "alpha": alpha, "rejections": int((p <= alpha).sum()),
                         "trials": len(x)})

t = pd.DataFrame(rows).groupby(["test", "convention", "tails", "alpha"], dropna=False)[
    ["rejections", "trials"]].sum()
t["rate"] = t["rejections"] / t["trials"]
wide = t["rate"].unstack("convention")
wide["published − ours"] = wide["published"] - wide["ours"]
ref = pd.read_csv("reference.csv")
ref = ref[(ref.kind == "type1") & (ref.measure == "p10") & (ref.n_topics == N_TOPICS)]
cmp_ = pd.read_csv("comparison.csv")
cmp_ = cmp_[(cmp_.kind == "type1") & (cmp_.measure == "p10") & (cmp_.n_topics == N_TOPICS)]
for src, col in ((ref, "published (paper)"), (cmp_, "ours (large run)")):
    wide[col] = [float(src[(src.test == test) & (src.tails == tails)
                           & np.isclose(src.alpha, alpha)]["rate"].iloc[0])
                 if test in ("permutation", "bootstrap") and np.isfinite(alpha) else np.nan
                 for test, tails, alpha in wide.index]
wide["gap (paper − large run)"] = wide["published (paper)"] - wide["ours (large run)"]
print(f"P@10, n = {N_TOPICS}, {TRIALS} Type I trials, B = {B}: rejection rates of the same "
      "trials and resamples under both conventions")
print(wide.round(4).to_string())
print()
print("Tied resamples (equal to the observed in exact arithmetic) that the published C++ "
      "counts as extreme:")
for (test, tails), (counted, tied) in share.items():
    print(f"  {test}, {tails}-tailed: {counted:.0f} of {tied:.0f} ({counted / tied:.1%}); "
          f"ties are {tied / (TRIALS * B):.1%} of all resamples")
