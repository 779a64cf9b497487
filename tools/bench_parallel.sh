#!/usr/bin/env bash
# Parallel IDA* against one thread, instance by instance, in one run (issue 23):
#   tools/bench_parallel.sh korf100 [BIN]    Korf's 100, pattern databases (7-8 where built)
#   tools/bench_parallel.sh kf24 IDS [BIN]   Korf and Felner's 24-puzzles by id ("40 25"), 6-6-6-6
# Each instance is solved with --threads 1 and --threads 2 back to back, REPEAT times (default
# 3), keeping each one's fastest search time (time_ms, the search alone); prints id, length,
# nodes at 1 and 2 threads, times and the ratio. NPUZZLE_DATA_DIR must hold the databases.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:?korf100 or kf24}
if [ "$what" = kf24 ]; then ids=${2:?ids}; bin=${3:-target/release/npuzzle}; else bin=${2:-target/release/npuzzle}; fi
repeat=${REPEAT:-3}
uptime
solve() { # start goal threads -> "length expanded time_ms"
  "$bin" solve "$1" --goal "$2" --heuristic pdb --threads "$3" -f json |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["length"], j["expanded"], j["time_ms"])'
}
run() { # id start goal
  local best1="float('inf')" best2="float('inf')" l1 n1 n2 t
  for _ in $(seq "$repeat"); do
    read -r l1 n1 t < <(solve "$2" "$3" 1); best1=$(python3 -c "print(min($best1, $t))")
    read -r _ n2 t < <(solve "$2" "$3" 2); best2=$(python3 -c "print(min($best2, $t))")
  done
  python3 -c "print(f'$1\t$l1\t$n1\t$n2\t{$best1:.1f}\t{$best2:.1f}\t{$best1/$best2:.2f}')"
}
printf 'id\tlength\tnodes1\tnodes2\tms1\tms2\tspeedup\n'
if [ "$what" = korf100 ]; then
  goal="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
  grep -v '^#' data/korf100.txt | while read -r id rest; do
    set -- $rest; start="${*:1:16}"; run "$id" "$start" "$goal"
  done
else
  goal=$(seq -s' ' 0 24)
  for id in $ids; do
    start=$(awk -v id="$id" '!/^#/ && $1==id {s=$2; for(i=3;i<=26;i++) s=s" "$i; print s}' data/korf50_24.txt)
    run "$id" "$start" "$goal"
  done
fi
uptime
