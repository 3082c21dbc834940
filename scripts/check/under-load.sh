#!/usr/bin/env bash
# The whole suite under load: scripts/test.sh (both stages, set-up and build included) on a fresh clone of HEAD,
# RUNS times in a row, while another build of the project runs beside it the whole time (a clean build of a
# third clone, over and over, at normal priority, as many jobs as cores). Prints each run's time and result,
# and stops at the first failure (its log is kept). Issue 32's target: 5 runs in a row, each under 30 minutes.
#
# usage: scripts/check/under-load.sh [RUNS] [WORKDIR]
#   RUNS     runs in a row (default 5)
#   WORKDIR  where the clones go (default: a new directory under /tmp); removed at the end unless a run failed
# The clones get ../shared beside them when the repository has it (as CI does).
set -euo pipefail

runs=${1:-5}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=${2:-$(mktemp -d /tmp/tit-under-load.XXXXXX)}
mkdir -p "$work"
head=$(git -C "$root" rev-parse HEAD)
jobs=$(nproc)

clone() { # clone DIR: a fresh clone of HEAD with ../shared beside it
  rm -rf "$1"
  mkdir -p "$1"
  git clone -q "$root" "$1/main"
  git -C "$1/main" checkout -q "$head"
  if [[ -d $root/../shared ]]; then
    cp -r "$root/../shared" "$1/shared"
  fi
}

# The build beside: configured once the suite's own set-up has installed the packages, then built from clean
# again and again until the runs are over.
load_loop() {
  clone "$work/load"
  until cmake -S "$work/load/main" -B "$work/load/build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null 2>&1; do
    sleep 30
  done
  local n=0
  while true; do
    cmake --build "$work/load/build" --target clean >/dev/null 2>&1 || true
    cmake --build "$work/load/build" -j"$jobs" >/dev/null 2>&1 || true
    n=$((n + 1))
    echo "$n" >"$work/load/builds"
  done
}
set -m # job control: the build beside gets a process group of its own, stopped with its compilers at the end
load_loop &
load_pid=$!
set +m
stop_load() { kill -- -"$load_pid" 2>/dev/null || true; wait "$load_pid" 2>/dev/null || true; }
trap stop_load EXIT

failed=0
for ((i = 1; i <= runs; i++)); do
  clone "$work/run"
  start=$SECONDS
  rc=0
  (cd "$work/run/main" && scripts/test.sh) >"$work/run-$i.log" 2>&1 || rc=$?
  took=$((SECONDS - start))
  summary=$(grep -E "tests passed|tests failed" "$work/run-$i.log" | tr '\n' ';' || true)
  printf 'run %d of %d: exit %d in %d min %02d s (load average %s; builds beside so far: %s) %s\n' "$i" "$runs" "$rc" \
    $((took / 60)) $((took % 60)) "$(cut -d' ' -f1-3 /proc/loadavg)" "$(cat "$work/load/builds" 2>/dev/null || echo 0)" \
    "$summary"
  if ((rc != 0)); then
    echo "under-load: run $i failed; its log: $work/run-$i.log" >&2
    failed=1
    break
  fi
  rm -rf "$work/run"
done
stop_load
if ((failed == 0)); then
  rm -rf "$work"
fi
exit $failed
