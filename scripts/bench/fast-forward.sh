#!/usr/bin/env bash
# Benchmark of tit-replay --fast-forward (docs/fast-forward.md), not a test: each trace replayed in full and
# fast-forwarded, side by side in one run; prints both predictions, their relative difference, the CPU time of each
# (user + system, the fast-forward's cut replays in child processes included) and the ratio.
#   - SMPI traces (smpirun -trace-ti, computations measured) of the mini-applications halo2d, halo3d, cg, fft and
#     wavefront (tests/mpi-programs/apps) with 500 or more iterations, at 16 and 64 ranks;
#   - NAS-like generated traces (tests/bench/gen-trace.py: a 2-D halo with an allreduce per iteration, 5 % noise on
#     the compute volumes; a ring) with 500 iterations at 16 to 1,024 ranks;
#   - the 2-D halo at 64 ranks with 500 to 5,000 iterations (how the gain grows with the iterations);
#   - section corpus (not in the default): traces of the corpus's real codes in $CORPUS_FF_OUT/KIND/traces/CODE-npN
#     (corpus/corpus.sh -k tracer|smpi -o CORPUS_FF_OUT, longer runs with CORPUS_EXTRA_ARGS; CORPUS_FF_CASES a glob
#     of the CODE-npN folders, default all), on corpus/cluster-128.xml, at the default tolerance and at 2 %.
# usage: scripts/bench/fast-forward.sh [--quick] [SECTION...]   (BUILD_DIR=build; --quick: 16 ranks only;
#        SECTION: smpi, generated, iterations, corpus; default the first three)
# Run it on a quiet machine: it prints the load average at its start and end.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(realpath -m "${BUILD_DIR:-$root/build}")
replay=$build/bin/tit-replay
quick=0
[[ ${1:-} == --quick ]] && { quick=1; shift; }
sections=" ${*:-smpi generated iterations} "
if [[ $sections == *" corpus "* ]]; then
  [[ -d ${CORPUS_FF_OUT:-}/tracer/traces ]] ||
    { echo "fast-forward.sh: section corpus needs CORPUS_FF_OUT, a corpus.sh -k tracer output folder" >&2; exit 2; }
fi
[[ -x $replay ]] || { echo "fast-forward.sh: build first (no $replay)" >&2; exit 2; }
command -v smpicc >/dev/null || { echo "fast-forward.sh: smpicc not found (libsimgrid-dev)" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tit-bench-ff.XXXXXX")
trap 'rm -rf "$dir"' EXIT
platform=$root/tests/extrapolate/data/cluster256.xml
hosts=$root/tests/extrapolate/data/cluster256.hosts
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

# CMD...: runs CMD, prints "PREDICTED CPU_SECONDS APPLIED" (CPU: user + system of CMD and the children it waited for)
measure() {
  /usr/bin/time -f '%U %S' -o "$dir/time" "$@" >"$dir/out" 2>"$dir/err" || { cat "$dir/err" >&2; return 1; }
  local t applied=full
  t=$(sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p' "$dir/out")
  grep -q '^Fast-forward: the time above is extrapolated' "$dir/out" && applied=ff
  local est; est=$(sed -n 's/^Fast-forward: .*estimated error \([0-9.e+-]*%\).*/ est. \1/p' "$dir/out")
  # the reason, its loop's file named without its folders
  grep -q '^Fast-forward: not applied' "$dir/out" &&
    applied="no($(sed -n 's/^Fast-forward: not applied, the trace was replayed in full: //p' "$dir/out" |
                  sed 's|at [^ ]*/\([^/ ]*:[0-9]*\)|at \1|' | cut -c1-60))"
  echo "$t $(awk '{ printf "%.3f", $1 + $2 }' "$dir/time") $applied${est}"
}
printf '%-22s %6s %10s %14s %14s %10s %9s %9s %7s %s\n' case ranks actions full_s ff_s rel_diff cpu_full cpu_ff ratio fast-forward
row() { # NAME RANKS HOSTFILE PLATFORM TRACES [TOL]
  local name=$1 np=$2 hf=$3 pf=$4 tr=$5 tol=${6:-} full ff actions
  read -r full_t full_cpu _ < <(measure "$replay" --hostfile "$hf" "$pf" "$tr")
  read -r ff_t ff_cpu ff_how < <(measure "$replay" --fast-forward${tol:+=$tol} --hostfile "$hf" "$pf" "$tr")
  actions=$(sed -n 's/.* simulated [0-9]* of the trace.s \([0-9]*\) actions.*/\1/p' "$dir/out")
  awk -v n="$name" -v np="$np" -v a="${actions:--}" -v f="$full_t" -v t="$ff_t" -v cf="$full_cpu" -v ct="$ff_cpu" -v h="$ff_how" \
    'BEGIN { printf "%-22s %6d %10s %14.9g %14.9g %10.2e %9.2f %9.2f %7.1f %s\n", n, np, a, f, t, (t - f) / f, cf, ct, cf / ct, h }'
}

