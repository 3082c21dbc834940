#!/usr/bin/env bash
# Smoke test of the accuracy harness (accuracy/accuracy): one mini-application, 1 rank, one plain and one
# traced run over shared memory, replayed on a generated platform and on that platform completed in situ
# (tit-calibrate from-trace); and its usage errors.
# Usage: run.sh BUILD_DIR CASE (smoke | errors)
set -u
build=$(cd "$1" && pwd)
case_name=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../lib/case.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$build/bin/tit-calibrate" platform --nodes-per-cabinet 2 -o "$tmp/p.xml" --hostfile "$tmp/hosts" >/dev/null ||
  { echo "FAIL: tit-calibrate platform"; exit 1; }

case $case_name in
  smoke)
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --apps halo2d --ranks 1 \
      --runs 1 --app-args "halo2d=64 3" --in-situ --out "$tmp/acc" >"$out" 2>"$err" || fail "exit status $?"
    grep -q '^load average at start [0-9.]* ' "$out" || fail "no load average line"
    grep -qE '^halo2d +1 shm +[0-9.e-]+ +[0-9.]+% +[0-9.e-]+ +[0-9.e-]+ +[-+][0-9.]+% +[0-9.e-]+ +[-+][0-9.]+%$' "$out" ||
      fail "no result row for halo2d on 1 rank"
    head -1 "$tmp/acc/results.csv" | grep -qx '# tit-accuracy results v1' || fail "results.csv lacks its schema line"
    grep -q '^halo2d,1,shm,1,' "$tmp/acc/results.csv" || fail "results.csv lacks the case"
    [ -s "$tmp/acc/accuracy.png" ] || fail "no plot"
    [ -s "$tmp/acc/platforms/halo2d-np1-shm/platform.xml" ] || fail "no platform with the program's own speed"
    grep -q 'id="smpi/ois"' "$tmp/acc/platforms/halo2d-np1-shm/platform-in-situ.xml" ||
      fail "from-trace did not fit smpi/ois from the isends (to itself) of halo2d" ;;
  errors)
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/nope.xml,$tmp/hosts" >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --platform shm: no such file '$tmp/nope.xml'" "$err" ||
      fail "a missing platform should exit 2 naming it"
    "$root/accuracy/accuracy" --build "$build" --platform "ib=$tmp/p.xml,$tmp/hosts" >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --platform expects shm=PLATFORM.xml,HOSTFILE or tcp=...; got 'ib=" "$err" ||
      fail "an unknown transport should exit 2"
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --apps lu >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: unknown mini-application 'lu' (expected some of halo2d, halo3d, cg, fft, wavefront, subcomm)" "$err" ||
      fail "an unknown application should exit 2"
    "$root/accuracy/accuracy" --build "$build" --platform "shm=$tmp/p.xml,$tmp/hosts" --ranks 2,x >"$out" 2>"$err"
    [ $? -eq 2 ] && grep -qF "accuracy: error: --ranks expects rank counts separated by commas, got '2,x'" "$err" ||
      fail "bad rank counts should exit 2" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
