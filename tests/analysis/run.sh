#!/usr/bin/env bash
# Timelines and wait-state analysis of the simulated run, with answers known by hand. data/ideal4.xml:
# 1 flop/s hosts, no latency, 1e15 B/s, and IDEAL removes SMPI's factors: messages take ~1e-14 s.
# Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
d=$here/data
bin=$build/bin/tit-replay
py=/usr/bin/python3 # Debian's, which has python3-matplotlib
check() { "$py" "$here/check.py" "$@" || fail "check.py $*"; }
. "$(dirname "$0")/../lib/case.sh"
run() { capture "$bin" "$@"; }
ideal() { run "${IDEAL[@]}" --hostfile "$d/abcd.hosts" "$@"; [ "$status" -eq 0 ] || fail "exit status $status"; }

case $case_name in
  chain-proportional) # the issue's example: B waits 3 for A, C waits 3 for B
    ideal "$d/ideal4.xml" "$d/chain" --analysis --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.1.patterns.late_sender 3
    check value "$tmp/a.json" ranks.2.patterns.late_sender 3
    check value "$tmp/a.json" cost:1:compute:short_term 0.75
    check value "$tmp/a.json" cost:0:compute:short_term 3
    check value "$tmp/a.json" cost:0:compute:long_term 2.25
    check value "$tmp/a.json" delay_costs.total 6
    grep -q "Delay costs (proportional model)" "$out" || fail "no delay cost section in the text report" ;;
  chain-local-first)
    ideal "$d/ideal4.xml" "$d/chain" --delay-model local-first --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" cost:1:compute:short_term 0
    check value "$tmp/a.json" cost:0:compute:short_term 3
    check value "$tmp/a.json" cost:0:compute:long_term 3 ;;
  critical-path) # A computes 5, sends; B computes its last 1 and sends; C receives at 6
    ideal "$d/ideal4.xml" "$d/chain" --analysis-json "$tmp/a.json"
    check value "$tmp/a.json" critical_path.length 6
    check value "$tmp/a.json" ranks.0.critical_path 5
    check value "$tmp/a.json" ranks.1.critical_path 1
    check value "$tmp/a.json" actions.compute.critical_path 6 ;;
  late-receiver) # rendez-vous send posted at 1, receive at 4
    ideal "$d/ideal4.xml" "$d/late-receiver" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.0.patterns.late_receiver 3
    check value "$tmp/a.json" total.waiting 3 ;;
  wait-at-nxn) # rank r enters the allreduce at r + 1: waits 3, 2, 1, 0
    ideal "$d/ideal4.xml" "$d/nxn" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.0.patterns.wait_at_nxn 3
    check value "$tmp/a.json" ranks.2.patterns.wait_at_nxn 1
    check value "$tmp/a.json" total.patterns.wait_at_nxn 6
    check value "$tmp/a.json" cost:3:compute:short_term 6 ;;
  wait-at-barrier)
    ideal "$d/ideal4.xml" "$d/barrier" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.1.patterns.wait_at_barrier 2
    check value "$tmp/a.json" total.patterns.wait_at_barrier 6 ;;
  late-broadcast) # root 2 enters at 3, the others at 1
    ideal "$d/ideal4.xml" "$d/late-bcast" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.3.patterns.late_broadcast 2
    check value "$tmp/a.json" ranks.2.waiting 0
    check value "$tmp/a.json" total.patterns.late_broadcast 6 ;;
  early-reduce) # root 0 enters at 1, the first other rank at 3
    ideal "$d/ideal4.xml" "$d/early-reduce" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.0.patterns.early_reduce 2
    check value "$tmp/a.json" total.waiting 2 ;;
  early-scan) # rank r enters at 4 - r and waits for rank 0
    ideal "$d/ideal4.xml" "$d/early-scan" --analysis-json "$tmp/a.json"
    check invariants "$tmp/a.json"
    check value "$tmp/a.json" ranks.3.patterns.early_scan 3
    check value "$tmp/a.json" total.patterns.early_scan 6 ;;
  random-properties) # costs never negative, summing to the waiting; busy + transfer + waiting = elapsed
    for seed in 1 2 3 4 5 6; do
      "$py" "$here/random_trace.py" "$tmp/t$seed" "$seed" $((4 + seed % 4)) 40
      for model in proportional local-first; do
        for p in cluster-backbone torus; do
          run --delay-model $model --hostfile "$root/platforms/$p.hosts" "$root/platforms/$p.xml" "$tmp/t$seed" \
            --analysis-json "$tmp/a.json"
          [ "$status" -eq 0 ] || fail "seed $seed on $p: exit status $status"
          check invariants "$tmp/a.json"
        done
      done
    done ;;
  other-traces) # nonblocking collectives, any-source receives, waitany, tests, SMPI's own traces
    e=$root/tests/e2e/data
    for t in ibcast4 anysource waitany testall nonblocking; do
      hosts=$e/cluster4.hosts; plat=$e/cluster4.xml
      run --hostfile "$hosts" "$plat" "$e/$t" --analysis-json "$tmp/a.json"
      [ "$status" -eq 0 ] || fail "$t: exit status $status"
      check invariants "$tmp/a.json"
    done
    for t in ring4 halo4; do
      run --hostfile "$root/platforms/small-hetero.hosts" "$root/platforms/small-hetero.xml" "$root/traces/$t" \
        --analysis-json "$tmp/a.json"
      [ "$status" -eq 0 ] || fail "$t: exit status $status"
      check invariants "$tmp/a.json"
    done ;;
  timelines) # Paje passes pj_dump and equals the CSV; the Chrome trace is JSON whose slices equal the CSV
    "$py" "$here/random_trace.py" "$tmp/t" 11 6 30
    for t in "$tmp/t" "$root/tests/e2e/data/ibcast4" "$root/tests/e2e/data/gone"; do
      hosts=$root/tests/e2e/data/cluster4.hosts; plat=$root/tests/e2e/data/cluster4.xml
      [ "$t" = "$tmp/t" ] && { hosts=$root/platforms/fat-tree.hosts; plat=$root/platforms/fat-tree.xml; }
      [ "$t" = "$root/tests/e2e/data/gone" ] && { hosts=$root/tests/e2e/data/abc.hosts; plat=$root/tests/e2e/data/two-hosts.xml; }
      run --hostfile "$hosts" "$plat" "$t" --csv "$tmp/t.csv" --paje "$tmp/t.paje" --chrome-trace "$tmp/t.json"
      [ "$status" -eq 0 ] || fail "$t: exit status $status"
      pj_dump -l 15 "$tmp/t.paje" > "$tmp/t.dump" 2>"$err" || fail "pj_dump rejects the Paje trace of $t"
      check csv-vs-paje "$tmp/t.csv" "$tmp/t.dump"
      check csv-vs-chrome "$tmp/t.csv" "$tmp/t.json"
    done ;;
  stopped) # a replay that stops (a deadlock, exit 3; ranks that disagree on a collective, exit 2; an empty trace
    # list, before any rank starts) still leaves
    # well-formed outputs that say so: Paje that pj_dump reads with the ranks' states up to the stop and a comment,
    # a CSV ending with a comment, a Chrome trace and an analysis JSON with "complete": false and the error, which
    # --compare refuses
    hosts=$root/tests/e2e/data/cluster4.hosts plat=$root/tests/e2e/data/cluster4.xml
    mkdir -p "$tmp/empty" && : >"$tmp/empty/trace.list"
    for t in deadlock:3 coll-mismatch:2 empty:2; do
      rm -f "$tmp"/s.*
      traces=$root/tests/e2e/data/${t%:*}
      [ "${t%:*}" = empty ] && traces=$tmp/empty/trace.list
      run --hostfile "$hosts" "$plat" "$traces" --csv "$tmp/s.csv" --paje "$tmp/s.paje" \
        --chrome-trace "$tmp/s.json" --analysis-json "$tmp/s.analysis.json"
      [ "$status" -eq "${t#*:}" ] || fail "${t%:*}: exit status $status, expected ${t#*:}"
      pj_dump "$tmp/s.paje" > "$tmp/s.dump" 2>"$err" || fail "${t%:*}: pj_dump rejects the Paje trace of a stopped run"
      if [ "${t%:*}" != empty ]; then # (a trace set that holds no trace stops before any rank starts)
        grep -q '^State, rank 0' "$tmp/s.dump" || fail "${t%:*}: no state of rank 0 in the Paje trace"
        grep -q '^# incomplete: the replay stopped at [0-9.e-]* s: .*error' "$tmp/s.paje" || fail "${t%:*}: Paje: no note"
      fi
      tail -n 1 "$tmp/s.csv" | grep -q '^# incomplete: the replay stopped at' || fail "${t%:*}: CSV: no closing note"
      "$py" - "$tmp/s.json" "$tmp/s.analysis.json" <<'PY' || fail "${t%:*}: the JSON outputs do not say the run stopped"
