#!/usr/bin/env bash
# Tests of the accuracy harness (accuracy/accuracy) and of its span library (libtit-span.so).
#   smoke         one mini-application, 1 rank, one plain and one traced run over shared memory, replayed on a
#                 generated platform and on that platform completed in situ (tit-calibrate from-trace)
#   errors        its usage errors
#   span-c, span-c-thread, span-fortran, span-f08
#                 a program that prints no span (C with MPI_Init or MPI_Init_thread, Fortran with mpif.h's
#                 MPI_Init_thread, Fortran with use mpi_f08) at 2 ranks: with libtit-span.so preloaded every
#                 rank prints its span; preloaded with the tracer too, the spans are printed and the trace is
#                 complete (every rank from init to finalize) and replays (not for mpi_f08, which the tracer
#                 does not wrap), in either order of the two libraries
#   programs      one harness call for programs of different rank counts (--program N=PATH:RULE, --ranks-of),
#                 the quiet program measured through the span library; runs.csv has every run
#   from          --from: predictions again from the kept runs, equal to the first ones with the same options,
#                 with the same measured columns with another CPU-rate source
#   from-errors   the usage errors of --from
#   route         the route given to the in-situ fit: two node links on a platform of one node per rank, the
#                 node's loopback on the one-host platform calibration/walkthrough.sh writes for shm and tcp; no
#                 in-situ fit for a case of more ranks than cores
# Usage: run.sh BUILD_DIR CASE
set -u
build=$(cd "$1" && pwd)
case_name=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib/case.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$build/bin/tit-calibrate" platform --nodes-per-cabinet 2 -o "$tmp/p.xml" --hostfile "$tmp/hosts" >/dev/null ||
  { echo "FAIL: tit-calibrate platform"; exit 1; }

bin=$build/accuracy-tests/bin
span_lib=$build/lib/libtit-span.so
acc=("$root/accuracy/accuracy" --build "$build")

# span_lines FILE NP: FILE has one `span RANK SECONDS FROM TO` line per rank 0..NP-1, each 0 < SECONDS < 60, and
# FROM < TO on the host's clock, read within the span's own two MPI_Wtime readings: TO - FROM at most SECONDS (+ 1 ms
# for two clocks' rates). Not at least SECONDS - 1 ms: a rank descheduled between the two readings of one end (a
# loaded machine) makes TO - FROM that much shorter.
span_lines() {
  local r
  [ "$(grep -c '^span ' "$1")" -eq "$2" ] || fail "$(grep -c '^span ' "$1") span lines, expected $2"
  for ((r = 0; r < $2; r++)); do
    awk -v r=$r '$1 == "span" && $2 == r && NF == 5 && $3 > 0 && $3 < 60 && $5 > $4 && $5 - $4 - $3 < 1e-3 {
                   ok = 1 } END { exit !ok }' "$1" ||
      fail "no plausible span line for rank $r"
  done
}

