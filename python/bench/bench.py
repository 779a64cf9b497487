#!/usr/bin/env python3
"""Side by side, in one run, on the same 8-puzzle states (drawn by `npuzzle.sample`, uniform
over all solvable states, so the mean distance is about 22):

1. `npuzzle.distances` over a NumPy array of N states (default 1,000,000): one call;
2. a Python loop of `npuzzle.distance` calls over the first M of them (default 100,000);
3. a plain Python A* with the Manhattan distance (tools/example_solver.py, the repository's
   reference solver: the kind of solver this package is for) over the first K (default 200),
   checked against the exact distances.

Usage: python python/bench/bench.py [--states N] [--loop M] [--astar K] [--repeat R]
Prints per-state times, states per second and the ratios; best of R runs for (1) and (2).
"""

import argparse
import importlib.util
import os
import pathlib
import time

import numpy as np

import npuzzle

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_reference_solver():
    """tools/example_solver.py, imported as a module (its `solve` is A* with Manhattan)."""
    path = ROOT / "tools" / "example_solver.py"
    spec = importlib.util.spec_from_file_location("example_solver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def best_of(repeat, run):
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - started)
    return best, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=1_000_000)
    parser.add_argument("--loop", type=int, default=100_000)
    parser.add_argument("--astar", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()

    drawn = npuzzle.sample(count=args.states, seed=args.seed)
    text = "".join(i.start for i in drawn).encode()
    states = (np.frombuffer(text, dtype=np.uint8) - ord("0")).reshape(args.states, 9)
    expected = np.array([i.distance for i in drawn], dtype=np.uint8)
    npuzzle.distances(states[:1])  # open the table outside the timings

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"npuzzle {npuzzle.__version__}, numpy {np.__version__}, {cores} cores, seed {args.seed}")
    # The machine may be shared: the load says how much the wall times below are inflated.
    print("load average at start (1, 5, 15 min): %.2f %.2f %.2f" % os.getloadavg())
    print(f"states: {args.states:,} uniform solvable 8-puzzle states, mean distance {expected.mean():.2f}")

    cpu_started = time.process_time()
    seconds, result = best_of(args.repeat, lambda: npuzzle.distances(states))
    cpu = (time.process_time() - cpu_started) / args.repeat / args.states
    assert (result == expected).all(), "distances disagrees with sample's exact distances"
    vector = seconds / args.states
    # CPU time (all threads) per state says what the work costs whatever else the machine runs.
    print(f"1. npuzzle.distances, {args.states:,} states in one call: {seconds * 1e3:.1f} ms, "
          f"{vector * 1e9:.1f} ns/state, {args.states / seconds / 1e6:.1f} M states/s "
          f"(CPU, all threads: {cpu * 1e9:.0f} ns/state)")

    rows = [i.start for i in drawn[: args.loop]]
    distance = npuzzle.distance

    def loop():
        return [distance(s) for s in rows]

    seconds, result = best_of(args.repeat, loop)
    assert result == expected[: args.loop].tolist()
    scalar = seconds / args.loop
    print(f"2. Python loop of npuzzle.distance, {args.loop:,} states: {seconds * 1e3:.1f} ms, "
          f"{scalar * 1e9:.0f} ns/state, {args.loop / seconds / 1e6:.2f} M states/s")

    solver = load_reference_solver()
    goal = tuple(range(1, 9)) + (0,)
    subset = states[: args.astar].tolist()
    started = time.perf_counter()
    lengths = [len(solver.solve(3, 3, tuple(s), goal, 1)) for s in subset]
    seconds = time.perf_counter() - started
    assert lengths == expected[: args.astar].tolist(), "the A* solver is not optimal?"
    astar = seconds / args.astar
    print(f"3. Python A* + Manhattan (tools/example_solver.py), {args.astar} states: {seconds:.2f} s, "
          f"{astar * 1e3:.2f} ms/state (optimal on every one)")

    print("load average at end (1, 5, 15 min): %.2f %.2f %.2f" % os.getloadavg())
    print(f"ratios per state: loop / distances = {scalar / vector:,.0f}x, "
          f"A* / loop = {astar / scalar:,.0f}x, A* / distances = {astar / vector:,.0f}x")


if __name__ == "__main__":
    main()
