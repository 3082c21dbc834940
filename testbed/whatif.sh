#!/usr/bin/env bash
# The what-if study on tit-testbed: calibrate a 2-host testbed once (configuration A), trace each
# mini-application once at A, then for each configuration (A, and every link at A/4 and A/20) predict
# with tit-replay on the testbed's platform as it is then (only the link rate changes), run the
# application for real at that rate, and print and plot (whatif.png) predicted against measured.
#
# Usage: testbed/whatif.sh [--build DIR] [--rate RATE] [--apps fft,halo2d,...] [--runs N] [--out DIR]
#                          [--full] [--long] [--divisors 1,4,20] [--mpi-args "ARGS"] [--switches]
#                          [--corpus DIR] [--replay-args "ARGS"] [--cpu-share S] [--twice] [--half]
#   --build     build directory holding bin/ and lib/ (default: build/ at the repository root)
#   --rate      configuration A's link rate (default 200mbit)
#   --apps      mini-applications (tests/mpi-programs/apps, with their default arguments), and
#               pingpong (tests/testbed/pingpong.c: bulk ping-pong with computation)
#               and the corpus codes (corpus/README.md: comd, minife, hpcg, ...) built with mpicc by
#               `corpus/corpus.sh -k tracer` (their arguments: `corpus.sh -a CODE NP`); a corpus code's measured
#               time is the largest over its ranks of the time from MPI_Init's return to MPI_Finalize, as the
#               tracer's timings give it (its measured runs are traced too, into a scratch folder: the same
#               overhead as the traced run), and it runs in a scratch folder (the codes write reports there)
#   --corpus    corpus.sh's output folder, holding tracer/bin/CODE ($CORPUS_OUT, default /work/corpus-out)
#   --long      the mini-applications' arguments of tests/mpi-programs/apps/measure-args (runs 10-100
#               times longer: at A/20, minutes per run)
#   --runs      plain runs per application and configuration (median, min-max reported; default 3)
#   --divisors  the configurations: A's rate divided by each (default 1,4,20: A, B, C)
#   --full      calibrate with the walkthrough's full size range (1 B .. 100 MiB, 20 repetitions: at
#               200mbit more than the walkthrough's 300 s per measurement; default: --small, 1 B .. 1 MiB)
#   --mpi-args  more mpirun options for the traced and the measured runs, e.g. "--mca btl_tcp_flags send" (Open
#               MPI's TCP transport without its RDMA-put pipeline, which halves exchanges in both directions at
#               once: testbed/README.md, "Measurements")
#   --replay-args  more tit-replay options for every prediction, e.g. "--cfg=smpi/allreduce:rdb" (the collective
#               algorithms the MPI library runs: testbed/README.md, "Measurements")
#   --cpu-share configuration G after the others: A's links, the last host's CPU capped at S of a core (`tit-testbed
#               set --cpu`, cgroup v1), predicted on the platform that says so (tit/host-availability)
#   --twice     configurations F and F-half after the others: twice the hosts (4, one rank each), A's links, the
#               programs traced once more at 4 ranks (the trace of the larger run) and predicted on the 4-host
#               platform. This machine's 2 cores then hold 4 ranks: F leaves the sharing to the kernel (the
#               platform gives each host a core: the prediction is that of a real cluster of 4 nodes, short of
#               what time-sharing measures), F-half caps every host at half a core (`set --cpu`, the platform
#               says so with tit/host-availability), a cluster of 4 half-speed nodes. Their measured runs get
#               `--mca mpi_yield_when_idle 1` (a waiting rank gives its core away). Not with --switches
#   --switches  instead of A/B/C: 4 hosts, two behind each of 2 switches, one rank per host; A the uplink at the
#               link rate, D the uplink at 1/8 of it (the pairs of ranks that cross it contend), E as D with
#               ranks 1 and 2 swapped (placement: neighbours behind the other switch). 4 ranks on this
#               machine's 2 cores: read the noise column.
#   --half      with --switches: every host capped at half a core in A, D and E (`set --cpu`, the platform says
#               so with tit/host-availability), a cluster of 4 half-speed nodes that 2 cores can hold without
#               time-sharing. The 4-rank traces are taken under the caps; each program's CPU rate comes from a
#               run of 2 ranks on 2 uncapped hosts (a core each, as in the 2-host study); the measured runs get
#               `--mca mpi_yield_when_idle 1`
#   --out       output directory (default whatif-out): calibration, traces, platforms, results.csv
# Needs root (tit-testbed). The testbed is taken down on every exit path.
# Exit status: 0 when everything ran, 1 when a run or a replay failed, 2 on a usage error.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
build=$root/build
rate=200mbit
apps=pingpong,fft,halo2d,halo3d,cg,wavefront,subcomm
long=0
runs=3
divisors=1,4,20
small=(--small)
out=whatif-out
mpi_args=()
replay_args=()
cpu_share=
switches=0
twice=0
half=0
corpus=${CORPUS_OUT:-/work/corpus-out}
while [[ $# -gt 0 ]]; do
  case $1 in
    --build) build=$2; shift ;;
    --rate) rate=$2; shift ;;
    --apps) apps=$2; shift ;;
    --runs) runs=$2; shift ;;
    --divisors) divisors=$2; shift ;;
    --full) small=() ;;
    --long) long=1 ;;
    --out) out=$2; shift ;;
    --mpi-args) read -r -a mpi_args <<<"$2"; shift ;;
    --replay-args) read -r -a replay_args <<<"$2"; shift ;;
    --cpu-share) cpu_share=$2; shift ;;
    --switches) switches=1 ;;
    --twice) twice=1 ;;
    --half) half=1 ;;
    --corpus) corpus=$2; shift ;;
    *) echo "whatif.sh: error: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "whatif.sh: error: --runs: expected a positive integer, got '$runs'" >&2; exit 2; }
