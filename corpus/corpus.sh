#!/usr/bin/env bash
# Build and trace the corpus of real MPI codes (issue 35): HPCG, LULESH, miniFE, CoMD, AMG, miniAMR.
# Nothing of these codes is in the repository: this script checks each out of a git mirror at the
# commit pinned below, into a scratch folder outside the repository, builds it with smpicc/smpicxx
# (SMPI traces) or mpicc/mpicxx (traces of our tracer, libtit-trace.so), and runs it at small
# rank counts. See corpus/README.md.
#
# usage: corpus.sh [-m MIRROR] [-s SRC] [-o OUT] [-k smpi|tracer] [CODE[:NP,NP...]...]
#        corpus.sh -a CODE NP   prints the arguments of CODE's run at NP ranks (for other harnesses:
#                               testbed/whatif.sh), exit 2 when NP does not suit CODE
#        corpus.sh -l           prints the codes, one a line
#   -m MIRROR  folder holding OWNER+NAME/repo bare git mirrors ($CORPUS_MIRROR, default /work/.mirror)
#   -s SRC     scratch folder for the checked-out sources ($CORPUS_SRC, default /work/corpus-src)
#   -o OUT     output folder ($CORPUS_OUT, default /work/corpus-out): OUT/KIND/bin/CODE,
#              OUT/KIND/traces/CODE-npN/ (trace list CODE-npN.trace for smpi, trace.list for tracer),
#              OUT/KIND/logs/, OUT/KIND/online.tsv (smpi: code, np, SMPI's simulated time)
#   -k KIND    smpi (default) or tracer ($CORPUS_TRACER_LIB: libtit-trace.so, default
#              build/lib/libtit-trace.so of this checkout)
#   CODE       hpcg lulesh minife comd amg miniamr (default: all), each with its default rank
#              counts unless given after a colon; also miniamr-uniform (miniAMR without refinement: 64 to 512
#              ranks, docs/extrapolation.md), nas-ep and nas-is (NPB EP and IS, class S, the C
#              versions in SimGrid's examples/smpi/NAS), npb-cg, npb-ft, npb-mg, npb-lu (NPB 3.3-MPI's Fortran,
#              class S, one build per rank count), npb-bt, npb-sp (class W: class S stops at 16 ranks; a square
#              rank count), cloverleaf (CloverLeaf_ref, 2-D hydrodynamics in Fortran 90: any rank count),
#              tealeaf (TeaLeaf_ref, 2-D heat conduction by CG in Fortran 90: any rank count): codes outside the
#              six, for checking on more
# CORPUS_NPB_CLASS (S, W, A, B or C) sets the problem class of every npb-* code (default S; W for npb-bt and
# npb-sp), e.g. A for NPB LU on 16 to 128 ranks (class S stops at 16, W at 64), with -o another OUT.
# TIT_TRACE_COMPUTE (default cpu-time) and TIT_TRACE_MIN_BURST (default 1e-6) are passed to the tracer's runs
# (tracer/README.md).
# CORPUS_EXTRA_ARGS is appended to every run's arguments (the codes take the last of a repeated option): longer runs,
# e.g. CORPUS_EXTRA_ARGS="-i 1500" for lulesh (docs/fast-forward.md), with -o another OUT.
# Exit 0 when every case built and traced, every rank's trace reaching its finalize; 1 otherwise (a summary on stderr
# lists what failed).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
mirror=${CORPUS_MIRROR:-/work/.mirror}
src=${CORPUS_SRC:-/work/corpus-src}
out=${CORPUS_OUT:-/work/corpus-out}
kind=smpi
print_args=0
list=0
while getopts "m:s:o:k:alh" opt; do
  case $opt in
    a) print_args=1 ;;
    l) list=1 ;;
    m) mirror=$OPTARG ;;
    s) src=$OPTARG ;;
    o) out=$OPTARG ;;
    k) kind=$OPTARG ;;
    *) sed -n '2,20p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
case $kind in smpi|tracer) ;; *) echo "$0: -k must be smpi or tracer, not '$kind'" >&2; exit 2 ;; esac

