"""Times one `npuzzle.build` (issue 26's build rows), for `/usr/bin/time` to give the peak memory:

    /usr/bin/time -f "%e s wall %U s user %S s sys %M KB peak" \
        python python/bench/bench_build.py WHAT [BOARD] --data-dir DIR [--threads 2]

WHAT is "table" (BOARD e.g. 3x4) or a partition ("6-6-3", "7-8", "6-6-6-6"). The whole build
is timed: generation, the deep check and the atomic save, as `npuzzle build` does them.
"""

import argparse
import os
import time

import npuzzle


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("what")
    parser.add_argument("board", nargs="?")
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    print("load average before:", os.getloadavg())
    began = time.perf_counter()
    paths = npuzzle.build(args.what, board=args.board, data_dir=args.data_dir, threads=args.threads)
    print(f"{args.what} {args.board or ''}: built in {time.perf_counter() - began:.2f} s:",
          ", ".join(p.name for p in paths))
    print("load average after:", os.getloadavg())


if __name__ == "__main__":
    main()
