#!/usr/bin/env bash
# Shell tests of the calibration tools. Usage: run.sh BUILD_DIR CASE
set -uo pipefail
build=$(realpath "$1")
case=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$build/bin
python=${TIT_PYTHON:-/usr/bin/python3}
[[ -x $python ]] || python=python3
work=$(mktemp -d "${TMPDIR:-/tmp}/tit-calib-$case.XXXXXX")
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work # Open MPI's session directory: two mpiruns starting at once race on a shared one
cd "$work"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect CODE PATTERN CMD...: CMD exits with CODE and its stderr contains PATTERN (fixed string)
expect() {
  local code=$1 pattern=$2
  shift 2
  "$@" >out.txt 2>err.txt
  local got=$?
  [[ $got == "$code" ]] || fail "$* exited $got, expected $code; stderr: $(cat err.txt)"
  grep -qF -- "$pattern" err.txt || fail "$*: stderr lacks '$pattern': $(cat err.txt)"
}

case $case in
  compare)
    # A real replay's actions log against the traced run's timings (data/trace-timings: the send took 0.5 s, the
    # receive 1.5 s, 5 s of computation at 1e9 units/s; the platform's hosts compute at 1.5e9).
    t=$here/data/trace-timings/traces.txt
    "$bin/tit-replay" --hostfile "$root/platforms/cluster-backbone.hosts" "$root/platforms/cluster-backbone.xml" "$t" \
      --actions-log actions.log >replay.out 2>replay.err || fail "replay: $(cat replay.err)"
    simulated=$(sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p' replay.out)
    "$bin/tit-calibrate" compare "$t" actions.log --csv compare.csv --top 3 >report.txt 2>err.txt ||
      fail "compare: $(cat err.txt)"
    "$python" - "$simulated" compare.csv <<'EOF' || fail "compare.csv: $(cat compare.csv)"
import csv, sys
simulated, path = float(sys.argv[1]), sys.argv[2]
lines = open(path).read().splitlines()
meta = dict(l[2:].split(": ") for l in lines if l.startswith("# ") and ": " in l)
assert abs(float(meta["replayed_span_s"]) - simulated) <= 1e-6 * simulated, (meta, simulated)
assert float(meta["measured_span_s"]) == 3.5, meta
rows = {(r["action"], r["band"]): r for r in csv.DictReader(l for l in lines if not l.startswith("#"))}
c = rows[("compute", "")]
assert int(c["count"]) == 4 and float(c["measured_s"]) == 5 and abs(float(c["replayed_s"]) - 5 / 0.75) < 1e-6, c
assert float(rows[("send", "[0, 1024)")]["measured_s"]) == 0.5, rows
EOF
    grep -q '^the 3 actions whose replayed time differs most' report.txt || fail "report: $(cat report.txt)"
    [[ $(grep -c 'measured .* us, replayed' report.txt) == 3 ]] || fail "report's outliers: $(cat report.txt)"
    expect 2 "error: --breaks: expected increasing sizes, got 100,10" "$bin/tit-calibrate" compare "$t" actions.log --breaks 100,10
    expect 2 "missing.log: error: cannot open the actions log" "$bin/tit-calibrate" compare "$t" missing.log
    # the log of another trace
    sed -i 's/\t1 recv 0 0 100/\t1 send 0 0 100/' actions.log
    expect 2 "error: rank 1's action 2 is 'send' here and 'recv' at" "$bin/tit-calibrate" compare "$t" actions.log
    echo "compare: ok ($(sed -n 's/^span.*: //p' report.txt))"
    ;;
  compare-collectives)
    # tit-calibrate compare --platform: a 2-rank allreduce whose last rank (1) was in it 0.5 s (one host's clock,
    # origins 10 and 9.5 s) gets that cost in the replay: the fitted tit/coll-overhead plus the algorithm's time.
    mkdir run && cd run || fail "mkdir"
    printf '0 init\n0 compute 1e9\n0 allreduce 1 0 0\n0 finalize\n' >rank-0.txt
    printf '1 init\n1 compute 2e9\n1 allreduce 1 0 0\n1 finalize\n' >rank-1.txt
    printf 'rank-0.txt\nrank-1.txt\n' >traces.txt
    printf '# origin: 10 s\n# host: h\nline,action,start_s,end_s\n1,init,0,0\n2,compute,0,1\n3,allreduce,1,2.5\n4,finalize,2.5,2.5\n' >timings-0.csv
    printf '# origin: 9.5 s\n# host: h\nline,action,start_s,end_s\n1,init,0,0\n2,compute,0,2.5\n3,allreduce,2.5,3\n4,finalize,3,3\n' >timings-1.csv
    cd .. || fail "cd"
    cp "$root/platforms/cluster-backbone.xml" p.xml
    replay=("$bin/tit-replay" --hostfile "$root/platforms/cluster-backbone.hosts")
    "${replay[@]}" p.xml run/traces.txt --actions-log a.log >/dev/null 2>replay.err || fail "replay: $(cat replay.err)"
    "$bin/tit-calibrate" compare run/traces.txt a.log --top 0 --platform p.xml -o fitted.xml >report.txt 2>err.txt ||
      fail "compare --platform: $(cat err.txt)"
    grep -q '^set tit/coll-overhead = allreduce:0:' report.txt || fail "no tit/coll-overhead set: $(cat report.txt)"
    grep -q 'id="tit/coll-overhead"' fitted.xml || fail "fitted.xml lacks tit/coll-overhead"
    "${replay[@]}" fitted.xml run/traces.txt --actions-log b.log >/dev/null 2>replay.err || fail "replay: $(cat replay.err)"
    "$python" - a.log b.log <<'EOF' || fail "the fitted platform does not give the call its measured cost"
