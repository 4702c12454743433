"""Timing and mixing of the bounded likelihoods of the crossed model, and their calibration.

- each likelihood (normal, censored, hurdle) on robust2004 AP (99 topics × 110 systems),
  4 chains × (1,000 warm-up + 2,000 draws): the sampler alone and ``bayes_crossed`` end to
  end, as a ratio to the normal model's time in the same run (target: ≤ 3×), with the
  worst R-hat and the smallest bulk ESS of the system effects and expected scores (target:
  R-hat ≤ 1.01, bulk ESS ≥ 400);
- the comparison of the three likelihoods end to end (``compare_likelihoods``; target:
  ≤ 30 s on 2 cores);
- with ``--sbc N``: simulation-based calibration of every sampler at N simulations
  (χ² and KS p-values of the rank histograms).

Run by hand: ``python benchmarks/bench_bayes_likelihoods.py [--only normal|censored|hurdle|
compare|sbc|mixing|compile] [--rounds N] [--sbc 1000] [--sbc-of hurdle ...] [--workers N]``;
``--only sbc --sbc 500 --sbc-of hurdle`` calibrates the hurdle sampler alone at 500
simulations; ``--only mixing`` prints the hurdle model's gates (R-hat, bulk and tail ESS of
every gated and zero-part parameter) for seeds 0–4; ``--only compile`` times the import of
the compiled steps (numba) and a process's first small bounded fit beyond a second one
(numba's compilation with an empty cache, e.g. ``NUMBA_CACHE_DIR=$(mktemp -d)``, or its
loading from the cache on a second run with the same directory); ``--rounds N`` fits the
three likelihoods N times in turn and prints each round's ratios and their medians (the
machine's load drifts less within a round). ``--only`` times one piece (for a
whole-process timer). Times are CPU seconds of this process (ratios to the normal model after a warm-up
fit: the import of arviz is charged to none), wall seconds beside them; the comparison's
wall time with one process and with one per core (its workers' CPU counted apart).
"""

from __future__ import annotations

import argparse
import resource
import time
import warnings

import numpy as np

import scorestd
from scorestd.bayes.bounded import sample_censored, sample_hurdle
from scorestd.bayes.crossed import _model_scale, resolve_priors
from scorestd.bayes.gibbs import sample_crossed

SIZE = {"chains": 4, "draws": 2000, "warmup": 1000}


def sampler(likelihood: str, y: np.ndarray):
    priors = resolve_priors(None, _model_scale(y, likelihood))
    if likelihood == "censored":
        return sample_censored(y, priors, seed=1, **SIZE)
    if likelihood == "hurdle":
        return sample_hurdle(y, priors, zero_part=True, one_part=bool(np.any(y == 1)),
                             seed=1, **SIZE)
    return sample_crossed(y, priors, seed=1, **SIZE)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=["normal", "censored", "hurdle", "compare", "sbc",
                                           "mixing", "compile"])
    parser.add_argument("--rounds", type=int, default=1,
                        help="fit the three likelihoods this many times in turn")
    parser.add_argument("--sbc", type=int, default=0, metavar="N")
    parser.add_argument("--sbc-of", action="append", choices=list(SBC_OPTIONS),
                        help="calibrate only this sampler (repeatable; default: all)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes of compare_likelihoods (default: one per core)")
    args = parser.parse_args()
    if args.only == "compile":
        first_call()
        return
    robust = scorestd.datasets.load("robust2004").sel(measure="ap")
    y = robust.transpose("topic", "system").values
    warnings.simplefilter("ignore", scorestd.ScorestdWarning)
    if args.only == "sbc":
        calibrate(args.sbc or 1000, args.sbc_of)
        return
    if args.only == "mixing":
        mixing(robust, seeds=range(5))
        return
    if args.only == "compare":
        scorestd.compare_likelihoods(robust, seed=1, progress=False, workers=args.workers)
        return
    if args.only:
        scorestd.bayes_crossed(robust, likelihood=args.only, seed=1, progress=False)
        return
    print(f"robust2004 AP: {y.shape[0]} topics x {y.shape[1]} systems, 4 chains x "
          f"(1,000 warm-up + 2,000 draws); {np.mean(y == 0):.2%} zeros, {np.sum(y == 1)} ones")
    # (warm: arviz and the samplers' first calls, the compiled steps' loading or compilation
    # included, are charged to no likelihood: ``--only compile`` times them)
    for lk in ("normal", "censored", "hurdle"):
        scorestd.bayes_crossed(robust.isel(topic=slice(0, 10)), likelihood=lk, chains=2,
                               draws=50, warmup=10, seed=1, progress=False)
    ratios = []
    for _ in range(args.rounds):
        ratios.append(fit_round(robust, y))
    if args.rounds > 1:
        for k, lk in enumerate(("censored", "hurdle")):
            print(f"{lk:9s} median of {args.rounds} rounds: sampler "
                  f"{np.median([r[k][0] for r in ratios]):.2f}x, bayes_crossed "
                  f"{np.median([r[k][1] for r in ratios]):.2f}x the normal model's CPU time")
        return  # (the comparison: once, without --rounds)
    for workers in (1, None):
        start, cpu = time.perf_counter(), time.process_time()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        res = scorestd.compare_likelihoods(robust, seed=1, progress=False, workers=workers)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        children = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        print(f"compare_likelihoods (3 fits + LOO + answers), workers={workers}: wall "
              f"{time.perf_counter() - start:.1f} s, CPU here {time.process_time() - cpu:.1f} s"
              f" + in worker processes {children:.1f} s; best {res.best}")
    print(res.table[["rank", "elpd_loo", "se", "elpd_diff", "dse", "pareto_k_bad"]])
    if args.sbc:
        calibrate(args.sbc, args.sbc_of)


