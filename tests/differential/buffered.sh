#!/usr/bin/env bash
# Buffered sends a rank holds between two computations (docs/performance.md, "Detached messages"): it keeps them
# up to twice the ranks (256 at least) and detaches further ones as SMPI does; either way the times are SMPI's.
# Two cases of tests/bench/gen-trace.py's `allgathers` pattern (allgathers back to back, then a computation), each
# replayed by tit-replay and smpirun -replay, whose predictions must agree to 1e-9 (scripts/bench/replay.sh):
#  - 8 ranks, 50 allgathers: 350 messages a rank, the last 94 detached;
#  - 160 ranks, 2 allgathers: 318 messages a rank, all kept (beyond 256: detached before the bound grew).
# Usage: buffered.sh BUILD_DIR WORKDIR
set -u
build=$(realpath "$1")
work=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$work"
trap 'rm -rf "$work"' EXIT
BENCH_SIDES=both BENCH_TOPOLOGY=none BENCH_CASES="8:50:allgathers 160:2:allgathers" BENCH_DIR="$work" \
  BUILD_DIR="$build" bash "$root/scripts/bench/replay.sh"
