"""Summary of ``orientation_type1.txt``: how far each order's Type I errors are from the
published ones, by measure, test and tails.

``orientation_type1.py`` prints, per measure, the t, Wilcoxon and sign tests' Type I
errors at α = .01, .05, .1 (n = 25, 50, 100) with the study's order of a pair copula's
columns and with the published code's, each with its z-score against the published rate
(our standard error only). This reads those tables back and prints, per measure, test and
tails, the mean z and the largest |z| over the 9 cells (3 n × 3 α) of each order.

Usage::

    python tests/results/urbano2019_error_rates/orientation_summary.py \\
        tests/results/urbano2019_error_rates/orientation_type1.txt \\
        > tests/results/urbano2019_error_rates/orientation_summary.txt
"""

from __future__ import annotations

import re
import sys

import pandas as pd


def read(path: str) -> pd.DataFrame:
    """The rows of every measure's table: measure, n, test, tails, alpha, the rates and
    z-scores of both orders, the published rate."""
    rows, measure, n, test, tails = [], None, None, None, None
    number = r"-?\d+(?:\.\d+)?"
    for line in open(path, encoding="utf-8"):
        head = re.match(r"# (\w+): \d+ Type I trials", line)
        if head:
            measure = head.group(1)
            continue
        values = re.findall(number, line)
        words = line.split()
        if line.startswith("#") or len(values) < 6:
            continue
        # the table's index columns are blank where they repeat the row above
        tokens = words[:-6]
        for token in tokens:
            if token.isdigit() and int(token) >= 25:
                n = int(token)
            elif token in ("paired_t", "wilcoxon", "sign"):
                test = token
            elif token in ("1", "2"):
                tails = int(token)
        alpha, rate_pub_order, rate_study, z_pub_order, z_study, published = map(
            float, words[-6:])
        rows.append({"measure": measure, "n": n, "test": test, "tails": tails,
                     "alpha": alpha, "published": published,
                     "study": rate_study, "published_order": rate_pub_order,
                     "z_study": z_study, "z_published_order": z_pub_order})
    return pd.DataFrame(rows)


def main() -> None:
    table = read(sys.argv[1])
    out = table.groupby(["measure", "test", "tails"], sort=False).agg(
        cells=("z_study", "size"),
        mean_z_study=("z_study", "mean"),
        max_abs_z_study=("z_study", lambda z: z.abs().max()),
        mean_z_published_order=("z_published_order", "mean"),
        max_abs_z_published_order=("z_published_order", lambda z: z.abs().max()))
    print("# Type I errors against the published (z: our standard error only), 3 n × "
          "3 α a row; study: the baseline's scores from the baseline run's column of the "
          "pair copula; published order: from the lower-indexed run's column "
          "(R/11-type_1.R)")
    with pd.option_context("display.width", 200, "display.max_rows", 200):
        print(out.round(2).to_string())


if __name__ == "__main__":
    main()
