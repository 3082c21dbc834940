#!/usr/bin/env bash
# tit-sweep cases: sweep-file errors (file:line, exit 2, nothing run), point counts of grid / zip /
# sample, a local run checked against tit-replay run by hand, resuming, a failed point.
# Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
sweep=$build/bin/tit-sweep
replay=$build/bin/tit-replay
. "$(dirname "$0")/../lib/case.sh"
run() { capture "$sweep" "$@"; }

# The base of every sweep file: the 16-node cluster with a backbone, the 4-rank halo exchange.
base() {
  cat <<YAML
platform: $root/platforms/cluster-backbone.xml
hostfile: $root/platforms/cluster-backbone.hosts
traces: $root/traces/halo4
YAML
}

# expect_input_error LINE TEXT...: exit 2, "sweep.yaml:LINE: error:" and each TEXT, nothing planned.
expect_input_error() {
  local line=$1; shift
  run run "$tmp/sweep.yaml" --out "$tmp/out"
  [ "$status" -eq 2 ] || fail "exit status $status, expected 2"
  grep -qF "$tmp/sweep.yaml:$line: error:" "$err" || fail "stderr lacks 'sweep.yaml:$line: error:'"
  for s in "$@"; do grep -qF -- "$s" "$err" || fail "stderr lacks '$s'"; done
  [ ! -e "$tmp/out" ] || fail "the output folder was created despite the error"
}

# csv_column FILE NAME: the values of a column of results.csv, one a line.
csv_column() {
  awk -F, -v name="$2" 'NR == 2 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } NR > 2 { print $c }' "$1"
}

case $case_name in
  no-attribute)
    { base; echo 'vary:'; echo '  "cluster[id=bbc]@bandwith": [1GBps]'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "a <cluster> has no attribute 'bandwith'" "bb_bw" ;;
  bad-unit)
    { base; echo 'vary:'; echo '  "cluster[id=bbc]@bb_bw":'; echo '    - 1GBps'; echo '    - 10Gbs'; } >"$tmp/sweep.yaml"
    expect_input_error 7 "unknown unit 'Gbs' in bandwidth value '10Gbs'"
    { base; echo 'vary:'; echo '  "cluster@speed": [1Gf, 2GHz]'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "unknown unit 'GHz' in speed value"
    { base; echo 'vary:'; echo '  "cluster[id=bbc]@lat": {from: 1us, to: 5usec, steps: 3}'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "one unit" ;;
  no-match)
    { base; echo 'vary:'; echo '  "cluster[id=c0]@bb_bw": [1GBps]'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "selector 'cluster[id=c0]@bb_bw' matches no element" ;;
  empty-range)
    { base; echo 'vary:'; echo '  "cluster[id=bbc]@lat": {from: 10us, to: 1us, step: 1}'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "empty range"
    { base; echo 'vary:'; echo '  "cfg:smpi/test": []'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "empty list" ;;
  bad-file)
    { base; echo 'vary:'; echo '  traces:'; echo "    - $root/traces/ring4"; echo "    - $root/traces/nope"; } >"$tmp/sweep.yaml"
    expect_input_error 7 "traces '$root/traces/nope' does not exist"
    { base; echo 'vary:'; echo '  traces: {glob: "nothing*/"}'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "matches no file"
    # a name the system refuses (longer than NAME_MAX): the same error, with the system's reason (was an uncaught
    # filesystem_error: the fuzz target `inputs` found it)
    long=$(printf 'x%.0s' $(seq 300))
    { base; echo 'vary:'; echo '  traces:'; echo "    - $root/traces/ring4"; echo "    - $long"; } >"$tmp/sweep.yaml"
    expect_input_error 7 "traces '$long' does not exist" "File name too long" ;;
  bad-yaml)
    { base; echo 'vary:'; echo '  "cfg:smpi/test": [1, 2'; } >"$tmp/sweep.yaml"
    expect_input_error 6 "not valid YAML"
    { base; echo 'varry: {}'; } >"$tmp/sweep.yaml"
    expect_input_error 4 "unknown key 'varry'" "vary"
    { base; echo 'vary:'; echo '  "bandwidth": [1]'; } >"$tmp/sweep.yaml"
    expect_input_error 5 "unknown vary key 'bandwidth'" "cfg:NAME" ;;
  bad-zip)
    { base; echo 'vary:'; echo '  "cfg:smpi/test": [1, 2]'; echo '  "cluster[id=bbc]@lat": [1us, 2us, 3us]'
      echo 'zip:'; echo '  - ["cfg:smpi/test", "cluster[id=bbc]@lat"]'; } >"$tmp/sweep.yaml"
    expect_input_error 8 "zipped keys need as many values" ;;
  points) # 3 x 3 x 2 grid, zip of the first two (3 x 2), a sample of 5 of the 18 (the same twice)
    { base; echo 'vary:'; echo '  "cluster[id=bbc]@bb_bw": {from: 100MBps, to: 400MBps, steps: 3}'
      echo '  "cluster[id=bbc]@bb_lat": {from: 10us, to: 1000us, factor: 10}'; echo '  "cfg:coll/selector": [smpi, ompi]'
    } >"$tmp/sweep.yaml"
    run check "$tmp/sweep.yaml"; [ "$status" -eq 0 ] && grep -q "18 points" "$out" || fail "expected 18 points"
    cp "$tmp/sweep.yaml" "$tmp/zip.yaml"; echo 'zip: [["cluster[id=bbc]@bb_bw", "cluster[id=bbc]@bb_lat"]]' >>"$tmp/zip.yaml"
    run check "$tmp/zip.yaml"; [ "$status" -eq 0 ] && grep -q "6 points" "$out" || fail "zip: expected 6 points"
    cp "$tmp/sweep.yaml" "$tmp/sample.yaml"; echo 'sample: {points: 5, seed: 7}' >>"$tmp/sample.yaml"
    run run "$tmp/sample.yaml" --out "$tmp/s1" --dry-run; [ "$status" -eq 0 ] || fail "dry run failed"
    run run "$tmp/sample.yaml" --out "$tmp/s2" --dry-run
    [ "$(find "$tmp/s1/points" -name result.json | wc -l)" = 0 ] || fail "a dry run ran points"
    python3 - "$tmp/s1/manifest.json" "$tmp/s2/manifest.json" <<'PY' || fail "samples differ or have the wrong size"
