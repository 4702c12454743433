"""Timing of the batched rank-correlation kernels.

1,000 pairs of 110-vectors (robust2004 size), against scipy.stats.kendalltau in a
loop and a pure-Python τ_AP. Run by hand: ``python benchmarks/bench_correlation.py``.
"""

from __future__ import annotations

import timeit

import numpy as np
from scipy import stats

from scorestd.kernels import correlation as kc


def python_tau_ap(est, truth):
    """Pure-Python τ_AP (Yilmaz et al.): walk down the estimated ranking."""
    order = sorted(range(len(est)), key=lambda k: -est[k])
    total = 0.0
    for pos in range(1, len(order)):
        item = order[pos]
        total += sum(1 for above in order[:pos] if truth[above] > truth[item]) / pos
    return 2 * total / (len(est) - 1) - 1


def best(fn, repeat=3):
    return min(timeit.repeat(fn, number=1, repeat=repeat))


def main() -> None:
    rng = np.random.default_rng(2017)
    x, y = rng.random((1000, 110)), rng.random((1000, 110))
    print("1,000 pairs of 110-vectors")
    for name, fn in [("kendall_tau_b", kc.kendall_tau_b), ("tau_ap", kc.tau_ap),
                     ("tau_ap_a", kc.tau_ap_a), ("tau_ap_b", kc.tau_ap_b),
                     ("pearson", kc.pearson), ("spearman", kc.spearman)]:
        print(f"{name + ' (batched kernel):':34s} {best(lambda f=fn: f(x, y)) * 1e3:8.1f} ms")
    t_both = best(lambda: (kc.kendall_tau_b(x, y), kc.tau_ap_b(x, y)))
    print(f"{'tau_b + tau_ap_b together:':34s} {t_both * 1e3:8.1f} ms")
    t_scipy = best(lambda: [stats.kendalltau(a, b) for a, b in zip(x, y, strict=True)], repeat=1)
    print(f"{'loop of scipy.stats.kendalltau:':34s} {t_scipy * 1e3:8.1f} ms")
    sub = 50  # the pure-Python loop is slow: time 50 pairs and scale to 1,000
    t_py = best(lambda: [python_tau_ap(a, b) for a, b in zip(x[:sub], y[:sub], strict=True)],
                repeat=1) * (1000 / sub)
    print(f"{'pure-Python tau_ap (scaled):':34s} {t_py * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
