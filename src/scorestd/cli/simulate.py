"""``scorestd simulate``: fit a simulator to a collection and write simulated collections."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import MarginCriterion, SimulatedMeans, SimulationCopula
from ..errors import ScorestdError
from ._common import add_command, load_data, print_table, split_list


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "simulate", run, help="simulate new collections with known true system means",
        description="Fit a margin to every system (AIC among the simIReff families) and a "
                    "copula between systems, then simulate collections and write them to "
                    "netCDF (dims trial × topic × system × measure; the true means are the "
                    "coordinate true_mean). Urbano & Nagler (2018).")
    p.add_argument("--out", "-o", required=True, help="netCDF file to write")
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
    n_topics, n_sys = args.n_topics or cube.sizes["topic"], cube.sizes["system"]
    # one bar over fitting, simulating and the diagnostics, each its share of the time
    # (units measured on adhoc8: fitting 0.7 s, 100 trials 0.1 s, diagnostics 6 s)
    costs = {"fit": 1000 * n_sys * cube.sizes["topic"] * (n_sys if args.copula == "vine" else 1),
             "simulate": 2 * args.trials * n_topics * n_sys,
             "diagnostics": min(args.trials, 50) * n_sys**2 * n_topics**2 / 30}
    try:
        with progress_bar(sum(costs.values()), "simulate", unit=None) as job:
            with job.part(costs["fit"]):
                sim = fit_simulator(cube, measure=args.measure,
                                    families=split_list(args.families),
                                    criterion=args.criterion, copula=args.copula,
                                    trunc_lvl=args.trunc_lvl, means=args.means)
            with job.part(costs["simulate"]):
                cubes = simulate(sim, n_topics=args.n_topics, trials=args.trials,
                                 seed=args.seed, memory=args.memory)
            with job.part(costs["diagnostics"]):
                diagnostics = simulation_diagnostics(sim, cubes)
    except ValueError as exc:
        raise ScorestdError(str(exc)) from exc
    from ..io.atomic import atomic_netcdf

    atomic_netcdf(cubes.to_dataset(name="score"), args.out)
    print(f"{args.trials} collections of {cubes.sizes['topic']} topics × "
          f"{cubes.sizes['system']} systems ({sim.margins.measure}, {sim.copula.name} copula) "
          f"written to {args.out}")
    print_table(diagnostics.summary())
    return 0
