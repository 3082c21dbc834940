#!/usr/bin/env bash
# Install the Debian packages needed to build and test tit-replay (Debian 12 "bookworm" or newer).
#
# Usage: scripts/setup/install-deps.sh
# Open MPI (tracer, calibration programs), matplotlib (calibration and Gantt plots) and pajeng
# (pj_dump, to check the Paje output) are part of the set: every test needs its tools installed.
#
# Idempotent: when every package is already installed it returns at once without calling apt.
# Runs apt-get directly as root, through sudo otherwise.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config python3
  libsimgrid-dev libboost-dev  # SimGrid's public headers include Boost headers
  libpugixml-dev libfmt-dev libspdlog-dev libcli11-dev zlib1g-dev liblzma-dev libgoogle-perftools-dev
  libgtest-dev nlohmann-json3-dev
  libopenmpi-dev openmpi-bin       # tracer and calibration programs
  robin-map-dev                    # the tracer's request table (header-only, nothing at run time)
  gfortran                         # mpif90 for the tracer's Fortran test program
  python3-matplotlib python3-numpy # calibration fit plots, Gantt charts
  pajeng                           # pj_dump checks the Paje timeline
  clang libclang-rt-14-dev         # libFuzzer and its sanitizers for the fuzz targets (scripts/check/fuzz.sh)
  libyaml-cpp-dev                  # tit-sweep's sweep files
  slurm-wlm munge                  # tit-sweep's Slurm test: a one-machine Slurm started by the test
  libotf2-trace-dev libopen-trace-format2-dev  # OTF2 archives in and out (libs/otf2, tit-replay --otf2)
  otf2-tools python3-otf2          # otf2-print and the OTF2 test archives' generator
)

usage() { sed -n '2,9s/^# \{0,1\}//p' "$0"; }

for arg in "$@"; do
  case $arg in
    -h | --help) usage; exit 0 ;;
    *) echo "install-deps.sh: unknown argument '$arg' (accepted: --help)" >&2; exit 2 ;;
  esac
done

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps.sh: no dpkg/apt-get here; this script only knows Debian and its derivatives." >&2
  echo "Install the equivalents of: ${packages[*]}" >&2
  echo "then run the other scripts with TIT_SKIP_DEPS=1." >&2
  exit 1
fi

missing=()
for p in "${packages[@]}"; do
  if [[ $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$p")
  fi
done
if ((${#missing[@]} == 0)); then
  echo "install-deps.sh: all ${#packages[@]} packages already installed."
  exit 0
fi

if [[ $(id -u) == 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  echo "install-deps.sh: missing packages (${missing[*]}) and not root, and sudo is not available." >&2
  exit 1
fi

echo "install-deps.sh: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -q --no-install-recommends "${missing[@]}"
