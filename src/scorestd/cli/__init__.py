"""The ``scorestd`` command line.

Each subcommand lives in its own module of this package with a ``register(subparsers)``
function; :data:`COMMANDS` lists them in the order ``--help`` shows them. The parser is
built from light modules only, and each command imports what it computes with inside its
``run``: ``scorestd --help`` and ``scorestd CMD --help`` answer without numpy, pandas or
xarray. Warnings about the data are printed as ``scorestd CMD: warning: …``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import warnings
from collections.abc import Sequence

from .._progress import quiet
from .._version import __version__
from ..errors import ScorestdError, ScorestdWarning
from ._common import check_outputs, resolve_outputs

#: Modules of this package that define subcommands.
COMMANDS: tuple[str, ...] = (
    "datasets",
    "info",
    "evaluate",
    "convert",
    "standardize",
    "report",
    "aggregate",
    "compare",
    "experiment",
    "simulate",
    "power",
    "topics",
    "discriminative_power",
    "swap_rate",
    "leave_one_out",
    "bayes",
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="scorestd",
        description="Statistics of IR evaluation scores: standardize, aggregate, compare, "
        "design test collections.",
    )
    parser.add_argument("--version", action="version", version=f"scorestd {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad data, 2 bad usage, 130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from . import _common

    _common.QUIET = bool(getattr(args, "quiet", False))

    def show(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, ScorestdWarning):
            print(f"scorestd {args.command}: warning: {message}", file=sys.stderr)
        else:
            shown(message, category, filename, lineno, file, line)

    with warnings.catch_warnings():
        shown = warnings.showwarning
        warnings.simplefilter("always", ScorestdWarning)  # printed, never raised
        warnings.showwarning = show
        try:
            resolve_outputs(args)  # the spellings of earlier releases
            check_outputs(args)  # before any reading or computing
            with quiet(args.quiet or args.no_progress):
                return int(args.func(args) or 0)
        except KeyboardInterrupt:
            # Writers replace files atomically, so an interrupt leaves each output whole or untouched.
            message = "interrupted; every output file is either complete or left as it was"
            if getattr(args, "results_dir", None):
                message += f"; run the same command again to resume from {args.results_dir}"
            print(f"scorestd {args.command}: {message}", file=sys.stderr)
            return 130
        except BrokenPipeError:  # pragma: no cover - output piped into `head`
            sys.stderr.close()
            return 0
        except (ScorestdError, OSError) as exc:
            print(f"scorestd {args.command}: error: {_in_cli_terms(str(exc), args)}",
                  file=sys.stderr)
            return 1


def _in_cli_terms(message: str, args: argparse.Namespace) -> str:
    """An API message in the command line's terms: the memory budget is ``--memory`` where
    the command has it, else the environment variable; the measure is ``--measure``."""
    import re

    from .._options import MEMORY_ENV

    if message.endswith("pick one with measure=") and hasattr(args, "measure"):
        return message.removesuffix("measure=") + "--measure (-m), e.g. -m ap"
    if not message.endswith("raise memory="):
        return message
    if hasattr(args, "memory"):
        message = re.sub(r"\(memory='([^']*)'\)", r"(--memory \1)", message)
        return message.removesuffix("memory=") + "--memory"
    return message.removesuffix("raise memory=") + f"set ${MEMORY_ENV} (e.g. 2GB)"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
