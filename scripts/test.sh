#!/usr/bin/env bash
# Install the dependencies, build, and run the tests with CTest. Exits non-zero when a test fails.
#
# Usage: scripts/test.sh                 every test (CI): the build (project and fuzz targets), then the whole suite
#        scripts/test.sh --quick         the quick tier only (label `quick`: unit and end-to-end tests of the
#                                        programs, no external program), for the edit-test loop
#        scripts/test.sh [ctest args]    the build, then ctest with these arguments (e.g. -R differential, -L full)
# Test labels: quick, full (every test), external (needs mpirun, smpirun, clang or Slurm), slow; see
# tests/CMakeLists.txt. How long each takes on a 2-core machine: README.md, section Tests.
# Environment:
#   TIT_SKIP_SETUP=1  skip installation and build: test what is already built in $BUILD_DIR
#   TIT_SKIP_DEPS=1   skip only the installation of Debian packages
#   BUILD_DIR         build directory (default: build/ at the root of the repository)
#   CTEST_JOBS        parallel tests (default 2)
#   TIT_SANITIZE_STAGE=1  after the whole suite, the sanitizer stage (scripts/check/sanitize.sh: unit, end-to-end and
#                     extrapolation tests on an ASan+UBSan build, 15.5 more minutes on 2 cores). Not in CI: with it
#                     the run took 46 minutes, over CI's 30 (the fuzz tests run ASan+UBSan builds of every input reader)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=$(realpath -m "${BUILD_DIR:-$root/build}")
export BUILD_DIR

quick=0
if [[ ${1:-} == --quick ]]; then
  quick=1
  shift
  (($# == 0)) || { echo "test.sh: --quick takes no other argument" >&2; exit 2; }
fi

start=$SECONDS
bash "$root/scripts/setup/setup.sh"
if ((!quick)) && [[ ${TIT_SKIP_SETUP:-0} != 1 ]]; then
  # The fuzz targets are part of the build step: the fuzz.* tests only run them (their compressed seeds written by
  # this build's tit-trace).
  FUZZ_BUILD_DIR=$BUILD_DIR/fuzz-build TIT_TRACE=$BUILD_DIR/bin/tit-trace bash "$root/scripts/check/fuzz.sh" --build-only
fi
echo "test.sh: set-up and build took $((SECONDS - start)) s"

if ((quick)); then
  ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error -j "${CTEST_JOBS:-2}" -L quick
  exit
fi

ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error -j "${CTEST_JOBS:-2}" "$@"

if (($# == 0)) && [[ ${TIT_SANITIZE_STAGE:-0} == 1 ]]; then
  SANITIZE_BUILD_DIR=${SANITIZE_BUILD_DIR:-$(dirname "$BUILD_DIR")/$(basename "$BUILD_DIR")-sanitize} \
    bash "$root/scripts/check/sanitize.sh"
fi
echo "test.sh: done in $((SECONDS - start)) s"