# SMPI traces of the mini-applications
[[ $sections == *" smpi "* ]] || apps=()
[[ $sections == *" smpi "* ]] && apps=("halo2d 256 600" "halo3d 32 500" "cg 20000 500" "fft 64 500" "wavefront 256 500 32")
nps=(16 64)
((quick)) && nps=(16)
mkdir -p "$dir/bin"
for spec in ${apps[@]+"${apps[@]}"}; do
  read -r app args <<<"$spec"
  smpicc -O1 -o "$dir/bin/$app" "$root/tests/mpi-programs/apps/$app.c" -lm 2>"$dir/smpicc.log" ||
    { cat "$dir/smpicc.log" >&2; exit 1; }
  for np in "${nps[@]}"; do
    t=$dir/$app-$np.trace
    (cd "$dir" && smpirun -trace-ti --cfg=tracing/filename:"$t" -np "$np" -platform "$platform" -hostfile "$hosts" \
       --log=root.thresh:warning "./bin/$app" $args) >"$dir/smpi.log" 2>&1 || { cat "$dir/smpi.log" >&2; exit 1; }
    row "smpi-$app" "$np" "$hosts" "$platform" "$t"
    rm -rf "$t" "$t"_files
  done
done

# Generated NAS-like patterns
gnps=(16 64 256 1024)
((quick)) && gnps=(16)
[[ $sections == *" generated "* ]] || gnps=()
for pattern in halo2d ring8k; do
  for np in ${gnps[@]+"${gnps[@]}"}; do
    python3 "$root/tests/bench/gen-trace.py" --ranks "$np" --iterations 500 --pattern "$pattern" --noise 0.05 \
      "$dir/gen" >/dev/null
    row "gen-$pattern" "$np" "$dir/gen/hostfile" "$dir/gen/platform.xml" "$dir/gen/traces.list"
    rm -rf "$dir/gen"
  done
done
# The gain against the iterations
if [[ $sections == *" iterations "* ]]; then
  for iterations in 500 2000 5000; do
    python3 "$root/tests/bench/gen-trace.py" --ranks 64 --iterations "$iterations" --pattern halo2d --noise 0.05 \
      "$dir/gen" >/dev/null
    row "gen-halo2d-x$iterations" 64 "$dir/gen/hostfile" "$dir/gen/platform.xml" "$dir/gen/traces.list"
    rm -rf "$dir/gen"
  done
fi
# Real codes traced by our tracer (their compute volumes measured: noisy)
if [[ $sections == *" corpus "* ]]; then
  for t in "$CORPUS_FF_OUT"/tracer/traces/${CORPUS_FF_CASES:-*}/trace.list \
           "$CORPUS_FF_OUT"/smpi/traces/${CORPUS_FF_CASES:-*}/*.trace; do
    [[ -e $t ]] || continue
    name=$(basename "$(dirname "$t")")
    np=${name##*-np}
    [[ $t == */smpi/* ]] && name=smpi-$name
    for tol in "" 0.02; do
      row "$name${tol:+@$tol}" "$np" "$CORPUS_FF_OUT/cluster-128.hosts" "$root/corpus/cluster-128.xml" "$t" "$tol"
    done
  done
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
