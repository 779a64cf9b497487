#!/usr/bin/env bash
# The background run of Korf and Felner's fifty 24-puzzles (issue 22), set up, started, watched
# and saved from one place, so that any machine resumes it where the committed state left it:
#
#   tools/korf50_runner.sh start    build what is missing (the example runner, the 6-6-6-6
#                                   databases of Korf's goal: about 4 min on 2 cores), bring the
#                                   committed results and checkpoints into the run directory
#                                   (never over a checkpoint that is further on), and start the
#                                   runner in the background at nice 19 on every core; with
#                                   KORF50_STOP_AFTER=SECONDS it stops itself as `stop` does
#                                   after that long (a session of known length)
#   tools/korf50_runner.sh stop     stop the runner cleanly (SIGTERM): it writes each
#                                   checkpoint with the work inside the subtrees in progress,
#                                   which a kill loses (up to hours of a 24-puzzle's last
#                                   iteration); run `save` after it
#   tools/korf50_runner.sh status   where the instances left stand (reads only)
#   tools/korf50_runner.sh save     bring the run's new results and checkpoints back into data/,
#                                   to be committed
#   tools/korf50_runner.sh burst IDS SECONDS
#                                   on a lent machine, in the foreground: build the databases
#                                   if missing, then run IDS (for example `33` or `33,14`) on
#                                   every core from the committed checkpoints, stopping (with a
#                                   checkpoint) so that the whole command ends within SECONDS;
#                                   results and checkpoints go to $OUT (or KORF50_OUT), to be
#                                   copied into the run directory afterwards. KORF50_BIN names
#                                   the directory of prebuilt `npuzzle` and `solve_set`
#                                   (default: build them here); run `save` first, so that
#                                   data/ holds the latest checkpoints
#   tools/korf50_runner.sh take DIR  bring a burst's results and checkpoints (DIR: its $OUT) into
#                                   the run directory, where the runner resumes from them
#
# KORF50_RUN names the run directory (default `run/` in the checkout, ignored by git) and
# KORF50_PDB the databases' directory (default `$KORF50_RUN/pdb`). A checkpoint's `.seconds`
# file counts the seconds of every run so far, on whichever machine, so the larger one is the
# one further on. The runner itself (`examples/solve_set.rs`) skips the instances already in
# its results file and resumes the others from their checkpoints; data/README.md says more.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
run=$(mkdir -p "${KORF50_RUN:-run}" && cd "${KORF50_RUN:-run}" && pwd)
pdb=${KORF50_PDB:-$run/pdb}
instances=$repo/data/korf50_24.txt
results=$repo/data/korf50_24-results.txt
committed=$repo/data/korf50_24-checkpoints
goal=$(seq -s ' ' 0 24)

# The ids of a results file, one a line.
ids_of() { awk '!/^#/ && NF {print $1}' "$1" 2>/dev/null || true; }

# The whole lines of results file $1: its five tab-separated fields, ended by an end of line
# (a last line without one was cut short by a kill or a full disk, and holds no answer).
whole_results() {
  [ -f "$1" ] || return 0
  if [ -n "$(tail -c1 "$1")" ]; then sed '$d' "$1"; else cat "$1"; fi |
    awk -F'\t' '!/^#/ && NF == 5'
}

# Makes results file $1 end with an end of line, so that a line appended starts clean: a last
# line cut short (fewer than five fields) is removed, one with all five (written by hand) is
# ended; a complete-looking line cut inside its moves is left for the runner's replay to refuse.
end_cleanly() {
  if [ -s "$1" ] && [ -n "$(tail -c1 "$1")" ]; then
    if tail -n1 "$1" | awk -F'\t' '{exit !(NF == 5)}'; then
      echo >>"$1"
    else
      echo "results: a cut last line removed from $1: $(tail -n1 "$1")"
      sed -i '$d' "$1"
    fi
  fi
}

