#!/usr/bin/env bash
# Traces tests/mpi-programs/halo.c with SMPI at 4, 8, 16, 32 and 64 ranks into sweep/examples/ranks/,
# as a strong-scaling problem: 4e7 flops and a 2D domain's halo (16 MB / sqrt(N) per message) per
# iteration, split over the ranks. Then: tit-sweep run sweep/examples/ranks.yaml --out OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
smpicc -O1 -o "$tmp/halo" "$root/tests/mpi-programs/halo.c"
for n in 4 8 16 32 64; do
  flops=$(awk -v n=$n 'BEGIN { printf "%.0f", 4e7 / n }')
  bytes=$(awk -v n=$n 'BEGIN { printf "%d", 16000000 / sqrt(n) }')
  (cd "$tmp" && smpirun -trace-ti --cfg=tracing/filename:"halo$n.trace" -np $n -platform "$here/cluster64.xml" \
    -hostfile "$here/cluster64.hosts" --cfg=smpi/simulate-computation:no --log=xbt_cfg.thres:warning \
    --log=smpi_config.thres:warning ./halo "$bytes" 5 "$flops" >/dev/null)
  rm -rf "$here/ranks/halo$n"
  mkdir -p "$here/ranks/halo$n"
  r=0
  while read -r f; do
    cp "$tmp/$f" "$here/ranks/halo$n/rank-$r.txt"
    echo "rank-$r.txt" >>"$here/ranks/halo$n/trace.list"
    r=$((r + 1))
  done <"$tmp/halo$n.trace"
done
