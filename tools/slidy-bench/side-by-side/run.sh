#!/usr/bin/env bash
# slidy 0.7 and npuzzle's library in one process on the same instances (see src/main.rs).
# slidy needs a nightly toolchain, or the stable one with its feature switched on (below).
#
#   ./run.sh small [ROUNDS] [COUNT]
#       the small boards (3x3, 2x3, 3x2, 2x4, 4x2), both metrics: table builds and optimal
#       solves, lengths compared
#   ./run.sh more [ROUNDS] [COUNT] [BOARD]
#       the other boards slidy has table solvers for (2x2, 2x5, 5x2, 3x4, 4x3, 2x6, 6x2), both
#       metrics, the same comparison; every length must be equal (the run stops otherwise)
#   PDB_DIR=DIR ./run.sh constructive [COUNT] [OPTIMAL_COUNT] [LIMIT_S]
#       the constructive solver on 4x4, 5x5, 10x10, 32x32; on 4x4 against slidy's optimal
#       solver and npuzzle's IDA* on the 6-6-3 databases of the goal 1 2 .. 15 _ found in DIR
#       (copied to a scratch directory first: opening them records their check beside them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
# slidy 0.7 uses one library feature still unstable in Rust 1.95
# (`isolate_most_least_significant_one`): a nightly toolchain where there is one, else the
# stable compiler with that feature switched on for the build (RUSTC_BOOTSTRAP).
if cargo +nightly --version >/dev/null 2>&1; then
  cargo +nightly build --release -q
else
  RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Zcrate-attr=feature(isolate_most_least_significant_one)" \
    cargo build --release -q
fi
bin="$here/target/release/side-by-side"
what="${1:-small}"
shift || true
uptime
case "$what" in
  small) "$bin" small "$@" ;;
  more) "$bin" more "$@" ;;
  constructive)
    : "${PDB_DIR:?PDB_DIR: the directory holding the 6-6-3 databases of the goal 1 2 .. 15 0}"
    scratch="$(mktemp -d)"
    trap 'rm -rf "$scratch"' EXIT
    for group in 1-2-5-6-9-10 3-4-7-8-11-12 13-14-15; do
      cp "$PDB_DIR/4x4-1-2-3-4-5-6-7-8-9-10-11-12-13-14-15-0-pdb-$group.npt" "$scratch"/
    done
    "$bin" constructive "$scratch" "$@" ;;
  *) echo "usage: $0 small|more|constructive [ARGS]" >&2; exit 2 ;;
esac
uptime