def first_call() -> None:
    """Seconds to import the compiled steps, and of a process's first small fit of each
    bounded likelihood beyond a second identical fit: numba's compilation (or its loading
    from the cache)."""
    start = time.perf_counter()
    import scorestd.kernels.bounded_gibbs  # noqa: F401  (imports numba)

    print(f"import of the compiled steps (numba): {time.perf_counter() - start:.2f} s")
    rng = np.random.default_rng(0)
    y = 1 / (1 + np.exp(-(-1 + rng.normal(0, 0.5, (20, 5)))))
    y[rng.random(y.shape) < 0.1] = 0.0
    small = {"chains": 2, "draws": 20, "warmup": 10, "seed": 1}
    priors = resolve_priors(None, _model_scale(y, "hurdle"))
    for name, run in (("hurdle", lambda: sample_hurdle(y, priors, **small)),
                      ("censored", lambda: sample_censored(y, priors, **small))):
        times = []
        for _ in range(2):
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        print(f"{name}: first small fit {times[0]:.2f} s, second {times[1]:.3f} s: "
              f"{times[0] - times[1]:.2f} s to compile (or load) its steps")


def fit_round(robust, y) -> list[tuple[float, float]]:
    """Each likelihood's sampler and ``bayes_crossed`` once, printed; returns the censored
    and hurdle models' (sampler, fit) CPU ratios to the normal model's."""
    base, out = {}, []
    for lk in ("normal", "censored", "hurdle"):
        start, cpu = time.perf_counter(), time.process_time()
        sampler(lk, y)
        t_sampler = time.perf_counter() - start
        c_sampler = time.process_time() - cpu
        start, cpu = time.perf_counter(), time.process_time()
        fit = scorestd.bayes_crossed(robust, likelihood=lk, seed=1, progress=False)
        t_fit = time.perf_counter() - start
        c_fit = time.process_time() - cpu
        base.setdefault("sampler", c_sampler)
        base.setdefault("fit", c_fit)
        d = fit.diagnostics
        print(f"{lk:9s} CPU: sampler {c_sampler:6.2f} s ({c_sampler / base['sampler']:.2f}x), "
              f"bayes_crossed {c_fit:6.2f} s ({c_fit / base['fit']:.2f}x); wall "
              f"{t_sampler:.2f} s, {t_fit:.2f} s   system effects: "
              f"max R-hat {float(d['system_effect_rhat'].max()):.4f}, min bulk ESS "
              f"{float(d['system_effect_ess_bulk'].min()):.0f}; expected scores: max R-hat "
              f"{float(d['system_score_rhat'].max()):.4f}, min bulk ESS "
              f"{float(d['system_score_ess_bulk'].min()):.0f}")
        for name in d.attrs.get("zero_part", []):  # (system effects, intercept, sds)
            print(f"{'':9s} {name}: max R-hat {float(d[f'{name}_rhat'].max()):.4f}, min "
                  f"bulk ESS {float(d[f'{name}_ess_bulk'].min()):.0f}, min tail ESS "
                  f"{float(d[f'{name}_ess_tail'].min()):.0f}")
        if lk != "normal":
            out.append((c_sampler / base["sampler"], c_fit / base["fit"]))
    return out


