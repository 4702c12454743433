"""``scorestd experiment NAME``: run a resampling experiment, print its table, save its figure."""

from __future__ import annotations

import argparse
import contextlib
from typing import get_args

from .._options import SimulationCopula
from ..errors import ScorestdError
from ..io.atomic import atomic_output
from ._common import (
    add_command,
    add_measure_and_format,
    check_figure_path,
    load_data,
    print_table,
    split_list,
    write_figure,
)

#: Experiment name → (function of scorestd.experiments, default data, default measure).
EXPERIMENTS = {
    "within": ("within_collection", "robust2004", "ap"),
    "between": ("between_collection", "robust2004", "ap"),
    "split-half": ("split_half", "adhoc8_ap", None),
    "smoothing": ("smoothing_experiment", "robust2004", "ap"),
    "error-rates": ("error_rates", None, None),
}


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "experiment", run, help="run a resampling experiment of the source papers",
        description="Run a resampling experiment, print its summary table and write its "
                    "figure. within/between: Urbano, Lima & Hanjalic (2019); "
                    "split-half: Ravana & Moffat (2009); smoothing: Ravana, Park & Moffat "
                    "(2009); error-rates: Urbano, Lima & Hanjalic (2019), the Type I, II and "
                    "III errors of significance tests on simulated collections.", data=False)
    p.add_argument("name", choices=list(EXPERIMENTS), help="which experiment")
    p.add_argument("--data", help="score file or bundled dataset (default: robust2004; "
                                  "adhoc8_ap for split-half)")
    add_measure_and_format(p, measure_help="measure to use (default: ap)")
    p.add_argument("--trials", type=int, default=1000, help="number of trials (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--batch-size", type=int, default=None, help="trials per batch")
    p.add_argument("--memory", default=None,
                   help="memory budget of a batch, e.g. 512MB (default 256MiB, or "
                        "$SCORESTD_MEMORY)")
    p.add_argument("--schemes", help="comma-separated schemes, e.g. raw,z,N,U,E")
    p.add_argument("--out", "-o",
                   help="figure file (.png, .pdf, .svg; default: experiment-NAME.png)")
    p.add_argument("--no-figure", action="store_true", help="print the table only")
    p.add_argument("--workers", type=int, default=0,
                   help="run on a local dask.distributed cluster with this many workers")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    er = p.add_argument_group("error-rates options")
    er.add_argument("--n-topics", help="comma-separated topic set sizes (default 25,50,100)")
    er.add_argument("--deltas", help="comma-separated effects δ (default .01,…,.10; "
                                     "'none' for Type I only)")
    er.add_argument("--tests", help="comma-separated tests (default: paired_t,wilcoxon,sign,"
                                    "permutation,bootstrap)")
    er.add_argument("--trials-type2", type=int, default=None,
                    help="Type II trials per δ (default: --trials / 5)")
    er.add_argument("--resamples", "-B", type=int, default=2000,
                    help="permutation/bootstrap resamples (default 2000)")
    er.add_argument("--copula", choices=get_args(SimulationCopula), default="vine",
                    help="dependence of a pair of runs: vine (default: a copula per pair by "
                         "AIC, as the paper) or gaussian (fast, exchangeable)")
    er.add_argument("--pool",
                    help="a .npz file of fitted pair copulas: read if it exists, written "
                         "with every pair fitted (a later study on the same collections "
                         "fits nothing again)")
    er.add_argument("--save", help="write the rates to this netCDF file")


def _experiments():
    import importlib

    return importlib.import_module("..experiments", __package__)


def run(args: argparse.Namespace) -> int:
    name, data, measure = EXPERIMENTS[args.name]
    if not args.no_figure:  # a figure that cannot be written stops here, not after the run
        check_figure_path(args.out or f"experiment-{args.name}.png")
    if args.name == "error-rates":
        return _run_error_rates(args)
    function = getattr(_experiments(), name)
    args.measure = args.measure or measure
    cube = load_data(args, args.data or data)
    kwargs = {"trials": args.trials, "seed": args.seed, "batch_size": args.batch_size,
              "memory": args.memory, "progress": not args.no_progress}
    if args.schemes:
        kwargs["schemes"] = split_list(args.schemes)
    try:
        with _client(args.workers) as client:
            result = function(cube, client=client, **kwargs)
    except ValueError as exc:  # bad sizes for these data: a usage error worth one line
        raise ScorestdError(str(exc)) from exc
    print(f"{result.data.attrs['experiment']}: {result.data.attrs['data']} "
          f"{result.data.attrs['measure']}, {args.trials} trials, seed {args.seed}")
    print_table(result.summary())
    if not args.no_figure:
        write_figure(result, args.out or f"experiment-{args.name}.png")
    return 0


def _run_error_rates(args: argparse.Namespace) -> int:
    error_rates = _experiments().error_rates
    collections = split_list(args.data) or None
    deltas = (None if (args.deltas or "").strip().lower() == "none"
              else split_list(args.deltas, float) or error_rates.__kwdefaults__["deltas"])
    kwargs = {"measures": split_list(args.measure), "trials": args.trials,
              "trials_type2": args.trials_type2 or max(1, args.trials // 5),
              "B": args.resamples, "seed": args.seed, "batch_size": args.batch_size,
              "memory": args.memory, "progress": not args.no_progress, "deltas": deltas,
              "copula": args.copula, "pool": args.pool}
    if args.n_topics:
        kwargs["n_topics"] = split_list(args.n_topics, int)
    if args.tests:
        kwargs["tests"] = split_list(args.tests)
    try:
        with _client(args.workers) as client:
            result = error_rates(collections, client=client, **kwargs)
    except ValueError as exc:
        raise ScorestdError(str(exc)) from exc
    print(f"{result.data.attrs['experiment']}: {result.data.attrs['data']}; "
          f"{args.trials} Type I trials, seed {args.seed}")
    print_table(result.summary().reset_index())
    if args.save:
        with atomic_output(args.save) as tmp:
            result.data.to_netcdf(tmp)
        print(f"rates written to {args.save}")
    if not args.no_figure:
        write_figure(result, args.out or "experiment-error-rates.png")
    return 0


@contextlib.contextmanager
def _client(workers: int):
    """A local dask.distributed cluster with ``workers`` workers, or no cluster."""
    if workers <= 0:
        yield None
        return
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        yield client
