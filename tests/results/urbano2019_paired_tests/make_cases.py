"""Writes cases.csv: the difference vectors (e − b) the R reference values are computed on.

Run once: ``python make_cases.py`` (numpy's default_rng, seed 2019). Each case is one
vector, written with 17 significant digits so R reads the same doubles.
"""

import csv

import numpy as np

rng = np.random.default_rng(2019)
cases = {}
for n in (10, 25, 49, 50, 60, 100):  # exact Wilcoxon below 50 non-zero differences
    cases[f"normal_n{n}"] = rng.normal(0.02, 0.1, n)
    cases[f"skewed_n{n}"] = rng.beta(0.8, 2.5, n) - rng.beta(0.8, 2.5, n) + 0.03
for n in (25, 50, 100):  # P@10-like: ties, zeros, |d| <= 0.01 ties of the sign test
    cases[f"discrete_n{n}"] = np.round(rng.normal(0.03, 0.2, n), 1)
    cases[f"ap_rounded_n{n}"] = np.round(rng.normal(0.01, 0.05, n), 3)
cases["one_zero_n25"] = np.r_[0.0, rng.normal(0.05, 0.1, 24)]
cases["strong_n25"] = rng.normal(0.1, 0.05, 25)
cases["strong_negative_n50"] = rng.normal(-0.06, 0.08, 50)
cases["small_ties_n25"] = np.r_[np.full(12, 0.005), rng.normal(0.02, 0.05, 13)]
cases["all_sign_ties_n25"] = rng.uniform(-0.01, 0.01, 25)
with open("cases.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["case", "topic", "d"])
    for name, d in cases.items():
        for t, v in enumerate(d):
            w.writerow([name, t, repr(float(v))])
