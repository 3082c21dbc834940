#!/usr/bin/env bash
# Install the dependencies, build, and replay the bundled example: the 4-rank ring of traces/ring4
# on the heterogeneous platform platforms/small-hetero.xml. Prints the predicted time.
#
# Usage: scripts/demo.sh [tit-replay options, e.g. --cfg=smpi/os:0:1e-6:0]
# Environment:
#   TIT_SKIP_SETUP=1  skip installation and build: use the binary already in $BUILD_DIR
#   TIT_SKIP_DEPS=1   skip only the installation of Debian packages
#   BUILD_DIR         build directory (default: build/ at the root of the repository)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD_DIR=$(realpath -m "${BUILD_DIR:-$root/build}")
export BUILD_DIR

# Only the program the demo runs: the first prediction comes before the rest of the project is built.
TIT_BUILD_TARGETS=${TIT_BUILD_TARGETS:-tit-replay} bash "$root/scripts/setup/setup.sh"

cd "$root"
args=("$@" platforms/small-hetero.xml platforms/small-hetero.deploy4.xml traces/ring4)
echo "+ tit-replay ${args[*]}"
exec "$BUILD_DIR/bin/tit-replay" "${args[@]}"