# --- the codes: mirror name, pinned commit, default rank counts -----------------------------------
declare -A REPO=([hpcg]=hpcg-benchmark+hpcg [lulesh]=LLNL+LULESH [minife]=Mantevo+miniFE
                 [comd]=ECP-copa+CoMD [amg]=LLNL+AMG [miniamr]=Mantevo+miniAMR [miniamr-uniform]=Mantevo+miniAMR
                 [nas-ep]=simgrid+simgrid [nas-is]=simgrid+simgrid
                 [npb-cg]=mbdevpl+nas-parallel-benchmarks [npb-ft]=mbdevpl+nas-parallel-benchmarks
                 [npb-mg]=mbdevpl+nas-parallel-benchmarks [npb-lu]=mbdevpl+nas-parallel-benchmarks
                 [npb-bt]=mbdevpl+nas-parallel-benchmarks [npb-sp]=mbdevpl+nas-parallel-benchmarks
                 [cloverleaf]=UK-MAC+CloverLeaf_ref [tealeaf]=UK-MAC+TeaLeaf_ref)
declare -A COMMIT=(
  [hpcg]=114602d458d1034faa52b71e4c15aba9b3a17698
  [lulesh]=3e01c40b3281aadb7f996525cdd4a3354f6d3801
  [minife]=c79e0f7f7afdd6c8191936efce7a668316159cc3
  [comd]=3d48396b77ca8caa3124bc2391f9139c3ffb556c
  [amg]=3ada8a128e311543e84d9d66344ece77924127a8
  [miniamr]=635fef2f83558f09805725428daf366c32428d0c
  [miniamr-uniform]=635fef2f83558f09805725428daf366c32428d0c
  [nas-ep]=e8d2ff8dab0cbf7a280fabcb27900c30ff6bb4fe # SimGrid v3.32
  [nas-is]=e8d2ff8dab0cbf7a280fabcb27900c30ff6bb4fe
  [npb-cg]=6f8ec75d6951629d2eb7e3001433295d407230aa # NPB 3.3-MPI (and 3.0, 3.4) as NASA published them
  [npb-ft]=6f8ec75d6951629d2eb7e3001433295d407230aa
  [npb-mg]=6f8ec75d6951629d2eb7e3001433295d407230aa
  [npb-lu]=6f8ec75d6951629d2eb7e3001433295d407230aa
  [npb-bt]=6f8ec75d6951629d2eb7e3001433295d407230aa
  [npb-sp]=6f8ec75d6951629d2eb7e3001433295d407230aa
  [cloverleaf]=0fdb917bf10d20363dd8b88d762851908643925b # CloverLeaf_ref, Fortran 90 and C kernels
  [tealeaf]=019aa2f7da9df9559e6a0890d14f961738711ca7    # TeaLeaf_ref, Fortran 90 and C kernels
)
# the folder of the repository that holds the code (default: all of it)
declare -A SUBDIR=([nas-ep]=examples/smpi/NAS [nas-is]=examples/smpi/NAS [npb-cg]=NPB3.3-MPI [npb-ft]=NPB3.3-MPI
                   [npb-mg]=NPB3.3-MPI [npb-lu]=NPB3.3-MPI [npb-bt]=NPB3.3-MPI [npb-sp]=NPB3.3-MPI)
declare -A NPS=([hpcg]="4 8 16 32 64" [lulesh]="8 27 64 125" [minife]="4 8 16 32 64"
                [comd]="4 8 16 32 64" [amg]="4 8 16 32" [miniamr]="4 8 16 32 64"
                [miniamr-uniform]="64 128 256 512"
                [nas-ep]="4 8 16 32" [nas-is]="4 8 16 32" [npb-cg]="8 16 32 64" [npb-ft]="4 8 16 32"
                [npb-mg]="4 8 16 32" [npb-lu]="4 8 16 32" [npb-bt]="4 9 16 36" [npb-sp]="4 9 16 36"
                [cloverleaf]="9 16 25 36 64" [tealeaf]="9 16 25 36 64")
# NPB's problem class (compiled in): S unless said here, or $CORPUS_NPB_CLASS for every npb-* code
declare -A NPB_CLASS=([npb-bt]=W [npb-sp]=W)
if [ -n "${CORPUS_NPB_CLASS:-}" ]; then
  case $CORPUS_NPB_CLASS in S|W|A|B|C) ;; *) echo "$0: CORPUS_NPB_CLASS must be one of S W A B C, not '$CORPUS_NPB_CLASS'" >&2; exit 2 ;; esac
  for c in npb-cg npb-ft npb-mg npb-lu npb-bt npb-sp; do NPB_CLASS[$c]=$CORPUS_NPB_CLASS; done