# span_case [--no-trace] PROGRAM [ARGS...]: the span library on a program that prints no span, plain and
# traced, 2 ranks. --no-trace: the tracer writes no trace of the program (it does not wrap `use mpi_f08`'s
# entry points, tracer/lib/wrap_fortran.cpp): only the spans of the traced run are checked.
span_case() {
  local np=2 trace=1
  [ "$1" != --no-trace ] || { trace=0; shift; }
  capture mpirun --oversubscribe -np $np "$@"
  expect_ok
  ! grep -q '^span ' "$out" || fail "the program prints spans itself: it tests nothing"
  capture mpirun --oversubscribe -np $np -x LD_PRELOAD="$span_lib" "$@"
  expect_ok
  span_lines "$out" $np
  # With the tracer: the span library first, so that its MPI_Init wraps the tracer's.
  capture mpirun --oversubscribe -np $np -x LD_PRELOAD="$span_lib:$build/lib/libtit-trace.so" \
    -x TIT_TRACE_DIR="$tmp/trace" -x TIT_TRACE_TIMINGS=1 "$@"
  expect_ok
  span_lines "$out" $np
  [ $trace -eq 1 ] || return 0
  [ -f "$tmp/trace/trace.list" ] || fail "no trace.list"
  [ "$(wc -l <"$tmp/trace/trace.list")" -eq $np ] || fail "trace.list does not name $np files"
  local r f
  for ((r = 0; r < np; r++)); do
    f=$(sed -n "$((r + 1))p" "$tmp/trace/trace.list")
    [[ $f = /* ]] || f=$tmp/trace/$f
    [ "$(grep -v '^#' "$f" | head -1)" = "$r init" ] || fail "rank $r's trace does not start with init"
    [ "$(grep -v '^#' "$f" | tail -1)" = "$r finalize" ] || fail "rank $r's trace does not end with finalize"
    grep -q "^$r allreduce " "$f" || fail "rank $r's trace lacks the program's allreduce"
  done
  capture "$build/bin/tit-replay" --hostfile "$tmp/hosts" "$tmp/p.xml" "$tmp/trace/trace.list"
  expect_ok
  grep -q '^Simulated time:' "$out" || fail "the trace does not replay"
  # The other order: the tracer's MPI_Init calls PMPI_Init, which the span library wraps as well.
  capture mpirun --oversubscribe -np $np -x LD_PRELOAD="$build/lib/libtit-trace.so:$span_lib" \
    -x TIT_TRACE_DIR="$tmp/trace2" "$@"
  expect_ok
  span_lines "$out" $np
  [ "$(wc -l <"$tmp/trace2/trace.list")" -eq $np ] || fail "the tracer preloaded first wrote no trace"
}

# body FILE: the rows of a CSV file without its comment lines.
body() { grep -v '^#' "$1"; }

case $case_name in
  span-c) span_case "$bin/quiet" ;;
  span-c-thread) span_case "$bin/quiet" thread ;;
  span-fortran) span_case "$bin/fquiet" ;;
  span-f08) span_case --no-trace "$bin/fquiet08" ;;
  programs)
    # More ranks than cores (on a machine of at most 4 cores): the case is marked oversubscribed.
    cores=$(nproc)
    over=()
    [ "$cores" -gt 4 ] || over=(--program "over=$bin/quiet:$((cores + 1))")
    capture "${acc[@]}" --platform "shm=$tmp/p.xml,$tmp/hosts" --program "quiet=$bin/quiet:pow2" --ranks 1,2 \
      --apps halo2d --ranks-of halo2d=1 --app-args "halo2d=64 3" --runs 1 --cpu-from platform --out "$tmp/acc" \
      "${over[@]}"
    expect_ok
    if [ "$cores" -le 4 ]; then
      grep -qE "^over +$((cores + 1))\* shm " "$out" || fail "the oversubscribed case is not marked in the table"
      grep -qF "* oversubscribed: more ranks than the $cores cores of the measuring machine" "$out" ||
        fail "no footnote for the oversubscribed case"
      grep -qE "^over,$((cores + 1)),shm,1,.*,1$" "$tmp/acc/results.csv" || fail "results.csv does not mark it"
      grep -qE "^quiet,2,shm,1,.*,0$" "$tmp/acc/results.csv" || fail "results.csv marks a case that fits"
      # its traced runs time the computations by CPU time (the replay models the sharing), not the wall clock
      ! grep -rq '^# compute: wall-time' "$tmp/acc/traces/over-np$((cores + 1))-shm" ||
        fail "the oversubscribed case was traced with wall-clock volumes"
      sed -i '/^over,/d' "$tmp/acc/results.csv"
      sed -i '/^0,over,/d' "$tmp/acc/runs.csv"
    fi
    grep -qF "accuracy: note: quiet prints no \`span\` line: its spans come from libtit-span.so" "$err" ||
      fail "no note that the quiet program is measured by the library"
    for row in quiet,1 quiet,2 halo2d,1; do
      grep -q "^$row,shm,1,[0-9]" "$tmp/acc/results.csv" || fail "results.csv lacks a measured row $row"
    done
    [ "$(body "$tmp/acc/results.csv" | wc -l)" -eq 4 ] || fail "results.csv should hold 3 cases"
    head -1 "$tmp/acc/runs.csv" | grep -qx '# tit-accuracy runs v2' || fail "runs.csv lacks its schema line"
    # a traced run's span: from the first rank's return from MPI_Init to the last start of finalize, on the host's
    # clock (each timings file's origin), and its replays start rank r when it left MPI_Init
    t=$tmp/acc/traces/quiet-np2-shm/run-0
    read -r want starts < <(python3 - "$t" <<'PY'
import sys
origins, ends = [], []
for r in (0, 1):
    lines = open(f"{sys.argv[1]}/timings-{r}.csv").read().splitlines()
    o = float(lines[0].split()[2])  # "# origin: T s ..."
    origins.append(o)
    ends.append(o + float([l for l in lines if ",finalize," in l][-1].split(",")[2]))
late = ";".join(f"{r}:{o - min(origins):.9f}" for r, o in enumerate(origins) if o > min(origins))
print(f"{max(ends) - min(origins):.9f} {late}")
PY
    )
    got=$(awk -F, '$2 == "quiet" && $3 == 2 && $5 == "traced" { print $7 }' "$tmp/acc/runs.csv")
    awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d < 2e-9 && d > -2e-9) }' ||
      fail "the traced run's span is $got, not $want (from the first rank's start on the host's clock)"
    if [ -n "$starts" ]; then # the ranks left MPI_Init apart (always, unless within a nanosecond)
      capture "$build/bin/tit-replay" --hostfile "$tmp/hosts" --cfg="tit/rank-start:$starts" "$tmp/p.xml" "$t/trace.list"
      expect_ok
      replayed=$(awk -F, '$1 == "quiet" && $2 == 2 && $5 == "model" { print $7 }' "$tmp/acc/replays.csv")
      grep -qF "Simulated time: $(printf '%.12g' "$replayed") s" "$out" ||
        fail "the harness's replay of $t ($replayed s) is not tit-replay's with tit/rank-start:$starts: $(head -1 "$out")"
    fi
    [ "$(body "$tmp/acc/runs.csv" | wc -l)" -eq 7 ] || fail "runs.csv should hold 6 runs (3 cases, plain and traced)"
    grep -qE '^0,quiet,2,shm,plain,0,[0-9.e-]+,library,,' "$tmp/acc/runs.csv" || fail "no plain run of quiet by the library"
    grep -qE '^0,halo2d,1,shm,plain,0,[0-9.e-]+,program,,' "$tmp/acc/runs.csv" || fail "no plain run of halo2d by itself"
    grep -qE '^0,quiet,2,shm,traced,0,[0-9.e-]+,tracer,traces/quiet-np2-shm/run-0,' "$tmp/acc/runs.csv" ||
      fail "no traced run of quiet"
    # ranks that fit on the cores: each computation's volume is its wall-clock time (the span includes descheduling)
    [ "$(grep -l '^# compute: wall-time' "$tmp/acc/traces/quiet-np2-shm/run-0"/* | wc -l)" -eq 2 ] ||
      fail "the 2-rank traced run is not timed by the wall clock"
    grep -q '"trace_compute": "auto"' "$tmp/acc/study.json" || fail "study.json does not say how the runs were traced" ;;
  from)
    capture "${acc[@]}" --platform "shm=$tmp/p.xml,$tmp/hosts" --program "quiet=$bin/quiet:1" --runs 2 --in-situ \
      --out "$tmp/acc"
    expect_ok
    [ -z "$(find "$tmp/acc/platforms" -name '*.log')" ] || fail "actions logs left in $tmp/acc/platforms"
    capture "${acc[@]}" --from "$tmp/acc" --in-situ --out "$tmp/again"
    expect_ok
    [ -z "$(find "$tmp/again/platforms" -name '*.log')" ] || fail "actions logs left in $tmp/again/platforms"
    grep -q "^predicted again from the runs of $tmp/acc" "$out" || fail "no line naming the kept runs"
    diff <(body "$tmp/acc/results.csv") <(body "$tmp/again/results.csv") >&2 ||
      fail "the predictions from the kept runs differ from the first ones"
    diff <(body "$tmp/acc/replays.csv") <(body "$tmp/again/replays.csv") >&2 ||
      fail "the replays of the kept runs differ from the first ones"
    diff <(body "$tmp/acc/terms.csv") <(body "$tmp/again/terms.csv") >&2 ||
      fail "the comparison of the kept runs' replays by term differs from the first one"
    grep -qE '^quiet,1,shm,2,[0-9]' "$tmp/again/results.csv" || fail "no measured row"
    # runs of the first version (spans from each rank's own start) are replayed as then, said so
    sed -i '1s/.*/# tit-accuracy runs v1/' "$tmp/acc/runs.csv"
    capture "${acc[@]}" --from "$tmp/acc" --out "$tmp/v1"
    expect_ok
    grep -qF "accuracy: note: $tmp/acc/runs.csv is of version 1: its spans are from each rank's own start" "$err" ||
      fail "no note on the runs of version 1"
    rm -rf "$tmp/v1"
    capture "${acc[@]}" --from "$tmp/acc" --cpu-from platform --out "$tmp/platform"
    expect_ok
    cut -d, -f1-8 <(body "$tmp/acc/results.csv") >"$tmp/m1"
    cut -d, -f1-8 <(body "$tmp/platform/results.csv") >"$tmp/m2"
    diff "$tmp/m1" "$tmp/m2" >&2 || fail "another CPU-rate source changed the measured columns"
    grep -q "cpu speed from: platform" "$tmp/platform/results.csv" || fail "results.csv does not say the CPU-rate source" ;;
  from-errors)
    capture "${acc[@]}" --from "$tmp/none" --out "$tmp/o"
    expect_error 2 "accuracy: error: --from $tmp/none: no $tmp/none/study.json (a folder written by accuracy/accuracy expected)"
    mkdir "$tmp/d"
    echo '{"schema": "something else"}' >"$tmp/d/study.json"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: $tmp/d/study.json: expected a study of schema 'tit-accuracy study v1'"
    echo '{"schema": "tit-accuracy study v1", "runs": 1}' >"$tmp/d/study.json"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: $tmp/d/study.json: no 'cores'"
    echo '{"schema": "tit-accuracy study v1", "runs": 1, "cores": 2, "load_start": [0, 0, 0], "load_end": [0, 0, 0],
          "platforms": {"shm": ["'"$tmp/p.xml"'", "'"$tmp/hosts"'"]}, "programs": {}}' >"$tmp/d/study.json"
    printf 'program,ranks\n' >"$tmp/d/runs.csv"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: $tmp/d/runs.csv:1: expected '# tit-accuracy runs v2'"
    printf '# tit-accuracy runs v1\nround,program,ranks,transport,kind,status,span_s,span_from,trace,load1\n0,q,1,shm,traced,0,0.5,tracer,traces/gone,0.1\n' \
      >"$tmp/d/runs.csv"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: $tmp/d/runs.csv:3: the trace of this run, '$tmp/d/traces/gone', is gone"
    printf '# tit-accuracy runs v1\nround,program,ranks,transport,kind,status,span_s,span_from,trace,load1\n0,q,1,shm,plain,0,x,program,,0.1\n' \
      >"$tmp/d/runs.csv"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: $tmp/d/runs.csv:3: expected program,ranks,transport,kind,status,span_s... values"
    printf '# tit-accuracy runs v1\nround,program,ranks,transport,kind,status,span_s,span_from,trace,load1\n0,q,1,tcp,plain,0,0.5,program,,0.1\n' \
      >"$tmp/d/runs.csv"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/o"
    expect_error 2 "accuracy: error: --from $tmp/d: no platform for transport tcp: give --platform tcp=..."
    capture "${acc[@]}" --from "$tmp/d" --runs 3 --out "$tmp/o"
    expect_error 2 "accuracy: error: --from predicts from kept runs and measures nothing: --runs cannot be given with it"
    capture "${acc[@]}" --from "$tmp/d" --program "x=$bin/quiet" --out "$tmp/o"
    expect_error 2 "--program cannot be given with it"
    capture "${acc[@]}" --from "$tmp/d" --trace-compute cpu-time --out "$tmp/o"
    expect_error 2 "--trace-compute cannot be given with it"
    capture "${acc[@]}" --from "$tmp/d"
    expect_error 2 "accuracy: error: --from needs --out, a folder for the new predictions (DIR keeps its own results)"
    capture "${acc[@]}" --from "$tmp/d" --out "$tmp/d"
    expect_error 2 "accuracy: error: --out must not be the --from folder '$tmp/d' (its results would be overwritten)"
    [ ! -e "$tmp/o" ] || fail "a refused --from wrote its --out folder" ;;
  route)
    "$build/bin/tit-calibrate" platform --nodes-per-cabinet 1 --cores 2 --loopback-bw 3e9 --loopback-lat 2e-7 \
      -o "$tmp/one.xml" --hostfile "$tmp/one.hosts" >/dev/null || fail "tit-calibrate platform (one node)"
    [ "$(grep -cv '^#' "$tmp/one.hosts")" -eq 1 ] || fail "the one-node hostfile has $(wc -l <"$tmp/one.hosts") lines"
    capture python3 - "$root/accuracy/accuracy" "$tmp" <<'PY'
