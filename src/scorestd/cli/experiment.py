"""``scorestd experiment NAME``: run a resampling experiment, print its table, save its figure."""

from __future__ import annotations

import argparse
import contextlib
from typing import Any, get_args

from .._options import ErrorRateFigure, PairFamilies, SimulationCopula
from ..errors import ScorestdError
from ._common import (
    add_command,
    add_figure_argument,
    add_measure_and_format,
    add_output_argument,
    check_figure_path,
    load_data,
    notice,
    print_table,
    split_list,
    write_figure,
    write_table,
)

#: Experiment name → (function of scorestd.experiments, default data, default measure).
EXPERIMENTS = {
    "within": ("within_collection", "robust2004", "ap"),
    "between": ("between_collection", "robust2004", "ap"),
    "split-half": ("split_half", "adhoc8_ap", None),
    "smoothing": ("smoothing_experiment", "robust2004", "ap"),
    "error-rates": ("error_rates", None, None),
    "topic-set-validation": ("topic_set_validation", "adhoc8_ap", "ap"),
    "estd-stability": ("estd_stability", "adhoc8_ap", "ap"),
}
#: Studies on simulated collections: they take trials and a seed, not the engine's options.
SIMULATION_STUDIES = ("topic-set-validation", "estd-stability")


#: ``--full-size``: the published study (R/common.R of the authors' code: 1,667 batches of
#: 1,000 Type I trials, 167 per δ of Type II), with B = 10,000 resamples by default.
FULL_SIZE = {"trials": 1_667_000, "trials_type2": 167_000, "B": 10_000,
             "results_dir": "error-rates-full-size"}


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "experiment", run, help="run a resampling experiment of the source papers",
        description="Run a resampling experiment, print its summary table and write its "
                    "figure. within/between: Urbano, Lima & Hanjalic (2019); "
                    "split-half: Ravana & Moffat (2009); smoothing: Ravana, Park & Moffat "
                    "(2009); error-rates: Urbano, Lima & Hanjalic (2019), the Type I, II and "
                    "III errors of significance tests on simulated collections; "
                    "topic-set-validation: a topic set size design's promised power "
                    "checked on simulated collections; estd-stability: E-std against the "
                    "size of the reference pool.", data=False)
    p.add_argument("name", choices=list(EXPERIMENTS), help="which experiment")
    p.add_argument("--data", nargs="+", metavar="DATA",
                   help="score files or bundled datasets (default: robust2004; adhoc8_ap for "
                        "split-half, topic-set-validation and estd-stability; for "
                        "error-rates the eight bundled collections of the paper, or the "
                        "collections given, together). Every other experiment runs on each "
                        "in turn")
    add_measure_and_format(p, measure_help="measure to use (default: ap)")
    p.add_argument("--trials", type=int, default=1000, help="number of trials (default 1000)")
    p.add_argument("--seed", type=int, default=0, help="root seed (default 0)")
    p.add_argument("--batch-size", type=int, default=None, help="trials per batch")
    p.add_argument("--memory", default=None,
                   help="memory budget of a batch, e.g. 512MB (default 256MiB, or "
                        "$SCORESTD_MEMORY)")
    p.add_argument("--schemes", help="comma-separated schemes, e.g. raw,z,N,U,E")
    add_figure_argument(p, help="figure file (.png, .pdf, .svg; default: "
                                "experiment-NAME.png)")
    p.add_argument("--no-figure", action="store_true", help="print the table only")
    add_output_argument(p)
    p.add_argument("--workers", type=int, default=0,
                   help="run on a local dask.distributed cluster with this many workers")
    es = p.add_argument_group("estd-stability options")
    es.add_argument("--pool-sizes",
                    help="comma-separated reference pool sizes (default: those of "
                         "5,10,20,50,100 the collection has other systems for)")
    er = p.add_argument_group("error-rates options")
    er.add_argument("--n-topics", help="comma-separated topic set sizes (default 25,50,100)")
    er.add_argument("--deltas", help="comma-separated effects δ (default .01,…,.10; "
                                     "'none' for Type I only)")
    er.add_argument("--tests", help="comma-separated tests (default: paired_t,wilcoxon,sign,"
                                    "permutation,bootstrap)")
    er.add_argument("--trials-type2", type=int, default=None,
                    help="Type II trials per δ (default: --trials / 5)")
    er.add_argument("--resamples", "-B", type=int, default=None,
                    help="permutation/bootstrap resamples (default 2000; 10000 with "
                         "--full-size)")
    er.add_argument("--copula", choices=get_args(SimulationCopula), default="vine",
                    help="dependence of a pair of runs: vine (default: a copula per pair by "
                         "AIC, as the paper) or gaussian (fast, exchangeable)")
    er.add_argument("--pair-families", choices=get_args(PairFamilies), default="bicopselect",
                    help="family set of the pair copulas: bicopselect (default: R "
                         "VineCopula's BiCopSelect defaults, the paper's: two two-parameter "
                         "Tawn types, preselection by tails) or vinecopulib "
                         "(pyvinecopulib's parametric families)")
    er.add_argument("--pool",
                    help="a .npz file of fitted pair copulas: read if it exists, written "
                         "with every pair fitted (a later study on the same collections "
                         "fits nothing again)")
    er.add_argument("--save", help="write the rates to this netCDF file")
    er.add_argument("--full-size", action="store_true",
                    help=f"the published design: {FULL_SIZE['trials']:,} Type I trials per "
                         f"measure and topic set size, {FULL_SIZE['trials_type2']:,} Type II "
                         "trials per δ (overriding --trials and --trials-type2), every "
                         "measure, n = 25,50,100, δ = .01,…,.10; written as it goes to "
                         f"--results-dir (default {FULL_SIZE['results_dir']}), so that a "
                         "rerun resumes it")
    er.add_argument("--results-dir",
                    help="folder the study writes its counts to as it goes (one netCDF "
                         "file per 16,384 trials); rerun with the same arguments to resume "
                         "an interrupted study")
    er.add_argument("--alpha", type=float, default=None,
                    help="significance level of the table's columns and of the figure's "
                         "power panels (default 0.05; one of the study's levels .001,…,.009, "
                         ".01,…,.09, .1)")
    er.add_argument("--plot", choices=get_args(ErrorRateFigure), default="auto",
                    help="figure (default auto: what the run computed, the Type I error "
                         "rate against α and below it power against δ at --alpha, or the "
                         "Type I panels alone with --deltas none); type1_power: both; "
                         "type1, power, type3: Type I against α, power or Type III error "
                         "rate against δ (at --alpha); power_alpha: power against α at "
                         "δ = 0.05")


