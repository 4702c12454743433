"""Arguments shared by the design subcommands (power, topics): data, schemes, variance."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import ScorestdError
from ._common import add_measure_and_format, load_data, split_list


def add_collections_argument(parser: argparse.ArgumentParser) -> None:
    """DATA (one or more collections, pooled), ``--measure``, ``--format``, ``--schemes``."""
    parser.add_argument("data", metavar="DATA", nargs="*",
                        help="score files or bundled datasets; several are pooled "
                             "(Σ SS / Σ df)")
    add_measure_and_format(parser)
    parser.add_argument("--schemes", help="comma-separated scoring schemes, e.g. raw,N,U,E "
                                          "(default: raw scores only)")
    parser.add_argument("--variance", type=float,
                        help="use this variance instead of estimating it from DATA")


def variance_from_args(args: argparse.Namespace, test: str) -> Any:
    """The variance ``test`` takes, from DATA (per scheme and measure) or ``--variance``."""
    if args.variance is not None:
        if args.data:
            raise ScorestdError("give DATA or --variance, not both")
        return args.variance
    if not args.data:
        raise ScorestdError("give one or more DATA (files or bundled datasets) or --variance")
    from ..design.power import design_variance

    cubes = [load_data(args, d) for d in args.data]
    schemes = split_list(args.schemes) or ["raw"]
    return design_variance(cubes, test, schemes=schemes)


def as_frame(result: Any, variance: Any, name: str) -> Any:
    """A table of a scalar or labelled result next to the variance it came from."""
    import pandas as pd
    import xarray as xr

    if not isinstance(result, xr.DataArray):
        return pd.DataFrame({"variance": [variance], name: [result]})
    frame = xr.Dataset({"variance": variance, name: result}).to_dataframe()
    return frame.drop(columns=[c for c in frame.columns if c not in ("variance", name)])
