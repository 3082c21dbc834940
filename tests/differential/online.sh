#!/usr/bin/env bash
# Actions SimGrid's replayer rejects (nonblocking collectives, synchronous and buffered sends, waitany,
# testall, receives from any source) have SMPI's online simulation as their
# reference: trace an MPI program with smpirun -trace-ti, and compare the end of its online run (logged
# with full precision) with tit-replay's prediction on the trace, to a relative 1e-9.
# Usage: online.sh BUILD_DIR WORKDIR
set -u
build=$(realpath "$1")
work=$(realpath -m "$2")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$work"
cd "$work" || exit 2
for program in coll_nonblocking p2p_variants; do
  smpicc -O1 "$root/tests/mpi-programs/$program.c" -o "$program" 2>smpicc.err || { cat smpicc.err; exit 1; }
done
passed=0 failed=0
for program in coll_nonblocking p2p_variants; do
for platform in small-hetero torus; do
  for np in 2 3 5 8; do
    P=$root/platforms/$platform
    name=$program-np$np-$platform
    online=$(smpirun -trace-ti --cfg=tracing/filename:"$work/$name" --cfg=smpi/simulate-computation:no \
      --cfg=smpi/display-timing:yes -np "$np" -platform "$P.xml" -hostfile "$P.hosts" \
      --log=smpi_config.thresh:warning --log=xbt_cfg.thresh:warning --log=smpi_utils.fmt:'%.15d%e%m%n' \
      "./$program" 2>&1 | sed -n 's/^\([0-9.]*\) Simulated time.*/\1/p')
    ours=$("$build/bin/tit-replay" --hostfile "$P.hosts" --np "$np" "$P.xml" "$work/$name" 2>"$work/$name.err" |
      sed -n 's/^Simulated time: \(.*\) s$/\1/p')
    if [ -n "$online" ] && [ -n "$ours" ] &&
      awk -v a="$online" -v b="$ours" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-9 * a) }'; then
      echo "$name online $online tit-replay $ours OK"; passed=$((passed + 1))
    else
      echo "$name online '$online' tit-replay '$ours' FAIL"; cat "$work/$name.err"; failed=$((failed + 1))
    fi
  done
done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