fi
ALL_CODES=(hpcg lulesh minife comd amg miniamr)

# factor3 NP: "PX PY PZ" with PX >= PY >= PZ, as close to a cube as the factors allow.
factor3() {
  local n=$1 px=1 py=1 pz=1 f
  for f in $(factor "$n" | cut -d: -f2); do
    if [ "$px" -le "$py" ] && [ "$px" -le "$pz" ]; then px=$((px * f))
    elif [ "$py" -le "$pz" ]; then py=$((py * f))
    else pz=$((pz * f)); fi
  done
  printf '%s\n' "$px $py $pz" | tr ' ' '\n' | sort -rn | tr '\n' ' '
}

# args_CODE NP: the command-line arguments of one run (small inputs, weak scaling where the code
# has a per-rank size; each code's own rule on the rank count is checked here).
args_hpcg() { echo "--nx=16 --ny=16 --nz=16 --rt=0"; } # rt=0: the quick path, a fixed number of iterations
args_lulesh() {
  local c; c=$(awk -v n="$1" 'BEGIN { c = int(n ^ (1/3) + 0.5); print (c*c*c == n) ? c : 0 }')
  [ "$c" -gt 0 ] || { echo "lulesh needs a cube rank count, not $1" >&2; return 1; }
  echo "-s 8 -i 30 -q"
}
args_minife() { echo "-nx 40 -ny 40 -nz 40"; }
args_comd() {
  local p; read -r -a p <<<"$(factor3 "$1")"
  echo "-i ${p[0]} -j ${p[1]} -k ${p[2]} -x $((6 * p[0])) -y $((6 * p[1])) -z $((6 * p[2])) -N 20 -n 10"
}
args_amg() {
  local p; read -r -a p <<<"$(factor3 "$1")"
  echo "-P ${p[0]} ${p[1]} ${p[2]} -n 12 12 12"
}
args_miniamr() {
  local p; read -r -a p <<<"$(factor3 "$1")"
  echo "--npx ${p[0]} --npy ${p[1]} --npz ${p[2]} --nx 8 --ny 8 --nz 8 --num_tsteps 10" \
       "--stages_per_ts 5 --checksum_freq 5 --num_refine 2 --refine_freq 5 --max_blocks 400" \
       "--num_objects 1 --object 2 0 -1.1 -1.1 -1.1 0.5 0.5 0.5 1.5 1.5 1.5 0.0 0.0 0.0"
}
# miniAMR on a uniform mesh: no refinement, so no blocks move between ranks (its load balancing is data); one block a
# rank, room for a few (--max_blocks 400 would take 128 MB a rank: 64 GB at 512 ranks)
args_miniamr-uniform() { echo "$(args_miniamr "$1") --num_refine 0 --max_blocks 8"; }
args_cloverleaf() { echo ""; } # it reads clover.in in its folder (prepare_cloverleaf)
# prepare_CODE DIR NP (when defined): writes what the run reads into its folder before it starts
prepare_cloverleaf() { # a 480 x 480 mesh (strong scaling), 20 steps: CloverLeaf's own clover.in, smaller
  cat >"$1/clover.in" <<'EOF'
*clover
 state 1 density=0.2 energy 1.0
 state 2 density=1.0 energy=2.5 geometry=rectangle xmin=0.0 xmax=5.0 ymin=0.0 ymax=2.0
 x_cells=480
 y_cells=480
 xmin=0.0
 ymin=0.0
 xmax=10.0
 ymax=10.0
 initial_timestep=0.04
 timestep_rise=1.5
 max_timestep=0.04
 end_step=20
 test_problem 2
*endclover
EOF
}
args_tealeaf() { echo ""; } # it reads tea.in in its folder (prepare_tealeaf)
prepare_tealeaf() { # its own deck (test problem 4) on a 240 x 240 mesh (strong scaling), 4 steps, the CG solver
  cat >"$1/tea.in" <<'EOF'
*tea
state 1 density=100.0 energy=0.0001
state 2 density=0.1 energy=25.0 geometry=rectangle xmin=0.0 xmax=1.0 ymin=1.0 ymax=2.0
state 3 density=0.1 energy=0.1 geometry=rectangle xmin=1.0 xmax=6.0 ymin=1.0 ymax=2.0
state 4 density=0.1 energy=0.1 geometry=rectangle xmin=5.0 xmax=6.0 ymin=1.0 ymax=8.0
state 5 density=0.1 energy=0.1 geometry=rectangle xmin=5.0 xmax=10.0 ymin=7.0 ymax=8.0
x_cells=240
y_cells=240
xmin=0.0
ymin=0.0
xmax=10.0
ymax=10.0
initial_timestep=0.004
end_step=4
tl_max_iters=10000
test_problem 4
tl_use_cg
tl_eps=1.0e-10
tl_preconditioner_type=none
halo_depth=2
*endtea
EOF
}
args_nas-ep() { echo "$1 S"; } # SimGrid's NAS versions take the rank count and the class
args_nas-is() {
  (( $1 > 0 && ($1 & ($1 - 1)) == 0 )) || { echo "nas-is needs a power of two ranks, not $1" >&2; return 1; }
  echo "$1 S"
}
pow2() { (( $1 > 0 && ($1 & ($1 - 1)) == 0 )) || { echo "$2 needs a power of two ranks, not $1" >&2; return 1; }; }
args_npb-cg() { pow2 "$1" npb-cg; } # NPB 3.3-MPI's programs take no arguments: class and ranks are compiled in
args_npb-ft() { pow2 "$1" npb-ft; }
args_npb-mg() { pow2 "$1" npb-mg; }
args_npb-lu() { pow2 "$1" npb-lu; }
square() {
  local c; c=$(awk -v n="$1" 'BEGIN { c = int(sqrt(n) + 0.5); print (c*c == n) ? c : 0 }')
  [ "$c" -gt 0 ] || { echo "$2 needs a square rank count, not $1" >&2; return 1; }
}
args_npb-bt() { square "$1" npb-bt; }
args_npb-sp() { square "$1" npb-sp; }