import importlib.machinery, importlib.util, sys
loader = importlib.machinery.SourceFileLoader("accuracy", sys.argv[1])
spec = importlib.util.spec_from_loader("accuracy", loader)
acc = importlib.util.module_from_spec(spec)
loader.exec_module(acc)
tmp = sys.argv[2]
one = acc.cluster_route(f"{tmp}/one.xml", f"{tmp}/one.hosts", 4)
assert one == ["--bandwidth", "3e+09", "--latency", "2e-07", "--links", "1"], one
two = acc.cluster_route(f"{tmp}/p.xml", f"{tmp}/hosts", 2)
assert two == ["--bandwidth", "125000000", "--latency", "1e-05", "--links", "2"], two
assert acc.cluster_route(f"{tmp}/p.xml", f"{tmp}/hosts", 3) == [], "3 ranks on 2 nodes share a node"
assert acc.cluster_route(f"{tmp}/one.xml", f"{tmp}/one.hosts", 1) == [], "one rank sends to no other"
# More ranks than cores: nothing fitted in situ (the run's timings include the ranks' descheduling), nothing run.
from pathlib import Path
situ, why = acc.platform_in_situ(Path("/nonexistent"), f"{tmp}/one.xml", f"{tmp}/one.hosts", 4, 2,
                                 "/nonexistent", Path(tmp) / "situ")