def mixing(robust, seeds) -> None:
    """The hurdle model's convergence gates by seed: the largest R-hat and the smallest
    bulk and tail ESS of each gated parameter and of the zero part's."""
    for seed in seeds:
        start = time.process_time()
        fit = scorestd.bayes_crossed(robust, likelihood="hurdle", seed=seed, progress=False)
        d = fit.diagnostics
        rows = [f"{name} R-hat {float(d[f'{name}_rhat'].max()):.4f} bulk "
                f"{float(d[f'{name}_ess_bulk'].min()):.0f} tail "
                f"{float(d[f'{name}_ess_tail'].min()):.0f}"
                for name in [*d.attrs["gated"], *d.attrs["zero_part"]]]
        print(f"hurdle seed {seed} ({time.process_time() - start:.1f} s CPU): "
              + "; ".join(rows), flush=True)


#: The samplers calibrated by ``--sbc``, by the name ``--sbc-of`` picks them with.
SBC_OPTIONS = {"hurdle": {"likelihood": "hurdle"}, "normal": {"likelihood": "normal"},
               "censored": {"likelihood": "censored"}, "student_t": {"errors": "student_t"},
               "heteroscedastic": {"heteroscedastic": True}}


def calibrate(simulations: int, which: list[str] | None = None) -> None:
    """SBC of the samplers ``which`` (default: all): χ² (10 bins) and KS p-values of each
    parameter's ranks."""
    for name in which or SBC_OPTIONS:
        options = SBC_OPTIONS[name]
        start = time.perf_counter()
        cal = scorestd.simulation_based_calibration(
            simulations=simulations, n_topics=10, n_systems=4, draws=99, thin=5,
            warmup=200, bins=10, seed=2026, **options)
        print(f"SBC {options}: {simulations} simulations, {time.perf_counter() - start:.0f} s;"
              f" smallest chi2 p {cal.tests['chi2_p'].min():.3f}, smallest KS p "
              f"{cal.tests['ks_p'].min():.3f}", flush=True)
        print(cal.tests.round(3).to_string(), flush=True)
        if options.get("likelihood") == "hurdle":
            by_zeros(cal, simulations)


def by_zeros(cal, simulations: int) -> None:
    """The hurdle ranks split by the share of zeros of each simulated data set (replayed
    from the same seeds), where slow mixing would show first."""
    from scipy import stats

    from scorestd.bayes.calibration import _simulate
    from scorestd.kernels.seeds import root_sequence

    shares = np.array([np.mean(_simulate("hurdle", np.random.default_rng(child.spawn(2)[0]),
                                         10, 4, None, False)[1] == 0.0)
                       for child in root_sequence(2026).spawn(simulations)])
    for low, high in ((0.0, 0.6), (0.6, 0.8), (0.8, 1.01)):
        pick = (shares >= low) & (shares < high)
        if pick.sum() < 20:
            continue
        ranks = cal.ranks[pick]
        p = {name: stats.chisquare(np.bincount(r * cal.bins // (cal.draws + 1),
                                               minlength=cal.bins)).pvalue
             for name, r in ranks.items()}
        worst = min(p, key=p.get)
        print(f"  zeros in [{low:.0%}, {min(high, 1):.0%}): {int(pick.sum())} simulations; "
              f"smallest chi2 p {p[worst]:.3f} ({worst}); var_residual "
              f"{p['var_residual']:.3f}", flush=True)

if __name__ == "__main__":
    main()
