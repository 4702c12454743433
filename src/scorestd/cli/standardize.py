"""``scorestd standardize``: standardize scores with a model and write them."""

from __future__ import annotations

import argparse

from ..factors import read_factors
from ..io import load, save
from ..models import DEGENERATE, model_names
from ..standardize import standardize
from ._common import add_command, load_data


def register(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub, "standardize", run, help="standardize scores per topic (N-std, U-std, E-std, ...)",
        description="Fit a per-topic score distribution on reference systems (default: the "
                    "input itself) and write every score's standardized value y = F(x).")
    p.add_argument("output", metavar="OUT", help="output file (.nc netCDF, else long CSV)")
    p.add_argument("--model", default="empirical", choices=model_names(),
                   help="distribution model (default: empirical, i.e. E-std)")
    p.add_argument("--reference", metavar="REF",
                   help="scores of the standardization systems (file or bundled dataset)")
    p.add_argument("--factors", nargs=2, metavar=("MEANS", "SDS"),
                   help="standardization factors (CSV matrices of per-topic means and sds, "
                        "Webber et al.'s layout) instead of --reference")
    p.add_argument("--degenerate", choices=DEGENERATE, default="unstandardized",
                   help="topics whose reference systems all score the same (default: "
                        "unstandardized, mu=0 sigma=1 as the published code)")
    p.add_argument("--to", choices=("netcdf", "long", "matrix"),
                   help="output format (default: from the suffix)")


def run(args: argparse.Namespace) -> int:
    cube = load_data(args)
    if args.factors is not None:
        reference = read_factors(*args.factors)
    elif args.reference is not None:
        reference = load(args.reference, measure=args.measure)
    else:
        reference = None
    out = standardize(cube, args.model, reference=reference, degenerate=args.degenerate)
    path = save(out, args.output, format=args.to, measure=args.measure)
    print(f"wrote {path}: {args.model} standardization of {cube.sizes['topic']} topics, "
          f"{cube.sizes['system']} systems, {cube.sizes['measure']} measures")
    return 0
