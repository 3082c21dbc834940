#!/usr/bin/env bash
# Benchmark of tit-trace extrapolate (docs/extrapolation.md), not a test: traces tests/extrapolate/programs/stencil.c
# (a 2-D halo without periodic boundaries, an allreduce pair per iteration, strong scaling) with SMPI on 9, 16 and 25
# ranks, extrapolates them to BENCH_RANKS ranks (16,384 by default), and prints the extrapolation's wall time, the
# file's size and its action count, then replays it with tit-replay on a generated cluster of as many hosts.
#
# usage: scripts/bench/extrapolate.sh            (BUILD_DIR=build, BENCH_RANKS=16384, BENCH_ITERS=20)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${BUILD_DIR:-$root/build}")
ranks=${BENCH_RANKS:-16384}
iters=${BENCH_ITERS:-20}
dir=$build/bench-extrapolate
tool=$build/bin/tit-trace
replay=$build/bin/tit-replay
[[ -x $tool && -x $replay ]] || { echo "bench-extrapolate.sh: build first (no $tool or $replay)" >&2; exit 2; }
command -v smpicc >/dev/null || { echo "bench-extrapolate.sh: smpicc not found (libsimgrid-dev)" >&2; exit 2; }
rm -rf "$dir"
mkdir -p "$dir"
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

smpicc -O1 -o "$dir/stencil" "$root/tests/extrapolate/programs/stencil.c"
args=(dims=2 n=1920 coll=1 "iters=$iters")
for np in 9 16 25; do
  (cd "$dir" && smpirun -trace-ti --cfg=tracing/filename:"$dir/halo-$np.trace" -np "$np" \
     -platform "$root/tests/extrapolate/data/cluster256.xml" -hostfile "$root/tests/extrapolate/data/cluster256.hosts" \
     --cfg=smpi/simulate-computation:no --log=root.thresh:warning ./stencil "${args[@]}") >"$dir/smpi-$np.log" 2>&1
done
echo "inputs: stencil ${args[*]} traced on 9, 16, 25 ranks ($(cat "$dir"/halo-*.trace_files/* 2>/dev/null | wc -l) actions)"

t0=$(now)
"$tool" extrapolate --ranks "$ranks" "$dir/halo-$ranks.tit" "$dir"/halo-{9,16,25}.trace >"$dir/extrapolate.log"
t1=$(now)
cat "$dir/extrapolate.log"
actions=$("$tool" info "$dir/halo-$ranks.tit" | sed -n 's/^actions: //p')
echo "extrapolated to $ranks ranks in $(elapsed "$t0" "$t1") s: $(stat -c %s "$dir/halo-$ranks.tit") bytes, $actions actions"

# a cluster of $ranks hosts (cluster256.xml's links), one rank per host
sed "s/radical=\"0-255\"/radical=\"0-$((ranks - 1))\"/" "$root/tests/extrapolate/data/cluster256.xml" >"$dir/cluster.xml"
seq 0 $((ranks - 1)) | sed 's/^/n/' >"$dir/cluster.hosts"
extra=()
max_maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if ((max_maps > 0 && 2 * ranks + 4096 > max_maps)); then
  extra=(--cfg=contexts/guard-size:0 --cfg=contexts/stack-size:64)
  echo "$ranks ranks exceed vm.max_map_count=$max_maps with guard pages: tit-replay runs with ${extra[*]}"
fi
t0=$(now)
"$replay" "${extra[@]}" --hostfile "$dir/cluster.hosts" "$dir/cluster.xml" "$dir/halo-$ranks.tit" >"$dir/replay.log"
t1=$(now)
echo "replayed in $(elapsed "$t0" "$t1") s: $(grep '^Simulated time' "$dir/replay.log")"
