"""Extract the reference error rates of Urbano, Lima & Hanjalic (SIGIR 2019).

Source: the authors' published output files, repository
github.com/julian-urbano/sigir2019-statistical (commit dc9f891, files
output/type_1/type_1_<measure>_<n>.csv, output/type_2_by_alpha/delta<δ>/
type_2_by_alpha_<measure>_<n>_delta<δ>.csv and output/type_3_by_alpha/delta<δ>/
type_3_by_alpha_<measure>_<n>_delta<δ>.csv; data licence CC-BY-SA 4.0). Their columns
t, w, s, b, p are the t, Wilcoxon, sign, bootstrap and permutation tests, suffix 1 or 2
the tails; the rates are fractions of p-values ≤ α over 1,667,000 Type I trials per
(measure, n) and 167,000 Type II trials per (measure, n, δ).

Usage: ``python extract.py PATH_TO_A_CHECKOUT > reference.csv`` keeps α ∈ {0.01, 0.05,
0.1} and δ ∈ {0.01, 0.02, 0.05, 0.1}.
"""

import csv
import sys
from pathlib import Path

TESTS = {"t": "paired_t", "w": "wilcoxon", "s": "sign", "b": "bootstrap", "p": "permutation"}
ALPHAS = ("0.01", "0.05", "0.1")
DELTAS = ("0.01", "0.02", "0.05", "0.10")


def rows(path: Path, kind: str, measure: str, n: str, delta: str):
    with open(path) as f:
        for rec in csv.DictReader(f):
            alpha = str(float(rec["alpha"]))
            if alpha not in ALPHAS:
                continue
            for col, value in rec.items():
                if col == "alpha":
                    continue
                test, tails = TESTS[col[0]], col[1] if len(col) > 1 else "2"
                yield [kind, measure, n, delta, alpha, test, tails, f"{float(value):.6g}"]


def main(root: Path) -> None:
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["kind", "measure", "n_topics", "delta", "alpha", "test", "tails", "rate"])
    for measure in ("ap", "p10", "rr", "ndcg20", "err20"):
        for n in ("25", "50", "100"):
            out.writerows(rows(root / "output/type_1" / f"type_1_{measure}_{n}.csv",
                               "type1", measure, n, ""))
            for delta in DELTAS:
                for kind, folder in (("power", "type_2_by_alpha"), ("type3", "type_3_by_alpha")):
                    name = f"{folder.replace('_by_alpha', '')}_by_alpha_{measure}_{n}_delta{delta}.csv"
                    out.writerows(rows(root / "output" / folder / f"delta{delta}" / name, kind,
                                       measure, n, delta))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
