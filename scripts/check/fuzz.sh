#!/usr/bin/env bash
# Build the libFuzzer targets with clang (in a build directory of their own) and run each for a while: first on the
# regression inputs of tests/fuzz/regressions/TARGET/ (inputs that once crashed), then fuzzing from seed corpora made
# of the repository's traces, platforms, deployments and hostfiles. Exits non-zero when a target crashes, hangs,
# leaks, trips a sanitizer or lets an exception escape; the input is then in $FUZZ_BUILD_DIR/artifacts/.
#
# Usage: scripts/check/fuzz.sh [--build-only] [TARGET...]   (targets: trace compressed platform placement inputs
#                                                           otf2; default all but otf2, which is only built)
#   --build-only    configure and build the targets, run nothing (scripts/test.sh's build step)
# Environment:
#   FUZZ_SKIP_BUILD=1  run the targets already built in FUZZ_BUILD_DIR (the `fuzz.*` CTest tests: builds belong to
#                   the build step, never inside a test's time limit); exit 2 when they are missing
#   FUZZ_SECONDS    seconds of fuzzing per target (default 60)
#   FUZZ_RUNS=fixed a fixed number of inputs per target from a fixed seed (FUZZ_SEED, default 1), about 20-30 s
#                   each on a quiet 2-core machine, FUZZ_SECONDS being only a cap: libFuzzer's mutations then follow
#                   one sequence, so a run finds the same inputs every time (CI's `fuzz` test), and a slower machine
#                   stopped by the cap has run a prefix of that sequence: a finding is never a matter of chance.
#   FUZZ_BUILD_DIR  build directory (default build-fuzz/ at the root of the repository)
#   TIT_TRACE       the tit-trace program that writes the compressed seeds (default: built in FUZZ_BUILD_DIR with the
#                   targets; scripts/test.sh and the fuzz.* tests pass the main build's, so it is not built twice)
#   JOBS            parallel build jobs (default 2)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=$(realpath -m "${FUZZ_BUILD_DIR:-$root/build-fuzz}")
seconds=${FUZZ_SECONDS:-60}
# Inputs per target with FUZZ_RUNS=fixed, each about 20-30 s on a quiet 2-core machine (inputs per second measured in a
# CI run: trace 2.6 k, compressed 3.2 k since its seeds include the stats and phases files, platform 22 k, placement
# 12 k, inputs 3 k; compressed reached 96 % of the coverage of 600,000 inputs after 65,536, platform 98.5 % after
# 262,144, its rate falling to 9 k/s as its corpus grows).
declare -A fixed_runs=([trace]=60000 [compressed]=70000 [platform]=300000 [placement]=60000 [inputs]=40000 [otf2]=20000)
if [[ ${FUZZ_RUNS:-} != "" && ${FUZZ_RUNS:-} != fixed ]]; then
  echo "fuzz.sh: FUZZ_RUNS is 'fixed' or unset, not '$FUZZ_RUNS'" >&2
  exit 2
fi
build_only=0
if [[ ${1:-} == --build-only ]]; then
  build_only=1
  shift
fi
targets=("$@")
# otf2 is built with the others but fuzzed only when named: libotf2 is not instrumented, and after thousands of
# damaged archives ASan's own checks fail inside its frees (fuzz/README.md)
if [ ${#targets[@]} -eq 0 ]; then
  targets=(trace compressed platform placement inputs)
  ((build_only)) && targets+=(otf2)
fi
for t in "${targets[@]}"; do
  case $t in
    trace | compressed | platform | placement | inputs | otf2) ;;
    *) echo "fuzz.sh: unknown target '$t' (expected trace, compressed, platform, placement, inputs or otf2)" >&2; exit 2 ;;
  esac
done

start=$SECONDS
build_targets=("${targets[@]/#/fuzz-}")
tit_trace=${TIT_TRACE:-$build/bin/tit-trace}
if [[ " ${targets[*]} " == *" compressed "* ]]; then # tit-trace writes the compressed seeds
  if [[ -n ${TIT_TRACE:-} ]]; then
    [[ -x $TIT_TRACE ]] || { echo "fuzz.sh: TIT_TRACE=$TIT_TRACE is not an executable" >&2; exit 2; }
  else
    build_targets+=(tit-trace-tool)
  fi
