#!/usr/bin/env bash
# Workload replay (tit-replay --workload): several jobs in one simulation. Usage: run.sh BUILD_DIR CASE
#   reference  per-job end times against SimGrid's own replayer running the same jobs in one simulation
#              (smpi_workload.cpp, compiled here against libsimgrid-dev), relative 1e-9
#   single     a workload of one job predicts what the single-trace command predicts
#   disjoint   two jobs on hosts with links of their own: each its solo time, exactly (hand-computed)
#   shared     two jobs whose messages cross one link: each is slowed down to the two-flow time (by hand)
#   selector   a job's own coll/selector equals the single-trace replay with that selector
#   outputs    timelines, actions logs and analyses: one file per job, named after it
#   errors     bad workloads: file:line, exit code 2
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
d=$here/data
bin=$build/bin/tit-replay
. "$(dirname "$0")/../lib/case.sh"
run() { capture "$bin" "$@"; }
# Links without SMPI's size factors, cross traffic or TCP window (as tests/e2e): a message of S payload bytes
# over a route of latency L and bottleneck bandwidth B takes L + (S + 16) / B seconds alone.

# field N (3 end, 4 duration, 5 alone, 6 slowdown) of job JOB's row
field() { awk -v j="$1" -v n="$2" '$1 == j && NF == 6 { print $n }' "$out"; }
close_to() { # GOT EXPECTED [relative tolerance, default 1e-9]
  awk -v g="$1" -v e="$2" -v t="${3:-1e-9}" 'BEGIN { if (g == "") exit 1; d = g - e; if (d < 0) d = -d;
    exit !(d <= t * (e < 0 ? -e : e) + 1e-12) }'
}
workload() { # NAME, then the job lines: writes $tmp/NAME beside copies of the traces
  local name=$1; shift
  cp -r "$d"/*.list "$d"/compute "$d"/mixed "$d"/coll "$d"/empty "$d"/flow "$tmp"/ 2>/dev/null
  printf '%s\n' "$@" >"$tmp/$name"
}

case $case_name in
  reference)
    ref=$tmp/smpi_workload
    # shellcheck disable=SC2046 # pkg-config prints several words on purpose
    g++ -std=c++17 -O1 "$here/smpi_workload.cpp" -o "$ref" $(pkg-config --cflags --libs simgrid) 2>"$err" ||
      fail "cannot compile the reference"
    SMPI=(--cfg=surf/precision:1e-9 --cfg=network/model:SMPI --log=root.thresh:critical)
    workload alone "One job alone (free text is commentary, as in SimGrid's workloads)" "alone compute.list 2 0 0,1"
    workload consecutive "a0 compute.list 2 0 0,1" "a1 mixed.list 2 10 2,3" "a2 coll.list 2 20 0,2" "a3 mixed.list 2 30 1,3"
    workload same-time "job0 mixed.list 2 0 0,1" "job1 mixed.list 2 0 2,3"
    workload same-resources "job0 mixed.list 2 0 0,1" "job1 mixed.list 2 0 0,1" "job2 coll.list 2 0 1,0"
    workload overlap "late coll.list 2 3 3,1" "early mixed.list 2 0 1,3" "empty empty.list 2 1 0,1"
    checked=0
    for platform in small-hetero torus; do
      for w in alone consecutive same-time same-resources overlap; do
        P=$root/platforms/$platform.xml
        "$ref" "$P" "$tmp/$w" "${SMPI[@]}" >"$tmp/ref" 2>"$err" || fail "the reference failed on $w ($platform)"
        run --workload "$tmp/$w" "$P"
        expect_ok
        for job in $(awk '{ print $1 }' "$tmp/ref" | sort -u); do
          want=$(awk -v j="$job" '$1 == j && $3 > m { m = $3 } END { printf "%.17g\n", m }' "$tmp/ref")
          got=$(field "$job" 3)
          close_to "$got" "$want" || fail "$w on $platform: job $job ends at $got, SimGrid's replayer at $want"
          checked=$((checked + 1))
        done
      done
    done
    echo "$checked job end times equal to SimGrid's replayer (relative 1e-9)" ;;
  single)
    for traces in mixed coll; do
      workload one "only $traces.list 2 0 0,3"
      run --workload "$tmp/one" "$root/platforms/small-hetero.xml"
      expect_ok
      got=$(field only 4)
      printf 'atlas\ndorado\n' >"$tmp/hosts"
      run --hostfile "$tmp/hosts" "$root/platforms/small-hetero.xml" "$tmp/$traces.list"
      expect_ok
      want=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      [ "$got" = "$want" ] || fail "$traces: the one-job workload predicts $got, the single replay $want"
    done ;;
  disjoint|shared)
    if [ "$case_name" = disjoint ]; then hosts=('"h4", "h5"' '"h6", "h7"'); else hosts=('"h0", "h1"' '"h2", "h3"'); fi
    cp -r "$d/flow" "$d/flow.list" "$tmp/"
    cat >"$tmp/w.json" <<JSON
{"jobs": [
  {"name": "a", "traces": "flow.list", "hosts": [${hosts[0]}]},
  {"name": "b", "traces": "flow.list", "hosts": [${hosts[1]}], "start": 0}
]}
JSON
    run "${IDEAL[@]}" --isolated-baseline --workload "$tmp/w.json" "$d/links.xml"
    expect_ok
    # 1e8 bytes (+16 of envelope). Disjoint: two 100 us, 100 MB/s links of its own. Shared: 100 us, 100 MB/s
    # shared by the two flows (each gets 50 MB/s; the 10 GB/s private links never limit).
    if [ "$case_name" = disjoint ]; then alone=1.00020016 both=1.00020016; else alone=1.00010016 both=2.00010032; fi
    for job in a b; do
      close_to "$(field $job 5)" "$alone" || fail "job $job alone: $(field $job 5) s, by hand $alone s"
      close_to "$(field $job 4)" "$both" || fail "job $job in the workload: $(field $job 4) s, by hand $both s"
    done
    if [ "$case_name" = disjoint ]; then
      [ "$(field a 4)" = "$(field a 5)" ] && [ "$(field a 6)" = "1.000000" ] || fail "disjoint jobs must keep their solo time exactly"
    else
      awk -v s="$(field a 6)" 'BEGIN { exit !(s > 1.99 && s < 2) }' || fail "slowdown $(field a 6), by hand 1.9999"
    fi
    grep -qE '^Makespan: ' "$out" || fail "no makespan" ;;
  selector)
    cp -r "$d/coll" "$d/coll.list" "$tmp/"
    for set in ompi mpich; do
      printf '{"jobs": [{"name": "c", "traces": "coll.list", "host_indices": [0, 3, 4], "ranks": 3,\n' >"$tmp/w.json"
      printf '  "cfg": ["coll/selector:%s"]}]}\n' "$set" >>"$tmp/w.json"
      # three ranks: the coll traces have two; use three copies
      mkdir -p "$tmp/coll3"
      for r in 0 1 2; do sed "s/^0 /$r /" "$d/coll/rank-0.txt" >"$tmp/coll3/rank-$r.txt"; done
      sed -i 's/"coll.list"/"coll3"/' "$tmp/w.json"
      run --workload "$tmp/w.json" "$root/platforms/small-hetero.xml"
      expect_ok
      got=$(field c 4)
      printf 'atlas\ndorado\neris\n' >"$tmp/hosts"
      run --cfg=coll/selector:"$set" --hostfile "$tmp/hosts" "$root/platforms/small-hetero.xml" "$tmp/coll3"
      expect_ok
      want=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      [ "$got" = "$want" ] || fail "$set: the job predicts $got, the single replay with --cfg=coll/selector:$set $want"
    done ;;
  outputs)
    workload w "x mixed.list 2 0 0,1" "y coll.list 2 1 2,3"
    run --workload "$tmp/w" --csv "$tmp/t.csv" --paje "$tmp/t.paje" --chrome-trace "$tmp/t.json" \
      --actions-log "$tmp/a.log" --analysis --analysis-json "$tmp/an.json" "$root/platforms/small-hetero.xml"
    expect_ok
    for job in x y; do
      for f in "t.$job.csv" "t.$job.paje" "t.$job.json" "a.$job.log" "an.$job.json"; do
        [ -s "$tmp/$f" ] || fail "no $f"
      done
      grep -qF "Job '$job':" "$out" || fail "the analysis does not name job $job"
    done
    grep -q '^message,.*,p2p$' "$tmp/t.x.csv" || fail "job x's messages are user messages"
    ! grep -q 'p2p$' "$tmp/t.y.csv" || fail "job y has no user message"
    # the actions of job y start at its start time, 1 s
    awk -F'\t' 'NR > 1 && $2 + 0 < 1 { exit 1 }' "$tmp/a.y.log" || fail "job y acted before its start time" ;;
  errors)
    P=$root/platforms/small-hetero.xml
    workload w "a compute.list 2 0 0,1" "b nowhere.list 2 0 2,3"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:2: error: job 'b': unknown trace '$tmp/nowhere.list'"
    workload w "a compute.list 2 0 0,1" "" "b compute.list 2 5 2,9"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:3: error: job 'b': host index 9 is outside the platform (its 5 hosts are numbered 0 to 4)"
    workload w "a compute.list 2 -3 0,1"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:1: error: job 'a': start time -3 is negative"
    workload w "a compute.list 2 0 0,1" "a mixed.list 2 0 2,3"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:2: error: job name 'a' is already the name of the job of $tmp/w:1"
    workload w "a compute.list 3 0 0,1"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:1: error: job 'a': 2 host indices for 3 ranks"
    workload w "a compute.list 1 0 0"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w:1: error: job 'a': rank mismatch: '$tmp/compute.list' has 2 rank traces but 1 ranks"
    workload w "just commentary"
    run --workload "$tmp/w" "$P"
    expect_error 2 "$tmp/w: error: no job in this workload"
    printf '{"jobs": [\n  {"name": "a", "traces": "compute.list", "hosts": ["atlas", "boreas"]},\n' >"$tmp/w.json"
    printf '  {"name": "b", "traces": "compute.list",\n   "hosts": ["atlas", "boreas"], "start": -1}\n]}\n' >>"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:3: error: job 'b': start time -1 is negative"
    printf '{"jobs": [\n {"name": "a", "traces": "compute.list", "hosts": ["atlas", "boreas"], "color": 1}]}\n' >"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:2: error: unknown key 'color' in a job"
    printf '{"jobs": [\n {"name": "a", "traces": "compute.list", "hosts": ["atlas", "boreas"],\n' >"$tmp/w.json"
    printf '  "cfg": ["smpi/os:0:1e-6:0"]}]}\n' >>"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:2: error: job 'a': setting 'smpi/os:0:1e-6:0' is not a collective setting"
    printf '{"jobs": [\n {"name": "a", "traces": "compute.list", "hosts": ["atlas", "nimbus"]}]}\n' >"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:2: error: host 'nimbus' is not in the platform"
    printf '{"jobs": [\n {"name": "a", "traces": "compute.list" "hosts": []}]}\n' >"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:2: error: not valid JSON"
    # a number past a double (found by the fuzz target `inputs`: an uncaught out_of_range before)
    printf '{"jobs": [\n {"name": "a", "traces": "compute.list", "hosts": ["atlas"], "start": 1e999}]}\n' >"$tmp/w.json"
    run --workload "$tmp/w.json" "$P"
    expect_error 2 "$tmp/w.json:2: error: not valid JSON" "number overflow"
    run --workload "$tmp/w.json" "$P" "$tmp/compute.list"
    expect_error 2 "with --workload, give only PLATFORM.xml"
    run --isolated-baseline "$P" "$root/platforms/small-hetero.deploy4.xml" "$tmp/compute.list"
    expect_error 2 "--isolated-baseline goes with --workload" ;;
  *) echo "unknown case $case_name" >&2; exit 2 ;;
esac
echo "PASS [$case_name]"
