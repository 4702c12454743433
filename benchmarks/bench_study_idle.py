"""How busy the workers of a cluster stay through an error-rate study (idle between tasks).

Run by hand: ``python benchmarks/bench_study_idle.py --pool POOL.npz [--scale 32]
[--measures ap] [--workers 2] [--B 10000]``. The study has the shape of the published one
(``scorestd experiment error-rates --full-size``: n ∈ {25, 50, 100}, ten δ) at
``1/scale`` of its trials, with chunks ``scale`` times smaller, so that it is cut into as
many chunks and calls as the full-size study and its fixed costs per chunk, call and cell
stay what they are at full size. A chunk's task is then ``scale`` times shorter, so the
chunks kept in flight per worker are ``scale`` times more (``--ahead``), as many seconds
of queued work as at full size. ``POOL.npz`` holds the fitted pair copulas (of a full
run) so that no pair is fitted. Printed: wall time, the CPU time of every process (this
one and the workers, ``getrusage``), the busy fraction CPU / (workers × wall), and from
``distributed``'s task stream the time each worker spent computing tasks and the
largest gaps between them.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import tempfile
import time
from itertools import pairwise
from pathlib import Path

from scorestd.experiments import checkpoint
from scorestd.experiments import significance_errors as se

TYPE1, TYPE2 = 1_667_000, 167_000


def cpu_seconds() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pool", required=True)
    parser.add_argument("--scale", type=int, default=32)
    parser.add_argument("--measures", default="ap")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--B", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--ahead", type=int, default=None,
                        help="chunks in flight per worker (default: scale × the study's)")
    args = parser.parse_args()
    from distributed import Client, LocalCluster, get_task_stream

    checkpoint.CHUNK_BLOCKS = max(1, checkpoint.CHUNK_BLOCKS // args.scale)
    if hasattr(se, "TASKS_AHEAD_PER_WORKER"):
        se.TASKS_AHEAD_PER_WORKER = args.ahead or se.TASKS_AHEAD_PER_WORKER * args.scale
    folder = Path(tempfile.mkdtemp())
    pool = folder / "pool.npz"
    shutil.copy(args.pool, pool)
    t0, c0 = time.perf_counter(), cpu_seconds()
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        with get_task_stream(client) as stream:
            t_start = time.time()
            se.error_rates(None, measures=args.measures.split(","), trials=TYPE1 // args.scale,
                           trials_type2=TYPE2 // args.scale, B=args.B, seed=args.seed,
                           client=client, results_dir=folder / "rd", pool=pool,
                           progress=False)
            t_end = time.time()
    wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
    shutil.rmtree(folder)
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s, busy {cpu / (args.workers * wall):.1%} "
          f"of {args.workers} cores (cluster start and close included)")
    by_worker: dict[str, list[tuple[float, float]]] = {}
    for task in stream.data:
        for part in task["startstops"]:
            if part["action"] == "compute":
                by_worker.setdefault(task["worker"], []).append((part["start"], part["stop"]))
    span = t_end - t_start
    print(f"study call {span:.1f} s; tasks {sum(map(len, by_worker.values()))}")
    for worker, spans in sorted(by_worker.items()):
        spans.sort()
        busy = sum(b - a for a, b in spans)
        gaps = sorted(((b0 - a1, a1 - t_start) for (_, a1), (b0, _) in pairwise(spans)),
                      reverse=True)
        idle = span - busy
        print(f"{worker}: computing {busy:.1f} s ({busy / span:.1%} of the study call), "
              f"idle {idle:.1f} s; {len(spans)} tasks; largest gaps (s, at s): "
              + ", ".join(f"{g:.2f}@{t:.0f}" for g, t in gaps[:6]))


if __name__ == "__main__":
    main()
