"""Argument and output helpers shared by the subcommands.

The parser is built from light modules only (the vocabulary in ``_options``, the errors):
``scorestd --help`` answers without importing numpy, pandas or xarray. Everything a
command computes with is imported inside its ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from .._options import RENAMED_TESTS, DecimalMark, Format, PairedTest, TopicSet
from ..errors import ScorestdError
from ._selection import add_systems_argument, select_systems

if TYPE_CHECKING:
    import pandas as pd
    import xarray as xr

#: Input formats ``--format`` takes.
FORMATS: tuple[str, ...] = get_args(Format)
#: ``--delimiter`` spellings: the character, or its name.
DELIMITERS = {",": ",", ";": ";", "\\t": "\t", "\t": "\t", "tab": "\t", "comma": ",",
              "semicolon": ";"}


def add_command(sub: argparse._SubParsersAction, name: str,
                run: Callable[[argparse.Namespace], int], *, help: str, description: str,
                data: bool = True) -> argparse.ArgumentParser:
    """Add subcommand ``name`` that calls ``run``; with ``data``, its DATA argument too."""
    parser = sub.add_parser(name, help=help, description=description)
    parser.set_defaults(func=run)
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="print only results and errors: no progress bars (shown only "
                             "when standard error is a terminal), no notices")
    parser.add_argument("--no-progress", action="store_true",
                        help=argparse.SUPPRESS)  # of earlier releases: no bars, notices kept
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


def add_measure_and_format(parser: argparse.ArgumentParser, *,
                           measure_help: str = "use only this measure") -> None:
    """Add ``--measure``, ``--format`` and the reading options :func:`load_data` passes on."""
    parser.add_argument("--measure", "-m", help=measure_help)
    parser.add_argument("--format", choices=FORMATS, help="input format (default: detect)")
    parser.add_argument("--delimiter", type=_delimiter, metavar="SEP",
                        help="CSV field separator: ',', ';' or tab (default: sniffed)")
    parser.add_argument("--decimal", choices=get_args(DecimalMark),
                        help="CSV decimal mark, '.' or ',' (default: sniffed)")
    parser.add_argument("--topics", choices=get_args(TopicSet),
                        help="trec_eval runs that cover different topics: keep the topics all "
                             "cover (intersection), all topics with missing cells (union) or "
                             "stop (strict); default: union, with a warning")
    parser.add_argument("--strict", action="store_true",
                        help="stop on scores outside their measure's range (default: warn)")
    parser.add_argument("--select", action="append", type=_selection, metavar="DIM=LABEL",
                        help="one slice of a file with extra dims, e.g. the trial of a "
                             "simulated collection: --select trial=3 (repeat for several "
                             "dims)")
    add_systems_argument(parser)


def load_data(args: argparse.Namespace, source: str | None = None, *,
              extra_dims: bool = False, select: bool = True) -> xr.DataArray:
    """Load the DATA argument (or ``source``) as a cube, with the reading options and
    (with ``select``) the ``--systems`` selection.

    The slices of ``--select`` are taken; a cube left with extra dims (``trial`` …) is an
    error naming them unless ``extra_dims`` (the command maps over them).
    """
    from ..io import load

    name = args.data if source is None else source
    cube = load(name, format=args.format, measure=args.measure, **reading_options(args))
    cube = selected(cube, getattr(args, "select", None) or [], name=str(name),
                    extra_dims=extra_dims, command=getattr(args, "command", None))
    return select_systems(cube, getattr(args, "systems", None)) if select else cube


def selected(cube: xr.DataArray, selections: list[tuple[str, str]], *, name: str,
             extra_dims: bool, command: str | None = None) -> xr.DataArray:
    """``cube`` at the ``--select`` slices (labels matched as text), checked for extra dims."""
    from ..score_cube import extra_dims_of

    for dim, label in selections:
        if dim not in extra_dims_of(cube):
            raise ScorestdError(f"--select {dim}={label}: {name} has no extra dim {dim!r} "
                                f"(its dims: {', '.join(map(str, cube.dims))})")
        labels = ([str(v) for v in cube[dim].values.tolist()] if dim in cube.coords
                  else [str(i) for i in range(cube.sizes[dim])])
        if label not in labels:
            shown = ", ".join(labels[:5]) + (" …" if len(labels) > 5 else "")
            raise ScorestdError(f"--select {dim}={label}: {name} has no {dim} {label!r} "
                                f"({dim}s: {shown})")
        where = ", ".join(filter(None, [cube.attrs.get("slice"), f"{dim} {label}"]))
        cube = cube.isel({dim: labels.index(label)}, drop=True).assign_attrs(slice=where)
    extra = extra_dims_of(cube)
    if extra and not extra_dims:
        listed = ", ".join(f"{dim} ({cube.sizes[dim]})" for dim in extra)
        first = " ".join(f"--select {dim}="
                         f"{cube[dim].values[0] if dim in cube.coords else 0}" for dim in extra)
        raise ScorestdError(
            f"{name} holds several collections (extra dims: {listed}); "
            f"{'scorestd ' + command if command else 'this command'} works on one: pick it "
            f"with {first}. info, convert, standardize and compare read the whole file")
    return cube


def _selection(text: str) -> tuple[str, str]:
    dim, sep, label = text.partition("=")
    if not sep or not dim.strip() or not label.strip():
        raise argparse.ArgumentTypeError(f"use DIM=LABEL, e.g. trial=3; got {text!r}")
    return dim.strip(), label.strip()


def reading_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`scorestd.load` given on the command line."""
    return {"delimiter": getattr(args, "delimiter", None),
            "decimal": getattr(args, "decimal", None),
            "topics": getattr(args, "topics", None),
            "strict": getattr(args, "strict", False)}


