"""``scorestd bayes``: posterior comparison of systems with the crossed random-effects model."""

from __future__ import annotations

import argparse
import warnings
from typing import get_args

from .._options import ErrorDistribution, Likelihood
from ..dims import MEASURE
from ..errors import ScorestdError, ScorestdWarning
from ._common import (
    add_command,
    add_output_argument,
    check_figure_path,
    load_data,
    notice,
    print_table,
    write_tables,
)

COLUMNS = ["score", "score_ci_low", "score_ci_high", "effect", "prob_best", "mean_rank",
           "rhat", "ess_bulk"]
LEGEND = {
    "score": "expected score of the system over the topic population (posterior mean)",
    "score_ci_low/high": "credible interval of the expected score",
    "effect": "system effect: its difference from mu, on the model's scale",
    "prob_best": "posterior probability of the highest expected score",
    "rhat, ess_bulk": "convergence of the effect (R-hat <= 1.01, ESS >= 400 wanted)",
}
LOO_LEGEND = {
    "elpd_loo, se": "expected log predictive density of a left-out score, summed over the "
                    "scores (higher: better), and its standard error",
    "elpd_diff, dse": "how far behind the best likelihood, and the standard error of that "
                      "difference (a difference within about 2 dse is not decisive)",
    "p_loo": "effective number of parameters",
    "weight": "arviz's stacking weight: the share of each model in the mixture that "
              "predicts best, not the probability that it is right",
    "pareto_k_max, _bad": "largest Pareto k, and scores with k > 0.7 (their LOO terms are "
                          "unreliable)",
}
PAIR_COLUMNS = ["system", "system2", "mean", "ci_low", "ci_high", "prob_greater",
                "prob_below_rope", "prob_in_rope", "prob_above_rope"]


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "bayes", run, help="Bayesian comparison of systems (crossed random effects)",
        description="Fit the crossed topic × system random-effects model by Gibbs sampling "
                    "and print each system's effect (posterior mean, credible interval, "
                    "P(best), mean rank, R-hat, ESS), the variance components and the "
                    "pairs; optionally draw the forest plot of system effects and the heat "
                    "map of pairwise probabilities. --closed-form prints the closed-form "
                    "paired posterior of every pair instead (no sampling).")
    p.add_argument("--chains", type=int, default=4, help="chains (default: 4)")
    p.add_argument("--draws", type=int, default=2000,
                   help="draws kept per chain (default: 2000)")
    p.add_argument("--warmup", type=int, default=1000,
                   help="warm-up iterations per chain (default: 1000)")
    p.add_argument("--thin", type=int, default=1, help="thinning (default: 1)")
    p.add_argument("--seed", type=int, default=0, help="seed (default: 0)")
    p.add_argument("--errors", choices=get_args(ErrorDistribution), default="normal",
                   help="residual distribution (default: normal)")
    p.add_argument("--nu", type=float, default=4.0,
                   help="degrees of freedom of Student-t residuals (default: 4)")
    p.add_argument("--heteroscedastic", action="store_true",
                   help="one residual variance per system")
    p.add_argument("--likelihood", choices=get_args(Likelihood), default="normal",
                   help="likelihood of the scores: normal, censored at 0 and 1, or hurdle "
                        "(zero/one-inflated logit-normal) (default: normal)")
    p.add_argument("--compare", action="store_true",
                   help="fit the normal, censored and hurdle likelihoods and compare them "
                        "by PSIS-LOO (with how the ranking and the decisions change)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="with --compare: processes fitting the likelihoods at once (default: "
                        "one per likelihood, at most the cores available); the results do "
                        "not depend on it")
    p.add_argument("--ppc", metavar="PATH",
                   help="print the posterior predictive checks and write their figure")
    p.add_argument("--reference", metavar="SYSTEM",
                   help="reference system of the forest plot (default: the best)")
    p.add_argument("--effects", metavar="PATH",
                   help="write the forest plot of the system effects (relative to mu)")
    p.add_argument("--ci-prob", type=float, default=0.95,
                   help="probability of the credible intervals (default: 0.95)")
    p.add_argument("--rope", type=float, default=None,
                   help="half-width r of the region of practical equivalence [-r, r]")
    p.add_argument("--pairs", type=int, default=10, metavar="N",
                   help="print the N most uncertain pairs (P(A > B) closest to 1/2; "
                        "default: 10; 0: none)")
    p.add_argument("--closed-form", action="store_true",
                   help="closed-form paired posterior of every pair (no model fit)")
    p.add_argument("--forest", metavar="PATH",
                   help="write the forest plot of each system's difference from the "
                        "reference system (--reference)")
    p.add_argument("--heatmap", metavar="PATH",
                   help="write the heat map of pairwise probabilities P(A > B)")
    add_output_argument(p)
    p.add_argument("--save", metavar="PATH",
                   help="write the posterior draws (netCDF groups, readable by arviz)")


def run(args: argparse.Namespace) -> int:
    from ..bayes import bayes_crossed  # here, not at the top: --help stays light
    from ..plots.bayes import (
        plot_pair_probabilities,
        plot_predictive_checks,
        plot_system_differences,
        plot_system_effects,
    )

    figures = [args.forest, args.heatmap, args.effects, args.ppc]
    for path in figures:  # before any sampling: a bad suffix or folder fails at once
        check_figure_path(path)
    if any(figures):
        import matplotlib

        matplotlib.use("Agg")  # files only, no window
    cube = load_data(args)
    if args.closed_form:
        return _closed_form(cube, args)
    measures = [str(m) for m in cube[MEASURE].values]
    if len(measures) > 1 and (any(figures) or args.save):
        raise ScorestdError(f"the data have several measures {measures}: pick one with "
                            f"--measure to write figures or draws")
    options = {"chains": args.chains, "draws": args.draws, "warmup": args.warmup,
               "thin": args.thin, "seed": args.seed}
    parts: dict[str, tuple] = {}  # the tables printed, for --output

    def keep(name: str, measure: str, frame, caption: str) -> None:
        key = name if len(measures) == 1 else f"{measure}-{name}"
        frame = frame.copy()
        columns = dict(frame.attrs.get("columns", {}))
        frame.attrs = {**frame.attrs, "columns": {**LEGEND, **columns} if name == "systems"
                       else columns}
        parts[key] = (frame, f"{caption} Measure {measure}.")

    for measure in measures:
        if args.compare:
            _compare(cube, measure, options, args, keep)
            continue
        fit = bayes_crossed(cube, measure=measure, errors=args.errors, nu=args.nu,
                            heteroscedastic=args.heteroscedastic,
                            likelihood=args.likelihood, **options)
        attrs = fit.posterior.attrs
        model = ("crossed random effects" if args.likelihood == "normal"
                 else f"crossed random effects, {args.likelihood} likelihood")
        print(f"measure: {measure}   {model} ({attrs['errors']} errors"
              f"{', per-system variances' if args.heteroscedastic else ''})   chains: "
              f"{attrs['chains']} × {attrs['draws']} draws (warm-up {attrs['warmup']}, "
              f"seed {attrs['seed']})")
        table = fit.summary(ci_prob=args.ci_prob)
        scale = " (logit scale)" if args.likelihood == "hurdle" else ""
        print(f"systems, best first: expected scores ({args.ci_prob:.0%} HDI) and effects; "
              f"mu = {table.attrs['mu']:.4f}{scale}")
        print_table(table[COLUMNS], legend=LEGEND)
        print()
        keep("systems", measure, table[COLUMNS],
             f"Systems, best first: expected scores ({args.ci_prob:.0%} HDI) and effects "
             f"of the {model} model; mu = {table.attrs['mu']:.4f}{scale}.")
        components = fit.variance_components(ci_prob=args.ci_prob).to_dataframe()
        print(f"variance components ({args.ci_prob:.0%} ETI){scale}:")
        print_table(components, floatfmt="{:.6f}")
        print()
        keep("variance", measure, components,
             f"Variance components ({args.ci_prob:.0%} ETI){scale} of the {model} model.")
        if args.pairs:
            pairs = fit.pairs(ci_prob=args.ci_prob, rope=args.rope)
            keep("pairs", measure, _print_pairs(pairs, args.pairs),
                 f"The {args.pairs} most uncertain system pairs (P(A > B) closest to 1/2).")
        if args.ppc:
            checks = fit.predictive_checks(seed=args.seed)
            print("posterior predictive checks (observed against replicated scores):")
            print_table(checks.overall)
            print()
            keep("checks", measure, checks.overall,
                 "Posterior predictive checks: observed against replicated scores.")
            plot_predictive_checks(checks, path=args.ppc)
            notice(f"figure written to {args.ppc}")
        if args.forest:
            plot_system_differences(fit, reference=args.reference, ci_prob=args.ci_prob,
                                    path=args.forest)
            notice(f"figure written to {args.forest}")
        if args.effects:
            plot_system_effects(fit, ci_prob=args.ci_prob, path=args.effects)
            notice(f"figure written to {args.effects}")
        if args.heatmap:
            plot_pair_probabilities(fit.pairs(), path=args.heatmap)
            notice(f"figure written to {args.heatmap}")
        if args.save:
            from ..io.atomic import atomic_netcdf

            atomic_netcdf(fit.to_datatree(), args.save)
            notice(f"posterior written to {args.save}")
    write_tables(parts, args)
    return 0


def _compare(cube, measure: str, options: dict, args: argparse.Namespace, keep) -> None:
    from ..bayes import compare_likelihoods

    res = compare_likelihoods(cube, measure=measure, workers=args.workers, **options)
    print(f"measure: {measure}   likelihoods compared by PSIS-LOO (all scores)")
    loo = res.table[["rank", "elpd_loo", "se", "elpd_diff", "dse", "p_loo", "weight",
                     "pareto_k_max", "pareto_k_bad"]]
    print_table(loo, legend=LOO_LEGEND)
    keep("loo", measure, loo, "Likelihoods compared by PSIS-LOO (all scores).")
    print("mu (posterior mean, on each model's scale): " + "; ".join(
        _mu_text(name, fit) for name, fit in res.fits.items()))
    with warnings.catch_warnings():  # its Pareto k are a subset of those just warned about
        warnings.filterwarnings("ignore", message="compare_likelihoods: PSIS-LOO",
                                category=ScorestdWarning)
        cont = res.on_continuous_scores()
    print()
    print("on the scores strictly inside (0, 1) only (densities under every likelihood):")
    inside = cont.table[["rank", "elpd_loo", "se", "elpd_diff", "dse"]]
    print_table(inside)
    keep("loo-inside", measure, inside, "Likelihoods compared by PSIS-LOO on the scores "
                                        "strictly inside (0, 1).")
    print()
    print("rank agreement (Kendall's tau_b of the rankings by expected score):")
    print_table(res.rank_agreement)
    keep("rank-agreement", measure, res.rank_agreement,
         "Kendall's tau_b between the rankings by expected score under each likelihood.")
    print()
    first = next(iter(res.fits))
    top = res.systems.head(10).swaplevel(axis=1)[["score", "prob_best", "mean_rank"]]
    print(f"the 10 best systems (by expected score under {first}): expected score, "
          f"P(best) and mean rank under each likelihood")
    print_table(top.rename(columns={"score": "expected score", "prob_best": "P(best)",
                                    "mean_rank": "mean rank"}, level=0))
    flat = top.copy()
    flat.columns = [f"{stat}:{lk}" for stat, lk in top.columns]
    keep("systems", measure, flat, "Expected score, P(best) and mean rank under each "
                                   "likelihood (10 best systems).")
    print()
    decisions = res.decisions
    names = list(res.fits)
    print(f"{len(decisions)} of {_pairs(res)} pairs decided (P(A > B) >= 0.95 or <= 0.05) "
          f"under some likelihood but not all" + (";" if len(decisions) else ""))
    if len(decisions):
        p = decisions[names].to_numpy(float)
        spread = p.max(axis=1) - p.min(axis=1)
        shown = decisions.assign(change=spread).sort_values(
            "change", ascending=False, kind="stable").head(args.pairs or len(decisions))
        print(f"the {len(shown)} whose P(A > B) changes most across likelihoods:")
        print_table(shown.reset_index(drop=True))
        keep("decisions", measure, shown, "Pairs decided (P(A > B) >= 0.95 or <= 0.05) "
                                          "under some likelihood but not all, those whose "
                                          "probability changes most first.")
    print()


def _pairs(res) -> int:
    n = next(iter(res.fits.values())).systems.size
    return n * (n - 1) // 2


def _mu_text(name: str, fit) -> str:
    """μ's posterior mean, on the scale of the likelihood's model (zero part's too)."""
    post = fit.posterior
    scale = {"hurdle": " (logit)", "censored": " (latent score)"}.get(fit.likelihood, "")
    text = f"{name} {float(post['mu'].mean()):.4f}{scale}"
    if "zero_mu" in post:
        text += f", zero part {float(post['zero_mu'].mean()):.4f} (probit)"
    return text


def _print_pairs(pairs, top: int):
    frame = pairs.to_dataframe()
    frame = frame[[c for c in PAIR_COLUMNS if c in frame.columns]]
    order = (frame["prob_greater"] - 0.5).abs().sort_values(kind="stable").index
    print(f"the {min(top, len(frame))} most uncertain of {len(frame)} pairs "
          f"(P(A > B) closest to 1/2):")
    shown = frame.loc[order[:top]].reset_index(drop=True)
    print_table(shown)
    print()
    return shown


def _closed_form(cube, args: argparse.Namespace) -> int:
    from ..bayes import bayes_compare
    from ..plots.bayes import plot_pair_probabilities

    res = bayes_compare(cube, ci_prob=args.ci_prob, rope=args.rope)
    parts = {}
    for measure in res[MEASURE].values:
        one = res.sel({MEASURE: measure})
        print(f"measure: {measure}   closed-form paired posterior (reference prior)   "
              f"pairs: {one.sizes['pair']}")
        shown = _print_pairs(one, args.pairs or one.sizes["pair"])
        parts[f"{measure}-pairs" if res.sizes[MEASURE] > 1 else "pairs"] = (
            shown, f"Closed-form paired posterior (reference prior), measure {measure}: "
                   "the pairs, P(A > B) closest to 1/2 first.")
        if args.heatmap:
            plot_pair_probabilities(one, path=args.heatmap)
            notice(f"figure written to {args.heatmap}")
    write_tables(parts, args)
    return 0
