"""Benchmark: the two big studies on a multi-process ``dask.distributed`` cluster.

Runs one study in this process, then on local clusters of 1, 2, … worker processes with
one thread each, and reports the wall time, the speed-up over the one-worker cluster and
over this process, and whether the numbers are identical. ``--study urbano`` (default) is
the whole study of ``bench_experiments.py`` (within- and between-collection on robust2004
and terabyte2006 × ap and ndcg, five schemes); ``--study error-rates`` is the Type I part
of the error-rate simulation study (Urbano, Lima & Hanjalic 2019) on the eight bundled
collections, ``--trials`` per (measure, topic set size), the five tests with ``-B``
resamples, margins and copulas fitted in the client (the serial part). The cluster's
workers are started and warmed up (imports, one small run) before the clock starts: a
long-lived cluster pays that once. Run by hand::

    python benchmarks/bench_dask.py --workers 1,2 --trials 5000
    python benchmarks/bench_dask.py --study error-rates --measures ap --trials 20000

For several machines, start ``dask scheduler`` on one and ``dask worker ADDRESS
--nworkers N --nthreads 1`` on each, and pass ``--scheduler ADDRESS`` instead.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import functools
import time
import warnings

from bench_experiments import identical, run_study


def urbano_study(trials: int, seed: int, client=None) -> dict:
    return run_study(trials, seed, None, client=client)[0]


def error_rate_study(trials: int, seed: int, client=None, *, measures, B) -> dict:
    import scorestd

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # margin families that fail on some runs
        res = scorestd.error_rates(measures=measures, deltas=None, trials=trials, B=B,
                                   seed=seed, progress=False, client=client)
    return {"error_rates": res}


def timed(study, trials: int, seed: int, client=None) -> tuple[dict, float, float]:
    start, cpu = time.perf_counter(), time.process_time()
    results = study(trials, seed, client)
    return results, time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=2019)
    parser.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    parser.add_argument("--scheduler", default=None, help="address of a running scheduler")
    parser.add_argument("--no-local", action="store_true", help="skip the in-process run")
    parser.add_argument("--study", choices=("urbano", "error-rates"), default="urbano")
    parser.add_argument("--measures", default="ap", help="error-rates: comma-separated")
    parser.add_argument("-B", type=int, default=1000, help="error-rates: resamples")
    args = parser.parse_args()
    study = urbano_study if args.study == "urbano" else functools.partial(
        error_rate_study, measures=args.measures.split(","), B=args.B)
    timed_study = functools.partial(timed, study)
    from distributed import Client, LocalCluster

    local, local_wall = None, None
    if not args.no_local:
        local, local_wall, cpu = timed_study(args.trials, args.seed)
        wall = local_wall
        print(f"in this process: {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"(load {os.getloadavg()[0]:.1f})", flush=True)
    if args.scheduler:
        with Client(args.scheduler) as client:
            n = len(client.scheduler_info()["workers"])
            timed_study(max(10, args.trials // 100), args.seed, client)  # warm-up
            res, wall, _ = timed_study(args.trials, args.seed, client)
            print(f"{n} workers at {args.scheduler}: {wall:.1f} s; identical: "
                  f"{local is None or identical(local, res)}")
        return
    one = None
    for n in (int(w) for w in args.workers.split(",")):
        with LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            timed_study(max(10, args.trials // 100), args.seed, client)  # warm-up
            res, wall, _ = timed_study(args.trials, args.seed, client)
        one = wall if one is None else one
        same = "n/a" if local is None else identical(local, res)
        print(f"{n} worker process(es), 1 thread each: {wall:.1f} s wall; speed-up "
              f"{one / wall:.2f}× over the first cluster"
              + ("" if local_wall is None else f", {local_wall / wall:.2f}× over this process")
              + f"; identical: {same} (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