def _delimiter(text: str) -> str:
    if text not in DELIMITERS:
        raise argparse.ArgumentTypeError(f"use ',', ';' or tab; got {text!r}")
    return DELIMITERS[text]


def check_output(path: str | os.PathLike, *, directory: bool = False) -> Path:
    """Check before any computation that ``path`` can be written (see
    :func:`scorestd.io.check_writable`)."""
    from ..io.paths import check_writable

    return check_writable(path, directory=directory)


#: Options naming a file a command writes → the kind of file; ``--out`` and
#: ``--output`` depend on the command (``"cube"``: format from the suffix or ``--to``).
OUTPUT_OPTIONS: dict[str, str] = {"save_fitted": "netcdf", "save": "netcdf",
                                  "forest": "figure", "heatmap": "figure",
                                  "effects": "figure", "ppc": "figure", "figure": "figure",
                                  "figures": "directory", "table_output": "table"}
#: What ``--output`` writes, where it is not the printed table.
OUTPUT_KINDS: dict[str, str] = {"simulate": "netcdf", "evaluate": "cube", "convert": "cube",
                                "standardize": "cube"}
#: Options naming a file a command reads.
INPUT_OPTIONS = ("data", "reference", "fitted", "factors", "groups", "qrels", "runs")


def check_outputs(args: argparse.Namespace) -> None:
    """Check every output of a command before it reads or computes anything.

    Each file the command will write must have a suffix fitting its kind, lie in a
    folder that exists and can be written, and be none of the command's inputs (a
    result written over its own data is refused).
    """
    from ..io.formats import output_format
    from ..io.paths import check_output_path
    from ..io.table import table_format

    inputs = []
    for name in INPUT_OPTIONS:
        value = getattr(args, name, None)
        for item in value if isinstance(value, list | tuple) else [value]:
            inputs.extend(split_list(item) if isinstance(item, str) else [])
    inputs = [p for p in inputs if Path(p).exists()]
    command = args.command.replace("-", "_")
    outputs = {**OUTPUT_OPTIONS, "output": OUTPUT_KINDS.get(command, "table")}
    for name, kind in outputs.items():
        path = getattr(args, name, None)
        if not isinstance(path, str) or not path:
            continue
        if kind == "directory":
            if any(_same_path(path, p) for p in inputs):
                raise ScorestdError(f"{path}: the output folder is also an input")
            check_output(path, directory=True)
        elif kind in ("cube", "table", None):
            if kind == "cube":
                output_format(path, getattr(args, "to", None))
            elif kind == "table":
                table_format(path)
            check_output_path(path, inputs=inputs)
        else:
            check_output_path(path, kind, inputs=inputs)


def _same_path(a: str, b: str) -> bool:
    return Path(a).resolve() == Path(b).resolve()


def check_figure_path(path: str | None) -> None:
    """Refuse, before any computation, a figure file matplotlib cannot write or place."""
    if path:
        from ..io.paths import check_output_path

        check_output_path(path, "figure")


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


def print_table(frame: pd.DataFrame, *, floatfmt: str = "{:.4f}",
                legend: dict[str, str] | None = None) -> None:
    """Print a DataFrame as an aligned plain-text table, with what its columns mean (row
    labels as the index says them; never pandas' integer positions)."""
    import pandas as pd

    from ..io.table import labels_rows

    formatters = {
        c: (lambda v, f=floatfmt: "" if pd.isna(v) else f.format(v))
        for c in frame.columns
        if pd.api.types.is_float_dtype(frame[c])
    }
    with pd.option_context("display.width", 200, "display.max_rows", 10_000,
                           "display.max_columns", 100):
        print(frame.to_string(formatters=formatters, index=labels_rows(frame.index)))
    legend = legend if legend is not None else frame.attrs.get("columns")
    if legend:
        width = max(len(str(c)) for c in legend)
        print("\n".join(f"  {str(c) + ':':<{width + 1}} {text}" for c, text in legend.items()))


def write_figure(result: Any, path: str | None, **options: Any) -> None:
    """Save ``result.plot(**options)`` to ``path`` (off-screen) when a path is given."""
    if not path:
        return
    import matplotlib

    matplotlib.use("Agg")
    result.plot(path, **options)
    notice(f"figure written to {path}")


#: Set by ``--quiet``: notices are not printed.
QUIET = False


