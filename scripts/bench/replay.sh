#!/usr/bin/env bash
# Benchmark: replay the same synthetic traces with SimGrid's `smpirun -replay` (the reference) and
# with tit-replay, check that the predicted times agree to 1e-9 relative, and print wall time, CPU time,
# peak memory (also per rank), actions per CPU second and the throughput ratio ours/reference (and
# ours/base with BENCH_BASE). Not part of the tests.
#
# Usage: scripts/bench/replay.sh          (build first: scripts/setup/build.sh)
# Environment:
#   BENCH_CASES   space-separated RANKS:ITERATIONS[:PATTERN] cases, PATTERN one of halo (default),
#                 ring, ring8k, halo2d, allgather, allgathers (see tests/bench/gen-trace.py; default cases
#                 "16:5600 1024:100 1024:170:ring": about 1.0M actions on 16 ranks, 1.15M and 1.05M
#                 on 1024 ranks). The halo pattern keeps about 4 transfers per rank in flight, so at
#                 1024 ranks SimGrid's network solver (shared by both replayers) dominates; the ring
#                 pattern is lighter on it. ring8k and halo2d are issue 18's scaling cases (8 KiB
#                 messages; halo2d adds an allreduce per iteration); BENCH_SCALING=1 runs them from 16
#                 to 65,536 ranks. allgather is a setup phase's collective, every rank sending to
#                 every other at once; allgathers the same back to back, without a computation between
#                 (tests/differential/buffered.sh).
#   BENCH_QUICK=1 small cases instead ("16:200 1024:3 1024:3:ring")
#   BENCH_SIDES   both (default), ref (reference only) or ours (tit-replay only)
#   BENCH_BASE    another tit-replay binary (e.g. built from an older commit): replayed right after
#                 tit-replay on every case, with the ratio ours/base (before/after in the same run)
#   BENCH_TOPOLOGY  the generated clusters: backbone (default: every message crosses one shared link),
#                 none (no shared link) or fat-tree (a two-level fat tree under one top switch, whose links
#                 the messages between leaf switches share); BENCH_NO_BACKBONE=1 is BENCH_TOPOLOGY=none
#   BENCH_VARIANTS  space-separated sets of model settings, each a comma-separated list of --cfg values
#                 (e.g. "network/optim:Full network/optim:Full,network/maxmin-selective-update:yes"): tit-replay
#                 replays every case once more per set, with its prediction compared with the default's
#                 (identical, or the relative difference) and the throughput ratio variant/default
#   BENCH_REPEAT  replay each case this many times with tit-replay, base and each variant, interleaved (default
#                 1); the rates then come from the median CPU time of each
#   BENCH_STEADY=1  also replay every case with a third of its iterations (at least 1; cases of 2+ iterations),
#                 right after the full one with the same binary, and split the CPU time: the steady state
#                 (actions per CPU second of the extra iterations: the difference of the two runs) and the
#                 start-up and end (reading the traces, creating the actors, the platform, the summary: what
#                 does not grow with the iterations), for every side; ratios are then given for both
#   BENCH_REF_MAX_RANKS  skip the reference above this many ranks (default 16384: it takes minutes)
#   BENCH_NOFILE  open-file limit set for the runs (default: 64 more than the largest rank count,
#                 when above the current limit; raising the hard limit needs privileges). A case with more
#                 ranks than the limit allows first shows tit-replay's error on its per-rank files,
#                 then replays the same traces as one merged file (one open file)
#   BENCH_PLATFORM, BENCH_HOSTFILE  replay on this platform and hostfile (ranks round-robin on its
#                 slots, e.g. platforms/cluster-backbone.xml platforms/cluster-backbone.hosts)
#                 instead of a generated cluster of RANKS hosts
#   BENCH_DIR     where traces, platforms and logs go (default $BUILD_DIR/bench; regenerated each run)
#   BUILD_DIR     build directory holding bin/tit-replay (default: build/ at the repository root)
#   TIT_REPLAY    tit-replay binary (default $BUILD_DIR/bin/tit-replay)
#   BENCH_TIT_ARGS / BENCH_REF_ARGS  extra arguments for tit-replay / smpirun
# Exit status: 0 when every run succeeded and every comparison agreed, 1 otherwise.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
bench_dir=$(realpath -m "${BENCH_DIR:-$build_dir/bench}")
tit=$(realpath -m "${TIT_REPLAY:-$build_dir/bin/tit-replay}")
sides=${BENCH_SIDES:-both}
if [[ ${BENCH_QUICK:-0} == 1 ]]; then
  cases=${BENCH_CASES:-"16:200 1024:3 1024:3:ring"}