def _experiments():
    import importlib

    return importlib.import_module("..experiments", __package__)


def run(args: argparse.Namespace) -> int:
    name, data, measure = EXPERIMENTS[args.name]
    if not args.no_figure:  # a figure that cannot be written stops here, not after the run
        check_figure_path(args.figure or f"experiment-{args.name}.png")
    if args.name == "error-rates":
        return _run_error_rates(args)
    if args.alpha is not None:
        raise ScorestdError("--alpha is an option of error-rates")
    function = getattr(_experiments(), name)
    args.measure = args.measure or measure
    sources = args.data or [data]
    figures = _per_source(None if args.no_figure else args.figure or f"experiment-{args.name}.png",
                          sources)
    tables = _per_source(getattr(args, "output", None), sources)
    from ..experiments._common import named_collection

    for source, figure, table in zip(sources, figures, tables, strict=True):
        # named as the API names a file: its results say what they ran on
        cube = named_collection(load_data(args, source), source)
        if args.name in SIMULATION_STUDIES:
            kwargs = {"trials": args.trials, "seed": args.seed, "measure": args.measure}
        else:
            kwargs = {"trials": args.trials, "seed": args.seed, "batch_size": args.batch_size,
                      "memory": args.memory,
                      "progress": False if args.no_progress else None}
        if args.schemes:
            kwargs["schemes"] = split_list(args.schemes)
        if args.pool_sizes:
            if args.name != "estd-stability":
                raise ScorestdError("--pool-sizes is an option of estd-stability")
            kwargs["pool_sizes"] = split_list(args.pool_sizes, int)
        try:
            with _client(0 if args.name in SIMULATION_STUDIES else args.workers) as client:
                extra = {} if client is None else {"client": client}
                result = function(cube, **kwargs, **extra)
        except ValueError as exc:  # bad sizes for these data: a usage error worth one line
            raise ScorestdError(str(exc)) from exc
        attrs = result.data.attrs
        print(f"{attrs['experiment']}: {attrs.get('data', source)} "
              f"{attrs.get('measure', args.measure)}, {args.trials} trials, seed {args.seed}")
        print_table(result.summary())
        write_table(result, argparse.Namespace(**{**vars(args), "output": table}))
        if figure:
            write_figure(result, figure)
    return 0


