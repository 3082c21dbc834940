#!/usr/bin/env bash
# Installs the Debian packages and builds, unless told to skip: shared by demo.sh and test.sh.
#   TIT_SKIP_SETUP=1  skip both;  TIT_SKIP_DEPS=1  skip only the installation;  BUILD_DIR  build directory
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
if [[ ${TIT_SKIP_SETUP:-0} != 1 ]]; then
  if [[ ${TIT_SKIP_DEPS:-0} != 1 ]]; then
    bash "$root/scripts/setup/install-deps.sh"
  fi
  bash "$root/scripts/setup/build.sh"
fi
