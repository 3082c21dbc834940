#!/usr/bin/env bash
# Differential test: replay SMPI-generated time-independent traces with SimGrid's own replayer
# (the reference, see reference.sh) and with tit-replay, and compare the simulated times.
#
# usage: run.sh BUILD_DIR WORKDIR
#
#   BUILD_DIR  build tree holding bin/tit-replay
#   WORKDIR    scratch directory: programs, traces, logs (created if needed)
#
# Environment:
#   DIFF_JOBS     cases run at the same time (default 2)
#   DIFF_FILTER   extended regular expression; only cases whose name matches are run
#                 (names look like "nbmix-np3-torus ovh"; DIFF_FILTER=coll runs the collective
#                 cases only, DIFF_FILTER='^(ring|halo|wavefront|nbmix|testpoll|barrier)-' the
#                 point-to-point ones only); only the programs these cases need are traced
#   DIFF_TIMEOUT  seconds allowed to one replay (default 120)
#
# The case matrix (programs x process counts x platforms x model settings) is in cases.sh:
# point-to-point programs under DIFF_SETTINGS, collective ones under DIFF_COLL_SETTINGS, minus
# the cases of DIFF_EXCLUDE (which SimGrid's replayer itself cannot replay).
# One row is printed per case: name, reference time, tit-replay's time, SMPI's online time
# (the simulated time of the traced execution itself, shown for the default settings only),
# relative difference and OK/FAIL (tolerance 1e-9 relative). The last line reads
# "N passed, M failed"; the exit status is 1 when a case failed, 2 on a usage or setup error.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
plat_dir="$root/platforms"
# shellcheck source=tests/differential/cases.sh
source "$here/cases.sh"

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR WORKDIR" >&2
  exit 2
fi
[ -d "$1" ] || { echo "$0: no such build directory: $1" >&2; exit 2; }
build="$(cd "$1" && pwd)"
mkdir -p "$2" || exit 2
work="$(cd "$2" && pwd)"
ours="$build/bin/tit-replay"
jobs_max=${DIFF_JOBS:-2}
filter=${DIFF_FILTER:-}
tmo=${DIFF_TIMEOUT:-120}
tolerance=1e-9

if [ ! -x "$ours" ]; then
  echo "$0: $ours is missing or not executable (build the project first)" >&2
  exit 2
fi

