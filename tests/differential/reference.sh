#!/usr/bin/env bash
# Replay a time-independent trace with SimGrid's own replayer (smpirun -replay) and print the
# simulated time with 15 decimals.
#
# usage: reference.sh [-l LOG] LIST NP PLATFORM HOSTFILE [--cfg=name:value ...]
#
#   LIST      trace list: one trace file per line (line i = rank i), or a single merged file.
#             Relative paths in it are taken from the current directory, as smpirun does; if
#             they do not exist there but do relative to the list's own directory, the replay
#             is run from that directory.
#   -l LOG    keep smpirun's whole output (one verbose line per replayed action) in LOG.
#
# The time printed is the date (%.15d log format) of the replayer's final
# "Simulation time" line, which is the simulated end clock at full precision (the message
# itself only shows 6 decimals).
set -euo pipefail

log=""
if [ "${1:-}" = "-l" ]; then
  log=$2
  shift 2
fi
if [ $# -lt 4 ]; then
  echo "usage: $0 [-l LOG] LIST NP PLATFORM HOSTFILE [--cfg=name:value ...]" >&2
  exit 2
fi
list=$1 np=$2 platform=$3 hostfile=$4
shift 4
for f in "$list" "$platform" "$hostfile"; do
  [ -f "$f" ] || { echo "$0: no such file: $f" >&2; exit 2; }
done
command -v smpirun >/dev/null || { echo "$0: smpirun not found (install libsimgrid-dev)" >&2; exit 2; }

abs() { (cd "$(dirname "$1")" && printf '%s/%s\n' "$(pwd)" "$(basename "$1")"); }
list=$(abs "$list")
platform=$(abs "$platform")
hostfile=$(abs "$hostfile")
[ -z "$log" ] || log=$(abs "$log")

# Where to run from: the current directory unless the list's first entry only exists
# relative to the list's directory.
rundir=$(pwd)
first=$(grep -m 1 -v '^[[:space:]]*$' "$list" | tr -d '[:space:]' || true)
if [ -n "$first" ] && [ "${first#/}" = "$first" ] && [ ! -e "$first" ] && [ -e "$(dirname "$list")/$first" ]; then
  rundir=$(dirname "$list")
fi

tmp=$(mktemp "${TMPDIR:-/tmp}/tit-reference.XXXXXX")
trap 'rm -f "$tmp"' EXIT
trap 'exit 143' TERM INT # the EXIT trap runs when a time limit stops the script too
status=0
(cd "$rundir" && smpirun -no-privatize -replay "$list" -np "$np" -platform "$platform" -hostfile "$hostfile" \
   "$@" --log=smpi_replay.thresh:verbose --log=replay.thresh:critical \
   --log=smpi_replay.fmt:'%.15d%e%m%n' --log=xbt_cfg.thres:warning) >"$tmp" 2>&1 || status=$?
[ -z "$log" ] || cp "$tmp" "$log"

time=$(sed -n 's/^\([0-9][0-9.eE+-]*\) Simulation time [0-9.eE+-]*$/\1/p' "$tmp" | tail -n 1)
if [ "$status" -ne 0 ] || [ -z "$time" ]; then
  echo "$0: the reference replay failed (exit $status); its last lines:" >&2
  tail -n 15 "$tmp" >&2
  exit 1
fi
echo "$time"
