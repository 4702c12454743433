"""``scorestd standardize``: standardize scores with a model and write them."""

from __future__ import annotations

import argparse
from typing import get_args

from .._options import BUILTIN_MODELS, Degenerate
from ._common import (
    add_command,
    add_legacy_positional_output,
    add_output_argument,
    check_output,
    load_data,
    notice,
)
from ._selection import select_systems


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "standardize", run, help="standardize scores per topic (N-std, U-std, E-std, ...)",
        description="Fit a per-topic score distribution on reference systems (default: the "
                    "input itself) and write every score's standardized value y = F(x).")
    add_output_argument(p, metavar="FILE", help="file of standardized scores to write "
                        "(required): .nc netCDF, .csv/.tsv long CSV, .parquet")
    add_legacy_positional_output(p)
    p.add_argument("--model", default="empirical", metavar="MODEL",
                   help=f"a registered distribution model ({', '.join(BUILTIN_MODELS)}; "
                        "default: empirical, i.e. E-std)")
    source = p.add_mutually_exclusive_group()
    source.add_argument("--reference", metavar="REF",
                        help="scores of the standardization systems (file or bundled dataset)")
    source.add_argument("--factors", nargs=2, metavar=("MEANS", "SDS"),
                        help="standardization factors (CSV matrices of per-topic means and "
                             "sds, Webber et al.'s layout) instead of --reference")
    source.add_argument("--fitted", metavar="FILE",
                        help="a fitted model written by --save-fitted (any model; its name "
                             "and options come from the file) instead of --reference")
    p.add_argument("--save-fitted", metavar="FILE",
                   help="also write the model fitted on the reference (or the input) to FILE "
                        "(netCDF), to standardize other runs against it later")
    p.add_argument("--degenerate", choices=get_args(Degenerate), default="unstandardized",
                   help="topics whose reference systems all score the same (default: "
                        "unstandardized: mu=0 sigma=1 for the location-scale models, as "
                        "the published code; the raw score for the others)")
    p.add_argument("--to", choices=("netcdf", "long", "matrix", "parquet"),
                   help="output format (default: from the suffix)")
    p.add_argument("--cross-collection", action="store_true",
                   help="allow a reference from another collection (attrs 'collection')")


def run(args: argparse.Namespace) -> int:
    from ..io import output_format, save
    from ..models import read_fitted, write_fitted
    from ..models.factors import read_factors
    from ..models.reference import fit_reference
    from ..stats.standardization import standardize

    output_format(args.output, args.to)  # before any computation
    check_output(args.output)
    if args.save_fitted is not None:
        check_output(args.save_fitted)
    collection = load_data(args, extra_dims=True, select=False)
    cube = select_systems(collection, args.systems)
    if args.fitted is not None:
        reference = read_fitted(args.fitted)
    elif args.factors is not None:
        reference = read_factors(*args.factors)
    elif args.reference is not None:
        reference = load_data(args, args.reference, select=False)
    else:  # the whole collection, also when --systems keeps only some of it in the output
        reference = collection if args.systems else None
    if args.save_fitted is not None:  # fit once, write it, standardize against it
        reference = fit_reference(cube if reference is None else reference, args.model,
                                  degenerate=args.degenerate)
        notice(f"wrote {write_fitted(reference, args.save_fitted)}: the fitted "
              f"{reference.name} model")
    out = standardize(cube, args.model, reference=reference, degenerate=args.degenerate,
                      cross_collection=args.cross_collection)
    path = save(out, args.output, format=args.to, measure=args.measure)
    notice(f"wrote {path}: {out.attrs['standardization']} standardization of "
          f"{cube.sizes['topic']} topics, {cube.sizes['system']} systems, "
          f"{cube.sizes['measure']} measures")
    return 0
