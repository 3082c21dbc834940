#!/usr/bin/env bash
# OTF2 archives in and out, end to end. Usage: run.sh BUILD_DIR CASE
#   read-<case>   an archive of tests/otf2/make_archive.py <case> converts to the trace it was written from
#   refuse-*      the refusals: exit 2 and the message naming what is wrong
#   direct        tit-replay predicts the same from the archive as from the text trace
#   write-<trace> tit-replay --otf2 writes an archive otf2-print and python3-otf2 read, one region per action
#   roundtrip-<trace> trace -> --otf2 -> convert --from otf2 at the hosts' speed -> the same actions and prediction
#                 (within 1e-6: each compute's duration is rounded to the nanosecond tick)
#   completions-<trace>  every request the archive posts is completed where the simulated run completed it (also
#                 by waitany, testany, testall, testsome and tests the trace follows with no wait), and the
#                 archive reads back to a trace predicting the same time (within 1e-5: waitany comes back as wait)
set -euo pipefail
build=$1 case=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$build/bin
py=/usr/bin/python3 # Debian's, which has python3-otf2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tit-otf2.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
platform=$root/platforms/cluster-backbone.xml
deploy=$root/platforms/cluster-backbone.deploy4.xml
hosts=$root/platforms/cluster-backbone.hosts
speed=1.5e9 # every host of cluster-backbone

fail() { echo "FAIL: $*" >&2; exit 1; }

# The action lines of a trace directory written by tit-trace (no header), per rank, compute volumes to 6
# significant digits (a round trip through nanosecond ticks moves them by a tick's worth: 1.5 units at 1.5e9/s).
actions() {
  for f in "$1"/rank-*.txt; do
    grep -v '^#' "$f" | awk '$2 == "compute" { $3 = sprintf("%.6g", $3) } { print }'
  done
}

# Converts both the archive and the trace it was written from with tit-trace, and compares their actions.
read_case() {
  local c=$1
  "$py" "$here/make_archive.py" "$c" "$tmp/a" "$tmp/expected.txt"
  "$bin/tit-trace" convert --from otf2 "$tmp/a/traces.otf2" "$tmp/out" >/dev/null
  "$bin/tit-trace" convert --to simgrid "$tmp/expected.txt" "$tmp/exp" >/dev/null
  diff <(actions "$tmp/out") <(actions "$tmp/exp") || fail "$c: actions differ from the trace written"
  local unit=wall-time
  [[ $c == metric ]] && unit=instructions
  grep -q "^# compute: $unit" "$tmp/out/rank-0.txt" || fail "$c: the header does not say '$unit'"
  echo "ok: $c, $(actions "$tmp/out" | wc -l) actions"
}

# Runs a command that must stop with exit code 2 and a message matching the pattern.
refused() {
  local pattern=$1; shift
  set +e; "$@" >"$tmp/out.txt" 2>"$tmp/err.txt"; local rc=$?; set -e
  [[ $rc == 2 ]] || { cat "$tmp/err.txt"; fail "exit code $rc, expected 2: $*"; }
  grep -q -- "$pattern" "$tmp/err.txt" || { cat "$tmp/err.txt"; fail "no message '$pattern'"; }
  echo "ok: refused: $(head -1 "$tmp/err.txt")"
}

# A trace of the repository: traces/NAME, else an end-to-end test's tests/e2e/data/NAME.
trace_of() { if [[ -e $root/traces/$1 ]]; then echo "$root/traces/$1"; else echo "$root/tests/e2e/data/$1"; fi; }

# tit-replay --otf2: otf2-print and python3-otf2 both count one Enter per action of the actions log.
write_case() {
  local traces; traces=$(trace_of "$1")
  "$bin/tit-replay" --otf2 "$tmp/sim" --actions-log "$tmp/actions.log" "$platform" "$deploy" "$traces" >/dev/null
  local actions; actions=$(grep -vc '^#\|^rank' "$tmp/actions.log" || true)
  [[ $actions -gt 0 ]] || fail "no action replayed"
  local printed; printed=$(otf2-print "$tmp/sim/traces.otf2" | grep -c '^ENTER ')
  local leaves; leaves=$(otf2-print "$tmp/sim/traces.otf2" | grep -c '^LEAVE ')
  local python; python=$("$py" "$here/count_events.py" "$tmp/sim/traces.otf2")
  [[ $printed == "$actions" && $leaves == "$actions" ]] || fail "otf2-print: $printed Enter, $leaves Leave for $actions actions"
  [[ $python == "$actions" ]] || fail "python3-otf2: $python Enter for $actions actions"
  echo "ok: $1: $actions actions, as many Enter and Leave in otf2-print and python3-otf2"
}

# The simulated time tit-replay prints for a trace set, its ranks placed round-robin on the platform's hosts.
predicted() {
  "$bin/tit-replay" --hostfile "$hosts" "$platform" "$1" | awk '/^Simulated time:/ { print $3; exit }'
}