# ---- the cases -------------------------------------------------------------------------------
names=() ; specs=()
excluded=0
declare -A needed=()   # programs to trace
# add_cases SETTINGS_ARRAY PROGRAMS_ARRAY NPS_MAP
add_cases() {
  local -n settings_=$1 programs_=$2 nps_=$3
  local setting prog np plat name rx skip
  for setting in "${settings_[@]}"; do
    for prog in "${programs_[@]}"; do
      for np in ${nps_[$setting]}; do
        for plat in "${DIFF_PLATFORMS[@]}"; do
          name="$prog-np$np-$plat $setting"
          if [ -n "$filter" ] && ! [[ $name =~ $filter ]]; then
            continue
          fi
          skip=0
          for rx in "${DIFF_EXCLUDE[@]}"; do
            if [[ $name =~ $rx ]]; then skip=1; break; fi
          done
          if [ "$skip" -eq 1 ]; then
            excluded=$((excluded + 1))
            continue
          fi
          names+=("$name")
          specs+=("$prog $np $plat $setting")
          needed[$prog]=1
        done
      done
    done
  done
}
add_cases DIFF_SETTINGS DIFF_PROGRAMS DIFF_SETTING_NPS
add_cases DIFF_COLL_SETTINGS DIFF_COLL_PROGRAMS DIFF_COLL_SETTING_NPS
if [ ${#names[@]} -eq 0 ]; then
  echo "$0: no case matches DIFF_FILTER='$filter'" >&2
  exit 2
fi

# Trace the programs of the selected cases (in the order of cases.sh).
to_trace=()
for prog in "${DIFF_PROGRAMS[@]}" "${DIFF_COLL_PROGRAMS[@]}"; do
  [ -z "${needed[$prog]:-}" ] || to_trace+=("$prog")
done
trace_start=$SECONDS
if ! DIFF_JOBS=$jobs_max bash "$here/make-traces.sh" "$work" "${to_trace[@]}" >"$work/make-traces.log" 2>&1; then
  cat "$work/make-traces.log" >&2
  echo "$0: could not make the traces" >&2
  exit 2
fi
trace_secs=$((SECONDS - trace_start))

res="$work/results"
logs="$work/logs"
rm -rf "$res"
mkdir -p "$res" "$logs"

# run_case INDEX PROG NP PLATFORM SETTING: writes "reference<TAB>ours" to $res/INDEX
run_case() {
  local idx=$1 prog=$2 np=$3 plat=$4 setting=$5
  local trace="$work/traces/$prog-np$np-$plat.trace"
  local id="$prog-np$np-$plat.$setting"
  local -a cfg
  read -r -a cfg <<<"${DIFF_SETTING_CFG[$setting]}"
  local ref our
  ref=$(timeout "$tmo" bash "$here/reference.sh" -l "$logs/$id.ref.log" "$trace" "$np" \
          "$plat_dir/$plat.xml" "$plat_dir/$plat.hosts" "${cfg[@]}" 2>"$logs/$id.ref.err") || ref=ERROR
  [ -n "$ref" ] || ref=ERROR
  local status=0
  # tit/traced-tests:no: SimGrid's replayer gives tests the replay's own outcome (testpoll polls).
  (cd "$work" && timeout "$tmo" "$ours" --hostfile "$plat_dir/$plat.hosts" --cfg=tit/traced-tests:no "${cfg[@]}" \
      "$plat_dir/$plat.xml" "$trace") >"$logs/$id.ours.log" 2>&1 || status=$?
  our=$(sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p' "$logs/$id.ours.log" | tail -n 1)
  if [ "$status" -ne 0 ]; then
    our="EXIT$status"
  elif [ -z "$our" ]; then
    our=NOTIME
  fi
  printf '%s\t%s\n' "$ref" "$our" >"$res/$idx"
}

start=$SECONDS
for i in "${!specs[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
    wait -n
  done
  # shellcheck disable=SC2086 # a spec is four words
  run_case "$(printf '%04d' "$i")" ${specs[$i]} &
done
wait

# ---- the report -------------------------------------------------------------------------------
declare -A online=()
while IFS=$'\t' read -r tname _ _ t; do
  online[$tname]=$t
done <"$work/online.tsv"

printf '%-42s %20s %20s %20s %9s  %s\n' case reference tit-replay smpi-online rel-diff result
passed=0 failed=0
failures=()
for i in "${!specs[@]}"; do
  read -r prog np plat setting <<<"${specs[$i]}"
  f="$res/$(printf '%04d' "$i")"
  ref=ERROR our=ERROR
  [ -f "$f" ] && IFS=$'\t' read -r ref our <"$f"
  on="-"
  [ "$setting" = default ] && on=${online[$prog-np$np-$plat]:--}
  verdict=$(awk -v r="$ref" -v o="$our" -v tol="$tolerance" 'BEGIN {
      num = "^[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?$"
      if (r !~ num || o !~ num) { print "- FAIL"; exit }
      d = o - r; if (d < 0) d = -d
      a = r < 0 ? -r : r
      rel = (a > 0) ? d / a : d
      printf "%.2e %s\n", rel, (rel <= tol ? "OK" : "FAIL") }')
  rel=${verdict% *} ok=${verdict##* }
  printf '%-42s %20s %20s %20s %9s  %s\n' "${names[$i]}" "$ref" "$our" "$on" "$rel" "$ok"
  if [ "$ok" = OK ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    failures+=("$prog-np$np-$plat.$setting")
  fi
done
echo
if [ "$failed" -gt 0 ]; then
  echo "Logs of the first failures (reference: .ref.log/.ref.err, tit-replay: .ours.log):"
  for id in "${failures[@]:0:5}"; do
    echo "  $logs/$id.*"
  done
fi
echo "${#specs[@]} cases in $((SECONDS - start)) s (and $trace_secs s of tracing), tolerance $tolerance (relative), work directory $work"
[ "$excluded" -eq 0 ] || echo "$excluded cases excluded (DIFF_EXCLUDE in cases.sh: the reference cannot replay them)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
