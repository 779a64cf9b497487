#!/usr/bin/env python3
"""Wall time and peak resident memory of one question asked as a whole process.

Runs `BINARY ARGS...` RUNS times (after one untimed warm-up run, which also lets a data
directory record a database it verifies) and prints min / median / p90 wall time and the
median CPU time (user + system) and peak resident set (`ru_utime`, `ru_stime`, `ru_maxrss`
from wait4), next to `/bin/true` measured in the same run. On a loaded machine the wall time
is mostly waiting for a core; the CPU time is the process's own cost. Issue 26, rows 1-2: opening a pattern database must not read it.

    tools/bench-question.py RUNS BINARY ARGS...
    tools/bench-question.py 50 target/release/npuzzle distance "<15-puzzle>" --goal ... --data-dir DIR
"""
import os
import statistics
import subprocess
import sys
import time


def run_once(argv):
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"{argv[0]} failed: exit {os.waitstatus_to_exitcode(status)}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def measure(argv, runs):
    run_once(argv)
    results = [run_once(argv) for _ in range(runs)]
    times = sorted(t for t, _, _ in results)
    rss = statistics.median(r for _, r, _ in results)
    cpu = statistics.median(c for _, _, c in results)
    return times[0], statistics.median(times), times[int(len(times) * 0.9)], rss, cpu


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    runs = int(sys.argv[1])
    argv = sys.argv[2:]
    for name, command in [(os.path.basename(argv[0]), argv), ("/bin/true", ["/bin/true"])]:
        low, mid, p90, rss, cpu = measure(command, runs)
        print(
            f"{name:24} wall min {low * 1e3:7.2f} ms  median {mid * 1e3:7.2f} ms  "
            f"p90 {p90 * 1e3:7.2f} ms  CPU (user+sys) median {cpu * 1e3:7.2f} ms  "
            f"peak RSS {rss:6.1f} MB"
        )


if __name__ == "__main__":
    main()