else
  cases=${BENCH_CASES:-"16:5600 1024:100 1024:170:ring"}
fi
if [[ ${BENCH_SCALING:-0} == 1 && -z ${BENCH_CASES:-} ]]; then
  cases="16:20000:ring8k 1024:300:ring8k 16384:20:ring8k 65536:5:ring8k"
  cases+=" 16:5000:halo2d 1024:80:halo2d 16384:5:halo2d 65536:2:halo2d"
fi
base=${BENCH_BASE:+$(realpath -m "$BENCH_BASE")}
if [[ -n $base && ! -x $base ]]; then
  echo "bench-replay.sh: BENCH_BASE '$base' is not an executable" >&2
  exit 2
fi
topology=${BENCH_TOPOLOGY:-backbone}
[[ ${BENCH_NO_BACKBONE:-0} == 1 ]] && topology=none
case $topology in
  backbone) backbone_arg=() ;;
  none) backbone_arg=(--no-backbone) ;;
  fat-tree) backbone_arg=(--fat-tree) ;;
  *) echo "bench-replay.sh: BENCH_TOPOLOGY must be backbone, none or fat-tree, not '$topology'" >&2; exit 2 ;;
esac
read -r -a variants <<<"${BENCH_VARIANTS:-}"
for v in "${variants[@]}"; do
  if [[ ! $v =~ ^[A-Za-z0-9/_.-]+:[^,]+(,[A-Za-z0-9/_.-]+:[^,]+)*$ ]]; then
    echo "bench-replay.sh: bad set '$v' in BENCH_VARIANTS (expected name:value[,name:value...])" >&2
    exit 2
  fi
done
repeat=${BENCH_REPEAT:-1}
steady=${BENCH_STEADY:-0}
if [[ $steady != 0 && $steady != 1 ]]; then
  echo "bench-replay.sh: BENCH_STEADY must be 0 or 1, not '$steady'" >&2
  exit 2
fi
if [[ ! $repeat =~ ^[1-9][0-9]*$ ]]; then
  echo "bench-replay.sh: BENCH_REPEAT must be a whole number >= 1, not '$repeat'" >&2
  exit 2
fi
ref_max_ranks=${BENCH_REF_MAX_RANKS:-16384}
platform=${BENCH_PLATFORM:+$(realpath -m "$BENCH_PLATFORM")}
hostfile=${BENCH_HOSTFILE:+$(realpath -m "$BENCH_HOSTFILE")}
if [[ -n $platform || -n $hostfile ]] && ! [[ -f $platform && -f $hostfile ]]; then
  echo "bench-replay.sh: BENCH_PLATFORM and BENCH_HOSTFILE must both name existing files" >&2
  exit 2
fi
read -r -a tit_extra <<<"${BENCH_TIT_ARGS:-}"
read -r -a ref_extra <<<"${BENCH_REF_ARGS:-}"

case $sides in
  both | ref | ours) ;;
  *) echo "bench-replay.sh: BENCH_SIDES must be both, ref or ours, not '$sides'" >&2; exit 2 ;;
esac
run_ref=0 run_ours=0
[[ $sides == ours ]] || run_ref=1
[[ $sides == ref ]] || run_ours=1
if ((run_ref)) && ! command -v smpirun >/dev/null 2>&1; then
  echo "bench-replay.sh: smpirun not found (Debian package libsimgrid-dev)" >&2
  exit 1
fi
if ((run_ours)) && [[ ! -x $tit ]]; then
  echo "bench-replay.sh: $tit not found: build first (scripts/setup/build.sh), or BENCH_SIDES=ref" >&2
  exit 1
