"""Timing of the Bayesian analyses against the targets of the Bayesian issue.

- the crossed random-effects model on robust2004 AP (99 topics × 110 systems), 4 chains ×
  2,000 kept draws after 1,000 warm-up: the sampler alone and ``bayes_crossed`` end to end
  (with the arviz diagnostics and the labelled result), with the worst R-hat and the
  smallest bulk ESS of the system effects (target: ≤ 10 s, R-hat ≤ 1.01, ESS ≥ 1,000);
- the closed-form comparison of all 5,995 pairs of a 50 × 110 cube (the first 50 topics of
  robust2004 AP): the kernel and ``bayes_compare`` (target: ≤ 20 ms);
- the general (missing-cell) step of the sampler, Student-t errors, per-system variances;
- ``bayes_standardize`` (E-std and N-std, 1,000 draws) and ``assurance_topic_set_size``.

Each figure is the median (and range) of ``--repeat`` runs. Run by hand:
``python benchmarks/bench_bayes.py [--repeat 5]``.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

import scorestd
from scorestd.bayes.crossed import resolve_priors
from scorestd.bayes.gibbs import sample_crossed
from scorestd.kernels.paired_posterior import paired_posterior_all_pairs


def timed(fn, repeat: int) -> tuple[float, float, float, object]:
    """Median, min and max wall time of ``repeat`` calls, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), min(times), max(times), out


def row(name: str, t: tuple, unit: str = "s") -> None:
    scale = 1e3 if unit == "ms" else 1.0
    print(f"{name:58s} {t[0] * scale:9.3f} {unit}  ({t[1] * scale:.3f}–{t[2] * scale:.3f})")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    robust = scorestd.datasets.load("robust2004").sel(measure="ap")
    y = robust.transpose("topic", "system").values
    print(f"crossed model: {y.shape[0]} topics x {y.shape[1]} systems, 4 chains x 2,000 draws "
          f"after 1,000 warm-up")
    priors = resolve_priors(None, y)
    row("sampler (sample_crossed)", timed(
        lambda: sample_crossed(y, priors, chains=4, draws=2000, warmup=1000, seed=1), repeat))
    t = timed(lambda: scorestd.bayes_crossed(robust, seed=1, progress=False), repeat)
    row("bayes_crossed (sampler + arviz diagnostics + result)", t)
    d = t[3].diagnostics
    print(f"  system effects: max R-hat {float(d['system_effect_rhat'].max()):.4f}, "
          f"min bulk ESS {float(d['system_effect_ess_bulk'].min()):.0f}, "
          f"min tail ESS {float(d['system_effect_ess_tail'].min()):.0f}")
    row("  fit.pairs() of 5,995 pairs (ETI)", timed(lambda: t[3].pairs(), repeat))
    holed = y.copy()
    holed[np.random.default_rng(0).random(y.shape) < 0.05] = np.nan
    row("sampler, 5% missing cells (general step)", timed(
        lambda: sample_crossed(holed, priors, chains=4, draws=2000, warmup=1000, seed=1),
        max(1, repeat // 2)))
    row("sampler, Student-t errors (general step + weights)", timed(
        lambda: sample_crossed(y, priors, chains=4, draws=2000, warmup=1000, seed=1, nu=4.0),
        max(1, repeat // 2)))

    cube50 = robust.isel(topic=slice(0, 50))
    x = cube50.transpose("topic", "system").values
    print(f"closed form: {x.shape[0]} topics x {x.shape[1]} systems, "
          f"{x.shape[1] * (x.shape[1] - 1) // 2} pairs")
    row("paired_posterior_all_pairs (kernel, rope)", timed(
        lambda: paired_posterior_all_pairs(x, rope=(-0.01, 0.01)), max(repeat, 20)), "ms")
    row("bayes_compare (labelled, rope)", timed(
        lambda: scorestd.bayes_compare(cube50, rope=0.01), max(repeat, 20)), "ms")

    full = scorestd.datasets.load("robust2004")
    print(f"Bayesian bootstrap: robust2004, {full.sizes['topic']} topics x "
          f"{full.sizes['system']} systems x {full.sizes['measure']} measures, 1,000 draws")
    row("bayes_standardize E-std (summary)", timed(
        lambda: scorestd.bayes_standardize(full, draws=1000, seed=1), repeat))
    row("bayes_standardize N-std (summary)", timed(
        lambda: scorestd.bayes_standardize(full, "N", draws=1000, seed=1), repeat))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        row("assurance_topic_set_size(robust2004, paired t, minD 0.05)", timed(
            lambda: scorestd.assurance_topic_set_size(full, min_diff=0.05), repeat))
        row("assurance_topic_set_size(variance=0.04, df=20, minD 0.1)", timed(
            lambda: scorestd.assurance_topic_set_size(variance=0.04, df=20, min_diff=0.1),
            repeat))


if __name__ == "__main__":
    main()
