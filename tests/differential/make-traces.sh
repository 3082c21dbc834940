#!/usr/bin/env bash
# Compile the MPI test programs with smpicc and trace them with SMPI in time-independent format.
#
# usage: make-traces.sh OUTDIR [PROGRAM...]
#
# For every program x process count x platform of cases.sh (point-to-point programs with
# DIFF_NPS, collective ones with DIFF_COLL_NPS; only the PROGRAMs named, if any) this produces
#   OUTDIR/bin/PROG                          the program compiled with smpicc
#   OUTDIR/traces/PROG-npN-PLATFORM.trace    a trace list (one line per rank, absolute paths)
#   OUTDIR/traces/PROG-npN-PLATFORM.trace_files/   the per-rank trace files
#   OUTDIR/online.tsv                        case, platform, np, SMPI's online simulated time (15 decimals)
# Each case is traced on the platform it is later replayed on, so that the online time of the
# real execution can be compared with the replays (the number of MPI_Test calls of testpoll
# depends on the platform, so its trace does too).
# DIFF_JOBS (default 2) tracing runs go at the same time.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
progs_dir="$root/tests/mpi-programs"
plat_dir="$root/platforms"
# shellcheck source=tests/differential/cases.sh
source "$here/cases.sh"

if [ $# -lt 1 ]; then
  echo "usage: $0 OUTDIR [PROGRAM...]" >&2
  exit 2
fi
mkdir -p "$1"
out="$(cd "$1" && pwd)"
shift
jobs_max=${DIFF_JOBS:-2}

# The programs to trace, each with its process counts.
declare -A nps_of=()
for p in "${DIFF_PROGRAMS[@]}"; do nps_of[$p]="${DIFF_NPS[*]}"; done
for p in "${DIFF_COLL_PROGRAMS[@]}"; do nps_of[$p]="${DIFF_COLL_NPS[*]}"; done
programs=()
if [ $# -eq 0 ]; then
  programs=("${DIFF_PROGRAMS[@]}" "${DIFF_COLL_PROGRAMS[@]}")
else
  for p in "$@"; do
    [ -n "${nps_of[$p]:-}" ] || { echo "$0: unknown program '$p' (see cases.sh)" >&2; exit 2; }
    programs+=("$p")
  done
fi
mkdir -p "$out/bin" "$out/traces" "$out/logs"
command -v smpicc >/dev/null || { echo "$0: smpicc not found (install libsimgrid-dev)" >&2; exit 2; }
command -v smpirun >/dev/null || { echo "$0: smpirun not found (install libsimgrid-dev)" >&2; exit 2; }

for p in "${programs[@]}"; do
  stale=0
  [ -x "$out/bin/$p" ] || stale=1
  for src in "$progs_dir/$p.c" "$progs_dir"/*.h; do
    if [ "$src" -nt "$out/bin/$p" ]; then stale=1; fi
  done
  if [ "$stale" -eq 1 ]; then
    smpicc -O1 -Wall -Wextra -o "$out/bin/$p" "$progs_dir/$p.c" 2>"$out/logs/build-$p.log" || {
      cat "$out/logs/build-$p.log" >&2
      echo "$0: cannot compile $p.c" >&2
      exit 1
    }
  fi
done

# trace_one PROG NP PLATFORM: writes one line "case platform np online-time" on stdout.
trace_one() {
  local p=$1 np=$2 plat=$3
  local name="$p-np$np-$plat"
  local log="$out/logs/trace-$name.log"
  rm -rf "$out/traces/$name.trace" "$out/traces/$name.trace_files"
  # shellcheck disable=SC2086 # DIFF_ARGS holds several words on purpose
  if ! (cd "$out" && smpirun -trace-ti --cfg=tracing/filename:"$out/traces/$name.trace" \
          -np "$np" -platform "$plat_dir/$plat.xml" -hostfile "$plat_dir/$plat.hosts" \
          "${DIFF_TRACE_OPTS[@]}" --cfg=smpi/display-timing:yes \
          --log=smpi_utils.fmt:'%.15d%e%m%n' --log=xbt_cfg.thres:warning \
          "$out/bin/$p" ${DIFF_ARGS[$p]}) >"$log" 2>&1; then
    echo "$0: tracing $name failed, see $log" >&2
    return 1
  fi
  local t
  t=$(sed -n 's/^\([0-9.eE+-]*\) Simulated time: .*/\1/p' "$log" | tail -n 1)
  if [ -z "$t" ] || [ ! -s "$out/traces/$name.trace" ]; then
    echo "$0: tracing $name produced no time or no trace, see $log" >&2
    return 1
  fi
  printf '%s\t%s\t%s\t%s\n' "$name" "$plat" "$np" "$t"
}

# DIFF_JOBS cases at a time (the machines have two cores); results collected in a fixed order.
jobs_dir="$out/logs/jobs"
rm -rf "$jobs_dir"
mkdir -p "$jobs_dir"
i=0
for p in "${programs[@]}"; do
  for np in ${nps_of[$p]}; do
    for plat in "${DIFF_PLATFORMS[@]}"; do
      i=$((i + 1))
      while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
        wait -n || true
      done
      trace_one "$p" "$np" "$plat" >"$jobs_dir/$(printf '%04d' "$i").tsv" &
    done
  done
done
wait
cat "$jobs_dir"/*.tsv >"$out/online.tsv"
count=$(wc -l <"$out/online.tsv")
if [ "$count" -ne "$i" ]; then
  echo "$0: only $count of $i cases traced" >&2
  exit 1
fi
echo "$count traces in $out/traces, online times in $out/online.tsv"
