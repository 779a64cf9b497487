#!/usr/bin/env python3
"""End-to-end time of `npuzzle distance` as a process, with the table present.

Runs the command RUNS times and prints min / median / p90 wall times, next to the same
figures for `/bin/true` (the cost of starting any process on this machine), measured in the
same run. Usage: tools/bench-process.py [path/to/npuzzle] [RUNS]
"""
import statistics
import subprocess
import sys
import tempfile
import time


def timings(argv, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    times.sort()
    return times[0], statistics.median(times), times[int(len(times) * 0.9)]


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/npuzzle"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    with tempfile.TemporaryDirectory() as data:
        subprocess.run([binary, "build", "--data-dir", data], stdout=subprocess.DEVNULL, check=True)
        query = [binary, "distance", "867254301", "--data-dir", data]
        for name, argv in [("npuzzle distance", query), ("/bin/true", ["/bin/true"])]:
            low, mid, p90 = timings(argv, runs)
            print(f"{name:18} min {low * 1e3:.2f} ms  median {mid * 1e3:.2f} ms  p90 {p90 * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
