"""npuzzle.distributed against in-process calls, one run side by side (issue 23).

    python python/bench/bench_distributed.py [--labels N] [--korf ID ...]

Starts a LocalCluster of 2 worker processes (1 thread each), then:
- solve: each Korf instance (goal: blank first) in process on 1 thread, then on the cluster;
- labelling: N 4x4 boards (60 random moves from the goal) through npuzzle.distances (every
  core) and through distributed.distances (chunk 1000);
- per-task overhead: 2,000 of those boards in tasks of 1 board and of 1000 boards.
The data directory is $NPUZZLE_DATA_DIR (workers and client alike).
"""

import argparse
import os
import random
import sys
import time

import numpy as np
from distributed import Client, LocalCluster

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
import npuzzle  # noqa: E402
from npuzzle import distributed as nd  # noqa: E402
from test_distributed import korf, walked_4x4  # noqa: E402

KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"


def timed(f):
    began = time.perf_counter()
    value = f()
    return value, time.perf_counter() - began


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--labels", type=int, default=20000)
    p.add_argument("--korf", type=int, nargs="*", default=[82, 60])
    args = p.parse_args()
    print("load:", os.getloadavg())
    rows = {}
    data = os.path.join(os.path.dirname(__file__), "..", "..", "data", "korf100.txt")
    for line in open(data):
        if line.strip() and not line.startswith("#"):
            f = [int(t) for t in line.split()]
            rows[f[0]] = " ".join(map(str, f[1:17]))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        for i in args.korf:
            start = rows[i]
            local, t1 = timed(lambda: npuzzle.solve(start, KORF_GOAL, threads=1))
            nd.solve(rows[1], KORF_GOAL, client=client)  # warm: databases open on both workers
            tasks = []
            far, t2 = timed(lambda: nd.solve(start, KORF_GOAL, client=client, progress=tasks.append))
            assert far.distance == local.distance
            print(f"korf {i}: {local.distance} moves; in process 1 thread {t1:.2f} s "
                  f"({local.expanded} nodes); Dask 2 workers {t2:.2f} s ({far.expanded} nodes, "
                  f"{len(tasks)} tasks); speedup {t1 / t2:.2f}")
        boards = walked_4x4(args.labels, seed=1)
        local, t1 = timed(lambda: npuzzle.distances(boards))
        far, t2 = timed(lambda: nd.distances(boards, client=client, chunk=1000))
        assert (far == local).all()
        print(f"labelling {args.labels}: in process (every core) {t1:.2f} s = {args.labels / t1:.0f}/s; "
              f"Dask {t2:.2f} s = {args.labels / t2:.0f}/s; ratio {t1 / t2:.2f}")
        small = boards[:2000]
        _, big = timed(lambda: nd.distances(small, client=client, chunk=1000))
        _, tiny = timed(lambda: nd.distances(small, client=client, chunk=1))
        print(f"2000 boards: 2 tasks {big:.2f} s, 2000 tasks {tiny:.2f} s: "
              f"overhead {(tiny - big) / 2000 * 1e3:.2f} ms per task (2 workers)")
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
