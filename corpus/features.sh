#!/usr/bin/env bash
# Every output of the tools on the corpus's traces: what a user gets from a code we did not write. Per trace:
#   replay     tit-replay's prediction (or its exit code and the first words of its error)
#   outputs    the Paje trace read by pj_dump, the Chrome trace and the analysis parsed as JSON, the CSV's action
#              rows counted against the actions log's (a stopped replay: each must say that it is incomplete)
#   compress   `tit-trace compress` (exact) replayed: the same prediction to the last digit
#   ff         --fast-forward against the full replay: applied (relative difference) or why not
#   otf2       --otf2 read by otf2-print, every posted request completed, read back at the hosts' speed: the
#              prediction's relative difference
#   proxy      (with --proxy) `tit-trace proxy` built with mpicc and run under mpirun: its exit status
# A cell is `ok`, a figure, `-` (not applicable: the replay stopped) or FAIL with the reason; the script exits 1
# when some cell failed.
#
# usage: features.sh [--proxy] BUILD_DIR [OUT [KIND/CASE...]]
#   BUILD_DIR  holds bin/tit-replay and bin/tit-trace
#   OUT        corpus.sh's output folder ($CORPUS_OUT, default /work/corpus-out)
#   KIND/CASE  e.g. smpi/hpcg-np16 or tracer/amg-np8 (default: every traced case of both kinds)
# Needs pj_dump (pajeng), otf2-print (otf2-tools), python3; mpicc and mpirun for --proxy. Files go to a temporary
# folder, removed at the end.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
proxy=0
[ "${1:-}" = --proxy ] && { proxy=1; shift; }
build=$(realpath "${1:?usage: features.sh [--proxy] BUILD_DIR [OUT [KIND/CASE...]]}")
out=${2:-${CORPUS_OUT:-/work/corpus-out}}
shift $(( $# >= 2 ? 2 : 1 ))
replay=$build/bin/tit-replay tool=$build/bin/tit-trace
platform=$here/cluster-128.xml
hosts=$out/cluster-128.hosts
speed=1e9 # every host of cluster-128.xml
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for kind in smpi tracer; do
    for d in "$out/$kind"/traces/*/; do [ -d "$d" ] && cases+=("$kind/$(basename "$d")"); done
  done
fi
failed=0
fail() { failed=1; echo "FAIL: $*"; }
time_of() { sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$1"; }
rel() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.2g%%\n", 100 * (b - a) / a }'; }
traces_of() { # KIND/CASE: its trace list
  local kind=${1%%/*} c=${1#*/}
  if [ "$kind" = smpi ]; then echo "$out/smpi/traces/$c/$c.trace"; else echo "$out/tracer/traces/$c/trace.list"; fi
}

# the outputs of one replay: pj_dump, JSON, the CSV's rows; for a stopped replay, that each says so
outputs_cell() {
  local d=$1 status=$2
  pj_dump "$d/p.paje" >/dev/null 2>&1 || { fail "pj_dump rejects the Paje trace"; return; }
  /usr/bin/python3 - "$d/c.json" "$d/a.json" "$status" <<'PY' || { fail "JSON outputs"; return; }
import json, sys
chrome, analysis = (json.load(open(p)) for p in sys.argv[1:3])
stopped = sys.argv[3] != "0"
assert (chrome["otherData"].get("complete", True) is False) == stopped
assert analysis["schema"] == "tit-replay analysis v1" and (analysis.get("complete", True) is False) == stopped
PY
  if [ "$status" = 0 ]; then
    local rows logged
    rows=$(grep -c '^action,' "$d/x.csv") logged=$(grep -vc '^#\|^rank' "$d/log")
    [ "$rows" = "$logged" ] || { fail "$rows CSV action rows for $logged actions"; return; }
  else
    tail -n 1 "$d/x.csv" | grep -q '^# incomplete' || { fail "the CSV does not say it is incomplete"; return; }
  fi
  echo ok
}

compress_cell() {
  local t=$1 d=$2 full=$3
  "$tool" compress "$t" "$d/c.tit" >/dev/null 2>"$d/compress.err" || { fail "compress: $(head -c 100 "$d/compress.err")"; return; }
  "$replay" --hostfile "$hosts" "$platform" "$d/c.tit" >"$d/c.out" 2>/dev/null
  [ "$(time_of "$d/c.out")" = "$full" ] || { fail "compressed: $(time_of "$d/c.out") s"; return; }
  echo "ok ($(stat -c %s "$d/c.tit") B)"
}

