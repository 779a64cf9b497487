#!/usr/bin/env bash
# Times two npuzzle binaries on the same plain-lines input, alternating, file to file: wall,
# user and system CPU and peak RSS of each run (GNU time), then checks that both wrote the same
# bytes. On a shared machine the ratio of runs taken back to back is the figure to read.
# Usage: tools/bench_batch_ab.sh BASE NEW INPUT [REPS] [BATCH OPTIONS...]
#   e.g. tools/bench_batch_ab.sh /tmp/npuzzle-main target/release/npuzzle \
#        /tmp/npuzzle-bench/solvable-5000000.txt 3 --threads 1
# The input can be made by tools/bench_batch.sh (5 M seeded random solvable 3x3 states).
# Tables come from ${DATA:-/tmp/npuzzle-bench/data} (built there on first use).
set -euo pipefail
base=$1 new=$2 input=$3 reps=${4:-3}
shift $(( $# < 4 ? $# : 4 ))
data=${DATA:-/tmp/npuzzle-bench/data}
out=$(mktemp -d)
lines=$(wc -l < "$input")
uptime
for _ in $(seq "$reps"); do
  for which in base new; do
    bin=${!which}
    /usr/bin/time -f "%e %U %S %M" -o "$out/time" "$bin" --data-dir "$data" batch "$input" "$@" \
      -o "$out/$which.out" 2>/dev/null || true
    read -r e u s m < "$out/time"
    python3 -c "print(f'$which $*: wall {$e:.2f} s, user {$u:.2f} s, sys {$s:.2f} s, peak {$m / 1024:.1f} MB, {$lines / $e / 1e6:.2f} M lines/s wall, {($u + $s) / $lines * 1e9:.0f} ns CPU a line')"
  done
done
cmp "$out/base.out" "$out/new.out" && echo "same output"
uptime
rm -rf "$out"
