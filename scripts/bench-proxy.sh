#!/usr/bin/env bash
# Benchmark: proxy programs (docs/proxy.md), measured in the same run. For generated traces
# (tests/bench/gen-trace.py): actions, the time of `tit-trace proxy` (compressing the plain trace in memory
# first), the bytes of the C source and the time `mpicc -O2` takes to build it. Then, for traces of the
# tracer's test programs, the compute volumes of the proxy's own trace against the original's (segments
# between consecutive MPI actions of at least 100 us at the tracer's 1e9 rate): the worst relative
# difference, which CPU time under load makes unfit for a test. Not part of the tests.
#
# Usage: scripts/bench-proxy.sh          (build first: scripts/build.sh)
# Environment:
#   BENCH_CASES  space-separated RANKS:ITERATIONS:PATTERN cases of tests/bench/gen-trace.py
#                (default "64:14000:halo", about 10^7 actions)
#   BENCH_ROUNDTRIP  space-separated PROGRAM:NP tracer test programs (default "ring:5 halo:4 colls:7")
#   BENCH_DIR    where traces go (default $BUILD_DIR/bench-proxy; regenerated each run)
#   BUILD_DIR    build directory (default: build/ at the repository root)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
bench_dir=$(realpath -m "${BENCH_DIR:-$build_dir/bench-proxy}")
cases=${BENCH_CASES:-"64:14000:halo"}
roundtrip=${BENCH_ROUNDTRIP:-"ring:5 halo:4 colls:7"}
rm -rf "$bench_dir"
mkdir -p "$bench_dir"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

printf "%-22s %10s %10s %12s %10s\n" case actions proxy_s C_bytes mpicc_s
for c in $cases; do
  IFS=: read -r ranks iters pattern <<<"$c"
  dir=$bench_dir/$ranks-$iters-$pattern
  actions=$(python3 "$root/tests/bench/gen-trace.py" "$dir" --ranks "$ranks" --iterations "$iters" --pattern "$pattern")
  t0=$(now)
  "$build_dir/bin/tit-trace" proxy "$dir/traces.list" "$dir/proxy.c" >/dev/null
  t1=$(now)
  mpicc -O2 -o "$dir/proxy" "$dir/proxy.c"
  t2=$(now)
  printf "%-22s %10s %10s %12s %10s\n" "$c" "$actions" "$(seconds "$t0" "$t1")" "$(stat -c %s "$dir/proxy.c")" \
    "$(seconds "$t1" "$t2")"
  rm -f "$dir"/rank-*.txt
done

echo
echo "compute volumes of the proxy's trace against the original's (segments >= 100 us):"
for c in $roundtrip; do
  IFS=: read -r prog np <<<"$c"
  printf "%-10s np %-3s " "$prog" "$np"
  bash "$root/tests/tracer/run.sh" "$build_dir" proxy "$prog" "$np" | grep "^compute segments"
done
