#!/usr/bin/env bash
# Configure and build tit-replay (executables in $BUILD_DIR/bin: tit-replay, tit-unit-tests).
#
# Usage: scripts/setup/build.sh [extra CMake configure arguments...]
# Environment:
#   BUILD_DIR   build directory (default: build/ at the root of the repository)
#   BUILD_TYPE  CMake build type (default RelWithDebInfo; an existing build directory keeps its own)
#   JOBS        parallel build jobs (default: nproc)
#   TIT_BUILD_TARGETS  build only these targets (space-separated, e.g. "tit-replay"); default: everything
# Uses Ninja when it is installed and the build directory is new.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build_dir=$(realpath -m "${BUILD_DIR:-$root/build}")
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

args=(-S "$root" -B "$build_dir")
if [[ ! -f $build_dir/CMakeCache.txt ]]; then
  # A fresh build directory: choose the generator and the build type.
  if command -v ninja >/dev/null 2>&1; then
    args+=(-G Ninja)
  fi
  args+=(-DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}")
elif [[ -n ${BUILD_TYPE:-} ]]; then
  args+=(-DCMAKE_BUILD_TYPE="$BUILD_TYPE")
fi

cmake "${args[@]}" "$@"
targets=()
for t in ${TIT_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
