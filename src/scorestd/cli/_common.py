"""Argument and output helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, get_args

import pandas as pd
import xarray as xr

from .._options import RENAMED_TESTS, PairedTest
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


def add_test_argument(parser: argparse.ArgumentParser, *, default: str = "paired_t",
                      help: str) -> None:
    """``--test``/``-t``: a paired test by its API name (old names read with a notice)."""
    parser.add_argument("--test", "-t", choices=get_args(PairedTest), default=default,
                        type=renamed(RENAMED_TESTS, "--test"), metavar="TEST",
                        help=f"{help} (one of {', '.join(get_args(PairedTest))}; "
                             f"default: {default})")


def add_resamples_argument(parser: argparse.ArgumentParser, *, default: int, help: str) -> None:
    """``--resamples``/``-B`` (``--B`` of earlier releases still read, with a notice)."""
    parser.add_argument("--resamples", "-B", dest="B", type=int, default=default,
                        help=f"{help} (default: {default})")
    parser.add_argument("--B", dest="B", type=int, help=argparse.SUPPRESS,
                        action=_Renamed, new="--resamples")


def renamed(old_to_new: dict[str, str], flag: str) -> Callable[[str], str]:
    """An argparse ``type`` that reads a value's old spelling as its new one, with a notice."""

    def convert(value: str) -> str:
        if value in old_to_new:
            print(f"scorestd: {flag} {value} is deprecated; use {flag} {old_to_new[value]}",
                  file=sys.stderr)
            return old_to_new[value]
        return value

    return convert


class _Renamed(argparse.Action):
    """An option of earlier releases: stores its value and says which option replaces it."""

    def __init__(self, option_strings: list[str], dest: str, new: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.new = new

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(f"scorestd: {option_string} is deprecated; use {self.new}", file=sys.stderr)
        setattr(namespace, self.dest, values)


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