def _per_source(path: str | None, sources: list[str]) -> list[str | None]:
    """One output file per source: ``path`` as it is for one source, with the source's
    name before the suffix for several (``fig.png`` → ``fig-a8.png``)."""
    from pathlib import Path

    if not path or len(sources) == 1:
        return [path] * len(sources)
    p = Path(path)
    return [str(p.with_name(f"{p.stem}-{Path(source).stem}{p.suffix}")) for source in sources]


def _run_error_rates(args: argparse.Namespace) -> int:
    error_rates = _experiments().error_rates
    collections = _error_rate_collections(args)
    deltas = (None if (args.deltas or "").strip().lower() == "none"
              else split_list(args.deltas, float) or error_rates.__kwdefaults__["deltas"])
    if deltas is None and args.plot not in ("auto", "type1") and not args.no_figure:
        raise ScorestdError(f"--plot {args.plot} needs the Type II trials: drop --deltas none")
    from .._options import check_level_in
    from ..experiments.result import ALPHAS

    # the study's levels are the paper's: a level outside them is refused before the run
    alpha = check_level_in("alpha", 0.05 if args.alpha is None else args.alpha, ALPHAS)
    kwargs = {"measures": split_list(args.measure), "trials": args.trials,
              "trials_type2": args.trials_type2 or max(1, args.trials // 5),
              "B": args.resamples or 2000, "seed": args.seed, "batch_size": args.batch_size,
              "memory": args.memory, "progress": False if args.no_progress else None,
              "deltas": deltas, "copula": args.copula, "results_dir": args.results_dir,
              "pool": args.pool, "pair_families": args.pair_families}
    if args.full_size:
        kwargs.update(trials=FULL_SIZE["trials"], trials_type2=FULL_SIZE["trials_type2"],
                      B=args.resamples or FULL_SIZE["B"],
                      results_dir=args.results_dir or FULL_SIZE["results_dir"])
        args.results_dir = kwargs["results_dir"]  # named by the message after a Ctrl-C
    if args.n_topics:
        kwargs["n_topics"] = split_list(args.n_topics, int)
    if args.tests:
        kwargs["tests"] = split_list(args.tests)
    try:
        with _client(args.workers) as client:
            result = error_rates(collections, client=client, **kwargs)
    except ValueError as exc:
        raise ScorestdError(str(exc)) from exc
    type2 = (f", {kwargs['trials_type2']} Type II trials per δ" if deltas is not None
             else "")
    # here: --help imports no heavy library
    from ..tables.summary import dependence, summary_table

    print(f"{result.data.attrs['experiment']}: {result.data.attrs['data']}; "
          f"{kwargs['trials']} Type I trials{type2}, {dependence(result.data.attrs)}, "
          f"seed {args.seed}")
    print_table(result.summary(alpha=alpha).reset_index())
    write_table(summary_table(result, alpha=alpha), args)
    if args.save:
        from ..io.atomic import atomic_netcdf

        atomic_netcdf(result.data, args.save)
        notice(f"rates written to {args.save}")
    if not args.no_figure:
        write_figure(result, args.figure or "experiment-error-rates.png", kind=args.plot,
                     alpha=alpha)
    return 0


def _error_rate_collections(args: argparse.Namespace) -> dict[str, Any] | None:
    """``--data``: name → cube, each file named by its stem (``a8.nc`` → ``a8``), each
    bundled dataset by its name; a comma list of names is read as several (as before)."""
    from pathlib import Path

    if not args.data:
        return None
    sources = [part for item in args.data
               for part in ([item] if Path(item).exists() else split_list(item))]
    names = [Path(source).stem for source in sources]
    if len(set(names)) < len(names):
        raise ScorestdError(f"--data: two collections have the same name ({', '.join(names)}); "
                            "rename a file")
    measure, args.measure = args.measure, None  # the study's --measure is a list
    try:
        return {name: load_data(args, source) for name, source in zip(names, sources,
                                                                        strict=True)}
    finally:
        args.measure = measure


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
