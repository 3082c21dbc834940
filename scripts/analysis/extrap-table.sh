#!/usr/bin/env bash
# Benchmark of tit-trace extrapolate on the mini-applications (docs/extrapolation.md#real-applications), not a test.
# Each application of tests/mpi-programs/apps is built with smpicc and traced with `smpirun -trace-ti` (computation
# measured, as SMPI does by default) at four rank counts between 4 and 64; its three smallest traces are extrapolated
# to the largest count, and the extrapolated trace is compared with the real one there: the largest relative
# difference, over ranks and action kinds, of each rank's count of each kind, and the time tit-replay predicts from
# both (same platform). A refusal (exit 2) is printed with its message. Takes a few minutes.
#
# usage: scripts/analysis/extrap-table.sh [APP[:N1,N2,N3,TARGET]...]   (BUILD_DIR=build; default: the six applications at
#        the counts below; APP:... replaces APP's rank counts, e.g. halo3d:27,64,125,216)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${BUILD_DIR:-$root/build}")
dir=$build/extrap-table
tool=$build/bin/tit-trace
replay=$build/bin/tit-replay
platform=$root/tests/extrapolate/data/cluster256.xml
hosts=$root/tests/extrapolate/data/cluster256.hosts
[[ -x $tool && -x $replay ]] || { echo "extrap-table.sh: build first (no $tool or $replay)" >&2; exit 2; }
command -v smpicc >/dev/null || { echo "extrap-table.sh: smpicc not found (libsimgrid-dev)" >&2; exit 2; }

# Per application: its arguments and its rank counts (the three smallest are the inputs, the largest the target).
# The counts give grids with at least 3 ranks along every dimension (a class seen in fewer than 3 inputs cannot be
# fitted), where SMPI 3.32's MPI_Dims_create gives the balanced grid that MPI specifies (it gives 9 x 4 for 36), and
# sizes that divide the problem exactly; and the grids' n0 and n1 each take 3 values on which no two functions that
# differ at the target both fit (on 4 x 3, 5 x 4, 6 x 5, n1 = n0 - 1; on 12, 30, 48 ranks a face 3360 / n1 is also
# 373.33 + 8960 / p): extrapolation refuses such inputs. SMPI measures each burst of computation (thread CPU time) and writes the
# bursts of at least smpi/cpu-threshold seconds: EXTRAP_THRESHOLD (default 1e-4 s), between the bursts that are noise
# (SMPI's own work between two calls, a face packed between two receives: up to about 60 us here) and the smallest
# kernel at 64 ranks (the sizes are chosen so that it takes about 200 us or more); a burst whose size is near the
# threshold is written in some iterations only, and the inputs then disagree in structure.
declare -A ARGS=([halo2d]="3360 10" [halo3d]="240 5" [cg]="8000000 20" [fft]="2048 4" [wavefront]="4096 2 2048"
                 [subcomm]="4000000 20 4096" [subcomm-ours]="4000000 20 4096")
declare -A COUNTS=([halo2d]="12 20 48 64" [halo3d]="27 45 48 64" [cg]="4 8 16 64" [fft]="4 8 16 64"
                   [wavefront]="4 8 16 64" [subcomm]="4 8 16 64" [subcomm-ours]="9 20 36 64")