fi

# measure LOG CMD...: runs CMD with stdout and stderr to LOG; sets rc, wall (s), cpu (user + system s) and
# rss (KiB). CPU time is what the ratios use: other users of the machine stretch the wall time, not it.
measure() {
  local log=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  if [[ -x /usr/bin/time ]]; then
    /usr/bin/time -f '%M %U %S' -o "$log.rss" "$@" >"$log" 2>&1 && rc=0 || rc=$?
  else
    # No GNU time: let Python time the command and report the children's peak RSS and CPU time.
    python3 -c '
import resource, subprocess, sys, time
with open(sys.argv[2], "w") as log:
    t0 = time.monotonic()
    rc = subprocess.call(sys.argv[3:], stdout=log, stderr=subprocess.STDOUT)
    t1 = time.monotonic()
u = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    print(u.ru_maxrss, u.ru_utime, u.ru_stime, file=out)
with open(sys.argv[1] + ".wall", "w") as out:
    print(t1 - t0, file=out)
sys.exit(rc)' "$log.rss" "$log" "$@" && rc=0 || rc=$?
  fi
  t1=$(date +%s.%N)
  if [[ -f $log.rss.wall ]]; then
    t0=0
    t1=$(cat "$log.rss.wall")
  fi
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  local last
  last=$(tail -n 1 "$log.rss" 2>/dev/null || echo '? 0 0')
  read -r rss u s <<<"$last"
  cpu=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN { printf "%.2f", u + s }')
}

# Per-rank files stay open during a replay: make room for the largest case (the hard limit needs root).
max_ranks=0
for c in $cases; do
  r=${c%%:*}
  [[ $r =~ ^[0-9]+$ ]] && ((r > max_ranks)) && max_ranks=$r
done
nofile=${BENCH_NOFILE:-$((max_ranks + 64))}
if (($(ulimit -n) < nofile)); then
  if ! ulimit -n "$nofile" 2>/dev/null; then
    echo "bench-replay.sh: cannot raise the open-file limit to $nofile (hard limit $(ulimit -Hn), which only a privileged user can raise):" \
      "cases above $(($(ulimit -Hn) - 64)) ranks show tit-replay's error, then replay one merged file" >&2
  fi
fi

per_second() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", (t > 0 ? n / t : 0) }'; }
median() { tr ' ' '\n' <<<"$1" | grep -v '^$' | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
# relative A B: |A - B| / max(|A|, |B|)
relative() {
  awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); mb = (b < 0 ? -b : b)
    if (mb > m) m = mb; printf "%.3g", (m > 0 ? d / m : 0) }'
}

# steady_split LONG_CPU SHORT_CPU: prints "RATE STARTUP" (actions per CPU second of the iterations the long run
# has beyond the short one; CPU seconds of the long run not proportional to its iterations), or "- -" when the
# difference is not positive (noise larger than the extra iterations' cost).
steady_split() {
  awk -v l="$1" -v s="$2" -v a="$actions" -v as="$short_actions" -v i="$iters" -v is="$short_iters" 'BEGIN {
    d = l - s
    if (d <= 0 || a <= as) { print "- -"; exit }
    printf "%.0f %.2f\n", (a - as) / d, l - i * d / (i - is) }'
}

