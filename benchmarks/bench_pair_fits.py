"""CPU time of a pair-copula fit of the error-rate study, on real pairs of runs.

Forms the pairs as the study's pool does (``prepare_collection``: duplicates and the bottom
10% of runs removed) for AP, P@10 and RR on adhoc5–8 and ERR@20 and nDCG@20 on
web2010–13, draws ``--pairs`` of them at random (``--seed``), and fits each with
``fit_pair_copula`` (``--families``, default the paper's ``bicopselect``), one BLAS thread,
in this process. Prints the CPU milliseconds a pair (fits only: loading and the margins are
not timed) and, with ``--by-family``, the CPU time of each candidate family of BiCopSelect
(its preselection run once per pair; the Tawn types by their two types).

    python benchmarks/bench_pair_fits.py --pairs 600
    python benchmarks/bench_pair_fits.py --pairs 600 --by-family

To compare two versions, run the first command of each as whole processes in turn
(``/usr/bin/time -v``, several runs, medians of the printed figure and of the ratios).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np

import scorestd
from scorestd.experiments.error_rate_pool import prepare_collection
from scorestd.kernels.blas import single_threaded_blas
from scorestd.simulation.copula import fit_pair_copula

ADHOC = ["adhoc5", "adhoc6", "adhoc7", "adhoc8"]
WEB = ["web2010", "web2011", "web2012", "web2013"]
MEASURES = [(ADHOC, "AP"), (ADHOC, "P@10"), (ADHOC, "RR"), (WEB, "ERR@20"), (WEB, "nDCG@20")]


def real_pairs(n: int, seed: int) -> list[np.ndarray]:
    """``n`` pairs of runs ``(T, 2)``, spread evenly over the five measures."""
    rng = np.random.default_rng(seed)
    pairs = []
    for names, measure in MEASURES:
        tables = [np.asarray(prepare_collection(scorestd.datasets.load(name), measure).values,
                             dtype=np.float64) for name in names]
        for _ in range(n // len(MEASURES)):
            x = tables[rng.integers(len(tables))]
            i, j = np.sort(rng.choice(x.shape[1], 2, replace=False))
            pairs.append(x[:, [i, j]])
    return pairs


def by_family(pairs: list[np.ndarray]) -> None:
    """CPU time of each step of ``bicopselect.fitted_candidates``, a pair."""
    import pyvinecopulib as pv

    from scorestd.simulation import bicopselect as bs
    from scorestd.simulation.copula import pseudo_observations_random_ties

    spent = collections.Counter()
    for k, x in enumerate(pairs):
        start = time.process_time()
        u = np.asfortranarray(pseudo_observations_random_ties(x, np.random.default_rng(k)))
        tau = bs._empirical_tau(u)
        families = bs.preselected_families(u, tau)
        spent["pseudo-observations, τ, preselection"] += time.process_time() - start
        controls = pv.FitControlsBicop(parametric_method="mle", num_threads=1)
        for code in families[1:]:
            family, rotation, tawn_type = bs.vinecopula_family(code)
            start = time.process_time()
            if tawn_type:
                cop = bs.fit_tawn_type(u, tawn_type, rotation, tau=tau)
            else:
                cop = pv.Bicop(family=getattr(pv.BicopFamily, family), rotation=rotation)
                cop.fit(u, controls=controls)
            cop.loglik(u)
            spent[f"tawn type {tawn_type}" if tawn_type else family] += (time.process_time()
                                                                         - start)
    for step, seconds in spent.most_common():
        print(f"{step:40s} {1000 * seconds / len(pairs):6.2f} ms a pair")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--families", choices=("bicopselect", "vinecopulib"),
                        default="bicopselect")
    parser.add_argument("--by-family", action="store_true")
    args = parser.parse_args()
    pairs = real_pairs(args.pairs, args.seed)
    with single_threaded_blas():
        if args.by_family:
            return by_family(pairs)
        start = time.process_time()
        for k, x in enumerate(pairs):
            fit_pair_copula(x, seed=k, families=args.families)
        seconds = time.process_time() - start
    print(f"{1000 * seconds / len(pairs):.2f} ms CPU a pair ({len(pairs)} pairs, "
          f"{args.families})")


if __name__ == "__main__":
    main()