import json, sys
chrome, analysis = (json.load(open(p)) for p in sys.argv[1:3])
other = chrome["otherData"]
assert other["complete"] is False and "error" in other["error"] and other["stopped_at_s"] >= 0, other
assert analysis["schema"] == "tit-replay analysis v1" and analysis["complete"] is False, analysis
assert "error" in analysis["error"], analysis
PY
      run --compare "$tmp/s.analysis.json" "$tmp/s.analysis.json"
      expect_error 2 "s.analysis.json: error: the replay that wrote this analysis stopped, so it holds none"
    done ;;
  deterministic) # the same run twice gives the same bytes
    "$py" "$here/random_trace.py" "$tmp/t" 12 5 30
    for k in 1 2; do
      run --hostfile "$root/platforms/torus.hosts" "$root/platforms/torus.xml" "$tmp/t" --csv "$tmp/$k.csv" \
        --paje "$tmp/$k.paje" --chrome-trace "$tmp/$k.json" --analysis-json "$tmp/$k.a.json" --analysis
      cp "$out" "$tmp/$k.out"
    done
    for f in csv paje json a.json out; do cmp -s "$tmp/1.$f" "$tmp/2.$f" || fail "two runs differ in .$f"; done ;;
  gantt) # a PNG of a window, with message arrows
    ideal "$d/ideal4.xml" "$d/chain" --csv "$tmp/t.csv"
    "$py" "$root/scripts/analysis/gantt" "$tmp/t.csv" "$tmp/g.png" --messages --start 1 --end 6 >"$out" 2>"$err" ||
      fail "scripts/analysis/gantt failed"
    [ "$(head -c 4 "$tmp/g.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "not a PNG"
    [ "$(stat -c %s "$tmp/g.png")" -gt 10000 ] || fail "PNG suspiciously small"
    echo "# not a timeline" > "$tmp/bad.csv"
    "$py" "$root/scripts/analysis/gantt" "$tmp/bad.csv" "$tmp/b.png" >"$out" 2>"$err" && fail "gantt accepted a bad CSV"
    grep -q "not a tit-replay --csv timeline" "$err" || fail "gantt's error does not say what is wrong" ;;
  compare) # host A at half speed: A's 5 s become 10, B and C each wait 5 s more
    ideal "$d/ideal4.xml" "$d/chain" --analysis-json "$tmp/a.json"
    ideal "$d/ideal4-slow-a.xml" "$d/chain" --analysis-json "$tmp/b.json"
    run --compare "$tmp/a.json" "$tmp/b.json"
    [ "$status" -eq 0 ] || fail "exit status $status"
    grep -qE '^prediction: 6 s .* -> 11 s .*: \+5 s \(\+83\.33%\)' "$out" || fail "prediction line"
    grep -qE 'of which late_sender +\+10 s on rank 1 \+5 s, rank 2 \+5 s' "$out" || fail "late sender line" ;;
  dialects) # one program in both dialects: the same actions (Isend and isend are one kind), the same times, counts
    "$build/bin/tit-trace" convert --to simgrid "$d/dialect1.txt" "$tmp/d2" >/dev/null || fail "convert failed"
    grep -q "^0 isend " "$tmp/d2/rank-0.txt" || fail "the conversion wrote no dialect-2 isend"
    for t in "$d/dialect1.txt" "$tmp/d2/trace.list"; do
      n=$((${n:-0} + 1))
      ideal "$d/ideal4.xml" "$t" --analysis-json "$tmp/a$n.json"
      check invariants "$tmp/a$n.json"
      "$build/bin/tit-trace" info "$t" | sed -n '/^actions per kind/,/^[^ ]/p' >"$tmp/info$n" ||
        fail "tit-trace info $t failed"
    done
    check same-actions "$tmp/a1.json" "$tmp/a2.json" init compute irecv isend wait waitall send barrier alltoall finalize
    awk '$1 == "isend" && $2 == 1 { found = 1 } END { exit !found }' "$tmp/info1" ||
      { cat "$tmp/info1"; fail "tit-trace info does not count dialect 1's Isend as isend"; }
    diff "$tmp/info1" "$tmp/info2" || fail "tit-trace info counts the two dialects' actions apart" ;;
  errors) # every message of this part, with its exit status
    run --compare "$tmp/none.json" "$tmp/none2.json"; expect_error 2 "none.json: error: cannot read this analysis file"
    echo '{"a":' > "$tmp/bad.json"; echo '{}' > "$tmp/foreign.json"
    ideal "$d/ideal4.xml" "$d/chain" --analysis-json "$tmp/a.json"
    run --compare "$tmp/a.json" "$tmp/bad.json"; expect_error 2 "bad.json: error: not valid JSON"
    run --compare "$tmp/foreign.json" "$tmp/a.json"; expect_error 2 "foreign.json: error: not a tit-replay analysis"
    run --compare "$tmp/a.json"; expect_error 2 "--compare"
    for opt in --csv --paje --chrome-trace --analysis-json; do
      run "${IDEAL[@]}" --hostfile "$d/abcd.hosts" "$d/ideal4.xml" "$d/chain" $opt "$tmp/no/such/dir/f"
      expect_error 2 "cannot write the" "$tmp/no/such/dir/f"
    done
    run "${IDEAL[@]}" --hostfile "$d/abcd.hosts" "$d/ideal4.xml" "$d/chain" --delay-model fastest
    expect_error 2 "--delay-model" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "ok [$case_name]"