status=0
summary=()
mkdir -p "$bench_dir"
for c in $cases; do
  if [[ ! $c =~ ^([0-9]+):([0-9]+)(:(halo|ring|ring8k|halo2d|allgather|allgathers))?$ ]]; then
    echo "bench-replay.sh: bad case '$c' in BENCH_CASES (expected RANKS:ITERATIONS[:halo|ring|ring8k|halo2d|allgather|allgathers])" >&2
    exit 2
  fi
  ranks=${BASH_REMATCH[1]}
  iters=${BASH_REMATCH[2]}
  pattern=${BASH_REMATCH[4]:-halo}
  dir=$bench_dir/r$ranks-i$iters-$pattern
  rm -rf "$dir"
  merged_arg=()
  traces=$dir/traces.list
  (($(ulimit -n) >= ranks + 64)) || merged_arg=(--merged)
  actions=$(python3 "$root/tests/bench/gen-trace.py" "$dir" --ranks "$ranks" --iterations "$iters" --pattern "$pattern" \
    "${backbone_arg[@]}" "${merged_arg[@]}")
  echo "== $ranks ranks x $iters iterations, $pattern pattern: $actions actions ($dir); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  # BENCH_STEADY: the same case with a third of the iterations, replayed right after each full run.
  short_iters=0 short_actions=0 short_traces='' short_dir=$dir/short
  if ((steady && iters >= 2)); then
    short_iters=$((iters / 3 > 0 ? iters / 3 : 1))
    short_actions=$(python3 "$root/tests/bench/gen-trace.py" "$short_dir" --ranks "$ranks" --iterations "$short_iters" \
      --pattern "$pattern" "${backbone_arg[@]}" "${merged_arg[@]}")
    short_traces=$short_dir/traces.list
    echo "   steady state: also replayed with $short_iters iterations ($short_actions actions)"
  fi
  plat=${platform:-$dir/platform.xml}
  hosts=${hostfile:-$dir/hostfile}
  [[ -z $platform ]] || echo "   platform $plat, hostfile $hosts"

  ref_time='' ours_time='' ref_rate='' ours_rate='' base_rate='' base_time='' ratio_base='' ref_steady=''
  if ((run_ref)) && ((${#merged_arg[@]})); then
    echo "   reference: skipped (more ranks than open files allowed)"
  elif ((run_ref && ranks > ref_max_ranks)); then
    echo "   reference: skipped above $ref_max_ranks ranks (BENCH_REF_MAX_RANKS)"
  elif ((run_ref)); then
    measure "$dir/ref.log" smpirun -no-privatize -replay "$dir/traces.list" -np "$ranks" \
      -platform "$plat" -hostfile "$hosts" \
      --log=replay.thresh:critical --log=smpi_replay.fmt:'%.15d%e%m%n' "${ref_extra[@]}"
    # The last rank to finish logs "<clock> Simulation time <elapsed>"; the clock has 15 decimals.
    ref_time=$(awk '$2 == "Simulation" && $3 == "time" { t = $1 } END { print t }' "$dir/ref.log")
    if ((rc != 0)) || [[ -z $ref_time ]]; then
      echo "   reference: FAILED (exit $rc), see $dir/ref.log"
      tail -n 5 "$dir/ref.log" | sed 's/^/   | /'
      status=1
      ref_time=''
    else
      ref_rate=$(per_second "$actions" "$cpu")
      printf '   reference (smpirun -replay): predicted %s s, wall %s s, CPU %s s, peak RSS %s KiB (%s KiB per rank), %s actions per CPU s\n' \
        "$ref_time" "$wall" "$cpu" "$rss" "$(awk -v m="$rss" -v n="$ranks" 'BEGIN { printf "%.1f", m / n }')" "$ref_rate"
      if [[ -n $short_traces ]]; then
        long_cpu=$cpu
        measure "$short_dir/ref.log" smpirun -no-privatize -replay "$short_traces" -np "$ranks" \
          -platform "$plat" -hostfile "$hosts" \
          --log=replay.thresh:critical --log=smpi_replay.fmt:'%.15d%e%m%n' "${ref_extra[@]}"
        if ((rc != 0)); then
          echo "   reference, $short_iters iterations: FAILED (exit $rc), see $short_dir/ref.log"
          status=1
        else
          read -r ref_steady ref_startup <<<"$(steady_split "$long_cpu" "$cpu")"
          echo "   reference steady state: $ref_steady actions per CPU s; start-up and end $ref_startup s of CPU ($short_iters iterations: CPU $cpu s)"
        fi
      fi
    fi
  fi
  # Each actor stack and its guard page take two memory mappings: past vm.max_map_count, tit-replay stops (and
  # says so); the benchmark then drops the guard pages, with stacks of 32 KiB (4 times what a rank needs).
  case_args=("${tit_extra[@]}")
  max_maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
  no_guard=0
  if ((max_maps > 0 && 2 * ranks + 4096 > max_maps)); then
    no_guard=1
    case_args+=(--cfg=contexts/guard-size:0 --cfg=contexts/stack-size:32)
    echo "   $ranks ranks exceed vm.max_map_count=$max_maps with guard pages: tit-replay runs with ${case_args[*]}"
  fi
  if ((run_ours)) && ((${#merged_arg[@]})); then
    measure "$dir/per-rank.log" "$tit" "${tit_extra[@]}" --hostfile "$hosts" "$plat" "$dir/traces.list"
    echo "   tit-replay on $ranks per-rank files under a limit of $(ulimit -n) open files: exit $rc"
    tail -n 2 "$dir/per-rank.log" | cut -c1-400 | sed 's/^/   | /'
    traces=$dir/merged.txt
    echo "   so tit-replay and base replay the merged file $traces"
  fi
  # tit-replay, base and the variants, BENCH_REPEAT times interleaved: label, binary and extra arguments of each.
  labels=() binaries=() extras=() names=()
  if ((run_ours)); then
    labels+=(ours) binaries+=("$tit") extras+=("") names+=(ours)
    if [[ -n $base ]] && ((no_guard)); then
      echo "   base: skipped (without guard pages it may overflow the main stack in SimGrid's solver at this size)"
    elif [[ -n $base ]]; then
      labels+=(base) binaries+=("$base") extras+=("") names+=(base)
    fi
    for j in "${!variants[@]}"; do
      v=${variants[$j]}
      labels+=("$v") binaries+=("$tit") extras+=("--cfg=${v//,/ --cfg=}") names+=("variant-$((j + 1))")
    done
  fi
  declare -A cpus=() times=() peaks=() walls=() failed=() short_cpus=()
  for ((rep = 1; rep <= repeat; rep++)); do
    for i in "${!labels[@]}"; do
      label=${labels[$i]}
      [[ -z ${failed[$label]:-} ]] || continue
      read -r -a extra <<<"${extras[$i]}"
      args=("${case_args[@]}")
      [[ $label == base ]] && args=("${tit_extra[@]}")
      log=$dir/${names[$i]}.log
      ((repeat == 1)) || log=$dir/${names[$i]}-$rep.log
      measure "$log" "${binaries[$i]}" "${args[@]}" "${extra[@]}" --hostfile "$hosts" "$plat" "$traces"
      t=$(awk '$1 == "Simulated" && $2 == "time:" { t = $3 } END { print t }' "$log")
      if ((rc != 0)) || [[ -z $t ]]; then
        echo "   $label: FAILED (exit $rc), see $log"
        tail -n 5 "$log" | sed 's/^/   | /'
        failed[$label]=1
        status=1
        continue
      fi
      if [[ -n ${times[$label]:-} && ${times[$label]} != "$t" ]]; then
        echo "   $label: NOT DETERMINISTIC: predicted ${times[$label]} s, then $t s"
        status=1
      fi
      times[$label]=$t
      cpus[$label]+=" $cpu"
      walls[$label]+=" $wall"
      ((${peaks[$label]:-0} >= rss)) || peaks[$label]=$rss
      if [[ -n $short_traces ]]; then # the same binary at once on the short case (BENCH_STEADY)
        short_log=$short_dir/${log#"$dir/"}
        measure "$short_log" "${binaries[$i]}" "${args[@]}" "${extra[@]}" --hostfile "$hosts" "$plat" \
          "$short_dir/${traces#"$dir/"}"
        if ((rc != 0)); then
          echo "   $label, $short_iters iterations: FAILED (exit $rc), see $short_log"
          failed[$label]=1
          status=1
          continue
        fi
        short_cpus[$label]+=" $cpu"
      fi
    done
  done
  rates=()
  declare -A steadies=()
  for label in "${labels[@]}"; do
    [[ -z ${failed[$label]:-} ]] || continue
    c=$(median "${cpus[$label]}")
    rate=$(per_second "$actions" "$c")
    rates+=("$label=$rate")
    name=$label
    case $label in
      ours) name='tit-replay                 ' ;;
      base) name='base (BENCH_BASE)          ' ;;
    esac
    printf '   %s: predicted %s s, wall %s s, CPU%s s, peak RSS %s KiB (%s KiB per rank), %s actions per CPU s\n' \
      "$name" "${times[$label]}" "$(median "${walls[$label]}")" "${cpus[$label]}" "${peaks[$label]}" \
      "$(awk -v m="${peaks[$label]}" -v n="$ranks" 'BEGIN { printf "%.1f", m / n }')" "$rate"
    if [[ -n $short_traces ]]; then
      read -r st su <<<"$(steady_split "$c" "$(median "${short_cpus[$label]}")")"
      steadies[$label]=$st
      printf '   %s  steady state: %s actions per CPU s; start-up and end %s s of CPU (%s iterations: CPU%s s)\n' \
        "${name//?/ }" "$st" "$su" "$short_iters" "${short_cpus[$label]}"
    fi
  done
  ours_time=${times[ours]:-}
  [[ -z ${failed[ours]:-} ]] || ours_time=''
  ours_rate='' base_rate='' ratio_base=''
  for entry in "${rates[@]}"; do
    case $entry in
      ours=*) ours_rate=${entry#ours=} ;;
      base=*) base_rate=${entry#base=} ;;
    esac
  done
  variant_summary=''
  for entry in "${rates[@]}"; do
    label=${entry%=*}
    [[ $label != ours && -n $ours_time && -n $ours_rate ]] || continue
    t=${times[$label]}
    ratio=$(awk -v o="${entry##*=}" -v r="$ours_rate" 'BEGIN { printf "%.2f", (r > 0 ? o / r : 0) }')
    if [[ $t == "$ours_time" ]]; then
      same=identical
    else
      same="DIFFERENT (relative difference $(relative "$t" "$ours_time"))"
    fi
    if [[ $label == base ]]; then
      [[ $same == identical ]] || status=1
      ratio_base=$(awk -v o="$ours_rate" -v r="${entry##*=}" 'BEGIN { printf "%.2f", (r > 0 ? o / r : 0) }')
      echo "   predictions of tit-replay and base $same; throughput ratio ours/base $ratio_base"
    else
      echo "   $label: prediction $same to the default's; throughput ratio variant/default $ratio"
      variant_summary+=", $label ${same%% *} x$ratio"
    fi
  done
  line="$ranks ranks $pattern, $actions actions (per CPU second): reference ${ref_rate:--}, tit-replay ${ours_rate:--}"
  [[ -z $base ]] || line+=", base ${base_rate:--}, ours/base ${ratio_base:--}"
  line+=$variant_summary
  if [[ -n $ref_time && -n $ours_time ]]; then
    verdict=$(awk -v a="$ref_time" -v b="$ours_time" 'BEGIN {
      d = a - b; if (d < 0) d = -d
      m = (a < 0 ? -a : a); mb = (b < 0 ? -b : b); if (mb > m) m = mb
      r = (m > 0 ? d / m : 0)
      printf "%s relative difference %.3g", (r <= 1e-9 ? "agree:" : "DISAGREE:"), r }')
    ratio=$(awk -v o="$ours_rate" -v r="$ref_rate" 'BEGIN { printf "%.2f", (r > 0 ? o / r : 0) }')
    echo "   predictions $verdict; throughput ratio ours/reference $ratio"
    [[ $verdict == agree:* ]] || status=1
    line+=", ratio $ratio, $verdict"
  fi
  if [[ -n $short_traces ]]; then
    ours_steady=${steadies[ours]:--}
    line+="; steady state: reference ${ref_steady:--}, tit-replay $ours_steady"
    ratio_of() { awk -v o="$1" -v r="$2" 'BEGIN { if (o + 0 > 0 && r + 0 > 0) printf "%.2f", o / r; else print "-" }'; }
    [[ -z $base ]] || line+=", base ${steadies[base]:--}, ours/base $(ratio_of "$ours_steady" "${steadies[base]:--}")"
    [[ -z $ref_steady ]] || line+=", ours/reference $(ratio_of "$ours_steady" "$ref_steady")"
  fi
  summary+=("$line")
done

echo "== summary"
printf '   %s\n' "${summary[@]}"
exit "$status"