roundtrip_case() {
  local traces; traces=$(trace_of "$1")
  "$bin/tit-replay" --otf2 "$tmp/sim" "$platform" "$deploy" "$traces" >/dev/null
  "$bin/tit-trace" convert --from otf2 --rate "$speed" "$tmp/sim" "$tmp/back" >/dev/null
  "$bin/tit-trace" convert --to simgrid "$traces" "$tmp/orig" >/dev/null
  # A nonblocking collective's wait: SimGrid's tracer writes it with its own odd tag (`wait -333 -333 -3335`), the
  # OTF2 reader as our tracer does (`-1`); either completes the oldest pending nonblocking collective.
  nbc() { sed 's/ wait -333 -333 -[0-9]*$/ wait -333 -333 (nonblocking collective)/'; }
  actions "$tmp/back" | nbc >"$tmp/back.txt"
  actions "$tmp/orig" | nbc >"$tmp/orig.txt"
  # equal lines, but compute volumes within a nanosecond tick at the hosts' speed (a 50-unit compute is 33 ticks)
  "$py" - "$tmp/back.txt" "$tmp/orig.txt" "$speed" <<'EOF' || fail "$1: the round trip changed the actions"
import sys
back, orig = (open(p).read().splitlines() for p in sys.argv[1:3])
tick = float(sys.argv[3]) * 1e-9
if len(back) != len(orig):
    sys.exit(f"{len(back)} actions after the round trip, {len(orig)} before")
for b, o in zip(back, orig):
    fb, fo = b.split(), o.split()
    if fb[1:2] == fo[1:2] == ["compute"] and fb[0] == fo[0] and abs(float(fb[2]) - float(fo[2])) <= tick * 1.000001:
        continue
    if b != o:
        sys.exit(f"after the round trip: {b}\nbefore:               {o}")
EOF
  local a b; a=$(predicted "$traces") b=$(predicted "$tmp/back/trace.list")
  "$py" -c "import sys; a, b = float('$a'), float('$b'); sys.exit(0 if abs(a - b) <= 1e-6 * a else 1)" ||
    fail "$1: predicted $a from the trace, $b after the round trip"
  echo "ok: $1: same actions, predicted $a and $b"
}

# Each posted request has its completion record: MpiIrecvRequest/MpiIrecv, MpiIsend/MpiIsendComplete and
# NonBlockingCollectiveRequest/NonBlockingCollectiveComplete pair up, per rank.
completions_case() {
  local traces; traces=$(trace_of "$1")
  "$bin/tit-replay" --otf2 "$tmp/sim" --hostfile "$hosts" "$platform" "$traces" >/dev/null
  otf2-print "$tmp/sim/traces.otf2" >"$tmp/events.txt"
  awk '{ n[$1 " " $2]++ } END {
         for (k in n) { split(k, f, " "); rank[f[2]] = 1 }
         for (r in rank) {
           if (n["MPI_IRECV_REQUEST " r] != n["MPI_IRECV " r] || n["MPI_ISEND " r] != n["MPI_ISEND_COMPLETE " r] ||
               n["NON_BLOCKING_COLLECTIVE_REQUEST " r] != n["NON_BLOCKING_COLLECTIVE_COMPLETE " r]) {
             printf "rank %s: %d irecv requests, %d completed; %d isends, %d completed; %d nbc, %d completed\n", r,
               n["MPI_IRECV_REQUEST " r], n["MPI_IRECV " r], n["MPI_ISEND " r], n["MPI_ISEND_COMPLETE " r],
               n["NON_BLOCKING_COLLECTIVE_REQUEST " r], n["NON_BLOCKING_COLLECTIVE_COMPLETE " r]
             bad = 1
           }
         }
         exit bad }' "$tmp/events.txt" || fail "$1: requests left without their completion record"
  local requests; requests=$(grep -c '^MPI_IRECV_REQUEST \|^MPI_ISEND \|^NON_BLOCKING_COLLECTIVE_REQUEST ' "$tmp/events.txt")
  [[ $requests -gt 0 ]] || fail "$1: no request in the archive"
  "$bin/tit-trace" convert --from otf2 --rate "$speed" "$tmp/sim" "$tmp/back" >/dev/null
  local a b; a=$(predicted "$traces") b=$(predicted "$tmp/back/trace.list")
  "$py" -c "import sys; a, b = float('$a'), float('$b'); sys.exit(0 if abs(a - b) <= 1e-5 * a else 1)" ||
    fail "$1: predicted $a from the trace, $b after the round trip"
  echo "ok: $1: $requests requests, each completed; predicted $a and $b"
}

