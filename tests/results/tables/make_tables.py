"""Writes the expected table files of tests/tables/test_tables.py.

Run from the repository root after a deliberate change of the tables' layout, then read
the diff before committing it:

    PYTHONPATH=src python tests/results/tables/make_tables.py

The numbers in these files are checked independently by the tests (scipy's paired
t-tests and t intervals, statsmodels' Holm correction); the files pin the layout.
"""

from __future__ import annotations

from pathlib import Path

import scorestd

HERE = Path(__file__).parent


def tables() -> dict[str, scorestd.tables.Table]:
    """Each expected file's stem and the table it holds."""
    ap = scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 5))
    robust = scorestd.datasets.load("robust2004").isel(system=slice(0, 4))
    return {
        "significance_all_pairs": scorestd.table(
            scorestd.compare(robust, "paired_t", correction="holm"), scores=robust),
        "significance_baseline": scorestd.table(
            scorestd.compare(robust, "wilcoxon", baseline=str(robust.system.values[0]),
                             correction="bonferroni"), scores=robust),
        "significance_tukey": scorestd.table(scorestd.compare(ap, "tukey_hsd"), scores=ap,
                                             alpha=0.01),
        "means": scorestd.table(robust),
        "topic_set_size": scorestd.table(scorestd.topic_set_size(
            variance=scorestd.design_variance([ap], "paired_t", schemes=["raw", "N"]),
            min_diff=[0.05, 0.1], alpha=0.05, beta=0.2)),
        "error_rates": scorestd.table(scorestd.error_rates(
            ["adhoc8"], measures=["ap"], n_topics=[25, 50], deltas=[0.05],
            tests=["paired_t", "wilcoxon"], trials=64, trials_type2=64, B=100,
            copula="gaussian", seed=1)),
        "within_collection": scorestd.table(scorestd.within_collection(
            scorestd.datasets.load("adhoc8_ap").isel(system=slice(0, 10)),
            schemes=["raw", "N", "E"], trials=20, seed=7)),
    }


def main() -> None:
    for stem, table in tables().items():
        for suffix in (".tex", ".md", ".csv"):
            table.write(HERE / f"{stem}{suffix}")


if __name__ == "__main__":
    main()
