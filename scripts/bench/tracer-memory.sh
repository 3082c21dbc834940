#!/usr/bin/env bash
# Peak memory of the tracer writing the compressed format online, against the text writer, by value mode
# (TIT_TRACE_VALUES=exact, binned:0.01 and stats), on long runs of the overhead program's ring halo exchange (2 ranks over shared
# memory; tests/tracer/programs/overhead.c): for each iteration count, the program runs without the tracer, with it
# writing text, and with it writing the compressed form in each mode, and prints per run the peak resident memory of
# rank 0 (which merges and writes the file) and rank 1 (`/usr/bin/time`'s maximum RSS), the wall time of the whole
# run (mpirun's: start-up, loop, MPI_Finalize with the merge and the file) and the file's size.
#
# Two kinds of run: `nocompute` (TIT_TRACE_MIN_BURST=1e9: no compute lines, every value repeats: the values' memory
# stays bounded, as in tracer.online-memory) and `work=W` (W loop iterations of computation a step, measured by the
# tracer: a compute volume that varies at every step, which exact and stats both hold until MPI_Finalize).
#
# usage: bench-tracer-memory.sh BUILD_DIR [ITERATIONS...]   (default 10000 100000 1000000)
# Environment: TIT_TRACE_COMPUTE (default cpu-time), WORK (default 1000).
set -euo pipefail
build=$(cd "$1" && pwd)
shift
iterations=("$@")
[[ ${#iterations[@]} -gt 0 ]] || iterations=(10000 100000 1000000)
prog=$build/tracer-tests/bin/overhead
lib=$build/lib/libtit-trace.so
work=$build/tracer-tests/out/bench-tracer-memory
[[ -x $prog && -f $lib ]] || { echo "bench-tracer-memory.sh: build $prog and $lib first" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "bench-tracer-memory.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
rm -rf "$work"
mkdir -p "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export TIT_TRACE_COMPUTE=${TIT_TRACE_COMPUTE:-cpu-time}
steps_work=${WORK:-1000}

# run NAME ITERATIONS STEPWORK MINBURST FORMAT VALUES: one run; prints its line
run() {
  local name=$1 it=$2 w=$3 burst=$4 format=$5 values=$6 dir=$work/$1-$2
  mkdir -p "$dir"
  local preload=(-x LD_PRELOAD="$lib")
  [[ $format != none ]] || preload=()
  local start end
  start=$(date +%s.%N)
  TIT_TRACE_DIR=$dir/trace TIT_TRACE_FORMAT=${format/none/text} TIT_TRACE_VALUES=$values TIT_TRACE_MIN_BURST=$burst \
    timeout 600 mpirun --oversubscribe -np 2 "${preload[@]}" -x TIT_TRACE_DIR -x TIT_TRACE_FORMAT -x TIT_TRACE_VALUES \
    -x TIT_TRACE_MIN_BURST -x TIT_TRACE_COMPUTE \
    sh -c "exec /usr/bin/time -f %M -o $dir/rss.\$OMPI_COMM_WORLD_RANK $prog halo $it $w" >"$dir/out" 2>"$dir/err" ||
    { cat "$dir/err" >&2; echo "bench-tracer-memory.sh: run $name of $it iterations failed" >&2; exit 1; }
  end=$(date +%s.%N)
  local bytes=-
  [[ ! -f $dir/trace/trace.tit ]] || bytes=$(stat -c %s "$dir/trace/trace.tit")
  [[ $format != text ]] || bytes=$(cat "$dir"/trace/rank-*.txt | wc -c)
  printf "%-10s %-10s %9s %12s %12s %8.2f %12s\n" "$kind" "$name" "$it" "$(cat "$dir/rss.0")" "$(cat "$dir/rss.1")" \
    "$(echo "$end - $start" | bc)" "$bytes"
}

echo "load: $(uptime | sed 's/.*load average: //')  compute mode: $TIT_TRACE_COMPUTE"
printf "%-10s %-10s %9s %12s %12s %8s %12s\n" kind run iterations "rank0 KiB" "rank1 KiB" "wall s" "trace bytes"
for it in "${iterations[@]}"; do
  for kind in nocompute "work=$steps_work"; do
    if [[ $kind == nocompute ]]; then w=0 burst=1e9; else w=$steps_work burst=1e-6; fi
    run plain "$it" "$w" "$burst" none exact
    run text "$it" "$w" "$burst" text exact
    run exact "$it" "$w" "$burst" compressed exact
    run binned "$it" "$w" "$burst" compressed binned:0.01
    run stats "$it" "$w" "$burst" compressed stats
  done
done
echo "load: $(uptime | sed 's/.*load average: //')"
