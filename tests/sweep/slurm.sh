#!/usr/bin/env bash
# A sweep of 24 points through a real one-machine Slurm (started here, stopped after): its results.csv
# must equal the --local run's point by point (every column but the wall time and memory). Chunked in arrays of
# 10 tasks (--max-array-size) with a throttle of 4. Exits 77 (CTest: skipped) only when Slurm
# cannot start, saying why. Usage: slurm.sh BUILD_DIR
set -u
build=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sweep=$build/bin/tit-sweep
tmp=$(mktemp -d)
source "$here/slurm-local.sh"
trap 'slurm_stop; rm -rf "$tmp"' EXIT
fail() { echo "FAIL [slurm]: $*"; for f in "$tmp"/*.err "$tmp/slurm/log/"*.log; do [ -e "$f" ] && { echo "--- $f"; tail -20 "$f"; }; done; exit 1; }

if ! slurm_start "$tmp/slurm"; then
  echo "SKIP [slurm]: Slurm could not start on this machine (see above); the Slurm path of tit-sweep was not tested"
  exit 77
fi

cat >"$tmp/sweep.yaml" <<YAML
platform: $root/platforms/cluster-backbone.xml
hostfile: $root/platforms/cluster-backbone.hosts
traces: $root/traces/halo4
vary:
  "cluster[id=bbc]@bb_bw": {from: 50MBps, to: 400MBps, factor: 2}
  "cluster[id=bbc]@bb_lat": [10us, 120us, 1ms]
  "cfg:coll/selector": [smpi, ompi]
YAML

"$sweep" run "$tmp/sweep.yaml" --out "$tmp/local" --local -j 2 2>"$tmp/local.err" || fail "local run failed"
start=$(date +%s)
"$sweep" run "$tmp/sweep.yaml" --out "$tmp/batch" --slurm --throttle 4 --max-array-size 10 --time 5 --mem 500M \
  --poll 1 --wait-timeout 150 2>"$tmp/batch.err" || fail "slurm run failed"
echo "slurm: the sweep took $(( $(date +%s) - start )) s through Slurm"
cat "$tmp/batch.err"

points=$(tail -n +3 "$tmp/local/results.csv" | wc -l)
[ "$points" -ge 20 ] || fail "only $points points"
[ "$(ls "$tmp/batch/slurm/"array-*.sbatch | wc -l)" = 3 ] || fail "24 points in arrays of 10 should make 3 scripts"
grep -q '^#SBATCH --array=0-9%4$' "$tmp/batch/slurm/array-000000.sbatch" || fail "array line: $(grep array "$tmp/batch/slurm/array-000000.sbatch")"
grep -q '^#SBATCH --array=0-3%4$' "$tmp/batch/slurm/array-000020.sbatch" || fail "last chunk's array line"
grep -q '^#SBATCH --time=5$' "$tmp/batch/slurm/array-000000.sbatch" || fail "no time request"
[ "$(wc -l <"$tmp/batch/slurm/jobs")" = 3 ] || fail "3 job ids expected"

# Every column but the measured ones, wall_time and max_rss_mb (found by name).
strip() {
  awk -F, -v OFS=, 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == "wall_time") w = i; else if ($i == "max_rss_mb") m = i }
                    { if (w) $w = ""; if (m) $m = ""; print }' "$1"
}
diff <(strip "$tmp/local/results.csv") <(strip "$tmp/batch/results.csv") || fail "Slurm and local results differ"
awk -F, 'NR > 2 && ($4 == "" || $(NF - 1) != 0) { bad = 1 } END { exit bad }' "$tmp/batch/results.csv" ||
  fail "a point has no prediction or failed"
[ "$(tail -n +3 "$tmp/batch/results.csv" | cut -d, -f4 | sort -u | wc -l)" -ge 10 ] || fail "too few distinct predictions"

"$sweep" status "$tmp/batch" >"$tmp/status" || fail "status failed"
grep -q "^24 points: 24 done, 0 failed, 0 pending" "$tmp/status" || fail "status: $(cat "$tmp/status")"
grep -q "0 tasks running, 0 queued" "$tmp/status" || fail "status of the queue: $(cat "$tmp/status")"
rm "$tmp/batch/results.csv"
"$sweep" collect "$tmp/batch" 2>/dev/null || fail "collect failed"
diff <(strip "$tmp/local/results.csv") <(strip "$tmp/batch/results.csv") || fail "collect differs"
echo "PASS [slurm]: $points points through Slurm ($(cat "$tmp/batch/slurm/jobs" | tr '\n' ' ')) equal the local run"