# subcomm-ours: subcomm built with mpicc and traced by our tracer under Open MPI (mpirun --oversubscribe), whose
# traces have the communicators (comm_split, comm=) that SMPI's lack; its MPI_Dims_create is balanced, and 4 and 8
# ranks (2 x 2, 4 x 2) have no interior class, hence 9, 20, 36 (on 12, 20, 36 the columns' size n1 is also
# 1.5 + p / 8). Compute: thread CPU time x 1.5e9 (the platform's speed), bursts under 1e-4 s not written; the CPU
# time read by clock_gettime at every call (TIT_TRACE_CPU_CLOCK=syscall): with 36 or 64 ranks on 2 cores the
# context-switch records overflow, and some 1.5 ms bursts were then written as nothing.
apps=("$@")
((${#apps[@]})) || apps=(halo2d halo3d cg fft wavefront subcomm subcomm-ours)

rm -rf "$dir"
mkdir -p "$dir"
summary=$dir/table.txt
printf '%-10s %-14s %-12s %-7s %-12s %-14s %-14s %s\n' application inputs "input ranks" target "kind counts" \
  "real trace s" "extrapolated s" error | tee "$summary"

kind_counts() { # EXPECTED_DIR ACTUAL_DIR: the largest relative difference of a rank's count of an action kind
  # (consecutive compute actions count as one: SMPI splits a burst where the program calls MPI_Wtime)
  python3 - "$1" "$2" <<'EOF'
import collections, os, sys
def counts(d):
    out = {}
    for n in os.listdir(d):
        if n.startswith("rank-") and n.endswith(".txt"):
            with open(os.path.join(d, n)) as f:
                kinds = [l.split()[1] for l in f if l.strip() and not l.startswith("#")]
            kinds = [k for i, k in enumerate(kinds) if not (k == "compute" and i > 0 and kinds[i - 1] == "compute")]
            out[int(n[5:-4])] = collections.Counter(kinds)
    return out
real, ours = counts(sys.argv[1]), counts(sys.argv[2])
worst = 0.0 if real.keys() == ours.keys() else 1.0
for r in real.keys() & ours.keys():
    for k in real[r].keys() | ours[r].keys():
        a, b = real[r][k], ours[r][k]
        worst = max(worst, abs(b - a) / a if a else 1.0)
print(f"{worst:.3g}")
EOF
}
predict() { # TRACES: the simulated time tit-replay predicts on the platform
  "$replay" --hostfile "$hosts" "$platform" "$1" 2>/dev/null | sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p'
}

for app in "${apps[@]}"; do
  given=
  [[ $app != *:* ]] || { given=${app#*:}; app=${app%%:*}; }
  [[ -n ${ARGS[$app]:-} ]] || { echo "extrap-table.sh: unknown application '$app'" >&2; exit 2; }
  if [[ -n $given ]]; then read -r -a counts <<<"${given//,/ }"; else read -r -a counts <<<"${COUNTS[$app]}"; fi
  ((${#counts[@]} >= 4)) || { echo "extrap-table.sh: $app needs at least 4 rank counts (3 inputs, 1 target)" >&2; exit 2; }
  read -r -a args <<<"${ARGS[$app]}"
  if [[ $app == *-ours ]]; then
    src=${app%-ours}
    command -v mpicc >/dev/null || { echo "extrap-table.sh: mpicc not found (openmpi-bin)" >&2; exit 2; }
    mpicc -O2 -o "$dir/$app" "$root/tests/mpi-programs/apps/$src.c" 2>"$dir/$app.mpicc.log" ||
      { cat "$dir/$app.mpicc.log" >&2; exit 1; }
    for np in "${counts[@]}"; do
      (cd "$dir" && TIT_TRACE_DIR=$dir/$app-$np.trace TIT_TRACE_COMPUTE=cpu-time TIT_TRACE_CPU_CLOCK=syscall TIT_TRACE_RATE=1.5e9 \
         TIT_TRACE_MIN_BURST="${EXTRAP_THRESHOLD:-1e-4}" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
         timeout 300 mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$build/lib/libtit-trace.so" -x TIT_TRACE_DIR \
         -x TIT_TRACE_COMPUTE -x TIT_TRACE_CPU_CLOCK -x TIT_TRACE_RATE -x TIT_TRACE_MIN_BURST "./$app" "${args[@]}") >"$dir/$app-$np.run.log" 2>&1 ||
        { echo "$app: mpirun -np $np failed (see $dir/$app-$np.run.log)" >&2; continue 2; }
    done
  else
    smpicc -O2 -o "$dir/$app" "$root/tests/mpi-programs/apps/$app.c" 2>"$dir/$app.smpicc.log" ||
      { cat "$dir/$app.smpicc.log" >&2; exit 1; }
    for np in "${counts[@]}"; do
      (cd "$dir" && smpirun -trace-ti --cfg=tracing/filename:"$dir/$app-$np.trace" -np "$np" -platform "$platform" \
         -hostfile "$hosts" --cfg=smpi/host-speed:1.5Gf --cfg=smpi/cpu-threshold:"${EXTRAP_THRESHOLD:-1e-4}" \
         --log=root.thresh:warning "./$app" "${args[@]}") >"$dir/$app-$np.smpi.log" 2>&1 ||
        { echo "$app: smpirun -np $np failed (see $dir/$app-$np.smpi.log)" >&2; continue 2; }
    done
  fi
  target=${counts[3]}
  inputs=("$dir/$app-${counts[0]}.trace" "$dir/$app-${counts[1]}.trace" "$dir/$app-${counts[2]}.trace")
  "$tool" extrapolate --report --ranks "$target" "$dir/$app-x$target.tit" "${inputs[@]}" >"$dir/$app.report" \
    2>"$dir/$app.err"
  status=$?
  real=$(predict "$dir/$app-$target.trace")
  label="${counts[0]},${counts[1]},${counts[2]}"
  if ((status != 0)); then
    printf '%-10s %-14s %-12s %-7s %-12s %-14s %-14s %s\n' "$app" "${args[*]}" "$label" "$target" "-" "$real" \
      "refused" "exit $status" | tee -a "$summary"
    sed 's/^/    /' "$dir/$app.err" | tee -a "$summary"
    continue
  fi
  "$tool" expand "$dir/$app-x$target.tit" "$dir/$app-x$target" >/dev/null
  "$tool" expand "$dir/$app-$target.trace" "$dir/$app-real$target" >/dev/null
  kinds=$(kind_counts "$dir/$app-real$target" "$dir/$app-x$target")
  ours=$(predict "$dir/$app-x$target.tit")
  error=$(python3 -c "r, o = float('$real'), float('${ours:-nan}'); print(f'{abs(o - r) / r:.3g}')")
  printf '%-10s %-14s %-12s %-7s %-12s %-14s %-14s %s\n' "$app" "${args[*]}" "$label" "$target" "$kinds" "$real" \
    "${ours:-failed}" "$error" | tee -a "$summary"
done
echo "load: $(uptime | sed 's/.*load average/load average/')" | tee -a "$summary"
