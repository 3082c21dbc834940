#!/usr/bin/env bash
# tit-replay --fast-forward (docs/fast-forward.md), one case per call: traces of tests/fastforward/gen.py replayed
# in full and fast-forwarded on a 256-node cluster; the fast-forwarded time must be within the tolerance of the full
# replay's (or the report must say that the trace was replayed in full, and then the time is the full replay's),
# and the report must say what was extrapolated.
# Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
replay=$build/bin/tit-replay
platform=$here/../extrapolate/data/cluster256.xml
hosts=$here/../extrapolate/data/cluster256.hosts
. "$here/../lib/case.sh"

gen() { python3 "$here/gen.py" "$tmp/$1" "$1" "$2" "$3" || fail "gen.py $*"; }
time_of() { sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p' "$out"; }
full() { # PATTERN: the full replay's time of $tmp/PATTERN
  run "$replay" "${extra[@]}" --hostfile "$hosts" "$platform" "$tmp/$1/traces.list"; expect_ok; time_of
}
ff() { # PATTERN [TOL]: fast-forward $tmp/PATTERN (the report stays in $out)
  run "$replay" "${extra[@]}" --fast-forward${2:+=$2} --hostfile "$hosts" "$platform" "$tmp/$1/traces.list"
  expect_ok
}
within() { # A B TOL WHAT: |A - B| <= TOL x B
  python3 -c "import sys; a, b, t = float('$1'), float('$2'), float('$3'); print(f'$4: fast-forward {a} s, full {b} s, relative difference {abs(a - b) / b:.3g}'); sys.exit(abs(a - b) > t * b)" ||
    fail "$4: fast-forwarded $1 s, full replay $2 s: more than $3 apart"
}
applied() { grep -q "^Fast-forward: the time above is extrapolated" "$out" || fail "fast-forward was not applied"; }
not_applied() { # WHY: the report says the trace was replayed in full, because of WHY
  grep -q "^Fast-forward: not applied, the trace was replayed in full: .*$1" "$out" ||
    fail "the report does not say that the trace was replayed in full because of '$1'"
}
# PATTERN RANKS ITERATIONS: fast-forward applied and within 0.5 % of the full replay, or replayed in full with a
# reason and the full replay's time exactly
agrees() {
  gen "$1" "$2" "$3"
  local f t
  f=$(full "$1"); ff "$1"; t=$(time_of)
  if grep -q "^Fast-forward: not applied" "$out"; then
    [ "$t" = "$f" ] || fail "replayed in full but the time $t differs from the full replay's $f"
    echo "$1: not applied: $(grep '^Fast-forward' "$out")"
  else
    within "$t" "$f" 0.005 "$1"
  fi
}

case $case_name in
identical) # a loop of identical iterations: the line is exact, the report names the loop
  gen ring 16 400
  f=$(full ring); ff ring; t=$(time_of); applied
  within "$t" "$f" 1e-9 ring
  # loops are folded from the MPI calls (irecv, isend, waitall), each iteration's computation with them
  grep -qE "rank-0.txt:[45] +(399|400) +12 +3 " "$out" ||
    fail "the report does not name the loop (rank-0.txt:4 or 5, 399 or 400 iterations, 12 simulated, 3 calls)"
  grep -qE "estimated error [0-9.e-]+% " "$out" || fail "no estimated error"
  grep -q "per-rank figures are not extrapolated" "$out" || fail "the report does not say that per-rank figures are left out"
  ! grep -q "^  0 " "$out" || fail "per-rank rows printed"
  ;;
pipeline) agrees pipeline 16 300; applied ;;
drift) agrees drift 8 400 ;;
phases) agrees phases 8 400; applied ;;
noise) agrees noise 8 600 ;;
stencil) # a 3-D stencil on 27 ranks: the interior rank's iteration (26 neighbours, 2 exchanges, a wait per request:
  # 210 calls) is longer than the folder's window, a corner's (57 calls) is not; a set-up exchange gives the interior
  # rank top-level loops of 26 any-source receives and waits that the corners do not have. The iteration loop is
  # found on every rank and cut (refused before: "rank 4 of none")
  agrees stencil 27 120; applied
  grep -qE "rank-0.txt:[0-9]+ +(119|120) +12 +57 " "$out" ||
    fail "the report does not name the iteration loop (rank 0: 119 or 120 iterations, 12 simulated, 57 calls)"
  ;;
parallel) # the cut replays run side by side, one a CPU the process may use: the same report on one CPU as on all
  command -v taskset >/dev/null || fail "taskset (util-linux) is needed"
  gen noise 8 600
  ff noise; applied; cp "$out" "$tmp/all.out"
  run taskset -c 0 "$replay" "${extra[@]}" --fast-forward --hostfile "$hosts" "$platform" "$tmp/noise/traces.list"
  expect_ok; applied
  diff "$tmp/all.out" "$out" >/dev/null || fail "the report on one CPU differs from the one on all: $(diff "$tmp/all.out" "$out" | head -5)"
  ;;
