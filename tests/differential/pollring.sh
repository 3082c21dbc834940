#!/usr/bin/env bash
# Traces whose control flow depended on timing (issue 17, part 1; docs/mpi-semantics.md, "Traced outcomes"):
# tests/mpi-programs/pollring.c polls its receive with up to three MPI_Test, so which test succeeded depends
# on the timing, and the trace records it only implicitly. Traced with SMPI on 4 ranks of every platform:
#  - replayed with the traced run's parameters by default (tit/traced-tests:yes), the prediction equals SMPI's
#    online run (relative 1e-9);
#  - replayed with --cfg=tit/traced-tests:no, it equals SimGrid's replayer (smpirun -replay, relative 1e-9);
#  - the trace of small-hetero replayed on every other platform and with smpi/async-small-thresh:65536, with
#    and without tit/traced-tests, completes (exit 0) without a "never posted" warning.
# Usage: pollring.sh BUILD_DIR WORKDIR
set -u
build=$(realpath "$1")
work=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
bin=$build/bin/tit-replay
platforms=(small-hetero fat-tree torus dragonfly cluster-backbone)
np=4
mkdir -p "$work"
cd "$work" || exit 2
smpicc -O1 "$root/tests/mpi-programs/pollring.c" -o pollring 2>smpicc.err || { cat smpicc.err; exit 2; }
passed=0 failed=0
ok() { echo "$1 OK"; passed=$((passed + 1)); }
ko() { echo "$1 FAIL"; [ -z "${2:-}" ] || cat "$2"; failed=$((failed + 1)); }
close() { [ -n "$1" ] && [ -n "$2" ] && awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * a) }'; }
time_of() { sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$1"; }

for plat in "${platforms[@]}"; do
  P=$root/platforms/$plat
  name=pollring-np$np-$plat
  rm -rf "$name" "$name"_files
  online=$(smpirun -trace-ti --cfg=tracing/filename:"$work/$name" --cfg=smpi/simulate-computation:no \
    --cfg=smpi/display-timing:yes -np "$np" -platform "$P.xml" -hostfile "$P.hosts" \
    --log=smpi_config.thresh:warning --log=xbt_cfg.thresh:warning --log=smpi_utils.fmt:'%.15d%e%m%n' \
    ./pollring 2>&1 | sed -n 's/^\([0-9.]*\) Simulated time.*/\1/p')
  "$bin" --hostfile "$P.hosts" "$P.xml" "$work/$name" >"$name.traced.out" 2>&1
  ours=$(time_of "$name.traced.out")
  if close "$online" "$ours"; then ok "$name default (traced tests): online $online tit-replay $ours"
  else ko "$name default (traced tests): online '$online' tit-replay '$ours'" "$name.traced.out"; fi
  ref=$(bash "$here/reference.sh" "$work/$name" "$np" "$P.xml" "$P.hosts" 2>"$name.ref.err")
  "$bin" --hostfile "$P.hosts" --cfg=tit/traced-tests:no "$P.xml" "$work/$name" >"$name.default.out" 2>&1
  ours=$(time_of "$name.default.out")
  if close "$ref" "$ours"; then ok "$name tit/traced-tests:no: smpirun -replay $ref tit-replay $ours"
  else ko "$name tit/traced-tests:no: smpirun -replay '$ref' tit-replay '$ours'" "$name.default.out"; fi
done

trace=$work/pollring-np$np-small-hetero
for plat in "${platforms[@]}"; do
  P=$root/platforms/$plat
  for cfg in smpi/async-small-thresh:0 smpi/async-small-thresh:65536; do
    for mode in no yes; do
      name="small-hetero trace on $plat, $cfg, tit/traced-tests:$mode"
      log="$work/cross-$plat-${cfg##*:}-$mode.out"
      "$bin" --hostfile "$P.hosts" --cfg="$cfg" --cfg=tit/traced-tests:$mode "$P.xml" "$trace" >"$log" 2>&1
      status=$?
      if [ "$status" -eq 0 ] && ! grep -q "never posted" "$log"; then ok "$name: exit 0, $(time_of "$log") s"
      else ko "$name: exit $status" "$log"; fi
    done
  done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
