#!/usr/bin/env bash
# Times `npuzzle batch` file to file against `cat` of the same file.
# Usage: tools/bench_batch.sh [LINES] (default 5,000,000). Needs python3 and a release build
# (`cargo build --release`). Writes its files under ${TMPDIR:-/tmp}/npuzzle-bench.
set -euo pipefail
lines=${1:-5000000}
dir=${TMPDIR:-/tmp}/npuzzle-bench
bin=${NPUZZLE:-target/release/npuzzle}
mkdir -p "$dir"
input=$dir/solvable-$lines.txt
if [ ! -f "$input" ]; then
  # Seeded random 3x3 states, made solvable (even tile inversions) by one swap when needed.
  python3 - "$lines" "$input" <<'PY'
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
random.seed(1)
cells = list("012345678")
def odd(p):
    t = [x for x in p if x != "0"]
    return sum(t[i] > t[j] for i in range(8) for j in range(i + 1, 8)) % 2
with open(path, "w") as f:
    for _ in range(n):
        random.shuffle(cells)
        if odd(cells):
            a, b = [i for i, x in enumerate(cells) if x != "0"][:2]
            cells[a], cells[b] = cells[b], cells[a]
        f.write("".join(cells) + "\n")
PY
fi
"$bin" --data-dir "$dir/data" build >/dev/null
best() { # best wall time of 3 runs of "$@", in seconds
  local best=999
  for _ in 1 2 3; do
    local s e
    s=$(date +%s.%N); "$@"; e=$(date +%s.%N)
    best=$(python3 -c "print(min($best, $e - $s))")
  done
  echo "$best"
}
cat_s=$(best sh -c "cat '$input' > '$dir/cat.out'")
echo "cat:                      ${cat_s}s"
for threads in 1 2; do
  for format in csv jsonl; do
    t=$(best "$bin" --data-dir "$dir/data" batch "$input" --format $format --threads $threads -o "$dir/out.$format")
    rate=$(python3 -c "print(f'{$lines / $t / 1e6:.2f}')")
    echo "batch --format $format --threads $threads: ${t}s = ${rate}M lines/s"
  done
done
t=$(best "$bin" --data-dir "$dir/data" batch "$input" --solve --threads 2 -o "$dir/out.solve")
echo "batch --solve --threads 2: ${t}s = $(python3 -c "print(f'{$lines / $t / 1e6:.2f}')")M lines/s"
