#!/usr/bin/env bash
# tit-replay --progress: the last progress line counts every action of the trace and the simulated
# time printed on stdout; stdout is the same as without it; without --progress (stderr not a
# terminal) nothing is printed on stderr. Usage: progress.sh BUILD_DIR
set -u
build=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL [progress]: $*"; cat "$tmp"/*.err; exit 1; }
args=(--hostfile "$root/platforms/small-hetero.hosts" "$root/platforms/small-hetero.xml" "$root/traces/halo4")
"$build/bin/tit-replay" "${args[@]}" >"$tmp/plain.out" 2>"$tmp/plain.err" || fail "replay failed"
"$build/bin/tit-replay" --progress "${args[@]}" >"$tmp/progress.out" 2>"$tmp/progress.err" || fail "--progress failed"
[ ! -s "$tmp/plain.err" ] || fail "progress printed without --progress on a non-terminal stderr"
diff "$tmp/plain.out" "$tmp/progress.out" || fail "--progress changed the output"
actions=$(cat "$root"/traces/halo4/rank-*.txt | grep -cvE '^[[:space:]]*(#|$)')
time=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$tmp/plain.out")
last=$(tail -1 "$tmp/progress.err")
[[ $last =~ ^tit-replay:\ simulated\ ([^ ]+)\ s,\ ([0-9]+)\ actions\ done\ \(all\) ]] || fail "last line: $last"
[ "${BASH_REMATCH[2]}" = "$actions" ] || fail "counted ${BASH_REMATCH[2]} actions, the trace has $actions"
awk -v a="${BASH_REMATCH[1]}" -v b="$time" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-5 * b) }' ||
  fail "progress says ${BASH_REMATCH[1]} s, the replay $time s"
echo "PASS [progress]: $last"
