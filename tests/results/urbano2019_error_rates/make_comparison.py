"""Every published error rate beside ours: comparison.csv and summary.md from saved studies.

Usage (from this folder): ``python make_comparison.py RATES.nc [RATES.nc ...] [--keep
OLD.csv]``, the files written by ``scorestd experiment error-rates ... --save RATES.nc``
(their commands are in summary.md); with ``--keep``, the rows of an earlier comparison.csv
for the cells none of the files computed are kept (column ``run``: the file each row
comes from). Each row of reference.csv (the published rates, made by extract.py) gets the
rate of the study that computed its cell (:func:`scorestd.compare_error_rates`: rate,
binomial standard errors, difference, z); summary.md counts the rates beyond 2 and 3
standard errors by kind and test, and by kind, measure and topic set size.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import xarray as xr

from scorestd.experiments import ErrorRates, agreement_counts, compare_error_rates

HERE = Path(__file__).parent


def comparison(paths: list[str], keep: str | None = None) -> pd.DataFrame:
    """One row per published rate, from whichever study computed its cell (the first)."""
    table = None
    for path in paths:
        t = compare_error_rates(ErrorRates(xr.load_dataset(path)), HERE / "reference.csv")
        t["run"] = np.where(t["rate"].notna(), Path(path).stem, "")
        if table is None:
            table = t
        else:
            fill = table["rate"].isna() & t["rate"].notna()
            table.loc[fill] = t.loc[fill]
    if keep is not None:
        old = pd.read_csv(keep)
        if "run" not in old:
            old["run"] = "previous"
        old["run"] = old["run"].fillna("previous")
        key = ["kind", "measure", "n_topics", "delta", "test", "tails", "alpha"]
        old = table[key].merge(old, on=key, how="left")  # the same row order
        fill = table["rate"].isna().to_numpy() & old["rate"].notna().to_numpy()
        table.loc[fill, old.columns] = old.loc[fill].to_numpy()
    return table


def summary(table: pd.DataFrame) -> str:
    done = table[np.isfinite(table["z"])]
    by_test = agreement_counts(done).round(2)
    by_cell = agreement_counts(done, by=("kind", "measure", "n_topics")).round(2)
    return "\n".join([
        f"{len(done)} of {len(table)} published rates compared.",
        f"Beyond 2 SE: {int((done['z'].abs() > 2).sum())} (Monte Carlo error alone: about "
        f"{0.0455 * len(done):.0f}); beyond 3 SE: {int((done['z'].abs() > 3).sum())} (about "
        f"{0.0027 * len(done):.0f}).", "",
        "By kind and test:", "", by_test.to_markdown(), "",
        "By kind, measure and topic set size:", "", by_cell.to_markdown(), ""])


if __name__ == "__main__":
    args = sys.argv[1:]
    keep = None
    if "--keep" in args:
        at = args.index("--keep")
        keep, args = args[at + 1], args[:at] + args[at + 2:]
    table = comparison(args, keep)
    table.to_csv(HERE / "comparison.csv", index=False, float_format="%.6g")
    print(summary(table))
