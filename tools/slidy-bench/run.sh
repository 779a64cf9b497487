#!/usr/bin/env bash
# Times slidy 0.7's optimal 3x3 solver (Solver3x3Stm) on the instances npuzzle's
# `vs_slidy_same_250_instances` bench uses, regenerating them first from a release build of
# npuzzle. Needs a nightly toolchain (`rustup toolchain install nightly`).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
(cd "$root" && cargo build --release -q)
npuzzle="$root/target/release/npuzzle"
{
  "$npuzzle" sample --count 200 --seed 2026 --min-depth 20 --format csv --with-answers
  "$npuzzle" sample --count 50 --seed 2026 --depth 31 --format csv --with-answers | tail -n +2
} > "$here/instances.csv"
cd "$here" && cargo +nightly bench --bench slidy3x3

# slidy and npuzzle in one process (small boards in both metrics, the constructive solver):
# see side-by-side/run.sh.