fi
if [[ ${FUZZ_SKIP_BUILD:-0} == 1 ]]; then
  for b in "${build_targets[@]}"; do
    b=${b/tit-trace-tool/tit-trace}
    [[ -x $build/bin/$b ]] || {
      echo "fuzz.sh: $build/bin/$b is not built: scripts/test.sh builds the fuzz targets before the tests" \
        "(or run scripts/check/fuzz.sh --build-only with FUZZ_BUILD_DIR=$build)" >&2
      exit 2
    }
  done
else
  command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is missing (scripts/setup/install-deps.sh installs clang)"; exit 2; }
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  if [[ ! -f $build/CMakeCache.txt ]]; then
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DTIT_FUZZ=ON -DBUILD_TESTING=OFF -DTIT_TCMALLOC=OFF "${launcher[@]}" >/dev/null
  fi
  cmake --build "$build" -j "${JOBS:-2}" --target "${build_targets[@]}"
  echo "fuzz.sh: built in $((SECONDS - start)) s"
fi
((build_only)) && exit 0

# Seed corpora: one file per input, in the target's input encoding (first byte: layout or reader).
# (a folder of this run's own: the fuzz.* tests run side by side)
mkdir -p "$build"
seeds=$(mktemp -d "$build/seeds.XXXXXX")
trap 'rm -rf "$seeds"' EXIT
# the targets' scratch files (fuzz_files.hpp: TMPDIR/tit-fuzz-PID) go there too, removed with it
export TMPDIR=$seeds
mkdir -p "$seeds/trace" "$seeds/compressed" "$seeds/platform" "$seeds/placement" "$seeds/inputs" "$seeds/otf2"
# otf2: the archives of tests/otf2/make_archive.py (Debian's python3-otf2, for /usr/bin/python3), each packed as one
# input (tests/otf2/pack_fuzz_seed.py)
if [[ " ${targets[*]} " == *" otf2 "* ]]; then
  for c in p2p nonblocking collectives subcomm metric sendrecv cancel nbc rma; do
    /usr/bin/python3 "$root/tests/otf2/make_archive.py" "$c" "$seeds/otf2-archive" "$seeds/otf2-expected.txt" >/dev/null &&
      /usr/bin/python3 "$root/tests/otf2/pack_fuzz_seed.py" "$seeds/otf2-archive" "$seeds/otf2/$c" ||
      { echo "fuzz.sh: otf2: cannot make the seed '$c' (python3-otf2)" >&2; exit 2; }
    rm -rf "$seeds/otf2-archive" "$seeds/otf2-expected.txt"
  done
fi
if [[ " ${targets[*]} " == *" compressed "* && -x $tit_trace ]]; then # whole compressed files (first byte even)
  for t in "$root"/traces/ring4 "$root"/traces/halo4 "$root"/tests/e2e/data/detached-thesis.txt.gz \
           "$root"/tests/e2e/data/subcomm-halves "$root"/tests/e2e/data/colls4/alltoallv; do
    "$tit_trace" compress "$t" "$seeds/compressed.tit" >/dev/null
    { printf '\000'; cat "$seeds/compressed.tit"; } > "$seeds/compressed/$(basename "$t")"
  done
  # a pooled stats file (schedules and levels in the structure record) and a binned one (bin runs in the value
  # blocks; the trace of tests/data/compressed/binned-v3.expanded.txt), whole and as raw records (first byte odd: the
  # structure record's length as a varint, the record, the value area; the stats file's ranks share one value block,
  # so the target's even cut of the value area keeps it whole), so that the schedules and the bin runs are fuzzed
  # past the CRC checks too
  # (and a stats file with phases, version 7: 4 levels in turn running one loop body, their volumes 4 times apart)
  "$tit_trace" expand "$root/tests/data/compressed/binned-v3.expanded.txt" "$seeds/binned" >/dev/null
  for mode in stats binned:0.01 phases; do
  if [[ $mode == stats ]]; then
    "$tit_trace" compress --values stats "$root/tests/data/compressed/stats-v2.expanded.txt" \
      "$seeds/compressed.tit" >/dev/null
  elif [[ $mode == phases ]]; then
    python3 - "$seeds/levels.txt" <<'PY'
