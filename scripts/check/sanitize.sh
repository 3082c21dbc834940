#!/usr/bin/env bash
# Build tit-replay and its unit tests with AddressSanitizer and UndefinedBehaviorSanitizer, and run
# the unit and end-to-end tests on that build, and the extrapolation's (label `sanitized`: all but those
# traced by our tracer, whose library this build does not make). scripts/test.sh runs it after the main suite.
#
# Usage: scripts/check/sanitize.sh [extra ctest arguments]
# Environment:
#   SANITIZE_BUILD_DIR  build directory (default: build-sanitize/ at the root of the repository)
#   JOBS                parallel build jobs (default: nproc);  CTEST_JOBS  parallel tests (default 2)
# Any sanitizer report fails the test that triggered it (UBSan halts on the first error, ASan and
# LeakSanitizer exit non-zero). The end-to-end runs use SimGrid's thread contexts: AddressSanitizer
# cannot follow the default raw context switches through exceptions.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=$(realpath -m "${SANITIZE_BUILD_DIR:-$root/build-sanitize}")
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

args=(-S "$root" -B "$dir" -DTIT_SANITIZE=ON)
if [[ ! -f $dir/CMakeCache.txt ]]; then
  command -v ninja >/dev/null 2>&1 && args+=(-G Ninja)
  # The `sanitize` preset of CMakePresets.json: optimised, since the sanitizers' checks do not depend on -O0,
  # and the end-to-end runs stay quick.
  args+=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
cmake "${args[@]}" >/dev/null
echo "sanitize.sh: building tit-replay, tit-trace and tit-unit-tests with ASan+UBSan in $dir"
cmake --build "$dir" -j "$jobs" --target tit-replay tit-trace-tool tit-unit-tests

export TIT_E2E_ARGS=--cfg=contexts/factory:thread
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=0}
ctest --test-dir "$dir" --output-on-failure --no-tests=error -j "${CTEST_JOBS:-2}" -L '^(unit|e2e|sanitized)$' "$@"
