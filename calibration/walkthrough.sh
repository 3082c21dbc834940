#!/usr/bin/env bash
# Calibration walkthrough on this machine: measure with 2 ranks under mpirun, fit, write a platform,
# replay a ping-pong of the measured sizes on it with tit-replay, and compare with the measurements.
#
# Usage: calibration/walkthrough.sh [--small] [--mode shm|tcp] [--build DIR] [--out DIR] [--tolerance T]
#                                   [--cpu-from trace|flops] [--app "PROGRAM ARGS..."]
#   --small       a small size range (1 B .. 1 MiB) and few repetitions: about a minute (CI)
#   --mode        shm: Open MPI's shared-memory transport (btl self,vader); tcp: TCP loopback (btl self,tcp)
#   --build       build directory holding bin/ (default: build/ at the repository root)
#   --out         output directory (default: calib-out-<mode>)
#   --tolerance   largest median relative distance of the predicted round trip to the measured interquartile range
#                 allowed per size band
#                 (default 0.20; see calibration/README.md)
#   --cpu-from    trace (default): the CPU speed is the rate of a short traced run (--app) in the unit of
#                 the tracer's volumes (TIT_TRACE_COMPUTE, TIT_TRACE_RATE as set for the application's own
#                 traces), fitted by `tit-calibrate cpu-trace`; flops: calib-cpu's DAXPY flop rate, for
#                 traces that count flops (SMPI's)
#   --app         the program traced for the CPU rate, run with 2 ranks (default: calib-cpu's DAXPY)
# Exit status: 0 when every band is within the tolerance, 1 otherwise, 2 on a usage or tool error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
small=0
mode=shm
build=$root/build
out=
tolerance=0.20
cpu_from=trace
app=
while [[ $# -gt 0 ]]; do
  case $1 in
    --small) small=1 ;;
    --mode) mode=$2; shift ;;
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --tolerance) tolerance=$2; shift ;;
    --cpu-from) cpu_from=$2; shift ;;
    --app) app=$2; shift ;;
    *) echo "walkthrough.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
case $mode in
  shm) btl=self,vader ;;
  tcp) btl=self,tcp ;;
  *) echo "walkthrough.sh: error: --mode is shm or tcp, got '$mode'" >&2; exit 2 ;;
esac
[[ $cpu_from == trace || $cpu_from == flops ]] ||
  { echo "walkthrough.sh: error: --cpu-from is trace or flops, got '$cpu_from'" >&2; exit 2; }
out=${out:-calib-out-$mode}
bin=$(realpath "$build")/bin
python=${TIT_PYTHON:-/usr/bin/python3}
[[ -x $python ]] || python=python3
mkdir -p "$out"
out=$(realpath "$out")

# Open MPI refuses root without these; 2 ranks may share 2 cores with other work.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=(timeout 300 mpirun --oversubscribe -np 2 --mca btl "$btl")

if ((small)); then
  p2p_opts=(--max-size 1048576 --sizes 40 --reps 10 --warmup 3)
  cont_opts=(--size 1048576 --reps 10)
  cpu_opts=(--problems 16384,4194304 --reps 5 --volume 5e7)
else
  p2p_opts=(--max-size 104857600 --sizes 80 --reps 20 --warmup 5)
  cont_opts=(--size 16777216 --reps 20)
  cpu_opts=(--problems 16384,262144,4194304,67108864 --reps 5 --volume 2e8)
fi

echo "== measuring ($mode, btl $btl) into $out"
# copy: rank 0's MPI_Sendrecv to itself, for the local-copy rate (tit/local-copy-bw)
"${mpirun[@]}" "$bin/calib-p2p" "${p2p_opts[@]}" --experiments send,recv,isend,pingpong,copy -o "$out/p2p.csv"
"${mpirun[@]}" "$bin/calib-contention" "${cont_opts[@]}" -o "$out/contention.csv"
if [[ $cpu_from == flops ]]; then
  "${mpirun[@]}" "$bin/calib-cpu" "${cpu_opts[@]}" -o "$out/cpu.csv"
else
  # The application's rate in its traces' unit: a traced run with timings, each compute line joined
  # with its duration. The tracer settings are the environment's, as for the application's traces.
  read -r -a app_cmd <<<"${app:-$bin/calib-cpu ${cpu_opts[*]} -o $out/cpu-flops.csv}"
  tracer_env=(-x LD_PRELOAD="$(realpath "$build")/lib/libtit-trace.so" -x TIT_TRACE_DIR -x TIT_TRACE_TIMINGS)
  for v in TIT_TRACE_COMPUTE TIT_TRACE_RATE TIT_TRACE_CPU_CLOCK; do [[ -z ${!v+x} ]] || tracer_env+=(-x "$v"); done
  rm -rf "$out/cpu-trace"
  TIT_TRACE_DIR=$out/cpu-trace TIT_TRACE_TIMINGS=1 "${mpirun[@]}" "${tracer_env[@]}" "${app_cmd[@]}"
  "$bin/tit-calibrate" cpu-trace "$out/cpu-trace/trace.list" -o "$out/cpu.csv"
  echo "CPU rate from a traced run of: ${app_cmd[*]} (volumes in: $(sed -n 's/^# unit: //p' "$out/cpu.csv"))"
fi

# Nominal route: the two ranks are modelled as two nodes of a generated cluster; a route crosses the
# two node links (the cabinet switch has no latency). The nominal values are arbitrary round numbers:
# the factors fitted make up the difference with what was measured.
bw=1e10
lat=1e-6
echo "== generating the platform and fitting"
"$bin/tit-calibrate" platform --cabinets 1 --nodes-per-cabinet 2 --node-bw $bw --node-lat $lat --switch-lat 0 \
  --switch-bw 1e11 -o "$out/platform.xml" --hostfile "$out/hosts"
"$bin/tit-calibrate" fit --p2p "$out/p2p.csv" --contention "$out/contention.csv" --cpu "$out/cpu.csv" \
  --bandwidth $bw --latency $lat --links 2 --platform "$out/platform.xml" \
  --curves "$out/curves.csv" --plot-dir "$out/plots" --report "$out/fit-report.txt"
cat "$out/fit-report.txt"

echo "== replaying the ping-pong on the calibrated platform"
status=0
"$python" "$here/pingpong_check.py" --p2p "$out/p2p.csv" --platform "$out/platform.xml" --replay "$bin/tit-replay" \
  --hosts "$(paste -sd, "$out/hosts")" --workdir "$out" --tolerance "$tolerance" --compare "$out/compare.csv" \
  | tee "$out/compare.txt" || status=$?
"$python" "$here/plot_fit.py" --compare "$out/compare.csv" "$out/plots/pingpong-replay.png"
echo "plots: $out/plots/{os,or,ois,oneway,pingpong-replay}.png"
exit $status