# --- builds ------------------------------------------------------------------------------------
if [ "$kind" = smpi ]; then CC=smpicc; CXX=smpicxx; FC=smpiff; else CC=mpicc; CXX=mpicxx; FC=mpif90; fi

# build_CODE DIR BIN: compile the checked-out sources of DIR into BIN.
build_hpcg() {
  (cd "$1/src" && $CXX -O2 -DHPCG_NO_OPENMP -I. -o "$2" ./*.cpp)
}
build_lulesh() {
  (cd "$1" && $CXX -O2 -DUSE_MPI=1 -I. -o "$2" lulesh.cc lulesh-comm.cc lulesh-init.cc \
     lulesh-util.cc lulesh-viz.cc -lm)
}
build_minife() {
  local d=$1/ref/src
  # miniFE's make_targets writes miniFE_info.hpp from the compiler and machine; a fixed one here.
  cat >"$d/miniFE_info.hpp" <<'EOF'
#ifndef miniFE_info_hpp
#define miniFE_info_hpp
#define MINIFE_HOSTNAME "corpus"
#define MINIFE_KERNEL_NAME "'Linux'"
#define MINIFE_KERNEL_RELEASE "'corpus'"
#define MINIFE_PROCESSOR "'x86_64'"
#define MINIFE_CXX "'mpicxx'"
#define MINIFE_CXX_VERSION "'corpus'"
#define MINIFE_CXXFLAGS "'-O2'"
#endif
EOF
  (cd "$d" && $CXX -O2 -I. -I../utils -I../fem -DMINIFE_SCALAR=double -DMINIFE_LOCAL_ORDINAL=int \
     -DMINIFE_GLOBAL_ORDINAL=int -DMINIFE_CSR_MATRIX -DHAVE_MPI -DMPICH_IGNORE_CXX_SEEK \
     -o "$2" main.cpp ../utils/*.cpp ./YAML_Doc.cpp ./YAML_Element.cpp)
}
build_comd() {
  local d=$1/src-mpi
  cat >"$d/CoMD_info.h" <<'EOF'
#ifndef CoMD_info_hpp
#define CoMD_info_hpp
#define CoMD_VARIANT "CoMD-mpi"
#define CoMD_HOSTNAME "corpus"
#define CoMD_KERNEL_NAME "'Linux'"
#define CoMD_KERNEL_RELEASE "'corpus'"
#define CoMD_PROCESSOR "'x86_64'"
#define CoMD_COMPILER "'mpicc'"
#define CoMD_COMPILER_VERSION "'corpus'"
#define CoMD_CFLAGS "'-std=c99 -DDOUBLE -DDO_MPI -O2'"
#define CoMD_LDFLAGS "'-lm'"
#endif
EOF
  (cd "$d" && $CC -std=gnu99 -O2 -DDOUBLE -DDO_MPI -I. -o "$2" ./*.c -lm)
}
build_amg() {
  # AMG's own Makefiles, without OpenMP nor persistent communication (plain MPI); one job.
  (cd "$1" && make -s clean >/dev/null 2>&1
   make -s CC="$CC" LD="$CC" \
     INCLUDE_CFLAGS="-O2 -DTIMER_USE_MPI -DHYPRE_HOPSCOTCH -DHYPRE_BIGINT" \
     INCLUDE_LFLAGS="-lm" && cp test/amg "$2")
}
build_miniamr-uniform() { build_miniamr "$@"; }
build_miniamr() {
  (cd "$1/ref" && rm -f ./*.o && make -s CC="$CC" LD="$CC" CFLAGS="-O2" && cp miniAMR.x "$2")
}
build_cloverleaf() { # its Makefile's GNU flags, without OpenMP
  (cd "$1" && make -s COMPILER=GNU MPI_COMPILER="$FC" C_MPI_COMPILER="$CC" OMP_GNU= && cp clover_leaf "$2")
}
build_tealeaf() { # its Makefile's GNU flags, without OpenMP, gfortran's leniency for its MPI calls
  (cd "$1" && make -s COMPILER=GNU MPI_COMPILER="$FC" C_MPI_COMPILER="$CC" OMP_GNU= \
     FLAGS_GNU="-O2 -cpp -ffree-line-length-none -fallow-argument-mismatch -w" CFLAGS_GNU="-O2" && cp tea_leaf "$2")
}
# SimGrid's NAS examples include SMPI's own mpi.h and call SimGrid's TRACE_smpi_set_category: for Open MPI's mpicc
# (our tracer) the checked-out copy includes <mpi.h> instead and leaves those calls out.
nas_for_mpicc() {
  [ "$kind" = smpi ] && return 0
  sed -i -e 's|#include "smpi/mpi.h"|#include <mpi.h>|' -e '/#include "simgrid\/instr.h"/d' \
    -e 's|TRACE_smpi_set_category *(.*);||' "$@"
}
build_nas-ep() { (cd "$1" && nas_for_mpicc ep.c && $CC -O2 -o "$2" ep.c nas_common.c -lm); }
build_nas-is() { (cd "$1" && nas_for_mpicc is.c && $CC -O2 -o "$2" is.c nas_common.c -lm); }
# NPB 3.3-MPI: make.def for smpiff/smpicc (or Open MPI's wrappers), gfortran's leniency for its Fortran 77; the
# programs themselves are made per rank count (bin_of), BIN marks the configured tree.
build_npb() {
  printf '%s\n' "MPIF77 = $FC" 'FLINK = $(MPIF77)' "FFLAGS = -O2 -fallow-argument-mismatch -fallow-invalid-boz -w" \
    "FLINKFLAGS = -O2" "MPICC = $CC" 'CLINK = $(MPICC)' "CFLAGS = -O2 -w" "CLINKFLAGS = -O2" "CC = cc -g" \
    "BINDIR = ../bin" "RAND = randi8" >"$1/config/make.def"
  mkdir -p "$1/bin" && printf '#!/bin/sh\necho "made per rank count: bin_of in corpus.sh" >&2; exit 2\n' >"$2" &&
    chmod +x "$2"
}
build_npb-cg() { build_npb "$@"; }
build_npb-ft() { build_npb "$@"; }
build_npb-mg() { build_npb "$@"; }
build_npb-lu() { build_npb "$@"; }
build_npb-bt() { build_npb "$@"; }
build_npb-sp() { build_npb "$@"; }

# bin_of CODE NP: the program to run (NPB's, made for NP ranks on first use).
bin_of() {
  case $1 in
    npb-*)
      local b=${1#npb-} dir=$src/$kind/$1 class=${NPB_CLASS[$1]:-S}
      if [ ! -x "$dir/bin/$b.$class.$2" ]; then
        (cd "$dir" && make "${b^^}" NPROCS="$2" CLASS="$class") >>"$out/$kind/logs/build-$1.log" 2>&1 ||
          { echo "$1: make for $2 ranks failed, see $out/$kind/logs/build-$1.log" >&2; return 1; }
      fi
      echo "$dir/bin/$b.$class.$2" ;;
    *) echo "$out/$kind/bin/$1" ;;
  esac
}

# checkout CODE: the sources of CODE at its pinned commit in $src/KIND/CODE (fresh each time:
# the builds write files next to the sources).
checkout() {
  local c=$1 git_dir="$mirror/${REPO[$1]}/repo" dest="$src/$kind/$1"
  [ -d "$git_dir" ] || git_dir="$mirror/${REPO[$1]}"
  if ! git --git-dir="$git_dir" cat-file -e "${COMMIT[$c]}^{commit}" 2>/dev/null; then
    echo "$0: $c: commit ${COMMIT[$c]} not in $git_dir (fetch github:${REPO[$c]/+//} first)" >&2
    return 1
  fi
  rm -rf "$dest" && mkdir -p "$dest"
  git --git-dir="$git_dir" archive "${COMMIT[$c]}${SUBDIR[$c]:+:${SUBDIR[$c]}}" | tar -x -C "$dest"
}

# --- runs ----------------------------------------------------------------------------------------
platform=$here/cluster-128.xml
hosts=$out/cluster-128.hosts
lib=${CORPUS_TRACER_LIB:-$root/build/lib/libtit-trace.so}

# complete NAME LIST DIR NP LOG: whether the trace LIST (its files relative to DIR when not absolute) has NP files,
# each with a `finalize` line; else says which rank stopped before MPI_Finalize (a program that aborted under SMPI,
# whose online time is printed all the same: CloverLeaf's and TeaLeaf's ranks, threads of one process there, share
# gfortran's file units and cannot read their input).
complete() {
  local name=$1 list=$2 dir=$3 np=$4 log=$5 n=0 f
  while IFS= read -r f; do
    [ -n "$f" ] || continue
    [ "${f#/}" != "$f" ] || f=$dir/$f
    if ! grep -q '^[0-9]* finalize' "$f" 2>/dev/null; then
      echo "$name: rank $n's trace ($f) has no finalize: the run stopped before MPI_Finalize, see $log" >&2
      return 1
    fi
    n=$((n + 1))
  done <"$list"
  [ "$n" -eq "$np" ] || { echo "$name: $n trace files for $np ranks, see $log" >&2; return 1; }
}

# run_one CODE NP: trace one run; prints "CODE NP TIME" (SMPI) or "CODE NP -" (tracer).
run_one() {
  local c=$1 np=$2 name="$1-np$2" args log prog
  args=$("args_$c" "$np") || return 1
  args="$args ${CORPUS_EXTRA_ARGS:-}"
  prog=$(bin_of "$c" "$np") || return 1
  log=$out/$kind/logs/run-$name.log
  local dir=$out/$kind/traces/$name
  rm -rf "$dir" && mkdir -p "$dir"
  if declare -F "prepare_$c" >/dev/null; then "prepare_$c" "$dir" "$np"; fi
  if [ "$kind" = smpi ]; then
    # shellcheck disable=SC2086 # args holds several words on purpose
    (cd "$dir" && timeout 3600 smpirun -trace-ti --cfg=tracing/filename:"$dir/$name.trace" \
        -np "$np" -platform "$platform" -hostfile "$hosts" \
        --cfg=smpi/host-speed:1Gf --cfg=smpi/display-timing:yes --cfg=smpi/privatization:dlopen \
        --log=smpi_utils.fmt:'%.15d%e%m%n' --log=xbt_cfg.thres:warning \
        "$prog" $args) >"$log" 2>&1 || { echo "$name: run failed, see $log" >&2; return 1; }
    local t; t=$(sed -n 's/^\([0-9.eE+-]*\) Simulated time: .*/\1/p' "$log" | tail -n 1)
    [ -n "$t" ] && [ -s "$dir/$name.trace" ] || { echo "$name: no time or no trace, see $log" >&2; return 1; }
    complete "$name" "$dir/$name.trace" "$dir" "$np" "$log" || return 1
    printf '%s\t%s\t%s\n' "$c" "$np" "$t"
  else
    [ -r "$lib" ] || { echo "$0: $lib missing (build the tracer, or set CORPUS_TRACER_LIB)" >&2; return 1; }
    local rc=0
    # shellcheck disable=SC2086
    (cd "$dir" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 TIT_TRACE_DIR="$dir" \
       TIT_TRACE_COMPUTE=${TIT_TRACE_COMPUTE:-cpu-time} TIT_TRACE_MIN_BURST=${TIT_TRACE_MIN_BURST:-1e-6} \
       timeout 3600 mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$lib" -x TIT_TRACE_DIR -x TIT_TRACE_COMPUTE \
       -x TIT_TRACE_MIN_BURST "$prog" $args) >"$log" 2>&1 || rc=$?
    [ -s "$dir/trace.list" ] || { echo "$name: run failed (exit $rc), no trace.list, see $log" >&2; return 1; }
    complete "$name" "$dir/trace.list" "$dir" "$np" "$log" || { echo "$name: run failed (exit $rc)" >&2; return 1; }
    # at 512 ranks on 2 cores mpirun has reported a rank as "exiting improperly" after every rank had written its
    # finalize (miniFE, miniAMR): the trace is whole, said here
    [ "$rc" -eq 0 ] || echo "$name: mpirun exited with $rc, after every rank's trace reached its finalize (kept); see $log" >&2
    printf '%s\t%s\t-\n' "$c" "$np"
  fi
}

# merge_online: the line of online.new into online.tsv, replacing an earlier run's line of the same case.
merge_online() {
  touch "$out/$kind/online.tsv"
  awk -F'\t' 'NR == FNR { seen[$1 FS $2] = 1; print; next } !(($1 FS $2) in seen)' \
    "$out/$kind/online.new" "$out/$kind/online.tsv" | sort -k1,1 -k2,2n >"$out/$kind/online.tmp"
  mv "$out/$kind/online.tmp" "$out/$kind/online.tsv"
  rm -f "$out/$kind/online.new"
}

# --- main ----------------------------------------------------------------------------------------
# (one function, called on the last line: bash has read the whole script before it runs, so that the script
# can be edited while a long run goes on)
main() {
  [ $# -gt 0 ] || set -- "${ALL_CODES[@]}"
  mkdir -p "$out/$kind/bin" "$out/$kind/traces" "$out/$kind/logs"
  for i in $(seq 0 127); do echo "c$i"; done >"$hosts"
  failed=()
  for spec in "$@"; do
    c=${spec%%:*}
    [ -n "${REPO[$c]:-}" ] || { echo "$0: unknown code '$c' (${ALL_CODES[*]})" >&2; exit 2; }
    nps=${NPS[$c]}
    [ "$spec" = "$c" ] || nps=${spec#*:}; nps=${nps//,/ }
    blog=$out/$kind/logs/build-$c.log
    if [ ! -x "$out/$kind/bin/$c" ] || [ -n "${CORPUS_REBUILD:-}" ]; then
      echo "== $c: checkout ${COMMIT[$c]:0:12}, build with $CC/$CXX" >&2
      if ! checkout "$c" >"$blog" 2>&1 || ! "build_$c" "$src/$kind/$c" "$out/$kind/bin/$c" >>"$blog" 2>&1; then
        echo "$c: build failed, see $blog" >&2
        tail -n 5 "$blog" >&2
        failed+=("$c:build")
        continue
      fi
    fi
    for np in $nps; do
      echo "== $c at $np ranks" >&2
      if run_one "$c" "$np" >"$out/$kind/online.new"; then merge_online; else failed+=("$c:$np"); fi
    done
  done
  if [ ${#failed[@]} -gt 0 ]; then
    echo "$0: failed: ${failed[*]}" >&2
    exit 1
  fi
  echo "$0: all cases traced; see $out/$kind" >&2
}

if [ "$list" = 1 ]; then
  printf '%s\n' "${ALL_CODES[@]}"
  exit 0
fi
if [ "$print_args" = 1 ]; then
  [ $# -eq 2 ] && [ -n "${REPO[$1]:-}" ] && [[ $2 =~ ^[1-9][0-9]*$ ]] ||
    { echo "$0: -a needs a code (${ALL_CODES[*]}) and a rank count, got '$*'" >&2; exit 2; }
  "args_$1" "$2" || exit 2
  exit 0
fi
main "$@"; exit $?