[[ $divisors =~ ^[1-9][0-9]*(,[1-9][0-9]*)*$ ]] ||
  { echo "whatif.sh: error: --divisors: expected positive integers separated by commas, got '$divisors'" >&2; exit 2; }
[[ -z $cpu_share ]] || awk -v s="$cpu_share" 'BEGIN { exit !(s ~ /^[0-9]*\.?[0-9]+$/ && s > 0 && s < 1) }' ||
  { echo "whatif.sh: error: --cpu-share: expected a share of a core in (0, 1), e.g. 0.5, got '$cpu_share'" >&2; exit 2; }
[[ $rate =~ ^([0-9]+)(kbit|mbit|gbit)$ ]] ||
  { echo "whatif.sh: error: --rate: expected an integer with kbit, mbit or gbit (e.g. 200mbit), got '$rate'" >&2; exit 2; }
rate_n=${BASH_REMATCH[1]} rate_u=${BASH_REMATCH[2]}
((!twice || !switches)) || { echo "whatif.sh: error: --twice goes with the 2-host study, not --switches" >&2; exit 2; }
((!half || switches)) || { echo "whatif.sh: error: --half goes with --switches" >&2; exit 2; }
build=$(realpath "$build")
bin=$build/bin
tb=$bin/tit-testbed
IFS=, read -r -a app_list <<<"$apps"
IFS=, read -r -a div_list <<<"$divisors"
corpus_codes=" $(bash "$root/corpus/corpus.sh" -l | tr '\n' ' ')"  # corpus.sh's own list, a space on each side
is_corpus() { [[ $corpus_codes == *" $1 "* ]]; }
prog() {
  if [[ $1 == pingpong ]]; then echo "$bin/testbed-pingpong"
  elif is_corpus "$1"; then echo "$corpus/tracer/bin/$1"
  else echo "$bin/app-$1"; fi
}
np=2
((switches == 0)) || np=4
# the rank counts traced: np, and twice np for F
counts=("$np")
((!twice)) || counts+=($((2 * np)))
((!half)) || counts+=(2) # the CPU rate's run: 2 ranks, a core each
hosts_up=$np
((!twice)) || hosts_up=$((2 * np))
for a in "${app_list[@]}"; do
  [[ -x $(prog "$a") ]] || { echo "whatif.sh: error: --apps: no program $(prog "$a")" \
    "$(is_corpus "$a" && echo "(build it with: bash corpus/corpus.sh -k tracer -o $corpus $a:$np)")" >&2; exit 2; }
  is_corpus "$a" || continue
  for n in "${counts[@]}"; do
    bash "$root/corpus/corpus.sh" -a "$a" "$n" >/dev/null || { echo "whatif.sh: error: --apps: $a cannot run at $n ranks" >&2; exit 2; }
  done
done
mkdir -p "$out"
out=$(realpath "$out")

