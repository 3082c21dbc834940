#!/usr/bin/env bash
# Benchmark: peak memory of tit-replay while writing every timeline (--paje, --chrome-trace, --csv) for
# two lengths of the same trace (ITERATIONS and 10 x ITERATIONS of tests/bench/gen-trace.py), beside a
# replay without timelines. The timelines are streamed, so the peak memory should not grow with the
# length. Prints one row per run and the ratio long/short. Not part of the tests.
#
# Usage: scripts/bench/timelines.sh      (build first: scripts/setup/build.sh)
# Environment: BENCH_RANKS (default 16), BENCH_ITERATIONS (default 300), BUILD_DIR, BENCH_DIR
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
dir=$(realpath -m "${BENCH_DIR:-$build_dir/bench-timelines}")
ranks=${BENCH_RANKS:-16}
iterations=${BENCH_ITERATIONS:-300}
tit=$build_dir/bin/tit-replay
rm -rf "$dir" && mkdir -p "$dir"

peak_kb() { /usr/bin/time -f %M -o "$dir/time" "$@" > /dev/null && cat "$dir/time"; }

printf '%-8s %-12s %10s %14s %14s\n' length actions "timelines" "peak RSS (MB)" "output (MB)"
declare -A rss
for scale in 1 10; do
  n=$((iterations * scale))
  actions=$(python3 "$root/tests/bench/gen-trace.py" --ranks "$ranks" --iterations "$n" "$dir/t$scale" | tail -1)
  args=("$dir/t$scale/platform.xml" --hostfile "$dir/t$scale/hostfile" "$dir/t$scale/traces.list")
  for mode in none all; do
    extra=()
    [[ $mode == all ]] && extra=(--paje "$dir/p.paje" --chrome-trace "$dir/c.json" --csv "$dir/t.csv")
    kb=$(peak_kb "$tit" "${args[@]}" "${extra[@]}")
    size=0
    [[ $mode == all ]] && size=$(du -cm "$dir/p.paje" "$dir/c.json" "$dir/t.csv" | tail -1 | cut -f1)
    rss[$scale$mode]=$kb
    printf '%-8s %-12s %10s %14.1f %14s\n' "x$scale" "$actions" "$mode" "$(echo "$kb / 1024" | bc -l)" "$size"
  done
done
echo "peak RSS with timelines, 10x longer trace / shorter: $(echo "${rss[10all]} / ${rss[1all]}" | bc -l | cut -c1-5)"
echo "peak RSS without timelines, 10x longer trace / shorter: $(echo "${rss[10none]} / ${rss[1none]}" | bc -l | cut -c1-5)"
