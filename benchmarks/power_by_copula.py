"""Power of the paired t and Wilcoxon tests by copula, against the published rates.

Runs ``scorestd.error_rates`` on the bundled collections (AP, 50 topics, δ ∈ {0.01, 0.02,
0.05, 0.1}, 2,000 Type II trials per δ) with the Gaussian copula and with pair copulas
selected by AIC (``copula="vine"``, needs ``scorestd[vine]``), and prints each two-tailed
power at α = 0.05 with its Monte Carlo standard error beside the published rate
(``tests/results/urbano2019_error_rates/reference.csv``). Run by hand::

    python benchmarks/power_by_copula.py
"""

import time
import warnings
from pathlib import Path

import pandas as pd

import scorestd

REFERENCE = Path(__file__).parents[1] / "tests/results/urbano2019_error_rates/reference.csv"


def main() -> None:
    warnings.simplefilter("ignore")  # margin families that fail on some runs
    ref = pd.read_csv(REFERENCE)
    kw = dict(measures=["ap"], n_topics=[50], deltas=[0.01, 0.02, 0.05, 0.1],
              tests=["paired_t", "wilcoxon"], trials=64, trials_type2=2000, seed=11,
              progress=False)
    for cop in ("gaussian", "vine"):
        start = time.perf_counter()
        r = scorestd.error_rates(copula=cop, **kw)
        print(cop, round(time.perf_counter() - start), "s")
        at = dict(measure="ap", n_topics=50, tails=2, alpha=0.05)
        for test in ("paired_t", "wilcoxon"):
            got = r.data["power"].sel(test=test, **at)
            se = r.data["power_se"].sel(test=test, **at)
            for d in (0.01, 0.02, 0.05, 0.1):
                pub = ref[(ref.kind == "power") & (ref.measure == "ap") & (ref.n_topics == 50)
                          & (ref.alpha == 0.05) & (ref.tails == 2) & (ref.test == test)
                          & ((ref.delta - d).abs() < 1e-9)].rate.item()
                print(f"  {test:9s} delta {d}: {got.sel(delta=d).item():.3f} ± "
                      f"{se.sel(delta=d).item():.3f}  published {pub:.3f}")


if __name__ == "__main__":
    main()