child=
cleanup() {
  [[ -z $child ]] || kill -TERM "$child" 2>/dev/null || true
  "$tb" down >/dev/null 2>&1 || true
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
# run CMD...: in the background, waited for, so that a signal stops the study at once.
run() {
  "$@" &
  child=$!
  wait "$child"
  local status=$?
  child=
  return $status
}

app_args() { # APP [NP]: its arguments at NP ranks (default np)
  if is_corpus "$1"; then bash "$root/corpus/corpus.sh" -a "$1" "${2:-$np}"
  elif ((long)); then sed -n "s/^$1 //p" "$root/tests/mpi-programs/apps/measure-args"; fi
}
span() { awk '$1 == "span" && $3 > m { m = $3 } END { print m }' "$1"; }
# timings_span DIR: the largest over the ranks of the start of MPI_Finalize in the tracer's timings (seconds from
# the rank's return from MPI_Init), the span the mini-applications print
timings_span() {
  awk -F, '$2 == "finalize" && $3 > m { m = $3 } END { if (m != "") print m }' "$1"/timings-*.csv
}
loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

echo "== load average at the start: $(loadavg)"
if ((switches)); then
  "$tb" up --hosts 4 --switches 2 --link "$rate" --uplink "$rate" >/dev/null
else
  "$tb" up --hosts "$hosts_up" --link "$rate" >/dev/null
fi
export TIT_TRACE_COMPUTE=cpu-time TIT_TRACE_RATE=1e9
echo "== calibrating at $rate into $out/calibration"
first=${app_list[0]}
run "$tb" calibrate "$out/calibration" "${small[@]}" --tolerance 1 \
  --app "$(prog "$first") $(app_args "$first")" >"$out/calibrate.log" 2>&1 ||
  { echo "whatif.sh: calibration failed: see $out/calibrate.log" >&2; exit 1; }
grep '^inter-host bandwidth' "$out/calibrate.log" || true

# traced DIR APP MPIRUN-ARGS...: a run of APP under the tracer into DIR, with the timings, in the scratch folder
# (a corpus code writes its reports in its working directory)
traced() {
  local dir=$1 app=$2
  shift 2
  mkdir -p "$out/work-$app"
  TIT_TRACE_DIR=$dir TIT_TRACE_TIMINGS=1 run "$tb" mpirun ${mpi_args[@]+"${mpi_args[@]}"} --wdir "$out/work-$app" \
    -x LD_PRELOAD="$build/lib/libtit-trace.so" -x TIT_TRACE_DIR -x TIT_TRACE_TIMINGS -x TIT_TRACE_COMPUTE \
    -x TIT_TRACE_RATE "$@"
}
# trace_dir APP NP: where the trace of APP at NP ranks is
trace_dir() { if [[ $2 == "$np" ]]; then echo "$out/trace-$1"; else echo "$out/trace$2-$1"; fi; }
echo "== tracing at $rate (once per application and rank count: ${counts[*]})"
# yield_args: Open MPI's yield when idle, unless --mpi-args sets it already (mpirun refuses a parameter given twice)
yield_args=(--mca mpi_yield_when_idle 1)
[[ " ${mpi_args[*]-} " != *" mpi_yield_when_idle "* ]] || yield_args=()
hosts() { for ((i = 0; i < $1; i++)); do echo "tit-h$i"; done | paste -sd,; } # hosts N: tit-h0,...,tit-hN-1
hosts_np=$(hosts "$np")
shares() { sed "s/,/:$2,/g; s/\$/:$2/" <<<"$1"; } # shares HOSTS S: HOST:S,... for tit-testbed set --cpu
all_half=$(shares "$hosts_np" 0.5)
rate_np=$np # the rank count whose traced run gives the CPU rate
((!half)) || rate_np=2
for a in "${app_list[@]}"; do
  for n in "${counts[@]}"; do
    read -r -a args <<<"$(app_args "$a" "$n")"
    t=$(trace_dir "$a" "$n")
    rm -rf "$t"
    targs=(-np "$n")
    if ((half)) && [[ $n == "$np" ]]; then
      "$tb" set --cpu "$all_half" 2>/dev/null
      targs+=(${yield_args[@]+"${yield_args[@]}"})
    elif ((half)); then
      "$tb" set --cpu "$(shares "$hosts_np" 1)" 2>/dev/null
      targs+=(--host tit-h0,tit-h1)
    fi
    traced "$t" "$a" "${targs[@]}" "$(prog "$a")" "${args[@]}" >"$t.log" 2>&1 ||
      { echo "whatif.sh: traced run of $a at $n ranks failed: $t.log" >&2; exit 1; }
  done
  # Each application's own CPU rate (in its traces' unit), from its traced run at rate_np ranks (a core per rank).
  "$bin/tit-calibrate" cpu-trace "$(trace_dir "$a" "$rate_np")/trace.list" -o "$out/cpu-$a.csv" >/dev/null
done

# RATE divided by D, as tc writes it (integers with kbit/mbit: one unit down when the division leaves a fraction)
divided() {
  local r
  r=$(awk -v n="$rate_n" -v d="$1" 'BEGIN { printf "%g", n / d }')$rate_u
  [[ $r != *.* ]] || r=$(awk -v n="$rate_n" -v d="$1" 'BEGIN { printf "%.0f", n * 1e3 / d }')$(
    case $rate_u in gbit) echo mbit ;; *) echo kbit ;; esac)
  echo "$r"
}
# The configurations: NAME DIVISOR LINK UPLINK HOSTS CPU (rank i on the i-th host, one rank per host named; UPLINK
# - without switches; CPU the hosts' shares of a core, HOST:SHARE,..., or - for none).
configs=()
if ((switches)); then
  slow=$(divided 8)
  caps=-
  ((!half)) || caps=$all_half
  configs=("A 1 $rate $rate $hosts_np $caps" "D 8 $rate $slow $hosts_np $caps"
    "E 8 $rate $slow tit-h0,tit-h2,tit-h1,tit-h3 $caps")