case $case in
  read-*) read_case "${case#read-}" ;;
  refuse-nbc-incomplete)
    "$py" "$here/make_archive.py" nbc-incomplete "$tmp/a" "$tmp/expected.txt"
    refused "location 0 ('Master thread', rank 0), event 5: error: the nonblocking collective request 1 posted here (NonBlockingCollectiveRequest) never completes: its operation and sizes are unknown" \
      "$bin/tit-trace" convert --from otf2 "$tmp/a/traces.otf2" "$tmp/out" ;;
  refuse-rma)
    "$py" "$here/make_archive.py" rma "$tmp/a" "$tmp/e.txt"
    refused "location 0 ('Master thread', rank 0), event [0-9]*: error: record RmaPut cannot be replayed" \
      "$bin/tit-trace" convert --from otf2 "$tmp/a/traces.otf2" "$tmp/out" ;;
  skip-rma)
    "$py" "$here/make_archive.py" rma "$tmp/a" "$tmp/e.txt"
    "$bin/tit-trace" convert --from otf2 --skip-unsupported "$tmp/a/traces.otf2" "$tmp/out" 2>"$tmp/err.txt" >/dev/null
    grep -q "1 records that cannot be replayed were skipped" "$tmp/err.txt" || fail "no counted warning"
    echo "ok: $(cat "$tmp/err.txt")" ;;
  refuse-missing-definition)
    "$py" "$here/make_archive.py" missing-world "$tmp/a" "$tmp/e.txt"
    refused "error: missing definition: no group of MPI_COMM_WORLD's locations" \
      "$bin/tit-trace" convert --from otf2 "$tmp/a/traces.otf2" "$tmp/out" ;;
  refuse-truncated)
    "$py" "$here/make_archive.py" p2p "$tmp/a" "$tmp/e.txt"
    evt=$tmp/a/traces/1.evt
    truncate -s $(( $(stat -c %s "$evt") / 2 )) "$evt"
    refused "truncated or damaged archive" "$bin/tit-trace" convert --from otf2 "$tmp/a/traces.otf2" "$tmp/out" ;;
  refuse-metric)
    "$py" "$here/make_archive.py" metric "$tmp/a" "$tmp/e.txt"
    refused "the archive records no metric 'PAPI_TOT_CYC'" \
      "$bin/tit-trace" convert --from otf2 --metric PAPI_TOT_CYC "$tmp/a/traces.otf2" "$tmp/out" ;;
  refuse-not-archive)
    refused "error: --from otf2 reads an OTF2 archive" \
      "$bin/tit-trace" convert --from otf2 "$root/traces/ring4.list" "$tmp/out" ;;
  refuse-otf2-exists)
    mkdir -p "$tmp/full" && touch "$tmp/full/x"
    refused "exists and is not an empty directory" \
      "$bin/tit-replay" --otf2 "$tmp/full" "$platform" "$deploy" "$(trace_of ring4.list)" ;;
  direct)
    # the archive and the text trace it was written from give the same prediction
    "$py" "$here/make_archive.py" nonblocking "$tmp/a" "$tmp/expected.txt"
    a=$(predicted "$tmp/a/traces.otf2") b=$(predicted "$tmp/expected.txt")
    [[ -n $a && $a == "$b" ]] || fail "predicted $a from the archive, $b from the text trace"
    echo "ok: predicted $a from both" ;;
  anysource)
    # receives from any source are written with the source that matched in the simulated run
    traces=$root/tests/e2e/data/anysource
    "$bin/tit-replay" --otf2 "$tmp/sim" --hostfile "$hosts" "$platform" "$traces" >/dev/null
    "$bin/tit-trace" convert --from otf2 --rate "$speed" "$tmp/sim" "$tmp/back" >/dev/null
    grep -q "^0 irecv [12] " "$tmp/back/rank-0.txt" || fail "the irecvs from any source did not get their sources"
    a=$(predicted "$traces") b=$(predicted "$tmp/back/trace.list")
    [[ -n $a && $a == "$b" ]] || fail "predicted $a from the trace, $b after the round trip"
    echo "ok: predicted $a from both" ;;
  workload)
    # with --workload, one archive per job in DIR.JOB, each with one Enter per action of its job
    cp -r "$root/tests/workload/data" "$tmp/w"
    printf 'a0 compute.list 2 0 0,1\na1 coll.list 2 10 2,3\n' >"$tmp/w/jobs.txt"
    (cd "$tmp/w" && "$bin/tit-replay" --workload jobs.txt --otf2 "$tmp/sim" --actions-log "$tmp/act.log" links.xml >/dev/null)
    for job in a0 a1; do
      actions=$(grep -vc '^#\|^rank' "$tmp/act.$job.log" || true)
      enters=$(otf2-print "$tmp/sim.$job/traces.otf2" | grep -c '^ENTER ')
      [[ $actions -gt 0 && $enters == "$actions" ]] || fail "job $job: $enters Enter for $actions actions"
      echo "ok: job $job: $actions actions, $enters Enter in $tmp/sim.$job"
    done ;;
  write-*) write_case "${case#write-}" ;;
  roundtrip-*) roundtrip_case "${case#roundtrip-}" ;;
  completions-*) completions_case "${case#completions-}" ;;
  *) fail "unknown case $case" ;;
esac
