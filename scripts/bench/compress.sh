#!/usr/bin/env bash
# Benchmark: compressed traces (docs/compressed-format.md) against `xz -6` on the same text, measured in the
# same run. For each trace set: the bytes of its action lines, of `xz -6` on them and of `tit-trace compress`
# (exact values), the CPU time of `xz -6 -T1` and of `tit-trace compress`, a lossless check (tit-trace expand gives every rank file back), and,
# for sets with a platform, tit-replay's predicted time and wall time from the plain and the compressed trace
# (the times must be identical), and the size and predicted-time error of binned:0.01 and of stats. Then the growth
# of stats files with ranks (16 to 64) and with iterations (x4) of one application. Not part of the tests.
#
# Usage: scripts/bench/compress.sh          (build first: scripts/setup/build.sh)
# Environment:
#   BENCH_CASES  space-separated RANKS:ITERATIONS:PATTERN[:noisy] cases of tests/bench/gen-trace.py; `noisy`:
#                the same base compute volume everywhere, jittered by +-20 % (--uniform --noise 0.2), as measured
#                volumes are (default "16:2000:halo 64:500:halo 64:1000:ring 256:200:halo 16:1000:halo:noisy
#                64:250:halo:noisy 64:500:ring:noisy")
#   BENCH_GROWTH  RANKS:ITERATIONS:PATTERN of the growth lines (default 16:300:halo; noisy; 0: none)
#   BENCH_APPS   space-separated APP:RANKS[:ARGS] cases traced by our tracer (libtit-trace.so, real runs of
#                tests/mpi-programs/apps under mpirun --oversubscribe; ARGS comma-separated) with
#                TIT_TRACE_FORMAT=text,compressed: each is benched as above, plus the size of the compressed file the
#                tracer wrote online (which must equal `tit-trace compress` of the text; default
#                "halo2d:4 halo2d:16 halo2d:64 cg:16 fft:16 wavefront:16 halo3d:16"; 0: none)
#   BENCH_SMPI_APPS  APP:RANKS[:ARGS] cases traced by SMPI (`smpirun -trace-ti`, the same mini-applications compiled
#                with smpicc, on platforms/cluster-backbone.xml, replayed there), benched as above (default "halo2d:4
#                halo2d:16 halo2d:64 halo3d:16 halo3d:64 cg:16 cg:64 fft:16 fft:64 wavefront:16 wavefront:64"; 0: none).
#                Then the growth of stats (and exact) files from 16 to 64 ranks of each application traced at both.
#   BENCH_SMPI_CFG  more smpirun options for those traces (default none), e.g. "--cfg=smpi/host-speed:1.5Gf": with
#                SMPI's default host speed (20 kf/s) the measured computations become tiny flop counts on
#                cluster-backbone's 1.5 Gf hosts, and the stats time error says nothing about the drawn computes
#   BENCH_REPLAY_MAX  replay only cases of at most this many actions (default 400000; 0: no replay)
#   BENCH_DIR    where traces go (default $BUILD_DIR/bench-compress; regenerated each run)
#   BUILD_DIR    build directory (default: build/ at the repository root)
# Exit status: 0 when every round trip and every time comparison agreed, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
bench_dir=$(realpath -m "${BENCH_DIR:-$build_dir/bench-compress}")
tool=$build_dir/bin/tit-trace
replay=$build_dir/bin/tit-replay
read -r -a smpi_cfg <<< "${BENCH_SMPI_CFG:-}"
smpi_apps=${BENCH_SMPI_APPS:-"halo2d:4 halo2d:16 halo2d:64 halo3d:16 halo3d:64 cg:16 cg:64 fft:16 fft:64 wavefront:16 wavefront:64"}
apps=${BENCH_APPS:-"halo2d:4 halo2d:16 halo2d:64 cg:16 fft:16 wavefront:16 halo3d:16"}
cases=${BENCH_CASES:-"16:2000:halo 64:500:halo 64:1000:ring 256:200:halo 16:1000:halo:noisy 64:250:halo:noisy 64:500:ring:noisy"}
growth=${BENCH_GROWTH:-16:300:halo}
replay_max=${BENCH_REPLAY_MAX:-400000}
rm -rf "$bench_dir"
mkdir -p "$bench_dir"
status=0