else
  for d in "${div_list[@]}"; do configs+=("x1/$d $d $(divided "$d") - $hosts_np -"); done
fi
if [[ -n $cpu_share ]]; then
  if ((switches)); then configs+=("G 1 $rate $rate $hosts_np tit-h$((np - 1)):$cpu_share")
  else configs+=("G 1 $rate - $hosts_np tit-h$((np - 1)):$cpu_share"); fi
fi
if ((twice)); then
  hosts_2np=$(hosts $((2 * np)))
  configs+=("F 1 $rate - $hosts_2np -" "F-half 1 $rate - $hosts_2np $(shares "$hosts_2np" 0.5)")
fi
# With caps in any configuration, every host is set in every one (1: no cap), so that none is left from the last.
caps_used=0
for c in "${configs[@]}"; do [[ ${c##* } == - ]] || caps_used=1; done

echo "config,divisor,rate,app,measured_s,min_s,max_s,predicted_s,error" >"$out/results.csv"
for c in "${configs[@]}"; do
  read -r name d link uplink hosts cpu <<<"$c"
  n=$(tr ',' '\n' <<<"$hosts" | wc -l)
  run_args=()
  [[ $n == "$np" ]] && ((!half)) || run_args=(${yield_args[@]+"${yield_args[@]}"})
  if [[ $uplink == - ]]; then
    "$tb" set --link "$link" 2>/dev/null
    label=$link
  else
    "$tb" set --link "$link" --uplink "$uplink" 2>/dev/null
    label=$link/$uplink
  fi
  if ((caps_used)); then
    declare -A share=()
    for ((i = 0; i < hosts_up; i++)); do share[tit-h$i]=1; done
    [[ $cpu == - ]] || for item in ${cpu//,/ }; do share[${item%%:*}]=${item#*:}; done
    "$tb" set --cpu "$(for h in "${!share[@]}"; do echo "$h:${share[$h]}"; done | paste -sd,)" 2>/dev/null
    unset share
  fi
  [[ $n == "$np" ]] || label="$label+${n}hosts"
  # the caps in the label: cpuIxS for host I at S, cpuallxS when every host of the configuration is at S
  [[ $cpu == - ]] || label="$label+$(tr ',' '\n' <<<"$cpu" | awk -F: -v n="$n" '{ sub(/^tit-h/, "", $1); l = l (l ? "+" : "") "cpu" $1 "x" $2; s[$2] }
    END { if (NR == n && length(s) == 1) for (v in s) l = "cpuallx" v; print l }')"
  tag=${name//\//-}
  tr ',' '\n' <<<"$hosts" >"$out/hosts-$tag"
  "$tb" platform --calibration "$out/calibration" -o "$out/platform-$tag.xml" 2>"$out/platform-$tag.log" ||
    { echo "whatif.sh: platform of $name failed: $out/platform-$tag.log" >&2; exit 1; }
  for a in "${app_list[@]}"; do
    cp "$out/platform-$tag.xml" "$out/platform-$tag-$a.xml"
    "$bin/tit-calibrate" fit --cpu "$out/cpu-$a.csv" --platform "$out/platform-$tag-$a.xml" >/dev/null
    pred=$("$bin/tit-replay" ${replay_args[@]+"${replay_args[@]}"} --hostfile "$out/hosts-$tag" "$out/platform-$tag-$a.xml" "$(trace_dir "$a" "$n")/trace.list" \
      2>"$out/replay-$tag-$a.err" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
    [[ -n $pred ]] || { echo "whatif.sh: replay of $a in $name failed: $out/replay-$tag-$a.err" >&2; exit 1; }
    read -r -a args <<<"$(app_args "$a" "$n")"
    spans=()
    for ((i = 0; i < runs; i++)); do
      if is_corpus "$a"; then
        rm -rf "$out/run-trace"
        traced "$out/run-trace" "$a" ${run_args[@]+"${run_args[@]}"} -np "$n" --host "$hosts" "$(prog "$a")" "${args[@]}" >"$out/run.log" 2>&1 ||
          { echo "whatif.sh: run of $a in $name failed: $(tail -5 "$out/run.log")" >&2; exit 1; }
        spans+=("$(timings_span "$out/run-trace")")
        rm -rf "$out/run-trace"
      else
        run "$tb" mpirun ${mpi_args[@]+"${mpi_args[@]}"} ${run_args[@]+"${run_args[@]}"} -np "$n" --host "$hosts" "$(prog "$a")" "${args[@]}" \
          >"$out/run.log" 2>&1 || { echo "whatif.sh: run of $a in $name failed: $(tail -5 "$out/run.log")" >&2; exit 1; }
        spans+=("$(span "$out/run.log")")
      fi
    done
    python3 - "$name" "$d" "$label" "$a" "$pred" "${spans[@]}" >>"$out/results.csv" <<'EOF'
import statistics, sys
name, d, r, a, pred = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5])
runs = [float(x) for x in sys.argv[6:]]
m = statistics.median(runs)
print(f"{name},{d},{r},{a},{m:.6g},{min(runs):.6g},{max(runs):.6g},{pred:.6g},{(pred - m) / m:.4f}")
EOF
    tail -1 "$out/results.csv"
  done
done
echo "== load average at the end: $(loadavg)"

python3 - "$out/results.csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
wc = max([6] + [len(r["config"]) + 2 for r in rows])
wr = max([16] + [len(r["rate"]) + 2 for r in rows])
print(f"\n{'config':<{wc}}{'rate':>{wr}}  {'app':<10}{'measured s':>11}{'noise':>9}{'predicted s':>13}{'error':>9}")
for r in rows:
    m = float(r["measured_s"])
    noise = (float(r["max_s"]) - float(r["min_s"])) / m
    print(f"{r['config']:<{wc}}{r['rate']:>{wr}}  {r['app']:<10}{m:>11.4f}{100 * noise:>8.1f}%{float(r['predicted_s']):>13.4f}"
          f"{100 * float(r['error']):>+8.1f}%")
errs = [abs(float(r["error"])) for r in rows]
print(f"\nmedian |error| {100 * statistics.median(errs):.1f}%, largest {100 * max(errs):.1f}%")
for app in dict.fromkeys(r["app"] for r in rows):
    mine = [r for r in rows if r["app"] == app]
    meas = [r["config"] for r in sorted(mine, key=lambda r: float(r["measured_s"]))]
    pred = [r["config"] for r in sorted(mine, key=lambda r: float(r["predicted_s"]))]
    print(f"{app}: order measured {' < '.join(meas)}, predicted {' < '.join(pred)}: {'same' if meas == pred else 'DIFFERENT'}")
EOF
if /usr/bin/python3 "$here/whatif_plot.py" "$out/results.csv" "$out/whatif.png" 2>"$out/plot.log"; then
  echo "plot: $out/whatif.png"
else
  echo "whatif.sh: no plot ($(tail -1 "$out/plot.log"); Debian's python3-matplotlib)" >&2
fi