# Appends to results file $2 the whole lines of $1 whose id $2 lacks.
merge_results() {
  local id
  touch "$2"
  end_cleanly "$2"
  for id in $(whole_results "$1" | cut -f1); do
    if ! whole_results "$2" | cut -f1 | grep -qxF "$id"; then
      whole_results "$1" | awk -F'\t' -v id="$id" '$1 == id' >>"$2"
      echo "results: #$id from $1"
    fi
  done
}

# Copies checkpoint $1 (ID.checkpoint beside ID.seconds) into directory $2 unless the one there
# has counted at least as many seconds.
take_checkpoint() {
  local id there here
  id=$(basename "$1" .checkpoint)
  here=$(cat "$(dirname "$1")/$id.seconds" 2>/dev/null || echo 0)
  there=$(cat "$2/$id.seconds" 2>/dev/null || echo -1)
  if awk -v a="$here" -v b="$there" 'BEGIN {exit !(a > b)}'; then
    # A checkpoint without its seconds (killed within a tenth of a second of its first write,
    # or written by `npuzzle solve --checkpoint`) counts none.
    cp "$1" "$2/"
    echo "$here" >"$2/$id.seconds"
    chmod 644 "$2/$id.checkpoint" "$2/$id.seconds"
    echo "checkpoint: #$id ($here s counted) into $2"
  fi
}

