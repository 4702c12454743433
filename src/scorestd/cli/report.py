"""``scorestd report``: every model's standardized system means, ranks and the Figure-1 plots."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import get_args

from .._options import BUILTIN_MODELS, Degenerate
from ._common import (
    add_command,
    add_data_argument,
    add_legacy_out,
    add_output_argument,
    check_output,
    load_data,
    notice,
    print_table,
    write_tables,
)

#: Data of ``scorestd report`` without DATA (``scorestd.plots.report.DEFAULT_DATA``).
DEFAULT_DATA = "robust2004_ap"


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "report", run, help="compare standardization models on a collection",
        description="Standardize with every registered model; print each system's mean and "
                    "rank per model with Kendall's tau to the raw ranking, and write the "
                    "Figure-1 plots (Urbano, Lima & Hanjalic 2019).", data=False)
    add_data_argument(p, optional_default=DEFAULT_DATA)
    p.add_argument("--figures", default="scorestd-report", metavar="DIR",
                   help="folder for the plots (default: scorestd-report/)")
    add_legacy_out(p, dest="figures", new="--figures")
    p.add_argument("--models", nargs="+", metavar="MODEL",
                   help=f"registered models to use (default: all: {', '.join(BUILTIN_MODELS)})")
    p.add_argument("--degenerate", choices=get_args(Degenerate), default="unstandardized",
                   help="policy for topics whose systems all score the same")
    p.add_argument("--top", type=int, metavar="N", help="print only the N best raw systems")
    p.add_argument("--no-plots", action="store_true", help="do not write the plots")
    add_output_argument(p)


def run(args: argparse.Namespace) -> int:
    from ..plots.report import standardization_report

    if not args.no_plots:
        check_output(args.figures, directory=True)
    cube = load_data(args)
    report = standardization_report(cube, models=args.models, degenerate=args.degenerate)
    legend = {"raw": "mean raw score over the topics",
              "<model>": "mean score standardized with the model, fitted per topic on every "
                         "system",
              "<model>#": "rank of the system by that mean (1 = best)"}
    size = f"{cube.sizes['topic']} topics, {cube.sizes['system']} systems"
    parts = {}
    for measure, table in report.tables.items():
        print(f"== {cube.attrs.get('dataset', args.data)}, {measure}: {size} ==")
        print("system means and ranks (1 = best) per standardization:")
        shown = table if args.top is None else table.head(args.top)
        print_table(shown, legend=legend)
        print()
        shown = shown.copy()
        shown.attrs["columns"] = legend
        parts[f"means-{measure}"] = (shown, f"System means and ranks (1 = best) of {measure} "
                                            f"per standardization ({size}).")
        print("Kendall tau_b between each standardized ranking and the raw ranking:")
        tau = report.tau[[measure]].rename(columns={measure: "tau_b"}).rename_axis(columns=None)
        print_table(tau, legend={"tau_b": f"Kendall τ_b of the model's ranking with the raw "
                                          f"ranking ({measure})"})
        print()
    parts["tau"] = (report.tau, (
        f"Kendall τ_b between the ranking of the {cube.sizes['system']} systems by each "
        f"model's standardized mean and the raw ranking ({cube.sizes['topic']} topics)."))
    write_tables(parts, args)
    if not args.no_plots:
        for path in report.write_plots(Path(args.figures)):
            notice(f"wrote {path}")
    return 0
