#!/usr/bin/env bash
# Benchmark: replay the same synthetic traces with SimGrid's `smpirun -replay` (the reference) and
# with tit-replay, check that the predicted times agree to 1e-9 relative, and print wall time, peak
# memory, actions per second and the throughput ratio ours/reference. Not part of the tests.
#
# Usage: scripts/bench-replay.sh          (build first: scripts/build.sh)
# Environment:
#   BENCH_CASES   space-separated RANKS:ITERATIONS[:halo|ring] cases (default
#                 "16:5600 1024:100 1024:170:ring": about 1.0M actions on 16 ranks, 1.15M and 1.05M
#                 on 1024 ranks). The halo pattern keeps about 4 transfers per rank in flight, so at
#                 1024 ranks SimGrid's network solver (shared by both replayers) dominates; the ring
#                 pattern is lighter on it.
#   BENCH_QUICK=1 small cases instead ("16:200 1024:3 1024:3:ring")
#   BENCH_SIDES   both (default), ref (reference only) or ours (tit-replay only)
#   BENCH_PLATFORM, BENCH_HOSTFILE  replay on this platform and hostfile (ranks round-robin on its
#                 slots, e.g. platforms/cluster-backbone.xml platforms/cluster-backbone.hosts)
#                 instead of a generated cluster of RANKS hosts
#   BENCH_DIR     where traces, platforms and logs go (default $BUILD_DIR/bench; regenerated each run)
#   BUILD_DIR     build directory holding bin/tit-replay (default: build/ at the repository root)
#   TIT_REPLAY    tit-replay binary (default $BUILD_DIR/bin/tit-replay)
#   BENCH_TIT_ARGS / BENCH_REF_ARGS  extra arguments for tit-replay / smpirun
# Exit status: 0 when every run succeeded and every comparison agreed, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
bench_dir=$(realpath -m "${BENCH_DIR:-$build_dir/bench}")
tit=$(realpath -m "${TIT_REPLAY:-$build_dir/bin/tit-replay}")
sides=${BENCH_SIDES:-both}
if [[ ${BENCH_QUICK:-0} == 1 ]]; then
  cases=${BENCH_CASES:-"16:200 1024:3 1024:3:ring"}
else
  cases=${BENCH_CASES:-"16:5600 1024:100 1024:170:ring"}
fi
platform=${BENCH_PLATFORM:+$(realpath -m "$BENCH_PLATFORM")}
hostfile=${BENCH_HOSTFILE:+$(realpath -m "$BENCH_HOSTFILE")}
if [[ -n $platform || -n $hostfile ]] && ! [[ -f $platform && -f $hostfile ]]; then
  echo "bench-replay.sh: BENCH_PLATFORM and BENCH_HOSTFILE must both name existing files" >&2
  exit 2
fi
read -r -a tit_extra <<<"${BENCH_TIT_ARGS:-}"
read -r -a ref_extra <<<"${BENCH_REF_ARGS:-}"

case $sides in
  both | ref | ours) ;;
  *) echo "bench-replay.sh: BENCH_SIDES must be both, ref or ours, not '$sides'" >&2; exit 2 ;;
esac
run_ref=0 run_ours=0
[[ $sides == ours ]] || run_ref=1
[[ $sides == ref ]] || run_ours=1
if ((run_ref)) && ! command -v smpirun >/dev/null 2>&1; then
  echo "bench-replay.sh: smpirun not found (Debian package libsimgrid-dev)" >&2
  exit 1
fi
if ((run_ours)) && [[ ! -x $tit ]]; then
  echo "bench-replay.sh: $tit not found: build first (scripts/build.sh), or BENCH_SIDES=ref" >&2
  exit 1
fi

# measure LOG CMD...: runs CMD with stdout and stderr to LOG; sets rc, wall (s) and rss (KiB).
measure() {
  local log=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f '%M' -o "$log.rss" "$@" >"$log" 2>&1 && rc=0 || rc=$?
  else
    # No GNU time: let Python time the command and report the children's peak RSS.
    python3 -c '
import resource, subprocess, sys, time
with open(sys.argv[2], "w") as log:
    t0 = time.monotonic()
    rc = subprocess.call(sys.argv[3:], stdout=log, stderr=subprocess.STDOUT)
    t1 = time.monotonic()
with open(sys.argv[1], "w") as out:
    print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=out)
with open(sys.argv[1] + ".wall", "w") as out:
    print(t1 - t0, file=out)
