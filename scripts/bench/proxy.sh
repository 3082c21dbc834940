#!/usr/bin/env bash
# Benchmark: proxy programs (docs/proxy.md), measured in the same run. For generated traces
# (tests/bench/gen-trace.py): actions, the time of `tit-trace proxy` (compressing the plain trace in memory
# first), the bytes of the C source and the time `mpicc -O2` takes to build it. Then, for traces of the
# tracer's test programs, the compute volumes of the proxy's own trace against the original's (segments
# between consecutive MPI actions of at least 100 us at the tracer's 1e9 rate): the worst relative
# difference, which CPU time under load makes unfit for a test. Not part of the tests.
#
# Usage: scripts/bench/proxy.sh          (build first: scripts/setup/build.sh)
# Environment:
#   BENCH_CASES  space-separated RANKS:ITERATIONS:PATTERN cases of tests/bench/gen-trace.py
#                (default "64:14000:halo", about 10^7 actions)
#   BENCH_TRACES space-separated trace sets to make proxies of as well (e.g. the corpus's, corpus/README.md):
#                the same columns, actions counted by tit-trace info
#   BENCH_ROUNDTRIP  space-separated PROGRAM:NP tracer test programs (default "ring:5 halo:4 colls:7")
#   BENCH_PLATFORM  PLATFORM.xml,HOSTFILE calibrated for this machine (calibration/walkthrough.sh): then, for the
#                mini-applications BENCH_APPS (default "halo2d cg") on 1 and 2 ranks, the application's measured
#                span, tit-replay's prediction of its trace on that platform, and its proxy's measured time
#                (medians of BENCH_RUNS runs, default 3; Open MPI's shared-memory transport, btl self,vader)
#   BENCH_DIR    where traces go (default $BUILD_DIR/bench-proxy; regenerated each run)
#   BUILD_DIR    build directory (default: build/ at the repository root)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
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

for t in ${BENCH_TRACES:-}; do
  dir=$bench_dir/trace-$(basename "$(dirname "$t")")
  mkdir -p "$dir"
  actions=$("$build_dir/bin/tit-trace" info "$t" | sed -n 's/^actions: //p')
  t0=$(now)
  "$build_dir/bin/tit-trace" proxy "$t" "$dir/proxy.c" >/dev/null
  t1=$(now)
  mpicc -O2 -o "$dir/proxy" "$dir/proxy.c"
  t2=$(now)
  printf "%-22s %10s %10s %12s %10s\n" "$(basename "$(dirname "$t")")" "$actions" "$(seconds "$t0" "$t1")" \
    "$(stat -c %s "$dir/proxy.c")" "$(seconds "$t1" "$t2")"
done

echo
echo "compute volumes of the proxy's trace against the original's (segments >= 100 us):"
for c in $roundtrip; do
  IFS=: read -r prog np <<<"$c"
  printf "%-10s np %-3s " "$prog" "$np"
  bash "$root/tests/tracer/run.sh" "$build_dir" proxy "$prog" "$np" | grep "^compute segments"
done

[[ -n ${BENCH_PLATFORM:-} ]] || exit 0
IFS=, read -r platform hostfile <<<"$BENCH_PLATFORM"
runs=${BENCH_RUNS:-3}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "platform $platform: application span, tit-replay's prediction of its trace, its proxy's time (medians of $runs)"
printf "%-10s %3s %12s %12s %12s %10s %16s\n" app np app_s predicted_s proxy_s proxy/app proxy/predicted
for app in ${BENCH_APPS:-halo2d cg}; do
  for np in 1 2; do
    dir=$bench_dir/app-$app-np$np
    mkdir -p "$dir"
    for _ in $(seq "$runs"); do
      mpirun --oversubscribe -np "$np" "$build_dir/bin/app-$app" | awk '$1 == "span" { if ($3 > m) m = $3 } END { print m }'
    done | median >"$dir/app"
    TIT_TRACE_DIR=$dir/trace TIT_TRACE_TIMINGS=0 TIT_TRACE_RATE=${TIT_TRACE_RATE:-1e9} TIT_TRACE_COMPUTE=auto \
      mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$build_dir/lib/libtit-trace.so" -x TIT_TRACE_DIR -x TIT_TRACE_TIMINGS \
      -x TIT_TRACE_RATE -x TIT_TRACE_COMPUTE "$build_dir/bin/app-$app" >/dev/null 2>&1
    "$build_dir/bin/tit-replay" --hostfile "$hostfile" "$platform" "$dir/trace/trace.list" 2>/dev/null |
      awk '/^Simulated time:/ { print $3 }' >"$dir/predicted"
    "$build_dir/bin/tit-trace" proxy "$dir/trace/trace.list" "$dir/proxy.c" >/dev/null
    mpicc -O2 -o "$dir/proxy" "$dir/proxy.c"
    for _ in $(seq "$runs"); do
      mpirun --oversubscribe -np "$np" "$dir/proxy" 2>/dev/null | awk '/^proxy time:/ { print $3 }'
    done | median >"$dir/proxy-time"
    ratio() { awk -v a="$(cat "$1")" -v b="$(cat "$2")" 'BEGIN { print a / b }'; }
    printf "%-10s %3s %12.6f %12.6f %12.6f %10.3f %16.3f\n" "$app" "$np" "$(cat "$dir/app")" "$(cat "$dir/predicted")" \
      "$(cat "$dir/proxy-time")" "$(ratio "$dir/proxy-time" "$dir/app")" "$(ratio "$dir/proxy-time" "$dir/predicted")"
  done
done
