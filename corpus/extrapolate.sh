#!/usr/bin/env bash
# Extrapolation on the corpus's traces (issue 35): from three smaller rank counts of a code to a larger one that was
# traced too, then every rank's count of each action kind and the predicted time against the real trace's.
#
# usage: extrapolate.sh BUILD_DIR [OUT [CODE:N1,N2,N3:TARGET...]]
#   BUILD_DIR  holds bin/tit-replay and bin/tit-trace ($TIT_REPLAY: another tit-replay)
#   OUT        corpus.sh's output folder ($CORPUS_OUT, default /work/corpus-out)
#   default cases: lulesh:8,27,64:125 hpcg:8,16,32:64 minife:8,16,32:64 comd:8,16,32:64 miniamr:8,16,32:64
#   CORPUS_KIND  smpi (default: OUT/smpi/traces/CODE-npN/CODE-npN.trace) or tracer (our tracer's traces,
#                OUT/tracer/traces/CODE-npN/trace.list, from corpus.sh -k tracer)
#   CORPUS_REPLAY  0: the counts only, no replay (a large target's replays take minutes to an hour each)
# Prints one row per case: refused (the message) or the largest relative difference of a rank's count of an action
# kind, and the predicted times. Scratch files in a temporary folder, removed at the end.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build=$(realpath "${1:?usage: extrapolate.sh BUILD_DIR [OUT [CASE...]]}")
out=${2:-${CORPUS_OUT:-/work/corpus-out}}
shift $(( $# >= 2 ? 2 : 1 ))
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(lulesh:8,27,64:125 hpcg:8,16,32:64 minife:8,16,32:64 comd:8,16,32:64 miniamr:8,16,32:64)
kind=${CORPUS_KIND:-smpi}
case $kind in smpi|tracer) ;; *) echo "$0: CORPUS_KIND must be smpi or tracer, not '$kind'" >&2; exit 2 ;; esac
platform=$here/cluster-128.xml
hosts=$out/cluster-128.hosts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# list_of CODE N: the trace list of CODE at N ranks; files_of LIST: the folder of its per-rank files
list_of() { if [ "$kind" = smpi ]; then echo "$out/smpi/traces/$1-np$2/$1-np$2.trace"; else echo "$out/tracer/traces/$1-np$2/trace.list"; fi; }
files_of() { if [ "$kind" = smpi ]; then echo "${1}_files"; else dirname "$1"; fi; }
time_of() { sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$1"; }
# counts DIR: "rank kind count" lines of the per-rank files of DIR (SMPI's, our tracer's or expand's)
# (consecutive computes counted as one, as the extrapolator merges them)
counts() {
  for f in "$1"/*; do
    awk '$1 ~ /^[0-9]+$/ && NF >= 2 { if ($2 == "compute" && prev == "compute") next; prev = $2; n[$1 " " $2]++ }
         END { for (k in n) print k, n[k] }' "$f"
  done | sort
}
printf '| code | inputs | target | result | worst count difference | real (s) | extrapolated (s) | difference |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for spec in "${cases[@]}"; do
  IFS=: read -r code inputs target <<<"$spec"
  lists=()
  for n in ${inputs//,/ }; do lists+=("$(list_of "$code" "$n")"); done
  real=$(list_of "$code" "$target")
  if ! "$build/bin/tit-trace" extrapolate --ranks "$target" "$tmp/x.tit" "${lists[@]}" >"$tmp/x.out" 2>"$tmp/x.err"; then
    msg=$(head -c 300 "$tmp/x.err" | tr '\n|' ' /')
    printf '| %s | %s | %s | refused: %s | - | - | - | - |\n' "$code" "$inputs" "$target" "$msg"
    continue
  fi
  rm -rf "$tmp/xe" && "$build/bin/tit-trace" expand "$tmp/x.tit" "$tmp/xe" >/dev/null 2>&1
  # the largest difference over every kind, then over the MPI calls only (a measured compute's presence varies
  # from run to run: SMPI writes a burst only above its threshold)
  worst=$(join -a1 -a2 -e 0 -o 0,1.2,2.2 <(counts "$(files_of "$real")" | awk '{print $1 ":" $2, $3}' | sort) \
            <(counts "$tmp/xe" | awk '{print $1 ":" $2, $3}' | sort) |
          awk '{ d = ($2 > 0) ? ($3 - $2) / $2 : ($3 > 0 ? 1 : 0); if (d < 0) d = -d; if (d >= w) { w = d; k = $1 " " $2 "->" $3 }
                 if ($1 !~ /:compute$/ && d >= m) { m = d; j = $1 " " $2 "->" $3 } }
               END { printf "%.2f%% (%s); MPI calls %.2f%% (%s)\n", 100 * w, k, 100 * m, j }')
  if [ "${CORPUS_REPLAY:-1}" = 0 ]; then
    printf '| %s | %s | %s | extrapolated | %s | - | - | - |\n' "$code" "$inputs" "$target" "$worst"
    continue
  fi
  "${TIT_REPLAY:-$build/bin/tit-replay}" --hostfile "$hosts" "$platform" "$real" >"$tmp/r.out" 2>&1
  "${TIT_REPLAY:-$build/bin/tit-replay}" --hostfile "$hosts" "$platform" "$tmp/x.tit" >"$tmp/e.out" 2>&1
  a=$(time_of "$tmp/r.out"); b=$(time_of "$tmp/e.out")
  d=$(awk -v a="$a" -v b="$b" 'BEGIN { if (a == "" || b == "") print "-"; else printf "%+.2f%%\n", 100 * (b - a) / a }')
  printf '| %s | %s | %s | extrapolated | %s | %s | %s | %s |\n' "$code" "$inputs" "$target" "$worst" "$a" "${b:-$(head -c 200 "$tmp/e.out" | tr '\n|' ' /')}" "$d"
done
