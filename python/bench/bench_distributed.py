"""npuzzle.distributed against in-process calls, one run side by side (issue 23).

    python python/bench/bench_distributed.py [--labels N] [--uniform] [--goal korf|default]
        [--chunk C ...] [--rounds R] [--korf ID ...] [--overhead] [--data-dir DIR]

Starts a LocalCluster of 2 worker processes (1 thread each), then:
- solve (``--korf``): each Korf instance (goal: blank first) in process on 1 thread, then on
  the cluster;
- labelling (``--labels N``): N 4x4 boards through ``npuzzle.distances`` (every core, in
  process) and through ``distributed.distances`` (each ``--chunk``; 0 = the default, which
  sizes the tasks from the rows and the workers' threads), ``--rounds`` times, alternating, so
  that a change in the machine's load hits both sides. ``--uniform``: boards drawn uniformly
  among the goal's solvable states (Korf's 100 are such); else 60 random moves from the goal.
  ``--goal korf``: Korf's goal (blank first), whose 7-8 databases a prepared directory may
  hold; ``default``: tiles in order, blank last.
- per-task overhead (``--overhead``): 2,000 empty tasks, and 2,000 easy boards in tasks of 1
  board and of 1,000 boards.
The data directory is ``--data-dir`` (passed to the workers as ``data_dir=`` and set as
``$NPUZZLE_DATA_DIR`` before anything starts, so the client and the workers open the same
databases). With Korf's goal and a directory whose 7-8 files are verified already, nothing is
written there; the default goal opens (checks and records as verified, or builds) its 6-6-3
files there, so never point it at a directory that must stay unchanged.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

KORF_GOAL = "0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"


def timed(f):
    began = time.perf_counter()
    value = f()
    return value, time.perf_counter() - began


def uniform_4x4(n, seed, goal):
    """`n` boards drawn uniformly among the states that reach `goal`."""
    import numpy as np

    import npuzzle

    rng = random.Random(seed)
    rows = []
    while len(rows) < n:
        tiles = list(range(16))
        rng.shuffle(tiles)
        if npuzzle.is_solvable(tiles, goal):
            rows.append(tiles)
    return np.array(rows, dtype=np.uint8)


def _noop(x):
    return x


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--labels", type=int, default=20000)
    p.add_argument("--uniform", action="store_true")
    p.add_argument("--goal", choices=["korf", "default"], default="default")
    p.add_argument("--chunk", type=int, nargs="*", default=[0])
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--korf", type=int, nargs="*", default=[])
    p.add_argument("--overhead", action="store_true")
    p.add_argument("--data-dir", default=os.environ.get("NPUZZLE_DATA_DIR"))
    args = p.parse_args()
    if args.data_dir:
        os.environ["NPUZZLE_DATA_DIR"] = args.data_dir
    # Imported after the environment is set: the module reads it at its first question.
    from distributed import Client, LocalCluster

    import npuzzle
    from npuzzle import distributed as nd
    from test_distributed import walked_4x4

    print("load:", os.getloadavg(), "data dir:", npuzzle.data_dir())
    rows = {}
    data = os.path.join(os.path.dirname(__file__), "..", "..", "data", "korf100.txt")
    for line in open(data):
        if line.strip() and not line.startswith("#"):
            f = [int(t) for t in line.split()]
            rows[f[0]] = " ".join(map(str, f[1:17]))
    goal = KORF_GOAL if args.goal == "korf" else None
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, Client(cluster) as client:
        for i in args.korf:
            start = rows[i]
            local, t1 = timed(lambda: npuzzle.solve(start, KORF_GOAL, threads=1))
            nd.solve(rows[1], KORF_GOAL, client=client)  # warm: databases open on both workers
            tasks = []
            far, t2 = timed(
                lambda: nd.solve(start, KORF_GOAL, client=client, progress=tasks.append)
            )
            assert far.distance == local.distance
            print(
                f"korf {i}: {local.distance} moves; in process 1 thread {t1:.2f} s "
                f"({local.expanded} nodes); Dask 2 workers {t2:.2f} s ({far.expanded} nodes, "
                f"{len(tasks)} tasks); speedup {t1 / t2:.2f}"
            )
        if args.labels:
            if args.uniform:
                boards = uniform_4x4(args.labels, seed=1, goal=goal)
                kind = "uniform solvable"
            elif goal is None:
                boards = walked_4x4(args.labels, seed=1)
                kind = "60 random moves from the goal"
            else:
                sys.exit("boards walked from the goal are drawn for the default goal only")
            # Warm: each worker opens the databases; the client too.
            npuzzle.distances(boards[:4], goal)
            client.run(lambda: npuzzle.distances(boards[:4], goal))
            nd.distances(boards[:8], goal, client=client, chunk=4, data_dir=args.data_dir)
            print(f"labelling {args.labels} 4x4 boards ({kind}), goal {goal or 'default'}:")
            for r in range(args.rounds):
                local, t1 = timed(lambda: npuzzle.distances(boards, goal))
                print(
                    f"  round {r}: in process (every core) {t1:.2f} s = "
                    f"{args.labels / t1:.0f} boards/s  load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
                for chunk in args.chunk:
                    far, t2 = timed(
                        lambda: nd.distances(
                            boards,
                            goal,
                            client=client,
                            chunk=chunk or None,
                            data_dir=args.data_dir,
                        )
                    )
                    assert (far == local).all()
                    print(
                        f"  round {r}: Dask chunk {chunk or 'default'} {t2:.2f} s = "
                        f"{args.labels / t2:.0f} boards/s; Dask/in-process throughput "
                        f"{t1 / t2:.2f}  load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
        if args.overhead:
            _, empty = timed(lambda: client.gather(client.map(_noop, range(2000), pure=False)))
            print(f"2000 empty tasks: {empty:.2f} s = {empty / 2000 * 1e3:.2f} ms per task")
            # Walked from the bench's goal: the databases already open (never the default
            # goal's in a directory prepared for Korf's, which would be checked and recorded).
            small = walked_4x4(2000, seed=2, goal=goal)
            npuzzle.distances(small, goal)
            options = {"client": client, "data_dir": args.data_dir}
            _, big = timed(lambda: nd.distances(small, goal, chunk=1000, **options))
            _, tiny = timed(lambda: nd.distances(small, goal, chunk=1, **options))
            print(
                f"2000 easy boards: 2 tasks {big:.2f} s, 2000 tasks {tiny:.2f} s: "
                f"overhead {(tiny - big) / 2000 * 1e3:.2f} ms per labelling task (2 workers)"
            )
    print("load:", os.getloadavg())


if __name__ == "__main__":
    main()
