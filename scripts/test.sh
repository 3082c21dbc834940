#!/usr/bin/env bash
# Install the dependencies, build, and run every test (unit, end-to-end, differential against
# SimGrid's smpirun -replay, README) with CTest. Exits non-zero when a test fails.
#
# Usage: scripts/test.sh [extra ctest arguments, e.g. -R differential]
# Environment:
#   TIT_SKIP_SETUP=1  skip installation and build: test what is already built in $BUILD_DIR
#   TIT_SKIP_DEPS=1   skip only the installation of Debian packages
#   BUILD_DIR         build directory (default: build/ at the root of the repository)
#   CTEST_JOBS        parallel tests (default 2)
#   TIT_SKIP_SANITIZE=1  skip the sanitizer stage (scripts/check/sanitize.sh: unit and end-to-end tests on
#                     an ASan+UBSan build), which runs after the main suite when no ctest argument is given
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=$(realpath -m "${BUILD_DIR:-$root/build}")
export BUILD_DIR

bash "$root/scripts/setup/setup.sh"

ctest --test-dir "$BUILD_DIR" --output-on-failure --no-tests=error -j "${CTEST_JOBS:-2}" "$@"

if (($# == 0)) && [[ ${TIT_SKIP_SANITIZE:-0} != 1 ]]; then
  SANITIZE_BUILD_DIR=${SANITIZE_BUILD_DIR:-$(dirname "$BUILD_DIR")/$(basename "$BUILD_DIR")-sanitize} \
    bash "$root/scripts/check/sanitize.sh"
fi
