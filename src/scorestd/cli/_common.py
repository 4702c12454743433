"""Argument and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

import pandas as pd
import xarray as xr

from ..errors import ScorestdError
from ..io import FORMATS, load


def add_command(sub: argparse._SubParsersAction, name: str,
                run: Callable[[argparse.Namespace], int], *, help: str, description: str,
                data: bool = True) -> argparse.ArgumentParser:
    """Add subcommand ``name`` that calls ``run``; with ``data``, its DATA argument too."""
    parser = sub.add_parser(name, help=help, description=description)
    parser.set_defaults(func=run)
    if data:
        add_data_argument(parser)
    return parser


def add_data_argument(parser: argparse.ArgumentParser, *, optional_default: str | None = None) -> None:
    """Add the DATA positional (file, directory or bundled dataset) and ``--measure``."""
    if optional_default is None:
        parser.add_argument("data", metavar="DATA",
                            help="score file (.csv, .nc, trec_eval -q output), directory of "
                                 "trec_eval files, or a bundled dataset name")
    else:
        parser.add_argument("data", metavar="DATA", nargs="?", default=optional_default,
                            help=f"score file or bundled dataset (default: {optional_default})")
    add_measure_and_format(parser)


def add_measure_and_format(parser: argparse.ArgumentParser) -> None:
    """Add ``--measure`` and ``--format``, the options read by :func:`load_data`."""
    parser.add_argument("--measure", "-m", help="use only this measure")
    parser.add_argument("--format", choices=FORMATS, help="input format (default: detect)")


def load_data(args: argparse.Namespace) -> xr.DataArray:
    """Load the DATA argument as a cube."""
    return load(args.data, format=args.format, measure=args.measure)


def split_list(text: str | None, convert: Any = str) -> list[Any] | None:
    """``"a,b"`` → ``[convert("a"), convert("b")]``; ``None`` stays ``None``."""
    if text is None:
        return None
    try:
        return [convert(part.strip()) for part in text.split(",") if part.strip()]
    except ValueError as exc:
        raise ScorestdError(f"cannot read the list {text!r}: {exc}") from None


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


def write_figure(result: Any, path: str | None) -> None:
    """Save ``result.plot()`` to ``path`` (off-screen) when a path is given."""
    if not path:
        return
    import matplotlib

    matplotlib.use("Agg")
    result.plot(path)
    print(f"figure written to {path}")