import sys
def last(path):  # the allreduce of the rank that entered it last: its duration
    rows = [l.rstrip("\n").split("\t") for l in open(path) if not l.startswith("#")]
    calls = [(float(r[1]), float(r[2])) for r in rows if r[3].split()[1] == "allreduce"]
    start, end = max(calls)
    return end - start
before, after = last(sys.argv[1]), last(sys.argv[2])
assert before < 0.01, before
assert abs(after - 0.5) < 1e-9, (before, after)
EOF
    expect 2 "fitted.xml: error: the platform already has tit/coll-overhead" \
      "$bin/tit-calibrate" compare run/traces.txt b.log --platform fitted.xml
    expect 2 "--output requires --platform" "$bin/tit-calibrate" compare run/traces.txt a.log -o x.xml
    echo "compare-collectives: ok"
    ;;
  synthetic-replay)
    # A machine that follows the model exactly: the fitted platform must make tit-replay reproduce
    # its ping-pong to rounding (simulated quantities are compared tightly, not with a tolerance).
    "$python" "$here/synthetic_p2p.py" p2p.csv 1.25e8 2e-5 2 || fail "generator"
    "$bin/tit-calibrate" platform --node-bw 1.25e8 --node-lat 2e-5 --switch-lat 0 --switch-bw 1e10 \
      -o platform.xml --hostfile hosts || fail "platform generation"
    "$bin/tit-calibrate" fit --p2p p2p.csv --bandwidth 1.25e8 --latency 2e-5 --links 2 --platform platform.xml \
      >report.txt || fail "fit: $(cat report.txt)"
    grep -q "^Segments (found by segmented regression): breaks 1420,32768,65536$" report.txt ||
      fail "breaks: $(grep Segments report.txt)"
    grep -q "sizes below 65537 bytes are detached" report.txt || fail "protocol: $(grep Protocol report.txt)"
    "$python" "$root/calibration/pingpong_check.py" --p2p p2p.csv --platform platform.xml --replay "$bin/tit-replay" \
      --hosts "$(paste -sd, hosts)" --workdir . --tolerance 1e-6 || fail "replay differs from the model"
    ;;
  generator-simgrid)
    # A generated 2-cabinet cluster loads in SimGrid's own replayer and in tit-replay, which agree.
    "$bin/tit-calibrate" platform --cabinets 2 --nodes-per-cabinet 2 --node-bw 1.25e8 --node-lat 1e-5 \
      --switch-lat 1e-6 --uplink-bw 1e9 --uplink-lat 5e-6 -o gen.xml --hostfile gen.hosts || fail "generation"
    [[ $(wc -l <gen.hosts) == 4 ]] || fail "hostfile: $(cat gen.hosts)"
    ours=$("$bin/tit-replay" --hostfile gen.hosts gen.xml "$root/traces/ring4.list" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
    [[ -n $ours ]] || fail "tit-replay on the generated platform"
    ref=$(cd "$root" && tests/differential/reference.sh traces/ring4.list 4 "$work/gen.xml" "$work/gen.hosts" 2>"$work/err.txt") ||
      fail "smpirun -replay on the generated platform: $(cat err.txt)"
    "$python" -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(abs(a - b) > 1e-9 * b)" "$ours" "$ref" ||
      fail "tit-replay $ours vs SimGrid $ref"
    echo "generated platform: tit-replay $ours s, smpirun -replay $ref s"
    ;;
  cli-errors)
    printf '# tit-calibrate p2p v1\nexperiment,size,iteration,seconds\nsend,12,0,1e-6\nsend,12,0,abc\n' >bad.csv
    expect 2 "bad.csv:4:4: error: column 'seconds' expects a number, got 'abc'" \
      "$bin/tit-calibrate" fit --p2p bad.csv --bandwidth 1e9 --latency 1e-6
    expect 2 "missing.csv: error: cannot open the measurement file" \
      "$bin/tit-calibrate" fit --p2p missing.csv --bandwidth 1e9 --latency 1e-6
    expect 2 "error: fitting --p2p needs --bandwidth and --latency" "$bin/tit-calibrate" fit --p2p bad.csv
    expect 2 "error: nothing to fit: give --p2p, --contention and/or --cpu" "$bin/tit-calibrate" fit
    expect 2 "--max-bw-factor: Value 0 not in range 0.001000 to 1000.000000" "$bin/tit-calibrate" fit --p2p bad.csv --max-bw-factor 0
    expect 2 "--busy-wait: Value 2 not in range 0.000000 to 1.000000" "$bin/tit-calibrate" fit --p2p bad.csv --busy-wait 2
    # from-trace: the 100-byte send of rank 0 took 0.5 s; rendez-vous above 50 bytes leaves nothing to fit
    expect 2 "error: nothing to fit in situ: the trace has no isend, irecv or detached send, no test and no sendRecv to itself of two sizes or more with a timing; 1 send(s) of at least 50 bytes (rendez-vous) left out of os" \
      "$bin/tit-calibrate" from-trace "$here/data/trace-timings/traces.txt" --detached-thresh 50
    expect 2 "error: cannot open trace" "$bin/tit-calibrate" from-trace missing-traces
    expect 2 "nope.xml: error: no such platform (give --template to create it from another)" \
      "$bin/tit-calibrate" from-trace "$here/data/trace-timings/traces.txt" --platform nope.xml
    "$bin/tit-calibrate" platform -o tmpl.xml >/dev/null || fail "platform generation"
    "$bin/tit-calibrate" from-trace "$here/data/trace-timings/traces.txt" --template tmpl.xml --platform situ.xml \
      >situ.out || fail "from-trace into a platform"
    grep -q '<prop id="smpi/os" value="0:0.5:0" />' situ.xml || fail "from-trace did not write smpi/os 0:0.5:0"
    # from-trace's network factors: two messages whose receives ended 12.032 us and 16.032 us after their sends
    # began, on the host's clock (the ranks' origins differ by 0.5 s): on 2 links of 10 us and 1 GB/s, latency
    # and bandwidth factors of 0.5
    "$bin/tit-calibrate" from-trace "$here/data/trace-network/traces.txt" --template tmpl.xml --platform net.xml \
      --bandwidth 1e9 --latency 1e-5 --links 2 >net.out || fail "from-trace with a route"
    for f in lat bw; do # 0.5 to 1e-6 (the times in the files have 10-12 significant digits)
      grep -oP "<prop id=\"smpi/$f-factor\" value=\"0:\K[0-9.e-]+(?=\" />)" net.xml |
        awk '{ exit !($1 > 0.5 - 1e-6 && $1 < 0.5 + 1e-6) }' || fail "from-trace: $f-factor not 0:0.5: $(grep factor net.xml)"
    done
    grep -q '^network: 2 message(s) matched' net.out || fail "from-trace: no network line in the report"
    expect 2 "timings-0.csv: error: '# origin:' expects a time in seconds, got 'soon'" \
      "$bin/tit-calibrate" from-trace "$(mkdir -p badnet && cp "$here"/data/trace-network/* badnet/ &&
        sed -i 's/^# origin: 100.0 s.*/# origin: soon/' badnet/timings-0.csv && echo badnet/traces.txt)" --bandwidth 1e9 --latency 1e-5
    "$python" "$here/synthetic_p2p.py" good.csv 1.25e8 2e-5 2 || fail "generator"
    expect 2 "error: --breaks expects sizes in bytes separated by commas, got 'x'" \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --breaks 10,x
    expect 2 "error: segment (10, 11] of sizes has 1 'send' measurement(s); at least 2 are needed" \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --breaks 10,11
    expect 2 "tit-calibrate: error: --plot-dir needs --curves" \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --plot-dir plots
    expect 2 "A subcommand is required" "$bin/tit-calibrate"
    expect 2 "--output is required" "$bin/tit-calibrate" platform
    expect 2 "error: the node link bandwidth must be > 0, got -1" "$bin/tit-calibrate" platform --node-bw -1 -o x.xml
    expect 2 "error: creating a platform needs --bandwidth and --latency" \
      "$bin/tit-calibrate" fit --cpu cpu.csv --platform new.xml
    expect 2 "/nonexistent/p.xml: error: cannot write the platform file" \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --platform /nonexistent/p.xml
    expect 2 "/nonexistent/r.txt: error: cannot write the file" \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --report /nonexistent/r.txt
    printf '# tit-calibrate cpu v1\nrank,problem,iteration,burst,volume,seconds\n0,1,0,0,1e9,0\n' >zero.csv
    expect 2 "error: rank 0 problem 1 repetition 0: compute bursts of zero duration" \
      "$bin/tit-calibrate" fit --cpu zero.csv
    expect 1 "tit-calibrate: error: plotting failed" env TIT_PLOT_SCRIPT=/nonexistent.py \
      "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --curves c.csv --plot-dir plots
    "$bin/tit-calibrate" fit --p2p good.csv --bandwidth 1e9 --latency 1e-6 --breaks 1420,2000000 >out.txt ||
      fail "fit with a break beyond the sizes"
    grep -qF "warning: break 2000000 is at or beyond the largest size measured" out.txt || fail "$(cat out.txt)"
    "$bin/tit-calibrate" --help | grep -q "fit" || fail "--help"
    "$bin/tit-calibrate" fit --help | grep -q -- "--breaks" || fail "fit --help"
    # The MPI programs: bad options and a single rank stop with exit code 2 and a message.
    expect 2 "calib-p2p: error: needs at least 2 ranks" timeout 60 mpirun --oversubscribe -np 1 "$bin/calib-p2p" -o x.csv
    expect 2 "calib-contention: error: needs at least 2 ranks" \
      timeout 60 mpirun --oversubscribe -np 1 "$bin/calib-contention" -o x.csv
    expect 2 "--sizes: Value 0 not in range" timeout 60 mpirun --oversubscribe -np 2 "$bin/calib-p2p" --sizes 0
    expect 2 "--min-size: must not exceed --max-size" \
      timeout 60 mpirun --oversubscribe -np 2 "$bin/calib-p2p" --min-size 100 --max-size 10
    expect 2 "calib-cpu: error: cannot write the output file '/nonexistent/c.csv'" \
      timeout 60 mpirun --oversubscribe -np 1 "$bin/calib-cpu" --problems 1024 --reps 1 --volume 1e3 -o /nonexistent/c.csv
    expect 2 "calib-p2p: error: cannot write the output file '/nonexistent/x.csv'" \
      timeout 60 mpirun --oversubscribe -np 2 "$bin/calib-p2p" --max-size 10 --sizes 2 -o /nonexistent/x.csv
    ;;
  walkthrough-shm | walkthrough-tcp)
    "$root/calibration/walkthrough.sh" --small --mode "${case#walkthrough-}" --build "$build" --out out ||
      fail "walkthrough (exit $?)"
    for png in os or ois oneway pingpong-replay; do
      [[ -s out/plots/$png.png ]] || fail "missing plot $png.png"
    done
    grep -q "^# hosts: " out/p2p.csv && grep -q "^# mpi: Open MPI" out/p2p.csv && grep -q "^# date: " out/p2p.csv ||
      fail "p2p.csv header: $(head -8 out/p2p.csv)"
    grep -q '<prop id="smpi/os"' out/platform.xml && grep -q 'limiter_link=' out/platform.xml || fail "platform"
    # One host described as what it is: one node with this machine's cores, the ranks joined by its loopback link.
    [[ $(grep -c '<cluster ' out/platform.xml) -eq 1 ]] && grep -q 'radical="0-0"' out/platform.xml &&
      grep -q "core=\"$(nproc)\"" out/platform.xml || fail "not one node of $(nproc) cores: $(grep '<cluster' out/platform.xml)"
    [[ $(grep -cv '^#' out/hosts) -eq 1 ]] || fail "hostfile of $(wc -l <out/hosts) lines for one host"
    grep -q -- "--links 1" out/fit-options || fail "fit options: $(cat out/fit-options)"
    # Open MPI's ranks poll while they wait: the platform says so (a replay of more ranks than cores then shares them
    # with the waiting ranks too).
    grep -q '<prop id="tit/busy-wait" value="1" />' out/platform.xml || fail "no tit/busy-wait 1 in the platform"
    # No factor that describes no machine without the report saying why: a latency factor of 1e-06 or a bandwidth
    # factor of 1000 only with the warning that nothing else determined it.
    if grep -E '^smpi/lat-factor: .*:1e-06(;|$)' out/fit-report.txt; then
      grep -qE 'nor in any other band: latency factor 1e-06|leaves its times no growth with the size: latency factor 1e-06' \
        out/fit-report.txt || fail "a latency factor of 1e-06 that no warning explains"
    fi
    if grep -E '^smpi/bw-factor: .*:1000(;|$)' out/fit-report.txt; then
      grep -q 'nor in any other band: bandwidth factor set at 1000' out/fit-report.txt ||
        fail "a bandwidth factor of 1000 that no warning explains"
    fi
    # The polling calls' measured costs, under a millisecond (SimGrid's default is 1e-4 s growing with each call),
    # and no growth.
    grep -oP "<prop id=\"smpi/test\" value=\"\K[0-9.e+-]+(?=\" />)" out/platform.xml |
      awk '{ exit !($1 > 0 && $1 < 1e-3) }' || fail "smpi/test: $(grep "smpi/test" out/platform.xml)"
    grep -q '<prop id="smpi/grow-injected-times" value="no" />' out/platform.xml || fail "smpi/grow-injected-times"
    ! grep -q 'smpi/iprobe' out/platform.xml || fail "smpi/iprobe written: it steps the unknown-size receive's loop"
    grep -q '^polling: one MPI_Test that finds nothing ' out/fit-report.txt || fail "no polling line in the report"
    # The CPU speed is the traced run's rate, in its trace's unit, and the platform says so.
    unit=$(sed -n 's/^# unit: //p' out/cpu.csv)
    [[ -n $unit && $unit != unknown && $unit != flops ]] || fail "cpu.csv unit '$unit'"
    grep -q "^# compute: ${unit%% *}" out/cpu-trace/rank-0.txt || fail "cpu.csv unit '$unit' is not the trace's"
    grep -qF "<prop id=\"tit/speed-unit\" value=\"$unit\"" out/platform.xml || fail "platform speed unit"
    "$build/bin/tit-replay" --hostfile out/hosts out/platform.xml out/cpu-trace/trace.list >out/replay.out 2>out/replay.err ||
      fail "replay of the traced run"
    ! grep -q "speed-unit" out/replay.err || fail "unit warning on the walkthrough's own platform: $(cat out/replay.err)"
    ;;
  *) fail "unknown case $case" ;;
esac
echo "PASS: $case"