import json, sys
a, b = (json.load(open(f))["points"] for f in sys.argv[1:])
assert len(a) == 5 and [p["values"] for p in a] == [p["values"] for p in b], (a, b)
assert len({tuple(p["values"]) for p in a}) == 5
PY
    run run "$tmp/sweep.yaml" --out "$tmp/g" --dry-run
    python3 - "$tmp/g/manifest.json" <<'PY' || fail "grid values"
import json, sys
pts = [p["values"] for p in json.load(open(sys.argv[1]))["points"]]
assert pts[0] == ["100MBps", "10us", "smpi"] and pts[1] == ["100MBps", "10us", "ompi"], pts[:2]
assert pts[2] == ["100MBps", "100us", "smpi"] and pts[17] == ["400MBps", "1000us", "ompi"], pts
assert len(pts) == 18 and pts[4] == ["100MBps", "1000us", "smpi"] and pts[6][0] == "250MBps", pts
PY
    ;;
  fast-forward) # args: [--fast-forward]: each point fast-forwarded, within 0.5 % of the full replay; no per-rank
    # figures (empty cells) and no analysis file
    python3 "$root/tests/fastforward/gen.py" "$tmp/ring" ring 16 200 || fail "gen.py"
    for mode in full ff; do
      { echo "platform: $root/platforms/cluster-backbone.xml"; echo "hostfile: $root/platforms/cluster-backbone.hosts"
        echo "traces: $tmp/ring/traces.list"; [ $mode = ff ] && echo 'args: [--fast-forward]'
        echo 'vary:'; echo '  "cluster[id=bbc]@bb_bw": [100MBps, 1.6GBps]'; } >"$tmp/$mode.yaml"
      run run "$tmp/$mode.yaml" --out "$tmp/$mode" -j 2; [ "$status" -eq 0 ] || fail "$mode: exit status $status"
    done
    ! ls "$tmp"/ff/points/*/analysis.json >/dev/null 2>&1 || fail "an analysis file was written for a fast-forwarded point"
    grep -q "^Fast-forward: the time above is extrapolated" "$tmp"/ff/points/*/stdout.txt || fail "no fast-forward report"
    paste -d' ' <(csv_column "$tmp/full/results.csv" predicted_time) <(csv_column "$tmp/ff/results.csv" predicted_time) |
      awk '{ d = ($2 - $1) / $1; if (d < 0) d = -d; print "full " $1 " s, fast-forwarded " $2 " s"; if (d > 0.005 || $2 == "") bad = 1 }
           END { exit bad }' || fail "fast-forwarded points differ from the full replays by more than 0.5 %"
    [ "$(csv_column "$tmp/ff/results.csv" computing_max | sort -u)" = "" ] || fail "per-rank figures for fast-forwarded points"
    [ "$(csv_column "$tmp/full/results.csv" computing_max | grep -c .)" = 2 ] || fail "no per-rank figures in full replays" ;;
  local) # every point's prediction equals tit-replay's on a platform edited by hand
    { base; echo 'cfg: {smpi/async-small-thresh: 65536}'; echo 'vary:'; echo '  "cluster[id=bbc]@bb_bw": [100MBps, 1.6GBps]'
      echo '  "bbc@bb_lat": [10us, 1ms]'; } >"$tmp/sweep.yaml"
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2; [ "$status" -eq 0 ] || fail "exit status $status"
    head -1 "$tmp/out/results.csv" | grep -qx '# tit-sweep results v1' || fail "no schema line"
    sed -n 2p "$tmp/out/results.csv" | grep -q '^cluster\[id=bbc\]@bb_bw,bbc@bb_lat,predicted_time,ranks,computing_min,' ||
      fail "columns: $(sed -n 2p "$tmp/out/results.csv")"
    [ "$(wc -l <"$tmp/out/results.csv")" = 6 ] || fail "expected 4 rows"
    grep -q "4 points: 4 done, 0 failed, 0 pending" "$err" || fail "no summary"
    n=0
    while IFS=, read -r bw lat predicted rest; do
      sed "s/bb_bw=\"400MBps\"/bb_bw=\"$bw\"/; s/bb_lat=\"120us\"/bb_lat=\"$lat\"/" "$root/platforms/cluster-backbone.xml" >"$tmp/p.xml"
      "$replay" --cfg=smpi/async-small-thresh:65536 --hostfile "$root/platforms/cluster-backbone.hosts" "$tmp/p.xml" \
        "$root/traces/halo4" >"$tmp/direct" || fail "direct replay failed"
      want=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$tmp/direct")
      awk -v g="$predicted" -v e="$want" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= 1e-9 * e) }' ||
        fail "$bw $lat: predicted $predicted, tit-replay says $want"
      n=$((n + 1))
    done < <(tail -n +3 "$tmp/out/results.csv")
    [ "$n" = 4 ] || fail "compared $n rows"
    [ "$(csv_column "$tmp/out/results.csv" predicted_time | sort -u | wc -l)" = 4 ] || fail "4 distinct predictions expected"
    run plot "$tmp/out"; [ "$status" -eq 0 ] || fail "plot: exit status $status"
    for png in time-1 time-2 heatmap; do
      [ "$(head -c 8 "$tmp/out/plots/$png.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "no $png.png"
    done
    [ ! -e "$tmp/out/plots/speedup.png" ] || fail "a speedup plot without varying rank counts" ;;
  resume) # a point whose result is gone runs again, and only it; a failed point is recorded
    { base; echo 'vary:'; echo '  "cfg:smpi/send-is-detached-thresh": [65536, 1024, banana]'; } >"$tmp/sweep.yaml"
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2; [ "$status" -eq 0 ] || fail "exit status $status"
    grep -q "3 points: 2 done, 1 failed, 0 pending" "$err" || fail "expected 2 done, 1 failed"
    row=$(grep '^banana,' "$tmp/out/results.csv")
    [[ $row == banana,,,*,2,* ]] || fail "failed row: $row"
    grep -q "banana" <<<"${row##*,2,}" || fail "the failed row lacks tit-replay's message: $row"
    cp "$tmp/out/results.csv" "$tmp/first.csv"
    stamp0=$(stat -c %Y.%N "$tmp/out/points/000000/result.json")
    rm "$tmp/out/points/000001/result.json"
    sleep 1
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2; [ "$status" -eq 0 ] || fail "resume: exit status $status"
    grep -q "3/3 points done (1 failed), 0 running, 0 to go" "$err" || fail "resume should run exactly one point"
    [ "$(stat -c %Y.%N "$tmp/out/points/000000/result.json")" = "$stamp0" ] || fail "a done point ran again"
    [ -e "$tmp/out/points/000001/result.json" ] || fail "the removed point did not run"
    diff <(cut -d, -f1-12 "$tmp/first.csv") <(cut -d, -f1-12 "$tmp/out/results.csv") || fail "results changed on resume"
    run status "$tmp/out"; grep -q "3 points: 2 done, 1 failed, 0 pending" "$out" || fail "status"
    { base; echo 'vary:'; echo '  "cfg:smpi/send-is-detached-thresh": [65536, 1024]'; } >"$tmp/other.yaml"
    run run "$tmp/other.yaml" --out "$tmp/out"
    [ "$status" -eq 2 ] && grep -q "holds another sweep" "$err" || fail "another sweep in the same folder" ;;
  interrupted) # a replay killed by SIGTERM (a time limit) leaves its point pending; the next run runs it
    { base; echo 'vary:'; echo '  "cfg:smpi/test": [1e-4, 2e-4, 3e-4]'; } >"$tmp/sweep.yaml"
    printf '#!/bin/bash\ncase "$*" in *smpi/test:2e-4*) kill -TERM $$ ;; esac\nexec %q "$@"\n' "$replay" >"$tmp/killed"
    chmod +x "$tmp/killed"
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2 --tit-replay "$tmp/killed"; [ "$status" -eq 0 ] || fail "exit $status"
    grep -q "3 points: 2 done, 0 failed, 1 pending" "$err" || fail "expected the killed point pending"
    grep -q '^2e-4,.*,pending$' "$tmp/out/results.csv" || fail "no pending row: $(cat "$tmp/out/results.csv")"
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2; [ "$status" -eq 0 ] || fail "second run: exit $status"
    grep -q "3 points: 3 done, 0 failed, 0 pending" "$err" || fail "the interrupted point did not run again" ;;
  slurm-script) # --slurm --dry-run: the script of the pending points, time and memory from those already run
    { base; echo 'vary:'; echo '  "cfg:smpi/test": [1e-4, 2e-4, 3e-4]'; } >"$tmp/sweep.yaml"
    run run "$tmp/sweep.yaml" --out "$tmp/out" -j 2; [ "$status" -eq 0 ] || fail "local run: exit status $status"
    rm "$tmp/out/points/000001/result.json"
    run run "$tmp/sweep.yaml" --out "$tmp/out" --slurm --dry-run --throttle 3 --max-array-size 2 --partition short
    [ "$status" -eq 0 ] || fail "exit status $status"
    grep -q "requesting --time=1 --mem=[0-9]*M per point, from the 2 points already run" "$err" || fail "no estimate"
    s=$tmp/out/slurm/array-000000.sbatch
    [ -f "$s" ] && [ "$(ls "$tmp/out/slurm" | grep -c sbatch)" = 1 ] || fail "expected one script (point 1 only)"
    grep -qx '#SBATCH --array=1%3' "$s" || fail "array line: $(grep array "$s")"
    grep -qx '#SBATCH --time=1' "$s" && grep -qx '#SBATCH --partition=short' "$s" || fail "requests: $(cat "$s")"
    mem=$(sed -n 's/^#SBATCH --mem=\([0-9]*\)M$/\1/p' "$s")
    # the peak of the points still done, 0 and 2 (the CSV of the first run also has point 1's, which may be larger)
    rss=$(csv_column "$tmp/out/results.csv" max_rss_mb | sed -n '1p;3p' | sort -g | tail -1)
    awk -v m="$mem" -v r="$rss" 'BEGIN { exit !(r > 1 && m >= 2 * r + 64 - 1 && m <= 2 * r + 64 + 2) }' ||
      fail "--mem=${mem}M for a peak of $rss MB"
    grep -q "run-point '$tmp/out' \$((0 + SLURM_ARRAY_TASK_ID))" "$s" || fail "task line: $(tail -1 "$s")"
    [ ! -e "$tmp/out/slurm/jobs" ] || fail "a dry run submitted" ;;
  cli) # command-line errors: exit 2 with what is wrong
    run status "$tmp/none"; [ "$status" -eq 2 ] && grep -qF "$tmp/none/manifest.json: error: no sweep here" "$err" ||
      fail "status of a folder without a sweep"
    { base; echo 'vary:'; echo '  "cfg:smpi/test": [1e-4]'; } >"$tmp/sweep.yaml"
    run run "$tmp/sweep.yaml" --out "$tmp/out" --local --slurm
    [ "$status" -eq 2 ] && grep -q "exclude each other" "$err" || fail "--local with --slurm"
    run run "$tmp/sweep.yaml" --out "$tmp/out" --tit-replay "$tmp/nothing"
    [ "$status" -eq 2 ] && grep -qF "$tmp/nothing: error: no tit-replay program here" "$err" || fail "--tit-replay"
    run run "$tmp/sweep.yaml" --out "$tmp/out" --dry-run; [ "$status" -eq 0 ] || fail "dry run"
    run run-point "$tmp/out" 5; [ "$status" -eq 2 ] && grep -q "point 5 does not exist (1 points)" "$err" ||
      fail "run-point out of range"
    run run "$tmp/sweep.yaml"; [ "$status" -eq 2 ] && grep -q -- "--out is required" "$err" || fail "no --out" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
