#!/usr/bin/env bash
# npuzzle's 4x4 MTM search (examples/mtm_colouring.rs, Rokicki's colouring database) against
# slidy 0.7's (src/bin/slidy_mtm.rs) on the same states, back to back in one run, for
# BENCHMARKS.md "MTM 4x4 optimal: the relabelled database". Usage:
#   tools/slidy-bench/mtm_run.sh FIRST COUNT [CONFIG]
# runs the instances FIRST..FIRST+COUNT of mtm_instances.txt (0: the transposed goal; k:
# Korf's instance k), npuzzle first (CONFIG, default c-wd), then slidy; each builds its
# database first (npuzzle's is timed without the deep check and the save; set
# MTM_COLOURING_FILE to reuse a saved one). Needs a nightly toolchain for slidy.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
first="${1:-0}"
count="${2:-1}"
config="${3:-c-wd}"
(cd "$root" && cargo build --release -q --example mtm_colouring)
(cd "$here" && cargo +nightly build --release -q --bin slidy_mtm)
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
echo "== npuzzle $config"
"$root/target/release/examples/mtm_colouring" "$config" "$first" "$count" < "$here/mtm_instances.txt"
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
echo "== slidy"
"$here/target/release/slidy_mtm" "$first" "$count" < "$here/mtm_instances.txt"
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