bytes) # message volumes that change are not extrapolated: replayed in full
  gen bytes 8 300
  f=$(full bytes); ff bytes; not_applied "send .* bytes on average"; [ "$(time_of)" = "$f" ] || fail "not the full replay's time"
  ;;
uneven) # loops of different lengths on different ranks: replayed in full, saying which rank differs
  gen uneven 4 200
  f=$(full uneven); ff uneven; not_applied "rank 0 has loops of 99 iterations .*, rank 2 of 200"; [ "$(time_of)" = "$f" ] || fail "not the full replay's time"
  ;;
short) # no loop long enough: replayed in full
  gen short 4 10
  f=$(full short); ff short; not_applied "no loop of rank 0 runs 24 times"; [ "$(time_of)" = "$f" ] || fail "not the full replay's time"
  ;;
cheaper) # loops long enough to cut (24 iterations or more) but the cuts would simulate more than the whole trace
  gen ring 4 25
  f=$(full ring); ff ring; not_applied "the loops are too short to gain from a cut: the first cut replays would simulate 432 actions, the trace has 416"
  [ "$(time_of)" = "$f" ] || fail "not the full replay's time"
  ;;
compressed) # a compressed trace: its own loops, the same prediction as its text
  gen ring 16 400
  run "$build/bin/tit-trace" compress "$tmp/ring/traces.list" "$tmp/ring.tit"; expect_ok
  ff ring; a=$(time_of)
  run "$replay" "${extra[@]}" --fast-forward --hostfile "$hosts" "$platform" "$tmp/ring.tit"; expect_ok; applied
  [ "$(time_of)" = "$a" ] || fail "the compressed trace fast-forwards to $(time_of) s, its text to $a s"
  ;;
otf2) # an OTF2 archive (the simulated run written by --otf2, read back): fast-forwarded like its text
  gen ring 4 100
  run "$replay" "${extra[@]}" --otf2 "$tmp/arch" --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"; expect_ok
  run "$replay" "${extra[@]}" --hostfile "$hosts" "$platform" "$tmp/arch/traces.otf2"; expect_ok; f=$(time_of)
  run "$replay" "${extra[@]}" --fast-forward --hostfile "$hosts" "$platform" "$tmp/arch/traces.otf2"; expect_ok
  applied; grep -q "traces.otf2\[rank 0\]:[0-9]* *100 " "$out" || fail "the report does not name the archive's loop"
  within "$(time_of)" "$f" 1e-9 otf2
  ;;
tolerance) # TOL is read; a tighter one than the noise allows doubles k or replays in full
  gen noise 8 600
  ff noise 0.2; applied; grep -q "tolerance 20%" "$out" || fail "tolerance not reported"
  # TOL only with '=': the platform after the option stays the platform
  run "$replay" "${extra[@]}" --hostfile "$hosts" --fast-forward "$platform" "$tmp/noise/traces.list"; expect_ok
  grep -q "tolerance 0.5%" "$out" || fail "--fast-forward followed by a file did not run with the default tolerance"
  ff noise 1e-9; grep -q "^Fast-forward: not applied.*not steady" "$out" || grep -q "estimated error 0%" "$out" ||
    fail "a tolerance of 1e-9 was met with a nonzero error"
  ;;
refusals) # options it cannot go with, bad tolerances
  gen ring 4 100
  run "$replay" --fast-forward --analysis --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"
  expect_error 2 "--fast-forward cannot go with --analysis"
  run "$replay" --fast-forward --paje "$tmp/p.trace" --per-rank --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"
  expect_error 2 "--fast-forward cannot go with --paje, --per-rank"
  run "$replay" --fast-forward=abc --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"
  expect_error 2 "--fast-forward=abc: expected a tolerance between 0 and 1"
  run "$replay" --fast-forward=2 --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"
  expect_error 2 "--fast-forward=2: expected a tolerance between 0 and 1"
  printf 'job a %s 0 0\n' "$tmp/ring/traces.list" >"$tmp/w.txt"
  run "$replay" --fast-forward --workload "$tmp/w.txt" "$platform"
  expect_error 2 "--fast-forward replays one trace set, not a workload"
  ;;
bad-trace) # a bad line is reported as the replay reports it, file and line, exit 2
  gen ring 4 100
  sed -i '50s/.*/2 isend 3 0 notanumber 0/' "$tmp/ring/rank-2.txt"
  run "$replay" --fast-forward --hostfile "$hosts" "$platform" "$tmp/ring/traces.list"
  expect_error 2 "rank-2.txt:50"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS [$case_name]"
