#!/usr/bin/env bash
# End-to-end cases with answers computed by hand (two-hosts.xml: 1 flop/s hosts, 1000 B/s links with 1 s
# latency; IDEAL removes SMPI's size factors and cross traffic, so a message of S payload bytes takes
# 1 + (S + 16) / 1000 seconds). Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
d=$here/data
bin=$build/bin/tit-replay
. "$(dirname "$0")/../lib/case.sh"
run() { capture "$bin" "${extra[@]}" "$@"; }

expect_time() { # expected simulated time, compared to a relative 1e-9
  [ "$status" -eq 0 ] || fail "exit status $status, expected 0"
  got=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
  [ -n "$got" ] || fail "no 'Simulated time:' line"
  awk -v g="$got" -v e="$1" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= 1e-9 * (e < 0 ? -e : e) + 1e-12) }' ||
    fail "simulated time $got, expected $1"
}

case $case_name in
  fd-limit) # 100 per-rank files under a limit of 40 open files: stop before opening them, naming the limit
    many=$tmp/many; mkdir "$many"
    for r in $(seq 0 99); do printf '%s init\n%s compute 1\n%s finalize\n' "$r" "$r" "$r" >"$many/rank-$r.txt"; done
    (ulimit -n 40 && exec "$bin" "${extra[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$many") >"$out" 2>"$err"
    status=$?
    expect_error 2 "error: $many: 100 per-rank trace files are read at once" "at most 40 files" \
      "expected a limit of at least 164: raise it with \`ulimit -n 164\`" ;;
  detached) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"; expect_time 8
    grep -qE '^  1 +B +7\.0+ +0\.0+ +2\.0+ +5\.0+$' "$out" || fail "rank 1 should finish at 7 after waiting 5 s and receiving 2 s" ;;
  rendezvous) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/rendezvous"; expect_time 112 ;;
  thesis-gz-merged) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached-thesis.txt.gz"; expect_time 8 ;;
  hostfile) run "${IDEAL[@]}" --hostfile "$d/abc.hosts" "$d/two-hosts.xml" "$d/detached"; expect_time 8 ;;
  nonblocking) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"; expect_time 4 ;;
  overheads) run "${IDEAL[@]}" --cfg=smpi/ois:0:0.25:0 --cfg=smpi/or:0:0.5:0 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 4.5 ;;
  os-overhead) run "${IDEAL[@]}" --cfg=smpi/os:0:0.5:0.001 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_time 9.484 ;; # rank 0: 5 + (0.5 + 0.001 x 984) + 3
  platform-config) run "${IDEAL[@]}" "$d/two-hosts-os.xml" "$d/deploy2.xml" "$d/detached"; expect_time 9.484 ;;
  host-property) run "${IDEAL[@]}" "$d/two-hosts-hostos.xml" "$d/deploy2.xml" "$d/detached"; expect_time 9.484
    run "${IDEAL[@]}" --hostfile "$d/abc.hosts" "$d/two-hosts-hostos.xml" "$d/gone"; expect_time 6.484 ;;
  bcast-binomial) run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/bcast4"
    expect_time 202 ;; # ceil(log2 4) = 2 rounds of 1 s + 100000 B / 1000 B/s (rendez-vous, crossbar)
  scatter-linear) run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/scatter4"
    expect_time 301 ;; # the root's three isends share its 1000 B/s link: 1 s + 300000 B / 1000 B/s
  subcomm-halves) # comm_split into {0,2} and {1,3}: each half broadcasts in one round, on disjoint hosts
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-halves"; expect_time 101 ;;
  subcomm-keys) # keys -r reverse the order: world rank 3 is the root; it computes 50 s, then 2 rounds of 101 s
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-keys"; expect_time 252 ;;
  subcomm-dup-create) # barrier on a duplicate (2 x (1 s + 3 x 16 B shared)), then 1 -> 3 on comm_create's group
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-dup-create"; expect_time 103.096 ;;
  subcomm-context) # a message sent on a sub-communicator never matches a receive on the world
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-context"
    expect_error 3 "rank 1 blocked in $d/subcomm-context/rank-1.txt:3: 1 recv 0 5 8 6" ;;
  subcomm-missing) # rank 3 never calls comm_split: the others wait for it
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-missing"
    expect_error 3 "rank 0 blocked in $d/subcomm-missing/rank-0.txt:2: 0 comm_split 0 0 0 1 4 (waiting for every member of communicator 0 to call it)" \
      "communicator creation number 1 on communicator 0 (of 4 members): 3 arrived" ;;
  subcomm-errors) # a freed handle used; count vectors for another size than the group's
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-freed"
    expect_error 2 "subcomm-freed/rank-0.txt:4: error: communicator 1 is not one of this rank's (never created, or freed)"
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/subcomm-size"
    expect_error 2 "subcomm-size/rank-0.txt:3: error: 3 counts for a communicator of 2 ranks (communicator 1 of this rank)" ;;
  subcomm-wait) # isend/irecv on a split's communicator, waited with comm=1: as `nonblocking` (a 984 B message
    # sent at 0 arrives at 2, the receiver computes until 4)
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/subcomm-wait"; expect_time 4
    [ ! -s "$err" ] || fail "warnings on stderr" ;;
  subcomm-wait-legacy) # the same waits without comm= (traces of our tracer before it wrote them): same time
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/subcomm-wait-legacy"; expect_time 4
    [ ! -s "$err" ] || fail "warnings on stderr"
    # the communicator freed before the waits (MPI allows it): the waits still find their requests
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/subcomm-wait-freed"; expect_time 4
    [ ! -s "$err" ] || fail "warnings on stderr (freed communicator)" ;;
  warnings-repeated) # 3 waits for requests never posted on rank 0, 1 on rank 1, a waitAny on nothing:
    # each warning once, at the end, with its count
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/warnings-repeated"; expect_time 1
    [ "$(grep -c 'warning: rank 0 waits for a request it never posted (ignored)' "$err")" -eq 1 ] ||
      fail "expected rank 0's warning once"
    grep -qF "warnings-repeated/rank-0.txt:2: warning: rank 0 waits for a request it never posted (ignored)" "$err" ||
      fail "the first occurrence is not the one shown"
    grep -A2 'rank 0 waits for a request it never posted' "$err" | grep -qF "(this warning occurred 3 times; the first is shown)" ||
      fail "rank 0's count is missing"
    grep -A2 'rank 1 waits for a request it never posted' "$err" | grep -q "occurred" && fail "rank 1's single warning has a count"
    grep -qF "warnings-repeated/rank-0.txt:6: warning: rank 0 waits for any of no pending request (ignored)" "$err" ||
      fail "the waitAny warning is missing" ;;
  speed-units) # the traces count cpu-time x 1e9; host A's speed is in flops (warned), B's in cpu-time x 1e9 (not)
    run "${IDEAL[@]}" "$d/two-hosts-units.xml" "$d/deploy2.xml" "$d/units-cpu"; expect_time 2
    grep -qF "warning: the compute volumes of $d/units-cpu count cpu-time x 1e+09 (their header), but the speed of host 'A' counts flops per second (tit/speed-unit property)" "$err" ||
      fail "expected the unit warning for host A"
    ! grep -q "host 'B'" "$err" || fail "host B's unit matches the trace's"
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/units-cpu"; expect_time 2
    [ ! -s "$err" ] || fail "a platform that says no unit gets no warning" ;;
  speed-units-mixed) # rank files in two units: bad input
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/units-mixed"
    expect_error 2 "error: the trace files count compute volumes in different units: 'cpu-time x 1e+09' in $d/units-mixed/rank-0.txt, 'instructions' in $d/units-mixed/rank-1.txt" ;;
  every-algorithm) # every algorithm of every collective, forced with --cfg=coll/NAME:ALGO, completes
    "$bin" --help > "$out" 2>&1
    algos=$(sed -n '/^Collective algorithms/,/^$/p' "$out" | awk '/^  / {print $1 ":" $2}')
    [ "$(echo "$algos" | wc -l)" -ge 15 ] || fail "--help lists too few algorithms: $algos"
    for a in $algos; do
      coll=${a%%:*}
      run "${IDEAL[@]}" --cfg=coll/$a --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/colls4/$coll"
      if [ "$status" -eq 2 ] && grep -q "algorithm needs" "$err"; then
        continue # an algorithm for other communicator sizes refuses clearly (SimGrid aborts or deadlocks)
      fi
      [ "$status" -eq 0 ] && grep -q "^Simulated time: " "$out" || fail "coll/$a: exit $status"
    done ;;
  coll-errors) run --cfg=coll/bcast:flat "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_error 2 "coll/bcast: unknown algorithm 'flat'; available: binomial"
    run --cfg=coll/selector:mvapich2 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_error 2 "coll/selector 'mvapich2' is not available; available: smpi (SimGrid 3.32's default algorithms), ompi (Open MPI 4's decisions), mpich (MPICH's decisions)" ;;
  ssend) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/ssend"
    expect_time 15 ;; # synchronous: the sender waits for the receive posted at 10, + 2 s transfer, + 3
  bsend) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/bsend"
    expect_time 111 ;; # buffered: the sender goes on at once; the receiver's transfer ends at 10 + 101
  waitany) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/waitany"
    expect_time 107 ;; # the tag-1 message (sent at 5) completes first, at 7, then 100 s of computation
  testall) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/testall"
    expect_time 10.0001 ;; # the message arrived at 2; testall injects smpi/test (1e-4) and completes it
  polling-note) # rank 0 tests 3 times a message that arrives at 12; smpi/test 1 s: the counter (shared, growing)
    # charges 1 + 2 + 3 = 6 s, 27 % of the ranks' 12 + 10 s: a note says so, and what a calibrated platform changes
    run "${IDEAL[@]}" --cfg=smpi/test:1 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/polling"; expect_time 12
    for s in "note: tests were charged 6 s in all, 27 % of the ranks' time (3 injections of smpi/test = 1 s times a counter shared by all ranks" \
      "calibration/walkthrough.sh carries the measured cost"; do grep -qF -- "$s" "$err" || fail "stderr lacks '$s'"; done
    # without the growth 3 s (14 %): still said, without the counter
    run "${IDEAL[@]}" --cfg=smpi/test:1 --cfg=smpi/grow-injected-times:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/polling"
    expect_time 12
    grep -qF "note: tests were charged 3 s in all, 14 % of the ranks' time (3 injections of smpi/test = 1 s):" "$err" ||
      fail "no note without the growth: $(cat "$err")"
    # 0.3 s (1.4 %): nothing to say
    run "${IDEAL[@]}" --cfg=smpi/test:0.1 --cfg=smpi/grow-injected-times:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/polling"
    expect_time 12
    [ ! -s "$err" ] || fail "a note for 1.4 % of the time: $(cat "$err")" ;;
  coll-mismatch) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/coll-mismatch"
    expect_error 2 "coll-mismatch/rank-1.txt:3: error: ranks disagree on their collective number 2: rank 0 calls barrier at $d/coll-mismatch/rank-0.txt:3, rank 1 calls reduce (root 0) here" ;;
  coll-root-mismatch) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/coll-root-mismatch"
    expect_error 2 "rank 0 calls bcast (root 0) at $d/coll-root-mismatch/rank-0.txt:2, rank 1 calls bcast (root 1) here" ;;
  coll-never-reached) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/coll-missing"
    expect_error 3 "rank 0 blocked in $d/coll-missing/rank-0.txt:3: 0 allreduce 10 0" "rank 1 ended its trace after 1 collective(s), before collective number 2" ;;
  any-source) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy3.xml" "$d/anysource"
    expect_time 7 ;; # two posted receives from any source: rank 2's message (sent at 3) binds the first, rank 1's (at 5) the second
  any-source-pending) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy3.xml" "$d/anysource-late"
    expect_time 14 ;; # both messages wait; the earliest posted (rank 2's) is received first, 10 -> 12, then rank 1's, -> 14
  any-source-deadlock) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/anysource-deadlock"
    expect_error 3 "rank 0 blocked in $d/anysource-deadlock/rank-0.txt:2: 0 recv -333 0 8" ;;
  ibcast) run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/ibcast4"
    expect_time 301 ;; # nonblocking: the root isends to the 3 others at once, sharing its link; computing overlaps
  barrier) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"; expect_time 7.032 ;;
  coll-overhead) # tit/coll-overhead: every rank of a collective pays it once the algorithm is over. The barrier above
    # ends at 7.032, then 2 s; the binomial bcast of 99984 B (202, above) then 1 + 1e-4 x 99984 s; a collective named
    # in no entry pays nothing; a name that is no collective is bad input.
    run "${IDEAL[@]}" --cfg=tit/coll-overhead:barrier:0:2:0 "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"
    expect_time 9.032
    run "${IDEAL[@]}" "--cfg=tit/coll-overhead:barrier:0:2:0;bcast:0:1:1e-4" --hostfile "$d/cluster4.hosts" \
      "$d/cluster4.xml" "$d/bcast4"
    expect_time 212.9984
    run "${IDEAL[@]}" --cfg=tit/coll-overhead:allreduce:0:2:0 "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"
    expect_time 7.032
    run --cfg=tit/coll-overhead:allreduc:0:2:0 "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"
    expect_error 2 "error: bad model parameter: tit/coll-overhead 'allreduc:0:2:0': 'allreduc' is not a blocking collective" ;;
  actions-log) log=$tmp/actions.log; run "${IDEAL[@]}" --actions-log "$log" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_time 8
    grep -qP '^1\t0\.0+\t7\.0+\t1 recv 0 0 984 6$' "$log" || { cat "$log"; fail "actions log lacks rank 1's recv from 0 to 7"; }
    [ "$(grep -vc '^#' "$log")" -eq 8 ] || { cat "$log"; fail "expected 8 action lines"; }
    ;;
  merge-computations) # consecutive computes as one execution (rank 0's last two after its send): the same times
    for merge in "" --merge-computations; do
      run "${IDEAL[@]}" $merge "$d/two-hosts.xml" "$d/deploy2.xml" "$d/merge"; expect_time 8
      grep -qE '^  0 +A +8\.0+ +8\.0+ ' "$out" || fail "$merge: rank 0 should finish at 8 after computing 8 s"
      grep -qE '^  1 +B +7\.0+ +2\.0+ ' "$out" || fail "$merge: rank 1 should finish at 7 after computing 2 s"
    done ;;
  no-trailing-newline) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonewline"; expect_time 6 ;;
  rank-gone) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/gone"; expect_time 5
    grep -qF "1 message(s) from rank 0 to rank 1 with tag 0 were sent but never received" "$err" || fail "no warning" ;;
  deadlock) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/deadlock"
    expect_error 3 "deadlock" "rank 0 blocked in $d/deadlock/rank-0.txt:2: 0 recv 1 0 8" "rank 1 blocked in $d/deadlock/rank-1.txt:2: 1 recv 0 0 8" ;;
  deadlock-sources) # the deadlock report names the file and line of each blocked rank's action whatever the form of
    # the trace set: merged (the merged file's line), gzip, a trace list; a compressed trace: the rank and the action's
    # number, which is its line in the rank's file that tit-trace expand writes
    printf '# merged\n0 init\n1 init\n\n0 recv 1 0 8\n1 recv 0 0 8\n0 send 1 0 8\n1 send 0 0 8\n' >"$tmp/m.txt"
    gzip -c "$tmp/m.txt" >"$tmp/m.txt.gz"
    for t in m.txt m.txt.gz; do
      run "$d/two-hosts.xml" "$d/deploy2.xml" "$tmp/$t"
      expect_error 3 "rank 0 blocked in $tmp/$t:5: 0 recv 1 0 8" "rank 1 blocked in $tmp/$t:6: 1 recv 0 0 8"
    done
    for r in 0 1; do gzip -c "$d/deadlock/rank-$r.txt" >"$tmp/rank-$r.txt.gz"; done
    printf 'rank-0.txt.gz\nrank-1.txt.gz\n' >"$tmp/gz.list"
    run "$d/two-hosts.xml" "$d/deploy2.xml" "$tmp/gz.list"
    expect_error 3 "rank 0 blocked in $tmp/rank-0.txt.gz:2: 0 recv 1 0 8" "rank 1 blocked in $tmp/rank-1.txt.gz:2: 1 recv 0 0 8"
    "$build/bin/tit-trace" compress "$tmp/m.txt" "$tmp/m.tit" >/dev/null || fail "tit-trace compress failed"
    run "$d/two-hosts.xml" "$d/deploy2.xml" "$tmp/m.tit"
    expect_error 3 "rank 0 blocked in $tmp/m.tit (rank 0):2: 0 recv 1 0 8" "rank 1 blocked in $tmp/m.tit (rank 1):2: 1 recv 0 0 8"
    "$build/bin/tit-trace" expand "$tmp/m.tit" "$tmp/x" >/dev/null || fail "tit-trace expand failed"
    [ "$(sed -n 2p "$tmp/x/rank-1.txt")" = "1 recv 0 0 8" ] || fail "action 2 of rank 1 is not line 2 of its expanded file" ;;
  deadlock-rendezvous) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/circular"
    expect_error 3 "deadlock" "rank-0.txt:2: 0 send 1 0 1e6" "rank-1.txt:2: 1 send 0 0 1e6" ;;
  unsupported-action) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/unsupported"
    expect_error 2 "rank-0.txt:2: error:" "'Start'" "not supported yet" ;;
  unknown-action) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/unknown"
    expect_error 2 "rank-0.txt:3: error:" "sned" ;;
  missing-traces) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/no-such-dir"; expect_error 2 "no-such-dir" ;;
  missing-platform) run "$d/nothere.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "nothere.xml" ;;
  bad-platform) run "$d/broken.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "broken.xml" ;;
  unknown-host) run --hostfile "$d/abc.hosts" "$d/broken.xml" "$d/detached"; expect_error 2 "broken.xml" ;;
  rank-mismatch) run "$d/two-hosts.xml" "$d/deploy3.xml" "$d/detached"; expect_error 2 "rank mismatch" ;;
  merged-rank-mismatch) # a merged file's ranks are counted even when a placement or --np gives the count: more ranks
    # would replay as ranks without actions, fewer would leave lines unread, a huge --np would exhaust memory
    m=$d/detached-thesis.txt.gz
    run "$d/two-hosts.xml" "$d/deploy3.xml" "$m"
    expect_error 2 "error: rank mismatch: merged trace '$m' holds the lines of ranks 0 to 1 (2 ranks) but --np or the placement gives 3"
    for np in 1 3 2000000000; do
      run --np "$np" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$m"
      expect_error 2 "(2 ranks) but --np or the placement gives $np"
    done
    run "${IDEAL[@]}" --np 2 "$d/two-hosts.xml" "$d/deploy2.xml" "$m"; expect_time 8 ;;
  local-copy) # compute 2 s, then two sendRecvs to itself: 500 B, then 300 B sent into 200 B (the smaller is copied)
    run "${IDEAL[@]}" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"; expect_time 2 # free (default)
    run "${IDEAL[@]}" --cfg=tit/local-copy-bw:100 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_time 9 # 2 + 500 / 100 + 200 / 100
    # by size: 100 B/s up to 400 B, 50 B/s beyond (a copy out of the caches): 2 + 500 / 50 + 200 / 100
    run "${IDEAL[@]}" "--cfg=tit/local-copy-bw:0:100;400:50" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_time 14
    # an entry's size is the largest strictly below the copy's: 200 B takes the first entry's rate, also below it
    run "${IDEAL[@]}" "--cfg=tit/local-copy-bw:300:100;500:50" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_time 9 ;;
  local-copy-alltoall) # 4 ranks, alltoall of 1000 B blocks on cluster4 (1 s, 1000 B/s per direction and node)
    for algo in linear pairwise; do
      run "${IDEAL[@]}" --cfg=coll/alltoall:$algo --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/local-copy-a2a"
      case $algo in # linear: 3 flows share each node's links: 1 + 3 x 1016 / 1000; pairwise: 3 sendrecvs of 1 + 1.016
        linear) expect_time 4.048 ;;
        pairwise) expect_time 6.048 ;;
      esac
      run "${IDEAL[@]}" --cfg=coll/alltoall:$algo --cfg=tit/local-copy-bw:1000 --hostfile "$d/cluster4.hosts" \
        "$d/cluster4.xml" "$d/local-copy-a2a"
      case $algo in # the own block (1000 B at 1000 B/s) is copied first: 1 s more
        linear) expect_time 5.048 ;;
        pairwise) expect_time 7.048 ;;
      esac
    done ;;
  local-copy-config) # the rate from the platform's <config> (100 B/s); --cfg wins over it
    run "${IDEAL[@]}" --hostfile "$d/one.hosts" "$d/two-hosts-copy.xml" "$d/local-copy"; expect_time 9
    run "${IDEAL[@]}" --cfg=tit/local-copy-bw:0 --hostfile "$d/one.hosts" "$d/two-hosts-copy.xml" "$d/local-copy"
    expect_time 2 ;;
  local-copy-bad) # a negative, infinite or non-numeric rate is bad input
    run --cfg=tit/local-copy-bw:-5 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_error 2 "error: bad model parameter: tit/local-copy-bw '-5': expected a rate in bytes per second, a finite number >= 0"
    run --cfg=tit/local-copy-bw:inf --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_error 2 "tit/local-copy-bw 'inf'"
    run --cfg=tit/local-copy-bw:fast --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_error 2 "tit/local-copy-bw" "fast"
    run "--cfg=tit/local-copy-bw:0:100;400:0" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/local-copy"
    expect_error 2 "tit/local-copy-bw '0:100;400:0': expected a rate" "or 'SIZE:RATE;...' (rates > 0" "must be positive, got 0" ;;
  host-availability) # detached on cluster4 (1 flop/s): rank 0 computes 5, sends 984 B eagerly (arrives 2 s later),
    # computes 3; rank 1 receives. n0 at half its speed doubles rank 0's computations; n1's has nothing to slow down
    run "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"; expect_time 8
    run "${IDEAL[@]}" --cfg=tit/host-availability:n0:0.5 --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"
    expect_time 16
    run "${IDEAL[@]}" --cfg=tit/host-availability:n1:0.5 --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"
    expect_time 8
    run "${IDEAL[@]}" "--cfg=tit/host-availability:n0:0.25;n1:0.5" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" \
      "$d/detached"
    expect_time 32 ;;
  in-order-delivery) # rank 0 isends 3 eager messages of 984 B to rank 1 at once (two-hosts: 1 s latency, then
    # 1000 B at 1000 B/s); rank 1 receives the first, computes 1 s, receives the other two. Shared fairly (the
    # default) all three arrive at 1 + 3000 / 1000 = 4 s: rank 1 ends at 4 + 1 = 5. In order, one after the other,
    # each paying the latency: at 2, 4 and 6 s: rank 1 ends at 6. Without eager messages the option changes nothing.
    run "${IDEAL[@]}" --cfg=smpi/async-small-thresh:65536 --actions-log "$tmp/log" "$d/two-hosts.xml" "$d/deploy2.xml" \
      "$d/in-order"
    expect_time 5
    [[ $(awk -F'\t' '$1 == 1 && $4 ~ /recv/ { printf "%s ", $3 + 0 }' "$tmp/log") == "4 5 5 " ]] ||
      fail "shared: rank 1's receives should end at 4, 5, 5 s"
    run "${IDEAL[@]}" --cfg=smpi/async-small-thresh:65536 --cfg=tit/in-order-delivery:yes --actions-log "$tmp/log" \
      "$d/two-hosts.xml" "$d/deploy2.xml" "$d/in-order"
    expect_time 6
    [[ $(awk -F'\t' '$1 == 1 && $4 ~ /recv/ { printf "%s ", $3 + 0 }' "$tmp/log") == "2 4 6 " ]] ||
      fail "in order: rank 1's receives should end at 2, 4, 6 s"
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/in-order"
    expect_time 7
    run "${IDEAL[@]}" --cfg=tit/in-order-delivery:yes "$d/two-hosts.xml" "$d/deploy2.xml" "$d/in-order"
    expect_time 7
    run --cfg=tit/in-order-delivery:maybe "$d/two-hosts.xml" "$d/deploy2.xml" "$d/in-order"
    expect_error 2 "--cfg=tit/in-order-delivery:maybe: not a boolean" ;;
  busy-wait) # detached with both ranks on host A (1 flop/s, 1 core): rank 0 computes 5, sends 984 B to rank 1
    # over A's loopback (SimGrid's default, 10 GB/s: 1e-7 s for 1000 bytes), computes 3; rank 1 waits from the
    # start. Holding no core while it waits (the default): 5 + 3 = 8. Polling (1): rank 1 holds half the core
    # until the message arrives, so rank 0 computes 5 in 10 s, and its next 1e-7 s at half speed: 13 + 0.5e-7.
    # At most a quarter of a core (0.25): 5 / 0.75 + 3 + 0.25e-7. A host of 2 cores has one for the waiting rank.
    run "${IDEAL[@]}" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/detached"; expect_time 8
    run "${IDEAL[@]}" --cfg=tit/busy-wait:1 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/detached"
    expect_time 13.00000005
    run "${IDEAL[@]}" --cfg=tit/busy-wait:0.25 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/detached"
    expect_time "$(awk 'BEGIN { printf "%.12f", 5 / 0.75 + 3 + 0.25e-7 }')"
    sed 's/<host id="A" speed="1f"\/>/<host id="A" speed="1f" core="2"\/>/' "$d/two-hosts.xml" >"$tmp/two-cores.xml"
    grep -q 'core="2"' "$tmp/two-cores.xml" || fail "no 2-core host in the copy of two-hosts.xml"
    run "${IDEAL[@]}" --cfg=tit/busy-wait:1 --hostfile "$d/one.hosts" "$tmp/two-cores.xml" "$d/detached"; expect_time 8
    # A rank polling while the trace deadlocks holds a computation that outlasts any run: the deadlock is still found.
    run --cfg=tit/busy-wait:1 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/deadlock"
    expect_error 3 "the trace deadlocks" "rank 0 blocked in" "rank 1 blocked in"
    run --cfg=tit/busy-wait:1.5 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/detached"
    expect_error 2 "error: bad model parameter: tit/busy-wait '1.5': expected the share of a core a waiting rank holds, a number in [0, 1]" ;;
  call-overheads) # tit/oir, tit/os-self and tit/ois-wait. nonblocking: rank 1 posts its irecv of 984 B (0.5 + 0.001 x 984 s), computes
    # 4 and waits for the message, there since 2: 1.484 + 4 + 0.5 (smpi/or) = 5.984 (4.5 without tit/oir).
    run "${IDEAL[@]}" --cfg=smpi/or:0:0.5:0 --cfg=tit/oir:0:0.5:0.001 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 5.984
    # self-send: one rank computes 2, sends 984 B to itself (detached), receives it, isends 984 B to itself, receives
    # it; each message crosses A's loopback (no latency) in 1e-7 s. smpi/os (0.5 + 0.001 x 984), smpi/ois (0.1) and
    # smpi/or at each receive (0.125) charged as SimGrid does: 2 + 1.484 + 0.1 + 2 x 0.125 + 2e-7; tit/os-self
    # (0.25) instead, the message copied within the send (no bytes cross the loopback, no smpi/or): 2 + 2 x 0.25.
    self_cfg=(--cfg=smpi/os:0:0.5:0.001 --cfg=smpi/ois:0:0.1:0 --cfg=smpi/or:0:0.125:0)
    run "${IDEAL[@]}" "${self_cfg[@]}" --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/self-send"
    expect_time 3.8340002
    run "${IDEAL[@]}" "${self_cfg[@]}" --cfg=tit/os-self:0:0.25:0 --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/self-send"
    expect_time 2.5
    run --cfg=tit/os-self:abc --hostfile "$d/one.hosts" "$d/two-hosts.xml" "$d/self-send"
    expect_error 2 "error: bad model parameter: tit/os-self 'abc'" "(expected 'threshold:offset:slope;...')"
    # tit/ois-wait: the wait completing a buffered isend. nonblocking: rank 0 isends 984 B, computes 2, and its wait
    # pays 3 + 0.001 x 984: 5.984 (rank 1 is done at 4). A blocking send does not pay it (detached: still 8).
    run "${IDEAL[@]}" --cfg=tit/ois-wait:0:3:0.001 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 5.984
    run "${IDEAL[@]}" --cfg=tit/ois-wait:0:3:0.001 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_time 8
    run --cfg=tit/ois-wait:1:x "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_error 2 "error: bad model parameter: tit/ois-wait '1:x'" "(expected 'threshold:offset:slope;...')" ;;
  rank-start) # tit/rank-start: nonblocking with rank 0 starting at 3: its isend of 984 B (+ 16 B of envelope) leaves at 3
    # and arrives at 3 + 1 + 1000 / 1000 = 5; rank 0 is done at 3 + 2 = 5; rank 1 computes until 4 and waits for the
    # message until 5 (4 when both start at 0; the message in flight since 3, that second counts as communicating).
    # A rank's `finish` is from its own start, as a traced rank's span is from its own return from MPI_Init: rank 0's
    # 2. Rank 1 starting at 1 instead: its compute ends at 5, the message long there: simulated time 5, its finish 4.
    run "${IDEAL[@]}" --per-rank --cfg=tit/rank-start:0:3 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 5
    awk '$2 == "A" && $3 == "2.000000000" { a = 1 } $2 == "B" && $3 == "5.000000000" && $5 == "1.000000000" { b = 1 }
         END { exit !(a && b) }' "$out" ||
      fail "rank 0 should finish 2 s after its start, rank 1 at 5 after 1 s in its wait for the late rank 0: $(cat "$out")"
    run "${IDEAL[@]}" --per-rank --cfg='tit/rank-start:1:1;0:0' "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 5
    awk '$2 == "B" && $3 == "4.000000000" { b = 1 } END { exit !b }' "$out" || fail "rank 1 should finish 4 s after its start: $(cat "$out")"
    # a start below SimGrid's precision (1e-9 s) is none: the time of both starting at once, and no SimGrid line
    run "${IDEAL[@]}" --cfg=tit/rank-start:1:1e-12 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_time 4
    ! grep -q "numerical accuracy" "$err" || fail "SimGrid's precision warning shown: $(cat "$err")"
    run --cfg=tit/rank-start:2:1 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_error 2 "error: tit/rank-start names rank 2, but $d/nonblocking has 2 rank(s) (0 to 1)"
    run --cfg='tit/rank-start:1:1;1:2' "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_error 2 "error: bad model parameter: tit/rank-start '1:1;1:2'" "rank 1 is given twice"
    run --cfg=tit/rank-start:1:-0.5 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_error 2 "tit/rank-start '1:-0.5'" "'-0.5' is not a number of seconds >= 0"
    run --cfg=tit/rank-start:x:1 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/nonblocking"
    expect_error 2 "tit/rank-start 'x:1'" "'x' is not a rank number" ;;
  host-availability-bad) # an unknown host, a fraction outside (0, 1], an entry without one: bad input
    run --cfg=tit/host-availability:n9:0.5 --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"
    expect_error 2 "error: bad model parameter: tit/host-availability 'n9:0.5': the platform has no host 'n9' (expected 'HOST:FRACTION;...'"
    run --cfg=tit/host-availability:n0:1.5 --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"
    expect_error 2 "tit/host-availability 'n0:1.5': the fraction of 'n0' is '1.5'"
    run --cfg=tit/host-availability:n0 --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" "$d/detached"
    expect_error 2 "tit/host-availability 'n0': 'n0' is not HOST:FRACTION" ;;
  bad-cfg-value) run --cfg=smpi/os:abc "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "smpi/os" "abc" ;;
  unknown-cfg) run --cfg=smpi/nonsense:1 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "smpi/nonsense" ;;
  bad-option) run --frobnicate "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "frobnicate" ;;
  cfg-no-value) run --cfg=help "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"; expect_error 2 "--cfg=help" "NAME:VALUE" ;;
  cfg-lazy-no-select) # SimGrid 3.32 aborts with a core dump on this one
    run --cfg=network/maxmin-selective-update:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_error 2 "network/maxmin-selective-update:no" "needs selective update" ;;
  parallel-contexts) run --cfg=contexts/nthreads:2 "$d/two-hosts.xml" "$d/deploy2.xml" "$d/detached"
    expect_error 2 "contexts/nthreads:2" "expected 1" ;;
  probe) run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/probe"
    expect_time 7.0086 ;; # probes of 1e-4 x 1, 2, ... 316 s reach 5.0086 s, then the 2 s transfer (as smpirun)
  deadlock-probe) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/probe-deadlock"
    expect_error 3 "deadlock" "rank 0 blocked in $d/probe-deadlock/rank-0.txt:2: 0 recv 1 0 -1" "rank-1.txt:2: 1 recv 0 0 8" ;;
  deadlock-polling) # a trace that polls and deadlocks: the report says which rule its tests followed, and SimGrid's
    # own "Oops! Deadlock detected" line is not shown
    run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/deadlock-polling"
    expect_error 3 "the trace deadlocks" "rank 0 blocked in $d/deadlock-polling/rank-0.txt:4: 0 recv 1 5 8" \
      "the trace polls (tests or waitAny): they took their traced outcome (tit/traced-tests, the default)"
    ! grep -q "Oops" "$err" || fail "SimGrid's deadlock line is shown"
    run --cfg=tit/traced-tests:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/deadlock-polling"
    expect_error 3 "the trace polls (tests or waitAny) and --cfg=tit/traced-tests:no gave them the replay's own outcome"
    ! grep -q "Oops" "$err" || fail "SimGrid's deadlock line is shown"
    run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/deadlock"
    ! grep -q "the trace polls" "$err" || fail "a trace without tests said it polls" ;;
  deadlock-pending) run "$d/two-hosts.xml" "$d/deploy2.xml" "$d/pending"
    expect_error 3 "deadlock" "rank 0 blocked in" "end of its trace, waiting for 1 request(s)" ;;
  test-traced-pending) # the replay's first test completes the receive (arrived at 2); the trace tests it again and
    # waits for it (its traced test failed): both find the completed request, without a "never posted" warning
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/test-pending"; expect_time 10.0001
    ! grep -q "never posted" "$err" || fail "warned of a request never posted" ;;
  test-traced-repost) # the test at 0 fails in the replay; the trace posts the same key again before naming it,
    # so its traced test succeeded: with tit/traced-tests (the default) it waits for the message (sent at 5, in at
    # 7), computes to 17, and the wait takes the second message (sent at 25, in at 27), then 10 s: 37. With
    # tit/traced-tests:no (as SimGrid) that wait takes the first request (done) and the second one is waited for
    # at the end: 10.0001 + 10 -> 27.
    run "${IDEAL[@]}" --cfg=tit/traced-tests:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/test-repost"; expect_time 27
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/test-repost"
    expect_time 37 ;;
  waitany-traced) # tag 0 is in at 2, tag 1 at 12; the trace waits for tag 0 after waitAny, so waitAny took tag 1:
    # with tit/traced-tests (the default) it waits for tag 1 (12), then computes 10: 22; with :no it takes tag 0: 12
    run "${IDEAL[@]}" --cfg=tit/traced-tests:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/waitany-traced"; expect_time 12
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/waitany-traced"
    expect_time 22 ;;
  testany-traced) # testany at 1 fails (message in at 7); nothing names the request later, so the traced testany
    # completed it: with tit/traced-tests (the default) it waits until 7, then computes 10: 17; with :no 1.0001 + 10
    run "${IDEAL[@]}" --cfg=tit/traced-tests:no "$d/two-hosts.xml" "$d/deploy2.xml" "$d/testany-traced"; expect_time 11.0001
    run "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$d/testany-traced"
    expect_time 17 ;;
  bad-traced-tests) run --cfg=tit/traced-tests:maybe "$d/two-hosts.xml" "$d/deploy2.xml" "$d/testall"
    expect_error 2 "tit/traced-tests:maybe: not a boolean" ;;
  test-lookahead-window) # the wait comes 1001 actions after the test, beyond the look-ahead window: the traced
    # outcome is unknown (warned), the replay's failed test stands and the wait receives at 7
    tr=$tmp/tr; mkdir "$tr"
    { printf '0 init\n0 irecv 1 0 984\n0 test 1 0 0\n'; for _ in $(seq 1001); do echo "0 compute 0"; done
      printf '0 wait 1 0 0\n0 finalize\n'; } >"$tr/rank-0.txt"
    printf '1 init\n1 compute 5\n1 send 0 0 984\n1 finalize\n' >"$tr/rank-1.txt"
    run "${IDEAL[@]}" --cfg=tit/traced-tests:yes "$d/two-hosts.xml" "$d/deploy2.xml" "$tr"; expect_time 7
    grep -qF "rank-0.txt:3: warning: rank 0: the next 1000 actions neither name nor post again a request this line tests or waits for" "$err" ||
      fail "no look-ahead warning" ;;
  determinism) run "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"; first=$(cat "$out")
    run "$d/two-hosts.xml" "$d/deploy3.xml" "$d/barrier"; [ "$first" = "$(cat "$out")" ] || fail "two runs differ" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
