"""Timing of the all-pairs significance kernels on robust2004-sized data.

110 systems × 50 topics (the first 50 topics of the bundled robust2004 AP scores):
all 5,995 system pairs. Run by hand: ``python benchmarks/bench_significance.py``.
"""

from __future__ import annotations

import timeit

import numpy as np
from scipy import stats

import scorestd
from scorestd.kernels import significance as ks


def best(fn, number=1, repeat=5):
    """Best wall time of one call, in seconds."""
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def main() -> None:
    cube = scorestd.datasets.load("robust2004").sel(measure="ap").isel(topic=slice(0, 50))
    x = cube.transpose("topic", "system").values  # (50, 110)
    i, j = ks.pair_indices(x.shape[1])
    print(f"data: {x.shape[0]} topics x {x.shape[1]} systems, {len(i)} pairs")

    t_kernel = best(lambda: ks.paired_t_all_pairs(x), number=20)
    t_loop = best(lambda: [stats.ttest_rel(x[:, a], x[:, b]) for a, b in zip(i, j, strict=True)],
                  repeat=2)
    print(f"paired t, all pairs (kernel):          {t_kernel * 1e3:9.2f} ms")
    print(f"paired t, loop of scipy.stats.ttest_rel: {t_loop * 1e3:9.1f} ms "
          f"({t_loop / t_kernel:.0f}x slower)")
    batch = np.stack([x] * 100)
    t_batch = best(lambda: ks.paired_t_all_pairs(batch), repeat=3)
    print(f"paired t, 100 trials x all pairs:       {t_batch * 1e3:9.1f} ms")

    rows = [
        ("wilcoxon", lambda: ks.wilcoxon_all_pairs(x)),
        ("sign", lambda: ks.sign_test_all_pairs(x)),
        ("permutation B=1000", lambda: ks.permutation_all_pairs(x, B=1000, seed=1)),
        ("bootstrap B=1000", lambda: ks.bootstrap_all_pairs(x, B=1000, seed=1)),
        ("tukey_hsd", lambda: ks.tukey_hsd_all_pairs(x)),
        ("randomised tukey B=1000", lambda: ks.randomised_tukey_hsd_all_pairs(x, B=1000, seed=1)),
        ("holm over 5,995 p-values", lambda: ks.adjust_pvalues(np.linspace(0, 1, len(i)))),
        ("unpaired Welch 110x110", lambda: ks.unpaired_t_all_pairs(x[:25], x[25:])),
    ]
    for name, fn in rows:
        print(f"{name + ':':40s} {best(fn, repeat=3) * 1e3:9.1f} ms")
    t_labelled = best(lambda: scorestd.compare(cube, "paired_t", correction="holm"), repeat=3)
    print(f"{'scorestd.compare(paired_t, holm), labelled:':40s} {t_labelled * 1e3:9.1f} ms")


if __name__ == "__main__":
    main()
