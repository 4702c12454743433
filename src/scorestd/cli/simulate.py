"""``scorestd simulate``: fit a simulator to a collection and write simulated collections."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import MarginCriterion, SimulatedMeans, SimulationCopula
from ..errors import ScorestdError
from ._common import (
    add_command,
    add_legacy_out,
    add_output_argument,
    load_data,
    notice,
    print_table,
    quiet_run,
    split_list,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "simulate", run, help="simulate new collections with known true system means",
        description="Fit a margin to every system (AIC among the simIReff families) and a "
                    "copula between systems, then simulate collections and write them to "
                    "netCDF (dims trial × topic × system × measure; the true means are the "
                    "coordinate true_mean). Urbano & Nagler (2018).")
    add_output_argument(p, metavar="FILE", help="netCDF file to write (required)")
    add_legacy_out(p)
    p.set_defaults(resolve_outputs=_output_required)
    p.add_argument("--n-topics", type=int, default=None,
                   help="topics per simulated collection (default: as observed)")
    p.add_argument("--trials", type=int, default=100, help="collections (default 100)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--families", help="comma-separated margin families (default: simIReff's)")
    p.add_argument("--criterion", choices=get_args(MarginCriterion), default="aic",
                   help="margin selection criterion (default aic)")
    p.add_argument("--copula", choices=get_args(SimulationCopula), default="vine",
                   help="dependence between systems: vine (default: pair copulas by AIC "
                        "among the parametric families, as Urbano et al. 2019; minutes for "
                        "a hundred systems, see --trunc-lvl) or gaussian (fast)")
    p.add_argument("--trunc-lvl", type=int, default=None,
                   help="vine truncation level (independence beyond it; faster)")
    p.add_argument("--means", choices=get_args(SimulatedMeans), default="observed",
                   help="true means of the simulated systems: the observed means (default; "
                        "the mean transform) or the fitted margins' own")
    p.add_argument("--memory", default=None,
                   help="memory budget of a chunk of trials, e.g. 512MB (default 256MiB, or "
                        "$SCORESTD_MEMORY)")


def run(args: argparse.Namespace) -> int:
    from .._progress import progress_bar
    from ..simulation import fit_simulator, simulate, simulation_diagnostics

    cube = load_data(args)
    costs = job_costs(cube.sizes["topic"], args.n_topics or cube.sizes["topic"],
                      cube.sizes["system"], args.trials, args.copula)
    try:
        with progress_bar(sum(costs.values()), "simulate", unit=None) as job:
            with job.part(costs["fit"]):
                sim = fit_simulator(cube, measure=args.measure,
                                    families=split_list(args.families),
                                    criterion=args.criterion, copula=args.copula,
                                    trunc_lvl=args.trunc_lvl, means=args.means)
            # drawn and written chunk by chunk: memory within --memory whatever --trials
            with job.part(costs["simulate"] + costs["write"]):
                cubes = simulate(sim, n_topics=args.n_topics, trials=args.trials,
                                 seed=args.seed, memory=args.memory, output=args.output)
            with cubes, job.part(costs["diagnostics"]):  # read back from the file
                diagnostics = (None if quiet_run() else
                               simulation_diagnostics(sim, cubes, memory=args.memory))
    except ValueError as exc:
        raise ScorestdError(str(exc)) from exc
    # the result is the file: --quiet prints nothing, as standardize and convert
    notice(f"{args.trials} collections of {cubes.sizes['topic']} topics × "
           f"{cubes.sizes['system']} systems ({sim.margins.measure}, {sim.copula.name} "
           f"copula) written to {args.output}")
    if diagnostics is not None:
        print("how well the simulated collections reproduce the observed one:")
        print_table(diagnostics.summary())
    return 0


def job_costs(observed_topics: int, n_topics: int, n_systems: int, trials: int,
              copula: str) -> dict[str, float]:
    """Each phase's share of one bar over the job, in units of about 11 ns of CPU.

    Measured on adhoc8 AP (50 topics × 129 systems; ``benchmarks/bench_simulate_cli.py``):
    fitting the margins 0.28 ms a score and a vine 18 µs a pair of systems and topic;
    a trial 58 ms with the vine (its pairs × topics; numpy's inverse Rosenblatt transform,
    0.21 s with one pyvinecopulib call a trial), 1.5 ms with the Gaussian copula
    (its scores); the diagnostics 0.16 s a trial (pairwise τ, at most 50 trials);
    writing 3 ns a byte (chunk by chunk, as the trials are drawn).

    Examples
    --------
    >>> costs = job_costs(50, 50, 129, 2000, "vine")
    >>> costs["simulate"] / sum(costs.values()) > 0.85  # the vine's draws dominate
    True
    """
    pairs = n_systems * (n_systems - 1) / 2
    vine = copula == "vine"
    return {
        "fit": 25_000 * n_systems * observed_topics + (1_600 * pairs * observed_topics
                                                       if vine else 0),
        "simulate": trials * n_topics * (13 * pairs if vine else 22 * n_systems),
        "diagnostics": min(trials, 50) * n_systems**2 * n_topics**2 / 3,
        "write": 0.3 * 8 * trials * n_topics * n_systems,
    }


def _output_required(args: argparse.Namespace) -> None:
    if args.output is None:
        raise ScorestdError("the output file is required: --output FILE.nc (-o FILE.nc)")
