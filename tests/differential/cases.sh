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
  [coll_rooted]="200000 1e6"
  [coll_all]="200000 1e6"
  [coll_scan]="200000 1e6"
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
  [ompi]="--cfg=smpi/coll-selector:ompi"
  [mpich]="--cfg=smpi/coll-selector:mpich"
  [mpich-flat]="--cfg=smpi/coll-selector:mpich --cfg=smpi/bcast:scatter_LR_allgather --cfg=smpi/reduce:binomial --cfg=smpi/allreduce:rab_rdb"
  [mixed]="--cfg=smpi/allreduce:redbcast --cfg=smpi/allgatherv:ompi --cfg=smpi/bcast:ompi_pipeline --cfg=smpi/reduce:ompi_binomial --cfg=smpi/barrier:ompi_bruck"
)
declare -A DIFF_SETTING_NPS=(
  [default]="2 3 4 8"
  [ovh]="3 8"
  [eager]="4"
  [detach1k]="3"
  [eager-ovh]="2"
)

# ---- collectives -------------------------------------------------------------------------------
# Programs calling MPI collectives (SimGrid's default selector), traced with the process counts of
# DIFF_COLL_NPS and replayed under DIFF_COLL_SETTINGS (names of DIFF_SETTING_CFG) with the process
# counts of DIFF_COLL_SETTING_NPS. Their names start with "coll" so that DIFF_FILTER=coll selects
# them (and only them). Message sizes: 1/2/4/8 elements of double/int/char/float, 8000 to 65536
# bytes, and the first argument (200000 bytes); see tests/mpi-programs/coll.h.
DIFF_COLL_PROGRAMS=(coll_rooted coll_all coll_scan)

# Non-powers of two matter: binomial trees, the alltoall selector's bands (2 ranks / 3-7 / 8-15).
DIFF_COLL_NPS=(2 3 4 5 8)

DIFF_COLL_SETTINGS=(default ovh eager detach1k eager-ovh ompi mixed mpich mpich-flat)
declare -A DIFF_COLL_SETTING_NPS=(
  [default]="2 3 4 5 8"
  [ovh]="2 3 4 5 8"
  [eager]="3 4 8"
  [detach1k]="2 5 8"
  [eager-ovh]="2 5"
  # SimGrid 3.32's Open MPI selector (both sides read smpi/coll-selector). Not at 3 ranks: its alltoallv
  # picks the pair algorithm, which refuses non-powers of two; not at 8: its knomial bcast crashes
  # SimGrid's replay (free(): invalid pointer).
  [ompi]="2 4 5"
  # Per-collective choices on the default selector, incl. algorithms built on other collectives.
  [mixed]="2 4 5"
  # SimGrid 3.32's MPICH selector. Its bcast, reduce and allreduce run init_smp first, which crashes
  # SimGrid's replayer (see DIFF_EXCLUDE), so only coll_scan (scan, exscan, barrier) replays under it; the
  # SMP-aware path is checked against SMPI's online run instead (online-sets.sh).
  [mpich]="2 3 4 5 8"
  # The same selector with bcast, reduce and allreduce forced to flat algorithms the replayer can run
  # (scatter_LR_allgather, MPICH's binomial reduce, Rabenseifner's allreduce): every other MPICH decision.
  [mpich-flat]="2 4 5 8"
)

# Cases left out because SimGrid's own replayer cannot replay them (the reference aborts or
# deadlocks, so there is nothing to compare with): extended regular expressions matched against
# the case name ("PROGRAM-npN-PLATFORM SETTING"), each with the reason, e.g.
#   '^coll_all-np[357]-' # alltoall of 600000 B selects the pairwise algorithm, which aborts there
# Otherwise the programs avoid the constructs whose traces SimGrid cannot replay
# (tests/mpi-programs/README.md lists them).
DIFF_EXCLUDE=(
  # SimGrid 3.32's mpich bcast/reduce/allreduce call Comm::init_smp, which in a replay switches the
  # replaying flag off around its own collectives, and the replay aborts at the first of them: free() of a
  # buffer that was not allocated, in smpi_comm_copy_buffer_callback ("munmap_chunk(): invalid pointer"),
  # or a segfault. The traced (online) runs do not crash: online-sets.sh compares with those.
  '^coll_(rooted|all)-np[0-9]+-[a-z-]+ mpich$'
  # 5 ranks, alltoall of 65536 B or more per peer: the mpich decision picks SimGrid's pair algorithm, which
  # throws "alltoall pair algorithm can't be used with non power of two number of processes!".
  '^coll_all-np5-[a-z-]+ mpich-flat$'
)
