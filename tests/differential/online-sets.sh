#!/usr/bin/env bash
# The ompi and mpich algorithm sets against SMPI's online simulation: trace the collective programs with
# `smpirun -trace-ti --cfg=smpi/coll-selector:SET`, keep SMPI's online simulated time, replay the trace with
# `tit-replay --cfg=coll/selector:SET` and print the relative difference per case. A case passes when it is
# within 1%, or when README.md (same folder) explains it in its table of online differences (a line starting
# with "| CASE |"); a traced run that aborts must be explained there too.
#
# usage: online-sets.sh BUILD_DIR WORKDIR
# Environment: ONLINE_SETS (default "ompi mpich"), ONLINE_PROGRAMS (default "coll_rooted coll_all coll_scan"),
# ONLINE_NPS (default "4 5 8"), ONLINE_PLATFORMS (default "small-hetero torus"), ONLINE_TIMEOUT (120 s a run).
set -u
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR WORKDIR" >&2
  exit 2
fi
build=$(realpath "$1")
work=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
readme=$here/README.md
# shellcheck source=tests/differential/cases.sh
source "$here/cases.sh"
tmo=${ONLINE_TIMEOUT:-120}
mkdir -p "$work"
cd "$work" || exit 2
[ -x "$build/bin/tit-replay" ] || { echo "$0: $build/bin/tit-replay is missing" >&2; exit 2; }
for program in ${ONLINE_PROGRAMS:-coll_rooted coll_all coll_scan}; do
  if [ ! -x "$program" ] || [ "$root/tests/mpi-programs/$program.c" -nt "$program" ]; then
    smpicc -O1 "$root/tests/mpi-programs/$program.c" -o "$program" 2>smpicc.err || { cat smpicc.err; exit 2; }
  fi
done

printf '%-40s %20s %20s %10s  %s\n' case smpi-online tit-replay rel-diff result
passed=0 failed=0 explained=0
for set in ${ONLINE_SETS:-ompi mpich}; do
  for program in ${ONLINE_PROGRAMS:-coll_rooted coll_all coll_scan}; do
    for np in ${ONLINE_NPS:-4 5 8}; do
      for platform in ${ONLINE_PLATFORMS:-small-hetero torus}; do
        P=$root/platforms/$platform
        name=$program-np$np-$platform-$set
        # shellcheck disable=SC2086 # DIFF_ARGS holds several words on purpose
        timeout "$tmo" smpirun -trace-ti --cfg=tracing/filename:"$work/$name" --cfg=smpi/simulate-computation:no \
          --cfg=smpi/coll-selector:"$set" --cfg=smpi/display-timing:yes -np "$np" -platform "$P.xml" \
          -hostfile "$P.hosts" --log=smpi_config.thresh:warning --log=xbt_cfg.thresh:warning \
          --log=smpi_coll.thresh:warning --log=smpi_utils.fmt:'%.15d%e%m%n' \
          "./$program" ${DIFF_ARGS[$program]} >"$name.online.log" 2>&1
        online=$(sed -n 's/^\([0-9.]*\) Simulated time.*/\1/p' "$name.online.log")
        ours=""
        if [ -n "$online" ]; then
          timeout "$tmo" "$build/bin/tit-replay" --hostfile "$P.hosts" --np "$np" --cfg=coll/selector:"$set" \
            "$P.xml" "$work/$name" >"$name.ours.log" 2>&1
          ours=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$name.ours.log")
        fi
        rel=$(awk -v a="$online" -v b="$ours" 'BEGIN {
            if (a == "" || b == "" || a + 0 == 0) { print "-"; exit }
            d = (b - a) / a; printf "%.2e\n", d }')
        within=$(awk -v r="$rel" 'BEGIN { if (r == "-") { print 0; exit } if (r < 0) r = -r; print (r <= 0.01) ? 1 : 0 }')
        if [ "$within" -eq 1 ]; then
          result=OK
          passed=$((passed + 1))
        elif grep -q "^| $name |" "$readme"; then
          result=EXPLAINED
          explained=$((explained + 1))
        else
          result=FAIL
          failed=$((failed + 1))
          [ -n "$online" ] || tail -n 3 "$name.online.log"
          [ -z "$online" ] || tail -n 3 "$name.ours.log"
        fi
        printf '%-40s %20s %20s %10s  %s\n' "$name" "${online:-ABORTED}" "${ours:--}" "$rel" "$result"
      done
    done
  done
done
echo "$explained cases above 1% or aborted online, explained in $readme"
echo "$((passed + explained)) passed, $failed failed"
[ "$failed" -eq 0 ] && [ $((passed + explained)) -gt 0 ]