import sys
lines, x = [], 12345
for r in range(4):
    lines.append(f"{r} init")
    for step in range(48):
        x = (x * 1103515245 + 12345) % 2**31
        level = step % 4
        volume = round(4e6 / 4**level * (1 + 0.1 * r) * (0.95 + 0.1 * x / 2**31))
        lines += [f"{r} compute {volume}", f"{r} irecv {(r + 1) % 4} 0 {8192 >> level} 0",
                  f"{r} isend {(r + 3) % 4} 0 {8192 >> level} 0", f"{r} waitall 2"]
    lines.append(f"{r} finalize")
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
PY
    "$tit_trace" compress --values stats "$seeds/levels.txt" "$seeds/compressed.tit" >/dev/null
    "$tit_trace" info "$seeds/compressed.tit" | grep -q "version 7, values stats" ||
      { echo "fuzz.sh: the phases seed is not a version 7 stats file" >&2; exit 1; }
    rm -f "$seeds/levels.txt"
  else
    "$tit_trace" compress --values "$mode" "$seeds/binned/trace.list" "$seeds/compressed.tit" >/dev/null
  fi
  { printf '\000'; cat "$seeds/compressed.tit"; } > "$seeds/compressed/${mode%%:*}"
  python3 - "$seeds/compressed.tit" "$seeds/compressed/${mode%%:*}-raw" <<'PY'
import sys, lzma, zlib
data = open(sys.argv[1], "rb").read()
pos = 8
def varint():
    global pos
    v, shift = 0, 0
    while True:
        b = data[pos]; pos += 1
        v |= (b & 0x7f) << shift; shift += 7
        if b < 0x80:
            return v
version, raw, stored = varint(), varint(), varint()
pos += 4  # CRC-32
codec = data[pos]; pos += 1  # versions 3 to 7: 0 stored, 1 deflate, 2 LZMA2
def unpack(record, codecs):  # the raw bytes of a record, by the first packing that reads all of it
    for c in codecs:
        try:
            body, lc, lp, pb = record, 3, 0, 2
            if c == 2 and version >= 5 and record:  # versions 5 to 7: the LZMA properties byte first
                props, body = record[0], record[1:]
                lc, lp, pb = props % 9, props // 9 % 5, props // 45
            d = (lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 1 << 26,
                                                                  "lc": lc, "lp": lp, "pb": pb}])
                 if c == 2 else zlib.decompressobj(-15))
            out = d.decompress(body)
            if d.eof and not d.unused_data:
                return out
        except (lzma.LZMAError, zlib.error):
            pass
    return record
meta = unpack(data[pos:pos + stored], [codec] if codec else [])
values = unpack(data[pos + stored:], [2, 1])  # one chunk
length, n = b"", len(meta)
while True:
    length += bytes([(n & 0x7f) | (0x80 if n >= 0x80 else 0)])
    n >>= 7
    if not n:
        break
open(sys.argv[2], "wb").write(b"\x01" + length + meta + values)
PY
  done
  rm -rf "$seeds/compressed.tit" "$seeds/binned"
  # the file of an earlier format version the tests keep (refused at its header)
  for f in "$root"/tests/data/compressed/*.tit; do
    { printf '\000'; cat "$f"; } > "$seeds/compressed/old-$(basename "$f" .tit)"
  done
fi
n=0
for f in "$root"/traces/ring4/* "$root"/traces/halo4/* "$root"/tests/data/traces/*/* "$root"/tests/data/traces/*.txt \
         "$root"/tests/e2e/data/*/rank-*.txt "$root"/tests/tracer/convert/*.txt; do
  [ -f "$f" ] || continue
  n=$((n + 1))
  { printf '\001'; head -c 4096 "$f"; } > "$seeds/trace/merged-$n"   # as a merged file
  { printf '\000'; head -c 4096 "$f"; } > "$seeds/trace/ranks-$n"    # as a rank's file
done
{ printf '\002'; printf 'x\n'; printf '\000'; cat "$root/traces/ring4/"* | head -c 2000; } > "$seeds/trace/list-1"
for f in "$root"/tests/tracer/convert/pre320*.txt; do # merged, read as SimGrid <= 3.19's format
  [[ $f == *.simgrid.txt ]] && continue
  { printf '\011'; head -c 4096 "$f"; } > "$seeds/trace/pre320-$(basename "$f")"
done
{ printf '\005'; cat "$root/traces/ring4-merged.txt" | head -c 4096; } > "$seeds/trace/merged-gzip"
for f in "$root"/platforms/*.xml "$root"/tests/*/data/*.xml; do
  case $f in
    *deploy*) { printf '\001'; cat "$f"; } > "$seeds/placement/$(basename "$f")" ;;
    *) cp "$f" "$seeds/platform/" ;;
  esac
done
for f in "$root"/platforms/*.hosts "$root"/tests/*/data/*.hosts; do
  { printf '\012'; cat "$f"; } > "$seeds/placement/$(basename "$f")"
done
# inputs: the first byte % 4 chooses workload (0), sweep file (1), calibration CSV (2; / 4 % 3: p2p, cpu,
# contention) or timings (3)
printf '\000a compute.list 2 0\nb flow.list 2 1.5\n' > "$seeds/inputs/workload-manual"
printf '\000{"jobs": [{"name": "a", "traces": "flow.list", "hosts": ["h0", "h1"], "start": 0, "cfg": ["smpi/os:1"]}]}\n' \
  > "$seeds/inputs/workload-json"
for f in "$root"/sweep/examples/*.yaml; do
  { printf '\001'; cat "$f"; } > "$seeds/inputs/sweep-$(basename "$f")"
done
printf '\002# tit-calibrate p2p v1\nexperiment,size,iteration,seconds\nsend,8,0,1e-6\nrecv,8,0,1e-6\nisend,8,0,1e-7\npingpong,8,0,4e-6\nsend,80,0,2e-6\nrecv,80,0,2e-6\nisend,80,0,2e-7\npingpong,80,0,5e-6\n' \
  > "$seeds/inputs/p2p"
printf '\006# tit-calibrate cpu v1\n# unit: flops\nrank,problem,iteration,burst,volume,seconds\n0,1,0,0,1e9,1\n' > "$seeds/inputs/cpu"
printf '\012# tit-calibrate contention v1\nexperiment,concurrency,pair,rank,size,iteration,seconds\nping,1,0,0,1000000,0,1e-3\nsendrecv,1,0,0,1000000,0,1.5e-3\n' \
  > "$seeds/inputs/contention"
for f in "$root"/tests/calibration/data/*/timings-0.csv; do
  { printf '\003'; cat "$f"; } > "$seeds/inputs/timings-$(basename "$(dirname "$f")")"
