"""One Python call of `npuzzle.distance` per state, from each input form (issue 26): ns per
call, best of `--repeat` timings of `--calls` calls over the same random solvable 3x3 states.
Also `npuzzle.distances` over `--rows` rows (states per second). Prints the load average.

    python python/bench/bench_call.py [--calls 100000] [--rows 1000000] [--repeat 5]
"""

import argparse
import os
import time

import numpy as np

import npuzzle


def best(repeat, fn, clock=time.perf_counter):
    times = []
    for _ in range(repeat):
        began = clock()
        fn()
        times.append(clock() - began)
    return min(times)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=100_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("load average before:", os.getloadavg())
    instances = npuzzle.sample(count=args.calls, seed=26)
    strings = [i.start for i in instances]
    expected = [i.distance for i in instances]
    rows = np.array([npuzzle.tiles(s) for s in strings], dtype=np.uint8)
    forms = {
        "str": strings,
        "list": [list(r) for r in rows.tolist()],
        "tuple": [tuple(r) for r in rows.tolist()],
        "nested list": [[r[0:3], r[3:6], r[6:9]] for r in rows.tolist()],
        "numpy row (uint8)": list(rows),
        "numpy row (int64)": list(rows.astype(np.int64)),
        "numpy 3x3 (uint8)": list(rows.reshape(-1, 3, 3)),
    }
    distance = npuzzle.distance
    for name, states in forms.items():
        assert [distance(s) for s in states[:1000]] == expected[:1000], name
        # CPU time of this process (one thread): what a loaded machine's wall time hides.
        cpu = best(args.repeat, lambda: [distance(s) for s in states], time.process_time)
        wall = best(args.repeat, lambda: [distance(s) for s in states])
        per = 1e9 / len(states)
        print(f"distance from {name:18}: {cpu * per:7.0f} ns CPU, {wall * per:7.0f} ns wall per call")
    # 181,440 distinct states (every solvable one), repeated to `--rows` rows.
    every = npuzzle.sample(count=181_440, seed=27)
    reps = -(-args.rows // len(every))
    array = np.tile(np.array([npuzzle.tiles(i.start) for i in every], dtype=np.uint8), (reps, 1))[: args.rows]
    want = np.tile(np.array([i.distance for i in every], dtype=np.uint8), reps)[: args.rows]
    assert (npuzzle.distances(array) == want).all()
    seconds = best(args.repeat, lambda: npuzzle.distances(array))
    cpu = best(args.repeat, lambda: npuzzle.distances(array), time.process_time)
    print(f"distances, {args.rows} rows: {seconds * 1e3:.1f} ms wall, {args.rows / seconds / 1e6:.1f} M states/s; "
          f"{cpu * 1e9 / args.rows:.1f} ns CPU per row over all threads")
    print("load average after:", os.getloadavg())


if __name__ == "__main__":
    main()