ff_cell() {
  local t=$1 d=$2 full=$3
  "$replay" --fast-forward --hostfile "$hosts" "$platform" "$t" >"$d/ff.out" 2>"$d/ff.err" ||
    { fail "fast-forward: exit $?"; return; }
  if grep -q '^Fast-forward: the time above is extrapolated' "$d/ff.out"; then
    echo "applied, $(rel "$full" "$(time_of "$d/ff.out")")"
  else
    [ "$(time_of "$d/ff.out")" = "$full" ] || { fail "replayed in full, but $(time_of "$d/ff.out") s"; return; }
    echo "full: $(sed -n 's/^Fast-forward: not applied, the trace was replayed in full: //p' "$d/ff.out" | cut -c1-44)"
  fi
}

otf2_cell() {
  local d=$1 full=$2
  otf2-print "$d/otf2/traces.otf2" >"$d/events" 2>/dev/null || { fail "otf2-print rejects the archive"; return; }
  local posted completed
  posted=$(grep -c '^MPI_IRECV_REQUEST \|^MPI_ISEND \|^NON_BLOCKING_COLLECTIVE_REQUEST ' "$d/events")
  completed=$(grep -c '^MPI_IRECV \|^MPI_ISEND_COMPLETE \|^NON_BLOCKING_COLLECTIVE_COMPLETE ' "$d/events")
  [ "$posted" = "$completed" ] || { fail "$posted requests posted, $completed completed"; return; }
  "$tool" convert --from otf2 --rate "$speed" "$d/otf2" "$d/back" >/dev/null 2>"$d/otf2.err" ||
    { fail "read back: $(head -c 100 "$d/otf2.err")"; return; }
  "$replay" --hostfile "$hosts" "$platform" "$d/back/trace.list" >"$d/back.out" 2>/dev/null
  echo "ok, $(rel "$full" "$(time_of "$d/back.out")")"
}

proxy_cell() {
  local t=$1 d=$2 np=$3
  "$tool" proxy "$t" "$d/proxy.c" >/dev/null 2>"$d/proxy.err" || { echo "refused: $(head -c 60 "$d/proxy.err")"; return; }
  mpicc -O2 -o "$d/proxy" "$d/proxy.c" -lm 2>"$d/cc.err" || { fail "mpicc: $(head -c 80 "$d/cc.err")"; return; }
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 \
    mpirun --oversubscribe -np "$np" "$d/proxy" >"$d/proxy.out" 2>&1 || { fail "the proxy: exit $?"; return; }
  echo "ok, $(sed -n 's/^proxy time: //p' "$d/proxy.out")"
}

echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| case | replay (s) | outputs | compress | fast-forward | OTF2 round trip |%s\n' "$( ((proxy)) && echo ' proxy |')"
printf '|---|---|---|---|---|---|%s\n' "$( ((proxy)) && echo '---|')"
for c in "${cases[@]}"; do
  t=$(traces_of "$c")
  d=$tmp/${c//\//-}
  mkdir -p "$d"
  [ -e "$t" ] || { fail "$c: no trace $t"; continue; }
  "$replay" --hostfile "$hosts" "$platform" "$t" --paje "$d/p.paje" --chrome-trace "$d/c.json" --csv "$d/x.csv" \
    --analysis-json "$d/a.json" --actions-log "$d/log" --otf2 "$d/otf2" >"$d/out" 2>"$d/err"
  status=$?
  full=$(time_of "$d/out")
  row=("$c")
  if [ "$status" = 0 ]; then
    row+=("$full" "$(outputs_cell "$d" 0)" "$(compress_cell "$t" "$d" "$full")" "$(ff_cell "$t" "$d" "$full")"
          "$(otf2_cell "$d" "$full")")
  else
    row+=("exit $status: $(grep -m1 -o 'error: .\{0,40\}' "$d/err")" "$(outputs_cell "$d" "$status")" - - -)
  fi
  if ((proxy)); then
    np=$(sed -n 's/.*-np\([0-9]*\)$/\1/p' <<<"$c")
    if [ "$status" = 0 ]; then row+=("$(proxy_cell "$t" "$d" "$np")"); else row+=(-); fi
  fi
  line="|"
  for cell in "${row[@]}"; do
    line+=" ${cell//$'\n'/ } |"
    [[ $cell == *FAIL* ]] && failed=1
  done
  echo "$line"
  rm -rf "$d"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$failed"
