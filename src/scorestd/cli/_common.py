"""Argument and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse

import pandas as pd
import xarray as xr

from ..io import FORMATS, load


def add_data_argument(parser: argparse.ArgumentParser, *, optional_default: str | None = None) -> None:
    """Add the DATA positional (file, directory or bundled dataset) and ``--measure``."""
    if optional_default is None:
        parser.add_argument("data", metavar="DATA",
                            help="score file (.csv, .nc, trec_eval -q output), directory of "
                                 "trec_eval files, or a bundled dataset name")
    else:
        parser.add_argument("data", metavar="DATA", nargs="?", default=optional_default,
                            help=f"score file or bundled dataset (default: {optional_default})")
    parser.add_argument("--measure", "-m", help="use only this measure")
    parser.add_argument("--format", choices=FORMATS, help="input format (default: detect)")


def load_data(args: argparse.Namespace) -> xr.DataArray:
    """Load the DATA argument as a cube."""
    return load(args.data, format=args.format, measure=args.measure)


def print_table(frame: pd.DataFrame, *, floatfmt: str = "{:.4f}") -> None:
    """Print a DataFrame as an aligned plain-text table."""
    formatters = {
        c: (lambda v, f=floatfmt: "" if pd.isna(v) else f.format(v))
        for c in frame.columns
        if pd.api.types.is_float_dtype(frame[c])
    }
    with pd.option_context("display.width", 200, "display.max_rows", 10_000,
                           "display.max_columns", 100):
        print(frame.to_string(formatters=formatters))