# Copies every checkpoint of directory $1 into directory $2 where it is further on.
take_checkpoints() {
  local ck
  for ck in "$1"/*.checkpoint; do
    if [ -e "$ck" ]; then take_checkpoint "$ck" "$2"; fi
  done
}

# Builds the 6-6-6-6 databases of Korf's goal into $pdb with the npuzzle binary $1, unless
# they are there.
build_databases() {
  if [ ! -e "$pdb/.npuzzle-verified" ]; then
    mkdir -p "$pdb"
    "$1" build --pdb 5x5:6-6-6-6 --goal "$goal" --data-dir "$pdb"
  fi
}

# The runner's options that every run shares: then --results and --checkpoint-dir.
solve_set_options=(--board 5x5 --data-dir "$pdb" --instances "$instances" --easiest-first
  --lookups regular,reflected --threads "$(nproc)" --order largest-first)

# The runner itself (not a `timeout` wrapping it: a second SIGTERM would end the runner at once).
running() { pgrep -f "^\./solve_set .*--checkpoint-dir $run/checkpoints" || true; }

case "${1:-}" in
start)
  if [ -n "$(running)" ]; then
    echo "already running (pid $(running | paste -sd ' ')) in $run"
    exit 0
  fi
  cargo build --release --example solve_set --bin npuzzle
  build_databases target/release/npuzzle
  mkdir -p "$run/checkpoints"
  cp target/release/examples/solve_set "$run/solve_set"
  merge_results "$results" "$run/korf50_24-results.txt"
  take_checkpoints "$committed" "$run/checkpoints"
  cd "$run"
  stop_after=()
  if [ -n "${KORF50_STOP_AFTER:-}" ]; then
    # One SIGTERM after that long (the clean stop), a kill two minutes later if need be.
    # --foreground: the signal goes to the runner alone, once (without it GNU timeout also
    # signals its process group, and a second SIGTERM ends the runner without its checkpoint).
    stop_after=(timeout --foreground -s TERM -k 120 "$KORF50_STOP_AFTER")
  fi
  nohup "${stop_after[@]}" nice -n 19 ./solve_set "${solve_set_options[@]}" \
    --results korf50_24-results.txt --checkpoint-dir "$run/checkpoints" >>runner.log 2>&1 &
  echo "started (pid $!) in $run; its log: $run/runner.log"
  ;;
stop)
  pid=$(running)
  if [ -z "$pid" ]; then
    echo "not running"
    exit 0
  fi
  kill -TERM $pid
  # The threads stop within a few thousand expansions; the checkpoint is then written.
  for _ in $(seq 600); do
    [ -z "$(running)" ] && break
    sleep 0.2
  done
  if [ -n "$(running)" ]; then
    echo "still running after 120 s (pid $pid)" >&2
    exit 1
  fi
  tail -2 "$run/runner.log"
  echo "stopped; \`$0 save\` brings its checkpoints into data/"
  ;;
status)
  left=$(comm -23 <(ids_of "$instances" | sort) <(ids_of "$run/korf50_24-results.txt" | sort) |
    sort -n | paste -sd, -)
  if [ -z "$left" ]; then
    echo "all fifty solved"
    exit 0
  fi
  target/release/npuzzle solve-set "$instances" --goal "$goal" \
    --results "$run/korf50_24-results.txt" --checkpoint-dir "$run/checkpoints" --report \
    --only "$left"
  [ -n "$(running)" ] && echo "running: pid $(running | paste -sd ' ')" || echo "not running"
  ;;
save)
  merge_results "$run/korf50_24-results.txt" "$results"
  mkdir -p "$committed"
  take_checkpoints "$run/checkpoints" "$committed"
  for id in $(ids_of "$results"); do
    if [ -e "$committed/$id.checkpoint" ]; then
      rm -f "$committed/$id.checkpoint" "$committed/$id.seconds"
      echo "checkpoint: #$id solved, removed from $committed"
    fi
  done
  git status --short data/
  echo "to commit (git add -A data/); where a results line came in, first:"
  echo "  NPUZZLE_BLESS=1 cargo test --release --test korf50_results   (writes BENCHMARKS.md's table)"
  ;;
burst)
  ids=${2:?burst IDS SECONDS}
  seconds=${3:?burst IDS SECONDS}
  began=$(date +%s)
  out=${KORF50_OUT:-${OUT:?set OUT or KORF50_OUT to the directory for results and checkpoints}}
  mkdir -p "$out"
  if [ -n "${KORF50_BIN:-}" ]; then
    bin=$KORF50_BIN
    solve_set=$bin/solve_set
  else
    cargo build --release --example solve_set --bin npuzzle
    bin=target/release
    solve_set=$bin/examples/solve_set
  fi
  echo "$(nproc) cores; $(free -g | awk '/^Mem/ {print $2}') GiB"
  if [ ! -e "$pdb/.npuzzle-verified" ]; then
    build_databases "$bin/npuzzle" | tail -4
    echo "databases built in $(($(date +%s) - began)) s"
  fi
  # The committed results, so that an instance already solved is skipped, not solved again.
  merge_results "$results" "$out/results.txt" >/dev/null
  take_checkpoints "$committed" "$out"
  # A few seconds kept for the checkpoint's write and the copy back.
  left=$((seconds - ($(date +%s) - began) - 5))
  if [ "$left" -lt 10 ]; then
    echo "no time left to search ($left s)" >&2
    exit 1
  fi
  echo "searching #${ids} for $left s"
  rc=0
  timeout -s TERM "$left" "$solve_set" "${solve_set_options[@]}" --results "$out/results.txt" \
    --checkpoint-dir "$out" --only "$ids" >"$out/log.txt" 2>&1 || rc=$?
  tail -3 "$out/log.txt"
  for id in ${ids//,/ }; do
    [ -e "$out/$id.seconds" ] && echo "#$id: $(cat "$out/$id.seconds") s counted"
  done
  # 124: stopped by the timeout, the checkpoint written: what a burst expects.
  [ "$rc" = 0 ] || [ "$rc" = 124 ] || exit "$rc"
  ;;
take)
  from=${2:?take DIR}
  if [ -n "$(running)" ]; then
    # The runner rewrites its checkpoint every few seconds, over what would be taken.
    echo "the runner is running (pid $(running | paste -sd ' ')): stop it first" \
      "(kill -TERM), take, then start it again" >&2
    exit 1
  fi
  mkdir -p "$run/checkpoints"
  [ -e "$from/results.txt" ] && merge_results "$from/results.txt" "$run/korf50_24-results.txt"
  take_checkpoints "$from" "$run/checkpoints"
  echo "taken into $run; \`$0 start\` resumes from there"
  ;;
*)
  sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