sys.exit(rc)' "$log.rss" "$log" "$@" && rc=0 || rc=$?
  fi
  t1=$(date +%s.%N)
  if [[ -f $log.rss.wall ]]; then
    t0=0
    t1=$(cat "$log.rss.wall")
  fi
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  rss=$(tail -n 1 "$log.rss" 2>/dev/null || echo '?')
}

per_second() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }

status=0
summary=()
mkdir -p "$bench_dir"
for c in $cases; do
  if [[ ! $c =~ ^([0-9]+):([0-9]+)(:(halo|ring))?$ ]]; then
    echo "bench-replay.sh: bad case '$c' in BENCH_CASES (expected RANKS:ITERATIONS[:halo|ring])" >&2
    exit 2
  fi
  ranks=${BASH_REMATCH[1]}
  iters=${BASH_REMATCH[2]}
  pattern=${BASH_REMATCH[4]:-halo}
  dir=$bench_dir/r$ranks-i$iters-$pattern
  rm -rf "$dir"
  actions=$(python3 "$root/tests/bench/gen-trace.py" "$dir" --ranks "$ranks" --iterations "$iters" --pattern "$pattern")
  echo "== $ranks ranks x $iters iterations, $pattern pattern: $actions actions ($dir)"
  plat=${platform:-$dir/platform.xml}
  hosts=${hostfile:-$dir/hostfile}
  [[ -z $platform ]] || echo "   platform $plat, hostfile $hosts"

  ref_time='' ours_time='' ref_rate='' ours_rate=''
  if ((run_ref)); then
    measure "$dir/ref.log" smpirun -no-privatize -replay "$dir/traces.list" -np "$ranks" \
      -platform "$plat" -hostfile "$hosts" \
      --log=replay.thresh:critical --log=smpi_replay.fmt:'%.15d%e%m%n' "${ref_extra[@]}"
    # The last rank to finish logs "<clock> Simulation time <elapsed>"; the clock has 15 decimals.
    ref_time=$(awk '$2 == "Simulation" && $3 == "time" { t = $1 } END { print t }' "$dir/ref.log")
    if ((rc != 0)) || [[ -z $ref_time ]]; then
      echo "   reference: FAILED (exit $rc), see $dir/ref.log"
      tail -n 5 "$dir/ref.log" | sed 's/^/   | /'
      status=1
      ref_time=''
    else
      ref_rate=$(per_second "$actions" "$wall")
      printf '   reference (smpirun -replay): predicted %s s, wall %s s, peak RSS %s KiB, %s actions/s\n' \
        "$ref_time" "$wall" "$rss" "$ref_rate"
    fi
  fi
  if ((run_ours)); then
    measure "$dir/ours.log" "$tit" "${tit_extra[@]}" --hostfile "$hosts" "$plat" "$dir/traces.list"
    ours_time=$(awk '$1 == "Simulated" && $2 == "time:" { t = $3 } END { print t }' "$dir/ours.log")
    if ((rc != 0)) || [[ -z $ours_time ]]; then
      echo "   tit-replay: FAILED (exit $rc), see $dir/ours.log"
      tail -n 5 "$dir/ours.log" | sed 's/^/   | /'
      status=1
      ours_time=''
    else
      ours_rate=$(per_second "$actions" "$wall")
      printf '   tit-replay                 : predicted %s s, wall %s s, peak RSS %s KiB, %s actions/s\n' \
        "$ours_time" "$wall" "$rss" "$ours_rate"
    fi
  fi
  line="$ranks ranks, $actions actions: reference ${ref_rate:--} actions/s, tit-replay ${ours_rate:--} actions/s"
  if [[ -n $ref_time && -n $ours_time ]]; then
    verdict=$(awk -v a="$ref_time" -v b="$ours_time" 'BEGIN {
      d = a - b; if (d < 0) d = -d
      m = (a < 0 ? -a : a); mb = (b < 0 ? -b : b); if (mb > m) m = mb
      r = (m > 0 ? d / m : 0)
      printf "%s relative difference %.3g", (r <= 1e-9 ? "agree:" : "DISAGREE:"), r }')
    ratio=$(awk -v o="$ours_rate" -v r="$ref_rate" 'BEGIN { printf "%.2f", (r > 0 ? o / r : 0) }')
    echo "   predictions $verdict; throughput ratio ours/reference $ratio"
    [[ $verdict == agree:* ]] || status=1
    line+=", ratio $ratio, $verdict"
  fi
  summary+=("$line")
done

echo "== summary"
printf '   %s\n' "${summary[@]}"
exit "$status"
