# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Shared definitions of the differential test matrix, sourced by make-traces.sh and run.sh.
# (bash; no side effects besides defining variables.)

# Programs of tests/mpi-programs and the arguments each is traced with.
# Sizes are chosen so that every program but barrier mixes messages below and at/above the
# 65536-byte detached/rendez-vous threshold (barrier uses a 70000-byte isend and a 7000-byte send).
DIFF_PROGRAMS=(ring halo wavefront nbmix testpoll barrier)
declare -A DIFF_ARGS=(
  [ring]="100000 3 1e7"
  [halo]="80000 3 3e5"
  [wavefront]="120000 3 5e6"
  [nbmix]="200000 2 4e6"
  [testpoll]="150000 3 2e5"
  [barrier]="4 3e6 70000"
)

# Process counts (non-powers of two included).
DIFF_NPS=(2 3 4 8)

# Platforms of platforms/ (each NAME.xml with its NAME.hosts).
DIFF_PLATFORMS=(small-hetero cluster-backbone fat-tree torus dragonfly)

# Options given to smpirun when tracing: deterministic computation (only smpi_execute_flops counts).
DIFF_TRACE_OPTS=(--cfg=smpi/simulate-computation:no)

# Model settings: name -> extra smpirun/tit-replay options (several --cfg words, no blanks inside
# a value), and the process counts each setting is run with (every program on every platform).
DIFF_SETTINGS=(default ovh eager detach1k eager-ovh)
declare -A DIFF_SETTING_CFG=(
  [default]=""
  [ovh]="--cfg=smpi/os:0:1e-6:1e-9;65536:2e-6:5e-10 --cfg=smpi/or:0:1.5e-6:1.2e-9;65536:3e-6:4e-10 --cfg=smpi/ois:0:4e-7:2e-10;8192:8e-7:1e-10;65536:1.5e-6:5e-11"
  [eager]="--cfg=smpi/async-small-thresh:65536"
  [detach1k]="--cfg=smpi/send-is-detached-thresh:1000"
  [eager-ovh]="--cfg=smpi/async-small-thresh:65536 --cfg=smpi/os:0:3e-6:2e-9 --cfg=smpi/or:0:2e-6:1e-9;32768:4e-6:1e-10 --cfg=smpi/ois:0:1e-6:0"
)
declare -A DIFF_SETTING_NPS=(
  [default]="2 3 4 8"
  [ovh]="3 8"
  [eager]="4"
  [detach1k]="3"
  [eager-ovh]="2"
)
