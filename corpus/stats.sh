#!/usr/bin/env bash
# The lossy value modes on the corpus's traces (issue 35): each trace replayed as traced and after
# `tit-trace compress --values stats` and `--values binned:0.01`, on the platform it was traced on.
#
# usage: stats.sh BUILD_DIR [OUT [CASE...]]
#   BUILD_DIR  holds bin/tit-replay and bin/tit-trace ($TIT_REPLAY: another tit-replay)
#   OUT        corpus.sh's output folder ($CORPUS_OUT, default /work/corpus-out); its smpi/traces/CASE
#   CASE       e.g. hpcg-np16 (default: every traced case)
# Prints one row per case: the exact prediction, stats' and binned:0.01's relative difference from it, the
# stats check's estimate (compress's report), whether compress warned, and the sizes against `xz -6` of the
# text. The compressed files go to a temporary folder, removed at the end.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
build=$(realpath "${1:?usage: stats.sh BUILD_DIR [OUT [CASE...]]}")
out=${2:-${CORPUS_OUT:-/work/corpus-out}}
shift $(( $# >= 2 ? 2 : 1 ))
platform=$here/cluster-128.xml
hosts=$out/cluster-128.hosts
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in "$out"/smpi/traces/*/; do cases+=("$(basename "$d")"); done
fi
time_of() { sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$1"; }
rel() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || a + 0 == 0) print "-"; else printf "%+.2f%%\n", 100 * (b - a) / a }'; }
printf '| case | ranks | actions | exact (s) | stats | stats check | warned | binned:0.01 | xz -6 (B) | stats (B) | binned (B) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'
for c in "${cases[@]}"; do
  list=$out/smpi/traces/$c/$c.trace
  [ -s "$list" ] || { echo "$0: $list missing" >&2; continue; }
  np=${c##*-np}
  "${TIT_REPLAY:-$build/bin/tit-replay}" --hostfile "$hosts" "$platform" "$list" >"$tmp/exact.out" 2>"$tmp/exact.err"
  exact=$(time_of "$tmp/exact.out")
  actions=$(cat "$out/smpi/traces/$c/$c.trace_files"/* | wc -l)
  xz_bytes=$(cat "$out/smpi/traces/$c/$c.trace_files"/* | xz -6 -T1 | wc -c)
  row=()
  for mode in stats binned:0.01; do
    f=$tmp/$c.${mode%%:*}.tit
    "$build/bin/tit-trace" compress --values "$mode" "$list" "$f" >"$tmp/compress.out" 2>"$tmp/compress.err"
    "${TIT_REPLAY:-$build/bin/tit-replay}" --hostfile "$hosts" "$platform" "$f" >"$tmp/m.out" 2>"$tmp/m.err"
    row+=("$(rel "$exact" "$(time_of "$tmp/m.out")")" "$(stat -c %s "$f")")
    if [ "$mode" = stats ]; then
      check=$(sed -n 's/.*stats check \([^ ,)]*\).*/\1/p' "$tmp/compress.out")
      warned=$(grep -q "warning: .*values 'stats'" "$tmp/compress.err" && echo yes || echo no)
    fi
  done
  printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "${c%-np*}" "$np" "$actions" "$exact" \
    "${row[0]}" "${check:--}" "$warned" "${row[2]}" "$xz_bytes" "${row[1]}" "${row[3]}"
done
