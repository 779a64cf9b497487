#!/usr/bin/env bash
# npuzzle's 4x4 MTM search (examples/mtm_colouring.rs, Rokicki's colouring database) against
# slidy 0.7's (src/bin/slidy_mtm.rs) on the same states, back to back in one run, for
# BENCHMARKS.md "MTM 4x4 optimal: the relabelled database". Usage:
#   tools/slidy-bench/mtm_run.sh FIRST COUNT [CONFIG]
# runs the instances FIRST..FIRST+COUNT of mtm_instances.txt (0: the transposed goal; k:
# Korf's instance k), npuzzle first (CONFIG, default c-wd), then slidy; each builds its
# database first (npuzzle's is timed without the deep check and the save; set
# MTM_COLOURING_FILE to reuse a saved one). slidy needs nightly, or stable with its feature on.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
first="${1:-0}"
count="${2:-1}"
config="${3:-c-wd}"
(cd "$root" && cargo build --release -q --example mtm_colouring)
# slidy 0.7 needs one unstable library feature: nightly where there is one, else stable with
# that feature switched on for the build (RUSTC_BOOTSTRAP).
if cargo +nightly --version >/dev/null 2>&1; then
  (cd "$here" && cargo +nightly build --release -q --bin slidy_mtm)
else
  (cd "$here" && RUSTC_BOOTSTRAP=1 \
    RUSTFLAGS="-Zcrate-attr=feature(isolate_most_least_significant_one)" \
    cargo build --release -q --bin slidy_mtm)
fi
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
echo "== npuzzle $config"
"$root/target/release/examples/mtm_colouring" "$config" "$first" "$count" < "$here/mtm_instances.txt"
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
echo "== slidy"
"$here/target/release/slidy_mtm" "$first" "$count" < "$here/mtm_instances.txt"
echo "== $(date -u +%H:%M:%S) load: $(uptime)"
