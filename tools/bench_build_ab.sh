#!/usr/bin/env bash
# Times two npuzzle binaries building the same table as a whole command (generate, deep
# check, save), alternating, each into a fresh data directory: wall, user and system CPU and
# peak RSS (GNU time), and the build's own line (generated / checked / saved); then checks
# that both wrote the same bytes. On a shared machine the ratio of runs taken back to back is
# the figure to read.
# Usage: tools/bench_build_ab.sh BASE NEW [REPS] [BUILD OPTIONS...]
#   e.g. tools/bench_build_ab.sh /tmp/npuzzle-main target/release/npuzzle 3 --size 3x4
# Writes under ${TMPDIR:-/tmp}; each table is removed after its run but the last of each.
set -euo pipefail
base=$1 new=$2 reps=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
[ $# -gt 0 ] || set -- --size 3x4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
uptime
for rep in $(seq "$reps"); do
  for which in base new; do
    bin=${!which}
    dir=$work/$which
    rm -rf "$dir"
    /usr/bin/time -f "%e %U %S %M" -o "$work/time" "$bin" --data-dir "$dir" build "$@" \
      > "$work/line" 2>/dev/null
    read -r e u s m < "$work/time"
    said=$(grep -o 'built in .*)' "$work/line" || true)
    python3 -c "print(f'$which $*: wall {$e:.2f} s, user {$u:.2f} s, sys {$s:.2f} s, peak {$m / 1024:.0f} MB; $said')"
  done
done
for f in "$work"/base/*.npt; do
  cmp "$f" "$work/new/$(basename "$f")"
done
echo "same bytes"
uptime
