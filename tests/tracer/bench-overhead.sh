#!/usr/bin/env bash
# Overhead of the tracer on a communication-heavy program with many small messages
# (programs/overhead.c: 8-byte ping-pongs between rank pairs and an 8-byte allreduce every 16
# iterations). Runs it ROUNDS times without and with libtit-trace.so preloaded, alternating, in the
# same run, and prints the median loop time of each and their ratio (traced / plain).
#
# usage: bench-overhead.sh BUILD_DIR [ITERATIONS [ROUNDS [NP]]]   (defaults 20000 5 2)
# Environment: TIT_TRACE_COMPUTE (default cpu-time here, the mode this machine falls back to);
#   BENCH_MPIRUN_ARGS extra mpirun arguments, e.g. "--mca btl tcp,self" for messages over TCP.
set -euo pipefail
build=$(cd "$1" && pwd)
iters=${2:-20000}
rounds=${3:-5}
np=${4:-2}
prog=$build/tracer-tests/bin/overhead
lib=$build/lib/libtit-trace.so
work=$build/tracer-tests/out/bench-overhead-run
rm -rf "$work"
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export TIT_TRACE_COMPUTE=${TIT_TRACE_COMPUTE:-cpu-time} TIT_TRACE_DIR=$work/trace

loop_time() { sed -n 's/^loop seconds: //p'; }
plain=() traced=()
for ((i = 0; i < rounds; i++)); do
  plain+=("$(timeout 120 mpirun --oversubscribe ${BENCH_MPIRUN_ARGS:-} -np "$np" "$prog" "$iters" | loop_time)")
  traced+=("$(timeout 120 mpirun --oversubscribe ${BENCH_MPIRUN_ARGS:-} -np "$np" -x LD_PRELOAD="$lib" -x TIT_TRACE_DIR -x TIT_TRACE_COMPUTE \
              "$prog" "$iters" 2>/dev/null | loop_time)")
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
mp=$(median "${plain[@]}")
mt=$(median "${traced[@]}")
lines=$(cat "$TIT_TRACE_DIR"/rank-*.txt | grep -vc '^#')
echo "overhead benchmark: np=$np iterations=$iters rounds=$rounds compute=$TIT_TRACE_COMPUTE"
echo "plain  loop seconds: ${plain[*]} (median $mp)"
echo "traced loop seconds: ${traced[*]} (median $mt)"
echo "trace lines of the last traced run: $lines"
awk -v p="$mp" -v t="$mt" 'BEGIN { if (p <= 0 || t <= 0) exit 1; printf "ratio traced/plain: %.3f\n", t / p }'