assert situ is None and why.startswith("not fitted: 4 ranks on 2 cores"), (situ, why)
assert not (Path(tmp) / "situ").exists(), "a refused in-situ fit made its folder"
print("routes ok")
PY
    expect_ok
    grep -qx "routes ok" "$out" || fail "the route checks did not run" ;;
  smoke)
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --apps halo2d --ranks 1 \
      --runs 1 --app-args "halo2d=64 3" --in-situ --out "$tmp/acc" >"$out" 2>"$err" || fail "exit status $?"
    grep -q '^load average at start [0-9.]* ' "$out" || fail "no load average line"
    grep -qE '^halo2d +1 shm +[0-9.e-]+ +[0-9.]+% +[0-9.e-]+ +[0-9.e-]+ +[-+][0-9.]+% +[-+][0-9.]+% +[0-9.e-]+ +[-+][0-9.]+%$' "$out" ||
      fail "no result row for halo2d on 1 rank"
    grep -qE '^replays against their own traced runs: median \|difference\| [0-9.]+%, largest [0-9.]+%, within 2%: [01] of 1 runs$' "$out" ||
      fail "no line comparing the replays with their own traced runs"
    python3 - "$tmp/acc" <<'PY' || fail "replays.csv does not hold the traced run's replay against its own span"