declare -A stats_of exact_of structures_of # bytes of each case's stats and exact files, rank structures of stats
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# cpu_seconds OUT COMMAND...: runs COMMAND, its standard output to OUT, and prints the CPU time (user + system) it took,
# in seconds to the microsecond: what compressing costs, which the machine's load moves far less than wall time does
# (the small traces take milliseconds)
cpu_seconds() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys
def spent():  # by the children waited for so far (the interpreter may have had some before)
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
before = spent()
with open(sys.argv[1], "wb") as out:
    subprocess.run(sys.argv[2:], stdout=out, check=True)
print(f"{spent() - before:.4f}")
PY
}

# bench NAME TRACES [tit-replay arguments before TRACES]
bench() {
  local name=$1 traces=$2; shift 2
  local dir=$bench_dir/$name
  mkdir -p "$dir"
  # the action lines, rank by rank, as tit-trace expand writes them: the text xz compresses
  "$tool" expand "$traces" "$dir/plain" > /dev/null
  (cd "$dir/plain" && cat $(cat trace.list)) > "$dir/all.txt"
  local text actions t0 t1 t2 xz ours xz_s ours_s
  text=$(stat -c %s "$dir/all.txt")
  actions=$(grep -vc '^#' "$dir/all.txt")
  xz_s=$(cpu_seconds "$dir/all.txt.xz" xz -6 -T1 -c "$dir/all.txt")
  ours_s=$(cpu_seconds /dev/null "$tool" compress "$traces" "$dir/c.tit")
  xz=$(stat -c %s "$dir/all.txt.xz"); ours=$(stat -c %s "$dir/c.tit")
  "$tool" compress --values binned:0.01 "$traces" "$dir/b.tit" > /dev/null
  local binned; binned=$(stat -c %s "$dir/b.tit")
  "$tool" compress --values stats "$traces" "$dir/s.tit" > /dev/null
  local stats; stats=$(stat -c %s "$dir/s.tit")
  stats_of[$name]=$stats
  structures_of[$name]=$("$tool" info "$dir/s.tit" | sed -n 's/^rank structures: //p')
  exact_of[$name]=$ours
  "$tool" expand "$dir/c.tit" "$dir/back" > /dev/null
  local lossless=yes
  diff -r "$dir/plain" "$dir/back" > /dev/null || { lossless=NO; status=1; }
  local same="-" replay_s="-" binned_err="-" stats_err="-"
  if [[ $# -gt 0 && $actions -le $replay_max ]]; then
    local a b c s
    t0=$(now); a=$("$replay" "$@" "$traces" | sed -n 's/^Simulated time: \(.*\) s$/\1/p'); t1=$(now)
    b=$("$replay" "$@" "$dir/c.tit" | sed -n 's/^Simulated time: \(.*\) s$/\1/p'); t2=$(now)
    c=$("$replay" "$@" "$dir/b.tit" | sed -n 's/^Simulated time: \(.*\) s$/\1/p')
    replay_s="$(seconds "$t0" "$t1") / $(seconds "$t1" "$t2")"
    if [[ -n $a && $a == "$b" ]]; then same="yes ($a s)"; else same="NO ($a vs $b)"; status=1; fi
    binned_err=$(awk -v a="$a" -v c="$c" 'BEGIN { printf "%+.4f %%", 100 * (c - a) / a }')
    s=$("$replay" "$@" "$dir/s.tit" | sed -n 's/^Simulated time: \(.*\) s$/\1/p')
    stats_err=$(awk -v a="$a" -v c="$s" 'BEGIN { printf "%+.3f %%", 100 * (c - a) / a }')
  fi
  printf "| %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s (%s) | %s | %s | %s |\n" "$name" "$actions" "$text" "$xz" \
    "$ours" "$(awk -v a="$ours" -v b="$xz" 'BEGIN { printf "%.3f", a / b }')" "$xz_s" "$ours_s" "$lossless" "$same" \
    "$replay_s" "$binned" "$(awk -v a="$binned" -v b="$xz" 'BEGIN { printf "%.3f", a / b }')" "$binned_err" \
    "$stats" "$stats_err"
  rm -rf "$dir/plain" "$dir/back" "$dir/all.txt"
}

printf "| trace | actions | text bytes | xz -6 bytes | exact bytes | exact / xz | CPU s: xz / compress | lossless | same predicted time | replay s: plain / exact | binned:0.01 bytes (/ xz) | binned time error | stats bytes | stats time error |\n"
printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
bench ring4 "$root/traces/ring4" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml"
bench halo4 "$root/traces/halo4" --hostfile "$root/platforms/small-hetero.hosts" "$root/platforms/small-hetero.xml"
# SMPI traces of the mini-applications
if [[ $smpi_apps != 0 ]]; then
  mkdir -p "$bench_dir/smpi-bin"
  for c in $smpi_apps; do
    IFS=: read -r app ranks args <<< "$c"
    exe=$bench_dir/smpi-bin/$app
    [[ -x $exe ]] || smpicc -O2 -o "$exe" "$root/tests/mpi-programs/apps/$app.c" -lm 2> "$exe.log" ||
      { cat "$exe.log" >&2; status=1; continue; }
    dir=$bench_dir/smpi-$app-$ranks
    mkdir -p "$dir"
    for ((i = 0; i < ranks; i++)); do sed -n "$((i % 16 + 1))p" "$root/platforms/cluster-backbone.hosts"; done > "$dir/hosts"
    IFS=, read -r -a argv <<< "${args:-}"
    (cd "$dir" && timeout 1200 smpirun -trace-ti --cfg=tracing/filename:"$dir/t.trace" -np "$ranks" \
      -platform "$root/platforms/cluster-backbone.xml" -hostfile "$dir/hosts" --log=xbt_cfg.thres:warning \
      "${smpi_cfg[@]}" "$exe" "${argv[@]}") > "$dir.log" 2>&1 || { tail -5 "$dir.log" >&2; status=1; continue; }
    bench "smpi-$app-$ranks" "$dir/t.trace" --hostfile "$dir/hosts" "$root/platforms/cluster-backbone.xml"
    rm -rf "$dir"
  done
  growth_line=""
  for c in $smpi_apps; do
    IFS=: read -r app ranks args <<< "$c"
    [[ $ranks == 64 && -n ${stats_of[smpi-$app-16]:-} && -n ${stats_of[smpi-$app-64]:-} ]] || continue
    growth_line+="$(awk -v a="$app" -v s1="${stats_of[smpi-$app-16]}" -v s4="${stats_of[smpi-$app-64]}" \
      -v e1="${exact_of[smpi-$app-16]}" -v e4="${exact_of[smpi-$app-64]}" \
      -v t1="${structures_of[smpi-$app-16]}" -v t4="${structures_of[smpi-$app-64]}" \
      'BEGIN { printf "%s stats %d -> %d B (x%.2f, rank structures %d -> %d), exact %d -> %d B (x%.2f); ", a, s1, s4,
               s4 / s1, t1, t4, e1, e4, e4 / e1 }')"
  done
fi
# traces of the mini-applications by our tracer, both formats from one run
if [[ $apps != 0 ]]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  online_sizes=""
  for c in $apps; do
    IFS=: read -r app ranks args <<< "$c"
    dir=$bench_dir/app-$app-$ranks
    IFS=, read -r -a argv <<< "${args:-}"
    TIT_TRACE_DIR=$dir/trace TIT_TRACE_FORMAT=text,compressed timeout 600 mpirun --oversubscribe -np "$ranks" \
      -x LD_PRELOAD="$build_dir/lib/libtit-trace.so" -x TIT_TRACE_DIR -x TIT_TRACE_FORMAT \
      "$build_dir/bin/app-$app" "${argv[@]}" > /dev/null 2> "$dir.err" || { cat "$dir.err" >&2; status=1; continue; }
    bench "tracer-$app-$ranks" "$dir/trace/trace.list" --hostfile "$root/platforms/small-hetero.hosts" \
      "$root/platforms/small-hetero.xml"
    "$tool" compress "$dir/trace/trace.list" "$dir/offline.tit" > /dev/null
    same=yes
    cmp -s "$dir/offline.tit" "$dir/trace/trace.tit" || { same=NO; status=1; }
    online_sizes+="$app-$ranks: online $(stat -c %s "$dir/trace/trace.tit") B (same bytes as tit-trace compress: $same); "
    rm -rf "$dir"
  done
fi
# generate RANKS ITERATIONS PATTERN NOISY DIR
generate() {
  local noise=(); [[ $4 == noisy ]] && noise=(--uniform --noise 0.2)
  python3 "$root/tests/bench/gen-trace.py" --ranks "$1" --iterations "$2" --pattern "$3" "${noise[@]}" "$5" > /dev/null
}
for c in $cases; do
  IFS=: read -r ranks iterations pattern noisy <<< "$c"
  gen=$bench_dir/gen-$ranks-$iterations-$pattern
  generate "$ranks" "$iterations" "$pattern" "${noisy:-}" "$gen"
  bench "$pattern${noisy:+-$noisy}-$ranks-$iterations" "$gen/traces.list" --hostfile "$gen/hostfile" "$gen/platform.xml"
  rm -rf "$gen"
done

# stats size of one noisy application at R, 4R ranks and at I, 4I iterations: the targets are under 200 KiB up to
# 64 ranks, at most 2x from 16 to 64 ranks, and (the point of the mode) no growth with iterations
if [[ $growth != 0 ]]; then
  IFS=: read -r ranks iterations pattern <<< "$growth"
  stats_bytes() { # RANKS ITERATIONS
    local gen=$bench_dir/growth-$1-$2
    generate "$1" "$2" "$pattern" noisy "$gen"
    "$tool" compress --values stats "$gen/traces.list" "$gen.s.tit" > /dev/null
    "$tool" compress "$gen/traces.list" "$gen.e.tit" > /dev/null
    echo "$(stat -c %s "$gen.s.tit") $(stat -c %s "$gen.e.tit")"
    rm -rf "$gen" "$gen.s.tit" "$gen.e.tit"
  }
  read -r s1 e1 <<< "$(stats_bytes "$ranks" "$iterations")"
  read -r s4 e4 <<< "$(stats_bytes $((4 * ranks)) "$iterations")"
  read -r si ei <<< "$(stats_bytes "$ranks" $((4 * iterations)))"
  printf "\nstats growth, noisy %s: %s ranks %s B (exact %s B); %s ranks %s B (exact %s B): x%s; %s iterations %s B (exact %s B): x%s\n" \
    "$pattern" "$ranks" "$s1" "$e1" $((4 * ranks)) "$s4" "$e4" "$(awk -v a="$s4" -v b="$s1" 'BEGIN { printf "%.2f", a / b }')" \
    $((4 * iterations)) "$si" "$ei" "$(awk -v a="$si" -v b="$s1" 'BEGIN { printf "%.2f", a / b }')"
fi
[[ -z ${growth_line:-} ]] || printf "\nSMPI traces, growth from 16 to 64 ranks: %s\n" "$growth_line"
[[ -z ${online_sizes:-} ]] || printf "\ncompressed files the tracer wrote online: %s\n" "$online_sizes"
exit $status
