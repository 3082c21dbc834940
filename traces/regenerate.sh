#!/usr/bin/env bash
# Regenerate the example traces of this directory with SMPI (needs libsimgrid-dev).
#
# usage: traces/regenerate.sh
#
# Traces tests/mpi-programs/ring.c and halo.c on 4 ranks, then stores each trace as
#   NAME/rank-R.txt   one file per rank, R = MPI rank (SMPI names them TIMESTAMP_rank-(R+1).txt)
#   NAME.list         trace list, one line per rank, paths relative to this directory
#   NAME-merged.txt   (ring4 only) the same actions as one merged file, ranks one after the other
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# trace NAME PROGRAM ARGS...
trace() {
  local name=$1 prog=$2
  shift 2
  smpicc -O1 -o "$tmp/$prog" "$root/tests/mpi-programs/$prog.c"
  (cd "$tmp" && smpirun -trace-ti --cfg=tracing/filename:"$name.trace" -np 4 \
     -platform "$root/platforms/small-hetero.xml" -hostfile "$root/platforms/small-hetero.hosts" \
     --cfg=smpi/simulate-computation:no --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning \
     "./$prog" "$@")
  rm -rf "${here:?}/$name" "$here/$name.list"
  mkdir -p "$here/$name"
  local r=0 f
  while read -r f; do
    cp "$tmp/$f" "$here/$name/rank-$r.txt"
    echo "$name/rank-$r.txt" >>"$here/$name.list"
    r=$((r + 1))
  done <"$tmp/$name.trace"
}

trace ring4 ring 100000 2 1e7
trace halo4 halo 80000 2 3e5
cat "$here"/ring4/rank-{0,1,2,3}.txt >"$here/ring4-merged.txt"
echo "ring4-merged.txt" >"$here/ring4-merged.list"