import csv, sys
from pathlib import Path
out = Path(sys.argv[1])
lines = (out / "replays.csv").read_text().splitlines()
assert lines[0] == "# tit-accuracy replays v1", lines[0]
rows = list(csv.DictReader(l for l in lines if not l.startswith("#")))
model = [r for r in rows if r["platform"] == "model"]
assert len(model) == 1 and model[0]["trace"] == "traces/halo2d-np1-shm/run-0", rows
traced = [r for r in csv.DictReader(l for l in (out / "runs.csv").read_text().splitlines() if not l.startswith("#"))
          if r["kind"] == "traced"]
r = model[0]
assert float(r["traced_s"]) == float(traced[0]["span_s"]), (r, traced)
assert abs(float(r["difference"]) - (float(r["replayed_s"]) / float(r["traced_s"]) - 1)) < 1e-12, r
res = [x for x in csv.DictReader(l for l in (out / "results.csv").read_text().splitlines() if not l.startswith("#"))]
assert abs(float(res[0]["replay_vs_traced"]) - float(r["difference"])) < 1e-5, (res, r)
# terms.csv: that replay against its traced run by action kind, as tit-calibrate compare sums it; the trace's
# computations among them, with as many as the trace has
lines = (out / "terms.csv").read_text().splitlines()
assert lines[0] == "# tit-accuracy terms v1", lines[0]
terms = list(csv.DictReader(l for l in lines if not l.startswith("#")))
assert all((t["program"], t["ranks"], t["transport"]) == ("halo2d", "1", "shm") for t in terms), terms
compute = [t for t in terms if t["action"] == "compute"]
trace_dir = out / "traces/halo2d-np1-shm/run-0"
n = sum(1 for l in (trace_dir / "rank-0.txt").read_text().splitlines() if l.split()[1:2] == ["compute"])
assert len(compute) == 1 and int(compute[0]["count"]) == n, (compute, n)
d = [abs(float(t["difference_s"])) for t in terms]
assert d == sorted(d, reverse=True), d
assert not list(out.glob("platforms/*/actions-*")), "actions logs left behind"
PY
    head -1 "$tmp/acc/results.csv" | grep -qx '# tit-accuracy results v1' || fail "results.csv lacks its schema line"
    grep -q '^halo2d,1,shm,1,' "$tmp/acc/results.csv" || fail "results.csv lacks the case"
    [ -s "$tmp/acc/accuracy.png" ] || fail "no plot"
    [ -s "$tmp/acc/platforms/halo2d-np1-shm/platform.xml" ] || fail "no platform with the program's own speed"
    # One rank: every isend goes to the rank itself, a copy by the MPI library, not the cost of posting a send.
    situ=$tmp/acc/platforms/halo2d-np1-shm/platform-in-situ.xml
    grep -q 'id="tit/os-self"' "$situ" || fail "from-trace did not fit tit/os-self from the isends to itself of halo2d"
    grep -q 'id="tit/oir"' "$situ" || fail "from-trace did not fit tit/oir from the irecvs of halo2d"
    [ "$(grep 'id="smpi/ois"' "$tmp/acc/platforms/halo2d-np1-shm/platform.xml")" = "$(grep 'id="smpi/ois"' "$situ")" ] ||
      fail "from-trace changed smpi/ois from isends to the rank itself"
    grep -qE '^accuracy: note: halo2d np=1 shm: in situ: fitted tit/oir, tit/os-self; [0-9]+ send\(s\) and isend\(s\) of a rank to itself fitted as tit/os-self, not os or ois .*\(report: .*/in-situ-report.txt\)$' "$err" ||
      fail "no note saying what was fitted in situ" ;;
  errors)
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/nope.xml,$tmp/hosts" >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --platform shm: no such file '$tmp/nope.xml'" "$err" ||
      fail "a missing platform should exit 2 naming it"
    "$root/accuracy/accuracy" --build "$build" --platform "ib=$tmp/p.xml,$tmp/hosts" >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --platform expects shm=PLATFORM.xml,HOSTFILE or tcp=...; got 'ib=" "$err" ||
      fail "an unknown transport should exit 2"
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --apps lu >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: unknown mini-application 'lu' (expected all, none or some of halo2d, halo3d, cg, fft, wavefront, subcomm, poll)" "$err" ||
      fail "an unknown application should exit 2"
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --ranks 2,x >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --ranks expects rank counts separated by commas, got '2,x'" "$err" ||
      fail "bad rank counts should exit 2"
    p=(--platform "shm=$tmp/p.xml,$tmp/hosts")
    capture "${acc[@]}" "${p[@]}" --program "q=$build/bin/app-halo2d:squares"
    expect_error 2 "accuracy: error: --program q expects rank counts separated by commas or one of square, cube, pow2, got 'squares'"
    capture "${acc[@]}" "${p[@]}" --program "q=$build/bin/app-halo2d:0,1"
    expect_error 2 "accuracy: error: --program q expects positive rank counts, got '0,1'"
    capture "${acc[@]}" "${p[@]}" --program "q=$tmp/nope:2"
    expect_error 2 "accuracy: error: program 'q': '$tmp/nope' is not an executable (build it first)"
    capture "${acc[@]}" "${p[@]}" --program "q="
    expect_error 2 "accuracy: error: --program expects NAME=PATH or NAME=PATH:RANKS, got 'q='"
    capture "${acc[@]}" "${p[@]}" --program "q=$build/bin/app-halo2d" --ranks-of cg=pow2
    expect_error 2 "accuracy: error: --ranks-of cg: 'cg' is not a program of this run (programs: q)"
    capture "${acc[@]}" "${p[@]}" --ranks-of halo2d
    expect_error 2 "accuracy: error: --ranks-of expects NAME=RANKS, got 'halo2d'"
    capture "${acc[@]}" "${p[@]}" --apps none
    expect_error 2 "accuracy: error: nothing to measure: --apps none and no --program"
    capture "${acc[@]}" "${p[@]}" --program "q=$build/bin/app-halo2d" --program "q=$build/bin/app-cg"
    expect_error 2 "accuracy: error: --program 'q': a program of that name is already measured"
    capture "${acc[@]}" "${p[@]}" --ranks square
    expect_error 2 "accuracy: error: --ranks expects rank counts separated by commas, got 'square'"
    capture "${acc[@]}" "${p[@]}" --runs 0
    expect_error 2 "accuracy: error: --runs must be at least 1, got 0"
    # The usage text says the defaults.
    capture "${acc[@]}" --help
    expect_ok
    for s in "Default: all seven when no --program is given, none when one is" "(default 1,2,4)" "(default 5)" \
             "(default accuracy-out; with --from, required and not DIR)" "trace (default)" "--from DIR" \
             "auto (default): wall-time for a case whose ranks fit on the machine's cores"; do
      grep -qF -- "$s" "$out" || fail "--help does not say '$s'"
    done ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
