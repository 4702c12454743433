"""Cost per trial of the five paired tests of the error-rate study, against their floors.

Run by hand: ``python benchmarks/bench_paired_decisions.py [B ...] [--call N]`` (default
B = 2000 and 10000; ``--tests permutation bootstrap``: only those; ``--p10-only``: only
the P@10-like differences; ``--before`` adds the p-value kernels the study used before
``paired_decisions``). For n = 25, 50, 100 topics it times, per trial and per test:

- ``kernel``: ``paired_decisions`` (one test at a time) on calls of ``--call`` trials
  (default 1,024, as the error-rate study calls it: a batch of 16 blocks of 64 trials;
  ``--call 64``: a call per block, as the study called it before);
- ``floor``: what one BLAS product or a compiled loop needs at the least: for the
  resampling tests the float32 product of the ``(B × n)`` resample matrix with the
  differences of 512 trials, in the kernel's cache-sized chunks of 512 × 256 sums
  (every resampled sum, exact enough to decide all but a few, without counting them);
  for Wilcoxon one sort of the trial's 64-bit keys; for the sign and t tests one pass
  over the differences (``count_nonzero(d > c)``; mean and variance);
- ``before`` (with ``--before``): the tests as the error-rate study ran them before
  :func:`scorestd.kernels.paired_decisions.paired_decisions` (the p-value kernels of
  ``rank_tests`` and ``resampling_tests`` on blocks of 64 trials, fresh resamples for
  every block, then ``p < α``).

The differences are those of AP-like scores (two correlated beta variables, the second
shifted by 0.01, so both tails are exercised as in a study with small effects); a second
set is rounded to 0.1 (P@10-like: ties and zeros). Each figure is the smallest CPU time
(``time.process_time``) of 5 interleaved repetitions, so a busy machine slows all alike.
"""

from __future__ import annotations

import time

import numpy as np

from scorestd.experiments.result import ALPHAS
from scorestd.kernels.blas import single_threaded_blas
from scorestd.kernels.paired_decisions import PAIRED_TESTS, paired_decisions
from scorestd.kernels.rank_tests import sign_test_all_pairs, wilcoxon_all_pairs
from scorestd.kernels.resampling_tests import mean_difference_pvalues
from scorestd.kernels.t_decisions import paired_t_complete

N_TRIALS = 2048
OLD_BLOCK = 64
CALL = 1024  # trials per kernel call (the study's batches)


def differences(n: int, discrete: bool, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    z = rng.standard_normal((N_TRIALS, 2, n))
    u = np.stack([z[:, 0], 0.8 * z[:, 0] + 0.6 * z[:, 1]], axis=1)
    from scipy import special, stats

    x = stats.beta(0.8, 2.5).ppf(special.ndtr(u))
    x[:, 1] = np.clip(x[:, 1] + 0.01, 0, 1)
    if discrete:
        x = np.round(x, 1)
    return x[:, 1] - x[:, 0]


def before(d: np.ndarray, test: str, B: int) -> None:
    """The previous core of the study's ``_rejections`` for one test."""
    crit1, crit2 = 2.0, 2.4
    for s in range(0, len(d), OLD_BLOCK):
        block = d[s:s + OLD_BLOCK]
        x = np.stack([block, np.zeros_like(block)], axis=-1)
        if test == "paired_t":
            t = paired_t_complete(x)[0][:, 0]
            _ = (t[:, None] > crit1, np.abs(t)[:, None] > crit2)
            continue
        if test in ("permutation", "bootstrap"):
            p = mean_difference_pvalues(block, method=test, B=B, seed=s,
                                        alternatives=("greater", "two-sided"))
            p1, p2 = p["greater"], p["two-sided"]
        elif test == "wilcoxon":
            p1 = wilcoxon_all_pairs(x, alternative="greater").pvalue[:, 0]
            p2 = wilcoxon_all_pairs(x, alternative="two-sided").pvalue[:, 0]
        else:
            p1 = sign_test_all_pairs(x, alternative="greater").pvalue[:, 0]
            p2 = sign_test_all_pairs(x, alternative="two-sided").pvalue[:, 0]
        _ = (p1[:, None] < ALPHAS, p2[:, None] < ALPHAS)


def kernel(d: np.ndarray, test: str, B: int, first: int, call: int = CALL) -> None:
    for s in range(0, len(d), call):
        paired_decisions(d[s:s + call], ALPHAS, [test], resamples=B, seed=1,
                         first_trial=first + s)


def floor(d: np.ndarray, test: str, B: int) -> None:
    rng = np.random.default_rng(0)
    if test in ("permutation", "bootstrap"):
        w = rng.standard_normal((B, d.shape[1])).astype(np.float32)
        out = np.empty((512, 256), dtype=np.float32)
        for s in range(0, len(d), 512):
            x = d[s:s + 512].astype(np.float32)
            for b in range(0, B, 256):
                chunk = w[b:b + 256]
                np.matmul(x, chunk.T, out=out[:len(x), :len(chunk)])
    elif test == "wilcoxon":
        key = (np.abs(d).view(np.uint64) << np.uint64(1)) | (d > 0)
        key.sort(axis=1)
    elif test == "sign":
        np.count_nonzero(d > 0.01, axis=1)
    else:
        d.mean(axis=1), d.var(axis=1)


def cpu(fn, repeat: int = 5) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best / N_TRIALS * 1e6  # µs per trial


def main(resamples: list[int], with_before: bool, call: int = CALL,
         tests: tuple[str, ...] = PAIRED_TESTS, kinds=(False, True)) -> None:
    print(f"numpy {np.__version__}; {N_TRIALS} trials; µs per trial (CPU time, best of 5)")
    with single_threaded_blas():
        for discrete in kinds:
            for B in resamples:
                print(f"\n{'P@10-like' if discrete else 'AP-like'} differences, B = {B}")
                print(f"{'n':>4} {'test':<12} {'before':>9} {'kernel':>9} {'floor':>9} "
                      f"{'×floor':>7} {'speed-up':>8}")
                for n in (25, 50, 100):
                    d = differences(n, discrete)
                    total = np.zeros(2)
                    for test in tests:
                        counter = iter(range(10**6))
                        old = (cpu(lambda d=d, test=test, B=B: before(d, test, B), repeat=3 if B > 2000 else 5)
                               if with_before else np.nan)
                        new = cpu(lambda d=d, test=test, B=B, counter=counter:
                                  kernel(d, test, B, N_TRIALS * next(counter), call))
                        low = cpu(lambda d=d, test=test, B=B: floor(d, test, B))
                        total += (old, new)
                        print(f"{n:>4} {test:<12} {old:9.2f} {new:9.2f} {low:9.2f} "
                              f"{new / low:7.2f} {old / new:8.2f}")
                    print(f"{n:>4} {'all five':<12} {total[0]:9.2f} {total[1]:9.2f}")


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("B", type=int, nargs="*", default=[2000, 10000])
    parser.add_argument("--before", action="store_true")
    parser.add_argument("--call", type=int, default=CALL)
    parser.add_argument("--tests", nargs="+", choices=PAIRED_TESTS, default=PAIRED_TESTS)
    parser.add_argument("--p10-only", action="store_true",
                        help="only the P@10-like differences")
    args = parser.parse_args()
    main(args.B, args.before, args.call, tuple(args.tests),
         (True,) if args.p10_only else (False, True))