done

status=0
mkdir -p "$build/artifacts" "$build/corpus"
for t in "${targets[@]}"; do
  bin=$build/bin/fuzz-$t
  extra=() asan=${ASAN_OPTIONS:-} max_len=8192
  if [[ $t == otf2 ]]; then
    # libotf2 (Debian's, not instrumented) asks gigabytes for a damaged anchor file, which fails outside ASan (the
    # archive is refused, exit 2): ASan returns null above 1 GiB as malloc does; and it leaks in its own failed
    # open (fuzz/README.md). Neither is ours. Inputs are whole archives.
    asan=${asan}${asan:+:}allocator_may_return_null=1:max_allocation_size_mb=1024:detect_leaks=0
    extra=(-detect_leaks=0)
    max_len=65536
  fi
  regressions=$root/tests/fuzz/regressions/$t
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "fuzz.sh: $t: replaying $(ls "$regressions" | wc -l) regression input(s)"
    ASAN_OPTIONS=$asan "$bin" "${extra[@]}" -runs=0 "$regressions" >"$build/$t-regressions.log" 2>&1 || {
      status=1; echo "fuzz.sh: $t: a regression input fails again:"; tail -30 "$build/$t-regressions.log"; }
  fi
  # A fixed run starts from the seeds alone (a corpus kept from earlier runs would change the sequence).
  [[ ${FUZZ_RUNS:-} == fixed ]] && rm -rf "$build/corpus/$t"
  mkdir -p "$build/corpus/$t"
  budget=(-max_total_time="$seconds")
  if [[ ${FUZZ_RUNS:-} == fixed ]]; then
    budget+=(-runs="${fixed_runs[$t]}" -seed="${FUZZ_SEED:-1}")
    echo "fuzz.sh: $t: fuzzing ${fixed_runs[$t]} inputs from seed ${FUZZ_SEED:-1} (at most $seconds s)"
  else
    echo "fuzz.sh: $t: fuzzing for $seconds s"
  fi
  if ! ASAN_OPTIONS=$asan "$bin" "${budget[@]}" "${extra[@]}" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" -print_final_stats=1 \
      -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" "$seeds/$t" >"$build/$t.log" 2>&1; then
    status=1
    echo "fuzz.sh: $t: FAILED (input in $build/artifacts/, log $build/$t.log):"
    grep -E "ERROR|SUMMARY|runtime error|terminate|Test unit written" "$build/$t.log" | head -20
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/$t.log" | tail -2
  fi
done
echo "fuzz.sh: total $((SECONDS - start)) s"
exit $status
