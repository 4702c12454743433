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
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from ..simulation import fit_simulator, simulate, simulation_diagnostics

    cube = load_data(args)
    try:
        sim = fit_simulator(cube, measure=args.measure, families=split_list(args.families),
                            criterion=args.criterion, copula=args.copula,
                            trunc_lvl=args.trunc_lvl, means=args.means)
        cubes = simulate(sim, n_topics=args.n_topics, trials=args.trials, seed=args.seed,
                         memory=args.memory, progress=not args.no_progress)
    except ValueError as exc:
        raise ScorestdError(str(exc)) from exc
    cubes.to_dataset(name="score").to_netcdf(args.out)
    print(f"{args.trials} collections of {cubes.sizes['topic']} topics × "
          f"{cubes.sizes['system']} systems ({sim.margins.measure}, {sim.copula.name} copula) "
          f"written to {args.out}")
    print_table(simulation_diagnostics(sim, cubes).summary())
    return 0