def notice(text: str) -> None:
    """Print an informational line (a file written …), unless ``--quiet``."""
    if not QUIET:
        print(text)


def quiet_run() -> bool:
    """Whether ``--quiet`` asks for results and errors only (checks and notices are
    neither computed nor printed)."""
    return QUIET


def add_output_argument(parser: argparse.ArgumentParser, *, help: str | None = None,
                        metavar: str = "TABLE") -> None:
    """``--output``/``-o``: the file a command writes, in the format of its suffix (the
    printed table by default; ``help`` says what else, e.g. a score file)."""
    parser.add_argument("--output", "-o", metavar=metavar, help=help or (
        "also write the table to this file: .tex (LaTeX, booktabs), .md (Markdown) or "
        ".csv, by suffix; a command printing several tables writes one file each beside "
        "it, named after the table (t.md → t-systems.md, t-variance.md …)"))


def add_figure_argument(parser: argparse.ArgumentParser, *, help: str) -> None:
    """``--figure FILE`` (``--out`` of earlier releases still read, with a notice)."""
    parser.add_argument("--figure", metavar="FILE", help=help)
    parser.add_argument("--out", dest="figure", help=argparse.SUPPRESS, action=_Renamed,
                        new="--figure")
    parser.set_defaults(resolve_outputs=_figure_given_as_output)


def add_legacy_out(parser: argparse.ArgumentParser, *, dest: str = "output",
                   new: str = "--output") -> None:
    """``--out`` of earlier releases, read as ``new`` with a notice."""
    parser.add_argument("--out", dest=dest, help=argparse.SUPPRESS, action=_Renamed, new=new)


def add_legacy_positional_output(parser: argparse.ArgumentParser) -> None:
    """The positional ``OUT`` of earlier releases (``standardize DATA OUT``), read as
    ``--output OUT`` with a notice; one of the two is required."""
    parser.add_argument("legacy_output", nargs="?", help=argparse.SUPPRESS)
    parser.set_defaults(resolve_outputs=_positional_output)


def _positional_output(args: argparse.Namespace) -> None:
    legacy = getattr(args, "legacy_output", None)
    if legacy is not None and args.output is not None:
        raise ScorestdError(f"two output files: {legacy} (positional) and --output "
                            f"{args.output}; give --output only")
    if legacy is not None:
        print(f"scorestd: the positional output file is deprecated; use --output {legacy}",
              file=sys.stderr)
        args.output = legacy
    if args.output is None:
        raise ScorestdError("the output file is required: --output FILE (-o FILE)")


FIGURE_SUFFIXES = (".png", ".pdf", ".svg", ".jpg", ".jpeg", ".eps", ".ps", ".tif", ".tiff",
                   ".webp")


def _figure_given_as_output(args: argparse.Namespace) -> None:
    """``-o fig.png`` of earlier releases named the figure: read it as ``--figure``."""
    output = getattr(args, "output", None)
    if output and Path(output).suffix.lower() in FIGURE_SUFFIXES and args.figure is None:
        print(f"scorestd: -o/--output {output} names a figure; -o is now --output (the "
              f"table) and the figure is --figure {output}", file=sys.stderr)
        args.figure, args.output = output, None


def resolve_outputs(args: argparse.Namespace) -> None:
    """Read the output options of earlier releases as today's (see the ``add_legacy_*``
    helpers), before the outputs are checked."""
    resolve = getattr(args, "resolve_outputs", None)
    if resolve is not None:
        resolve(args)


def write_table(table: Any, args: argparse.Namespace, *, caption: str = "") -> None:
    """Write ``table`` to ``--output`` when given: a :class:`~scorestd.io.table.Table`, an
    experiment result (its summary) or a DataFrame (captioned ``caption``)."""
    path = getattr(args, "output", None)
    if not path:
        return
    from ..io.table import Table
    from ..tables import frame_table, summary_table

    if not isinstance(table, Table):
        table = (summary_table(table) if callable(getattr(table, "summary", None))
                 else frame_table(table, caption=caption))
    table.write(path)
    notice(f"table written to {path}")


def write_tables(parts: dict[str, tuple[Any, str]], args: argparse.Namespace) -> None:
    """Write several printed tables to ``--output`` when given: ``{part: (table,
    caption)}``. One part goes to the file itself; several go beside it, one file each,
    named after the part (``--output t.md`` → ``t-systems.md``, ``t-variance.md`` …)."""
    path = getattr(args, "output", None)
    if not path or not parts:
        return
    from ..io.table import Table
    from ..tables import frame_table

    target = Path(path)
    for part, (table, caption) in parts.items():
        if not isinstance(table, Table):
            table = frame_table(table, caption=caption)
        out = target if len(parts) == 1 else target.with_name(
            f"{target.stem}-{_file_part(part)}{target.suffix}")
        table.write(out)
        notice(f"table written to {out}")


def _file_part(text: str) -> str:
    """A table's name as a piece of a file name (letters, digits, '-', '_', '.', '@')."""
    return "".join(c if c.isalnum() or c in "-_.@" else "_" for c in text)
