"""The full-size study with either family set of pair copulas beside the published rates.

Usage (from this folder): ``python family_sets.py > family_sets.txt``. Reads
``rates_full_size.nc`` (``pair_families="bicopselect"``, the default: R VineCopula's
``BiCopSelect``, the paper's call) and ``rates_full_size_vinecopulib.nc`` (the same design
and seed with ``pair_families="vinecopulib"``; summary.md has both commands), compares each
to the published rates (reference.csv, :func:`scorestd.compare_error_rates`) and prints,
per family set: rates beyond 3 standard errors by kind and test, and the mean difference
to the published (ours − published) by kind, measure and test.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import xarray as xr

from scorestd.experiments import ErrorRates, compare_error_rates

HERE = Path(__file__).parent
RUNS = {"bicopselect": "rates_full_size.nc", "vinecopulib": "rates_full_size_vinecopulib.nc"}
TESTS = ["paired_t", "permutation", "bootstrap", "wilcoxon", "sign"]


def table(name: str) -> pd.DataFrame:
    return compare_error_rates(ErrorRates(xr.load_dataset(HERE / name)), HERE / "reference.csv")


def main() -> None:
    tables = {families: table(name) for families, name in RUNS.items()}
    beyond = pd.DataFrame({
        families: t.assign(beyond=t["z"].abs() > 3).groupby(["kind", "test"])["beyond"].sum()
        for families, t in tables.items()})
    beyond.loc[("all", ""), :] = beyond.sum()
    print("Rates beyond 3 SE (of 90 Type I, 360 power, 180 Type III cells per test):\n")
    print(beyond.astype(int).to_markdown(), "\n")
    for kind in ("type1", "power", "type3"):
        print(f"Mean difference to the published, {kind} (ours − published):\n")
        rows = []
        for families, t in tables.items():
            mean = (t[t["kind"] == kind].groupby(["measure", "test"])["difference"].mean()
                    .unstack()[TESTS])
            mean.index = pd.MultiIndex.from_product([[families], mean.index])
            rows.append(mean)
        print(pd.concat(rows).round(4).to_markdown(), "\n")


if __name__ == "__main__":
    main()
