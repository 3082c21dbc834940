#!/usr/bin/env bash
# Every algorithm of one collective (as `tit-replay --help` lists them), forced with --cfg=coll/C:A, replayed
# on an ideal platform and compared with a time computed by hand from the algorithm's message schedule.
#
# Usage: algorithms.sh BUILD_DIR COLLECTIVE     run the cases of COLLECTIVE (all must pass, all algorithms covered)
#        algorithms.sh BUILD_DIR --table        print the table of every case (tests/e2e/README.md)
#        algorithms.sh BUILD_DIR --readme       check that README.md's table is that one
#        algorithms.sh BUILD_DIR --reference [COLLECTIVE]
#                                               compare the hand-computed times with SimGrid's own replayer
#                                               (smpirun -replay, ../differential/reference.sh) instead
#
# Two platforms (data/lat8.xml, data/bw8.xml: 8 hosts on a crossbar, one full-duplex link each), with IDEAL
# options that remove SMPI's size factors, cross traffic and the TCP window:
#  - lat: latency only. Node to node 1 s, 1e12 B/s: a message of 8 payload bytes (+ the 16-byte envelope)
#    takes 1 s + 5e-11 s. Times are counted in sequential message rounds; compared to 1e-6 (relative),
#    which absorbs the nanoseconds of bytes but not one missing or extra round.
#  - bw: bandwidth only. 1000 B/s, no latency: a lone message of S payload bytes takes (S + 16) / 1000 s;
#    blocks of 984 bytes make 1 s messages. Messages leaving one host share its up link, messages entering
#    one host its down link, max-min fair (two at once: 500 B/s each). Compared to 1e-9.
# Rules of the point-to-point layer that the derivations use (reference-semantics.md):
#  - below 65536 payload bytes a send is detached: the sender goes on at once (a wait on it returns at once),
#    but the transfer starts only when the receiver has posted the matching receive. So a rank that
#    receives k messages from one sender with k blocking receives in a row takes k rounds, even when they
#    were all sent at time 0; receives posted together (irecv, sendrecv) take one round.
#  - a sendrecv posts an isend and an irecv and waits for both: ranks in lockstep need one round per step;
#    in general rank r finishes a step at max(its start, the partner's start) + 1 (lat).
#  - a rank of the lat model that finishes at T(r) is written T = [T(0), T(1), ...].
# Every case is (collective, algorithm, ranks, platform, trace line, expected time as a formula of p, the
# number of ranks). Refusals (an algorithm that needs other communicator sizes) are cases too.
set -u
build=$1
what=$2
here=$(cd "$(dirname "$0")" && pwd)
d=$here/data
bin=$build/bin/tit-replay
IDEAL=(--cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1 --cfg=network/crosstraffic:0 --cfg=network/TCP-gamma:1e12)
read -r -a extra <<< "${TIT_E2E_ARGS:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
cases=0
declare -A covered=()

# per_rank TEMPLATE V0 V1 ...: TEMPLATE with @ replaced by Vr for rank r, joined by ';'.
per_rank() { local t=$1 out="" v; shift; for v in "$@"; do out+="${t//@/$v};"; done; echo "${out%;}"; }
vec() { local n=$1 v=$2 out="" i; for ((i = 0; i < n; i++)); do out+="$v "; done; echo "${out% }"; }

# The trace of NP ranks running ACTION: one line for all, or one per rank separated by ';'.
write_trace() {
  local np=$1 action=$2 r line
  local -a lines
  IFS=';' read -r -a lines <<< "$action"
  for ((r = 0; r < np; r++)); do
    line=${lines[0]}
    [ "${#lines[@]}" -gt 1 ] && line=${lines[$r]}
    printf '%d init\n%d %s\n%d finalize\n' $r $r "$line" $r
  done > "$work/trace"
}

# check COLL ALGO NP PLATFORM ACTION FORMULA: replay ACTION (one trace line, the same on every rank) on NP
# ranks with coll/COLL:ALGO and compare the simulated time with FORMULA (an awk expression of p).
check() {
  local coll=$1 algo=$2 np=$3 plat=$4 action=$5 formula=$6
  local expected tol got status r
  covered[$coll:$algo]=1
  expected=$(awk -v p="$np" "BEGIN { printf \"%.10g\", $formula }")
  if [ "$what" = --table ]; then
    printf '| %s | %s | %s | %s | `%s` | `%s` | %s |\n' "$coll" "$algo" "$np" "$plat" "$action" "$formula" "$expected"
    return
  fi
  if [ "$what" = --reference ]; then
    [ -z "$only" ] || [ "$coll" = "$only" ] || return
    reference_check "$coll" "$algo" "$np" "$plat" "$action" "$formula" "$expected"
    return
  fi
  [ "$coll" = "$what" ] || return
  cases=$((cases + 1))
  tol=1e-9
  [ "$plat" = lat ] && tol=1e-6
  write_trace "$np" "$action"
  "$bin" "${extra[@]}" "${IDEAL[@]}" "--cfg=coll/$coll:$algo" --hostfile "$d/cluster8.hosts" "$d/${plat}8.xml" \
    "$work/trace" > "$work/out" 2> "$work/err"
  status=$?
  got=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$work/out")
  if [ "$status" -ne 0 ] || [ -z "$got" ]; then
    echo "FAIL coll/$coll:$algo np=$np $plat: exit $status"; cat "$work/err"; failures=$((failures + 1)); return
  fi
  if awk -v g="$got" -v e="$expected" -v t="$tol" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= t * e + 1e-12) }'; then
    echo "ok   coll/$coll:$algo np=$np $plat: $got s (expected $formula = $expected)"
  else
    echo "FAIL coll/$coll:$algo np=$np $plat: simulated $got s, expected $formula = $expected"; failures=$((failures + 1))
  fi
}

# SimGrid's option and algorithm names for ours: the default set's algorithms are SimGrid's "default"; the
# collectives without an option (gatherv, scatterv, scan, exscan) only have it.
sg_option() {
  case $1 in
    barrier | bcast | reduce | allreduce | gather | scatter | allgather | allgatherv | alltoall | alltoallv) echo "smpi/$1" ;;
    reducescatter) echo smpi/reduce_scatter ;;
  esac
}
sg_algorithm() {
  case $1:$2 in
    *:linear | *:smpi | allreduce:reduce_bcast | reducescatter:reduce_scatterv | bcast:binomial) echo default ;;
    alltoall:pairwise) echo pair ;;
    reducescatter:pair) echo mpich_pair ;;
    reducescatter:recursive_doubling) echo mpich_rdb ;;
    *) echo "$2" ;;
  esac
}

# SMPI's online simulated time of data/one-collective.c running COLL on COUNT bytes from root 0 (in $online).
online_time() {
  local coll=$1 count=$2 np=$3 plat=$4
  shift 4
  if [ ! -x "$work/one-collective" ]; then
    smpicc -O1 "$d/one-collective.c" -o "$work/one-collective" > "$work/err" 2>&1 || return 1
  fi
  online=$( (cd "$work" && timeout 60 smpirun -np "$np" -platform "$d/${plat}8.xml" -hostfile "$d/cluster8.hosts" \
             "${IDEAL[@]}" "$@" --cfg=smpi/simulate-computation:no --cfg=smpi/display-timing:yes \
             --log=smpi_utils.fmt:'%.15d%e%m%n' ./one-collective "$coll" "$count") 2>&1 |
            sed -n 's/^\([0-9.eE+-]*\) Simulated time: .*/\1/p' | tail -n 1)
  [ -n "$online" ]
}

# The same case replayed by SimGrid's replayer with its algorithm of that name (smpi/C:A), compared with the
# hand-computed time; where that replay aborts (init_smp), with SMPI's online run of data/one-collective.c.
# Prints ref-ok, ref-FAIL or ref-n/a (SimGrid cannot run it: no such option or algorithm, or it aborts).
reference_check() {
  local coll=$1 algo=$2 np=$3 plat=$4 action=$5 formula=$6 expected=$7 option tol got cfg=()
  option=$(sg_option "$coll")
  if [ -n "$option" ]; then
    cfg=("--cfg=$option:$(sg_algorithm "$coll" "$algo")")
  elif [ "$algo" != linear ]; then
    echo "ref-n/a coll/$coll:$algo np=$np $plat: SimGrid has no option for $coll"; return
  fi
  tol=1e-9
  [ "$plat" = lat ] && tol=1e-6
  write_trace "$np" "$action"
  echo "$work/trace" > "$work/list"
  if ! got=$(timeout 60 "$here/../differential/reference.sh" "$work/list" "$np" "$d/${plat}8.xml" "$d/cluster8.hosts" \
               "${IDEAL[@]}" "${cfg[@]}" 2> "$work/err"); then
    # SimGrid's replayer aborts in init_smp (SMP-aware algorithms): SMPI's online run of the same collective
    if [[ $coll =~ ^(bcast|reduce|allreduce)$ ]] && [[ $action =~ ^$coll\ ([0-9]+)(\ [0-9]+)?\ 0\ 6$ ]] &&
       online_time "$coll" "${BASH_REMATCH[1]}" "$np" "$plat" "${cfg[@]}"; then
      got=$online
      plat="$plat (SMPI online)"
    else
      echo "ref-n/a coll/$coll:$algo np=$np $plat: the reference failed: $(grep -m1 -iE 'error|abort|assert|exception' "$work/err")"
      return
    fi
  fi
  if awk -v g="$got" -v e="$expected" -v t="$tol" 'BEGIN { d = g - e; if (d < 0) d = -d; exit !(d <= t * e + 1e-12) }'; then
    echo "ref-ok   coll/$coll:$algo np=$np $plat: $got s (expected $formula = $expected)"
  else
    echo "ref-FAIL coll/$coll:$algo np=$np $plat: SimGrid $got s, expected $formula = $expected"
  fi
}

# refuse COLL ALGO NP ACTION MESSAGE: the algorithm refuses NP ranks with exit code 2 and MESSAGE.
refuse() {
  local coll=$1 algo=$2 np=$3 action=$4 message=$5 status r
  covered[$coll:$algo]=1
  [ "$what" = --reference ] && return
  if [ "$what" = --table ]; then
    printf '| %s | %s | %s | - | `%s` | refused: %s | - |\n' "$coll" "$algo" "$np" "$action" "$message"
    return
  fi
  [ "$coll" = "$what" ] || return
  cases=$((cases + 1))
  write_trace "$np" "$action"
  "$bin" "${extra[@]}" "${IDEAL[@]}" "--cfg=coll/$coll:$algo" --hostfile "$d/cluster8.hosts" "$d/lat8.xml" \
    "$work/trace" > "$work/out" 2> "$work/err"
  status=$?
  if [ "$status" -eq 2 ] && grep -qF -- "$message" "$work/err" && ! grep -q "Simulated time" "$work/out"; then
    echo "ok   coll/$coll:$algo np=$np refused: $message"
  else
    echo "FAIL coll/$coll:$algo np=$np: exit $status, expected 2 and '$message'"; cat "$work/err"
    failures=$((failures + 1))
  fi
}

# SMPI's init_smp (run by the first SMP-aware collective: mvapich2_knomial_intra_node, SMP_binomial, mpich
# bcast/reduce/allreduce, mvapich2_two_level), one rank per host, lat model: a ring allgather over all ranks
# (p-1 rounds), the same over the host leaders (every rank: p-1 rounds), a bcast within each host (one rank:
# nothing), then the default allreduce of one int: linear reduce to 0 (1 round; the others' isends are
# detached, they go on at once) and binomial bcast from 0 (rank r: popcount(r) rounds). Rank 0 ends it at
# 2(p-1)+1, rank r at 2(p-1)+1+popcount(r): p=4: T = [7, 8, 8, 9]; p=5: T = [9, 10, 10, 11, 10].

L8="8 0 6" # lat model: 8 bytes (datatype 6: byte), root 0

barrier_cases() {
  # linear: non-roots send to 0 then receive; 0 receives all together (1), then isends to all (1).
  check barrier linear 4 lat barrier 2
  check barrier linear 5 lat barrier 2
  # bw: 0 receives p-1 envelopes (16 B) sharing its down link, then sends p-1 sharing its up link.
  check barrier linear 4 bw barrier "2*(p-1)*0.016"
  check barrier linear 5 bw barrier "2*(p-1)*0.016"
  # ompi decision: 4 <= p < 8 -> linear.
  check barrier ompi 4 lat barrier 2
  check barrier ompi 5 lat barrier 2
  # recursive doubling: p=4: log2 p sendrecv steps. p=5: rank 4 sendrecvs with 0, which only receives (0 at 1);
  # steps 0-1 (2), 2-3 (1); 0-2 and 1-3 (3); 0 sends to 4, whose receive of its sendrecv completes at 4.
  check barrier ompi_recursivedoubling 4 lat barrier 2
  check barrier ompi_recursivedoubling 5 lat barrier 4
  # dissemination: ceil(log2 p) lockstep sendrecvs.
  check barrier ompi_bruck 4 lat barrier 2
  check barrier ompi_bruck 5 lat barrier 3
  check barrier mpich 4 lat barrier 2
  check barrier mpich 5 lat barrier 3
  # two procs: one sendrecv; other sizes refused.
  check barrier ompi_two_procs 2 lat barrier 1
  refuse barrier ompi_two_procs 4 barrier "the barrier ompi_two_procs algorithm needs exactly 2 ranks, not 4"
  refuse barrier ompi_two_procs 5 barrier "the barrier ompi_two_procs algorithm needs exactly 2 ranks, not 5"
  # tree, p=4: fan-in 1->0, 3->2 (1), 2->0 (2); fan-out 0->2, 0->1 (3), 2->3 (4).
  # p=5: 0 receives from 1 (1), from 2 (2, 2 got 3's at 1), from 4 (3: blocking receives in a row); fan-out
  # 0->4, 0->2, 0->1 (4), 2->3 (5).
  check barrier ompi_tree 4 lat barrier 4
  check barrier ompi_tree 5 lat barrier 5
}

bcast_cases() {
  # binomial: detached sends, so a parent sends to all its children at once: rank r gets the data after
  # popcount(r) hops (not ceil(log2 p)): max popcount = 2 for p = 4 and 5.
  check bcast binomial 4 lat "bcast $L8" 2
  check bcast binomial 5 lat "bcast $L8" 2
  # bw, 984 B (1000 B on the wire): p=4: 0 sends to 2 and 1 at once, sharing its link (2 s), then 2->3 (1 s).
  # p=5: 0 sends to 4, 2, 1 at once (3 s), then 2->3 (1 s).
  check bcast binomial 4 bw "bcast 984 0 6" 3
  check bcast binomial 5 bw "bcast 984 0 6" 4
  # root 2, p=5: relative ranks; 2 sends to 1 (rel 4), 4 (rel 2), 3 (rel 1) at once (3 s), then 4->0 (1 s).
  check bcast binomial 5 bw "bcast 984 2 6" 4
  check bcast binomial_tree 4 lat "bcast $L8" 2
  check bcast binomial_tree 5 lat "bcast $L8" 2
  # ompi decision, 8 B: 4 <= p < 8 and below 64 B -> binary tree (NTSB).
  check bcast ompi 4 lat "bcast $L8" 2
  check bcast ompi 5 lat "bcast $L8" 2
  # NTSB, one segment or less: blocking calls down the heap 0 -> {1, 2}, 1 -> {3, 4}: depth 2.
  check bcast NTSB 4 lat "bcast $L8" 2
  check bcast NTSB 5 lat "bcast $L8" 2
  # NTSB, 16384 B = 2 segments of 8192: every receive posted at once, segments forwarded as they arrive: depth 2.
  check bcast NTSB 5 lat "bcast 16384 0 6" 2
  # NTSB with root 3: first 3 -> 0 (1 round), then depth 2.
  check bcast NTSB 5 lat "bcast 8 3 6" 3
  # NTSL: the chain 0 -> 1 -> ... -> p-1, one hop per round (one segment, and 2 segments posted at once).
  check bcast NTSL 4 lat "bcast $L8" "p-1"
  check bcast NTSL 5 lat "bcast $L8" "p-1"
  check bcast NTSL 5 lat "bcast 16384 0 6" "p-1"
  # bw, 16384 B = 2 segments of 8192 B (8208 B on the wire, detached): each rank sends both segments at once
  # as soon as it has them; they share its link: 2 x 8.208 s per hop, p-1 hops.
  check bcast NTSL 4 bw "bcast 16384 0 6" "(p-1)*2*8.208"
  # ompi_pipeline: chain from the root, one segment (8 B): p-1 hops.
  check bcast ompi_pipeline 4 lat "bcast $L8" "p-1"
  check bcast ompi_pipeline 5 lat "bcast $L8" "p-1"
  # bw, 16384 B: p < 3.2118e-6 x 16384 + 8.7936 -> 16 KiB segments: one segment of 16400 B per hop.
  check bcast ompi_pipeline 4 bw "bcast 16384 0 6" "(p-1)*16.4"
  # split_bintree, 4096 B: halves of 2048 B in 2 segments of 1024, binary tree 0 -> {1, 2}, 1 -> {3}, 2 -> {4}.
  # The root sends all 4 segments at once (detached). p=4: 1 and 2 have both segments at 1 (posted together);
  # 1 forwards both to 3 at 1, 2 (a leaf) receives them one by one (1, 2). Even p: the root sends the second
  # half to the last rank 3, which receives its two segments one by one (2, 3) then that half (4); 1 and 2
  # swap halves (sendrecv at max(1, 2) + 1 = 3). p=5: 1 and 2 forward to 3 and 4 at 1; 3 and 4 receive their
  # segments at 2 and 3, then swap (4); 1 and 2 swap at 2.
  check bcast ompi_split_bintree 4 lat "bcast 4096 0 6" 4
  check bcast ompi_split_bintree 5 lat "bcast 4096 0 6" 4
  # below 2 segments per half SimGrid calls its SMP linear bcast, which tit-replay does not have: binomial.
  check bcast ompi_split_bintree 5 lat "bcast $L8" 2
  # mvapich2_knomial_intra_node: init_smp (T above), then a 4-nomial tree: the root isends to 1, 2, 3 (and 4)
  # at T(0); the last receive is posted by rank 3 at T(3): 2(p-1)+3, done one round later.
  check bcast mvapich2_knomial_intra_node 4 lat "bcast $L8" "2*(p-1)+4"
  check bcast mvapich2_knomial_intra_node 5 lat "bcast $L8" "2*(p-1)+4"
  # SMP_binomial: init_smp, then (one rank per host) the binomial tree over the leaders from T(0):
  # p=4: 0 -> 2 at 7, received at max(7, 8) + 1 = 9; 2 -> 3 at 9, received at max(9, 9) + 1 = 10.
  # p=5: 0 -> 4, 2, 1 at 9, received at 11; 2 -> 3 at 11, 3 posted at 11: 12.
  check bcast SMP_binomial 4 lat "bcast $L8" 10
  check bcast SMP_binomial 5 lat "bcast $L8" 12
  # mpich decision on MPI_COMM_WORLD: init_smp, hosts of equal rank counts -> SMP_binomial.
  check bcast mpich 4 lat "bcast $L8" 10
  check bcast mpich 5 lat "bcast $L8" 12
  # scatter_rdb_allgather, 8 B in pieces of ceil(8/p) = 2 B. Binomial scatter: p=4: 0 sends 4 B to 2 and
  # 2 B to 1 at 0 (received at 1), 2 sends 2 B to 3 (2). T = [0, 1, 1, 2]. Recursive doubling: 0-1 at
  # max(0,1)+1 = 2, 2-3 at 3; 0-2 at max(2,3)+1 = 4, 1-3 at 4.
  # p=5: pieces 2,2,2,2,0: rank 4 has nothing to receive. Scatter T = [0, 1, 1, 2, 0]. 0-1 (2), 2-3 (3);
  # 0-2 and 1-3 (4); 0-4 (5); 4's partner subtree is cut off: 0 passes on to 2 and 1 (6), 2 to 3 (7).
  check bcast scatter_rdb_allgather 4 lat "bcast $L8" 4
  check bcast scatter_rdb_allgather 5 lat "bcast $L8" 7
  # scatter_LR_allgather: the same scatter, then p-1 ring steps: rank r ends step i at
  # max(T(r), T(r-1)) + 1 (it receives the left neighbour's message of the same step).
  # p=4: T = [0,1,1,2] -> [3,2,2,3] -> [4,4,3,4] -> [5,5,5,5].
  # p=5: T = [0,1,1,2,0] -> [1,2,2,3,3] -> [4,3,3,4,4] -> [5,5,4,5,5] -> [6,6,6,6,6].
  check bcast scatter_LR_allgather 4 lat "bcast $L8" 5
  check bcast scatter_LR_allgather 5 lat "bcast $L8" 6
}

reduce_cases() {
  # linear: non-roots isend at 0, the root posts every receive at 0: 1 round.
  check reduce linear 4 lat "reduce 8 0 0 6" 1
  check reduce linear 5 lat "reduce 8 0 0 6" 1
  # bw, root 1: p-1 messages of 1000 B share the root's down link.
  check reduce linear 4 bw "reduce 984 0 1 6" "p-1"
  check reduce linear 5 bw "reduce 984 0 1 6" "p-1"
  # the reduction's computation (comp flops at 1 flop/s) runs after the communication.
  check reduce linear 4 lat "reduce 8 5 0 6" "1+5"
  # ompi decision, 8 B, 4 <= p < 8: binary tree.
  check reduce ompi 4 lat "reduce 8 0 0 6" 2
  check reduce ompi 5 lat "reduce 8 0 0 6" 2
  # binary tree 0 <- {1, 2}, 1 <- {3}, 2 <- {4}, one segment: leaves send at 0, inner ranks forward at 1, the
  # root (both receives posted at 0) has all at 2.
  check reduce ompi_binary 4 lat "reduce 8 0 0 6" 2
  check reduce ompi_binary 5 lat "reduce 8 0 0 6" 2
  # basic linear: blocking receives from p-1 down to 0, one after the other: p-1 rounds.
  check reduce ompi_basic_linear 4 lat "reduce 8 0 0 6" "p-1"
  check reduce ompi_basic_linear 5 lat "reduce 8 0 0 6" "p-1"
  # chain with fanout p/2 = 2: p=4: 0 <- 1 <- 2 and 0 <- 3; p=5: 0 <- 1 <- 2 and 0 <- 3 <- 4: 2 rounds.
  check reduce ompi_chain 4 lat "reduce 8 0 0 6" 2
  check reduce ompi_chain 5 lat "reduce 8 0 0 6" 2
  # pipeline: one chain 0 <- 1 <- ... <- p-1, one segment: p-1 rounds.
  check reduce ompi_pipeline 4 lat "reduce 8 0 0 6" "p-1"
  check reduce ompi_pipeline 5 lat "reduce 8 0 0 6" "p-1"
  # in-order binomial: 0 <- {1, 2 (, 4)}, 2 <- 3. p=4: 2 forwards at 1, the root has it at 2. p=5: the root
  # posts the receive from 4 after the one from 1 completed (1); 4's message arrives at 2, as 2's.
  check reduce ompi_binomial 4 lat "reduce 8 0 0 6" 2
  check reduce ompi_binomial 5 lat "reduce 8 0 0 6" 2
  # in-order binary, rooted at p-1: p=4: 3 <- {2, 1}, 1 <- 0; p=5: 4 <- {3, 1}, 3 <- 2, 1 <- 0. Depth 2, then
  # p-1 sends the result to the root 0: 3.
  check reduce ompi_in_order_binary 4 lat "reduce 8 0 0 6" 3
  check reduce ompi_in_order_binary 5 lat "reduce 8 0 0 6" 3
  # MPICH binomial: 0 receives from 1, 2 (, 4) with blocking receives in a row, 2 from 3 first.
  # p=4: 1 (1), 2 forwards at 1: 2. p=5: then 4's message, whose receive is posted at 2: 3.
  check reduce binomial 4 lat "reduce 8 0 0 6" 2
  check reduce binomial 5 lat "reduce 8 0 0 6" 3
  # scatter_gather (Rabenseifner), 8 elements. p=4: 2 halving sendrecvs (2), binomial gather: 3 -> 1 (3),
  # 1 -> 0 (4; 2 -> 0 arrived at 3). p=5: 1 folds into 0 (1); halving among 0,2,3,4: 0-2 at max(1,0)+1 = 2,
  # 3-4 at 1; 0-3 and 2-4 at 3; gather: 3 -> 0 (4), 4 -> 2 (4), 2 -> 0 (5).
  check reduce scatter_gather 4 lat "reduce 8 0 0 6" 4
  check reduce scatter_gather 5 lat "reduce 8 0 0 6" 5
  # bw, 3936 B = 4 blocks of 984: halving 2 blocks (1.984 s) then 1 (1 s); gather: 2 -> 0 and 3 -> 1 one block
  # each (1 s), then 1 -> 0 two blocks (1.984 s).
  check reduce scatter_gather 4 bw "reduce 3936 0 0 6" "2*1.984+2"
  # k-nomial (k = 4): every rank is a child of the root (p <= 5): 1 round.
  check reduce mvapich2_knomial 4 lat "reduce 8 0 0 6" 1
  check reduce mvapich2_knomial 5 lat "reduce 8 0 0 6" 1
  # two-level: init_smp (T above); one rank per host, so MPICH's flat decision among all ranks (8 B: binomial)
  # from T. p=4: 3 -> 2 at 9, received at 10; 0 receives 1's at max(7, 8) + 1 = 9, 2's at 11.
  # p=5: 3 -> 2 at 11 (12); 0 receives 1's at 11, 2's at 13, then 4's (sent at 10) at 14.
  check reduce mvapich2_two_level 4 lat "reduce 8 0 0 6" 11
  check reduce mvapich2_two_level 5 lat "reduce 8 0 0 6" 14
  check reduce mpich 4 lat "reduce 8 0 0 6" 11
  check reduce mpich 5 lat "reduce 8 0 0 6" 14
}

allreduce_cases() {
  # reduce_bcast: linear reduce (1), binomial bcast (2).
  check allreduce reduce_bcast 4 lat "allreduce 8 0 6" 3
  check allreduce reduce_bcast 5 lat "allreduce 8 0 6" 3
  # redbcast: the selector's reduce and bcast (the default ones here): the same.
  check allreduce redbcast 4 lat "allreduce 8 0 6" 3
  check allreduce redbcast 5 lat "allreduce 8 0 6" 3
  # lr: 2(p-1) ring steps of 8/p elements. p=5: 8 % 5 = 3 elements left over, allreduced again by the
  # selector's allreduce (lr: fewer elements than ranks -> redbcast, 3).
  check allreduce lr 4 lat "allreduce 8 0 6" "2*(p-1)"
  check allreduce lr 5 lat "allreduce 8 0 6" "2*(p-1)+3"
  # bw: 3936 = 4 x 984 B (p=4), 4920 = 5 x 984 (p=5): 2(p-1) steps of one 1000 B message each way.
  check allreduce lr 4 bw "allreduce 3936 0 6" "2*(p-1)"
  check allreduce lr 5 bw "allreduce 4920 0 6" "2*(p-1)"
  # ompi decision, 8 B, 4 <= p < 8: lr (and lr again for the left-over elements).
  check allreduce ompi 4 lat "allreduce 8 0 6" "2*(p-1)"
  check allreduce ompi 5 lat "allreduce 8 0 6" "2*(p-1)+3"
  # ring_segmented: fewer elements than p x 1 MiB -> lr.
  check allreduce ompi_ring_segmented 4 lat "allreduce 8 0 6" "2*(p-1)"
  check allreduce ompi_ring_segmented 5 lat "allreduce 8 0 6" "2*(p-1)+3"
  # rdb: p=4: log2 p steps. p=5: 0 folds into 1 (1); 1-2 at max(1,0)+1 = 2, 3-4 at 1; 1-3, 2-4 at 3;
  # 1 returns the result to 0 (4).
  check allreduce rdb 4 lat "allreduce 8 0 6" 2
  check allreduce rdb 5 lat "allreduce 8 0 6" 4
  # rab_rdb: p=4: 2 halving + 2 doubling steps. p=5: fold (1), 1-2 (2), 1-3 (3), 1-3 (4), 1-2 (5), 1 -> 0 (6).
  check allreduce rab_rdb 4 lat "allreduce 8 0 6" 4
  check allreduce rab_rdb 5 lat "allreduce 8 0 6" 6
  # bw, 3936 B = 4 blocks of 984: halving sends 2 blocks (1968 + 16 B: 1.984 s) then 1 (1 s); doubling 1 then 2.
  check allreduce rab_rdb 4 bw "allreduce 3936 0 6" "2*1.984+2"
  # rdb, bw: log2 p exchanges of the whole buffer (984 B: 1 s).
  check allreduce rdb 4 bw "allreduce 984 0 6" 2
  # two-level: init_smp, flat allreduce within each host (one rank: nothing), rdb among the leaders (all
  # ranks) from T, bcast within hosts (nothing). p=4: T = [7,8,8,9]: 0-1 (9), 2-3 (10), 0-2 and 1-3 (11).
  # p=5: T = [9,10,10,11,10]: 0 -> 1 received at 11; 1-2 and 3-4 at 12; 1-3 and 2-4 at 13; 1 -> 0: 14.
  check allreduce mvapich2_two_level 4 lat "allreduce 8 0 6" 11
  check allreduce mvapich2_two_level 5 lat "allreduce 8 0 6" 14
  check allreduce mpich 4 lat "allreduce 8 0 6" 11
  check allreduce mpich 5 lat "allreduce 8 0 6" 14
}

gather_cases() {
  # linear: all isends and receives posted at 0: 1 round; bw: p-1 messages share the root's down link.
  check gather linear 4 lat "gather 8 8 0 6 6" 1
  check gather linear 5 lat "gather 8 8 0 6 6" 1
  check gather linear 5 bw "gather 984 984 2 6 6" "p-1"
  # ompi decision, 8 B, 4 <= p < 8: binomial.
  check gather ompi 4 lat "gather 8 8 0 6 6" 2
  check gather ompi 5 lat "gather 8 8 0 6 6" 3
  # basic linear: blocking receives in rank order: p-1 rounds.
  check gather ompi_basic_linear 4 lat "gather 8 8 0 6 6" "p-1"
  check gather ompi_basic_linear 5 lat "gather 8 8 0 6 6" "p-1"
  # in-order binomial, children nearest first, blocking: 0 <- 1 (1), 0 <- 2 (2, 2 got 3's at 1), 0 <- 4 (3).
  check gather ompi_binomial 4 lat "gather 8 8 0 6 6" 2
  check gather ompi_binomial 5 lat "gather 8 8 0 6 6" 3
  # bw, p=4: 3 -> 2 (1 s), 2 -> 0 two blocks (1968 + 16 B: 1.984 s) after 1 -> 0 (1 s), received in turn.
  check gather ompi_binomial 4 bw "gather 984 984 0 6 6" "1+1.984"
  check gather mpich 4 lat "gather 8 8 0 6 6" 2
  check gather mpich 5 lat "gather 8 8 0 6 6" 3
  # linear_sync: for each rank in turn the root sends a go-ahead (1) and waits for the first segment (1).
  check gather ompi_linear_sync 4 lat "gather 8 8 0 6 6" "2*(p-1)"
  check gather ompi_linear_sync 5 lat "gather 8 8 0 6 6" "2*(p-1)"
  # bw, 984 B blocks: per rank, the go-ahead (16 B, 0.016 s), then the first segment (all 984 B: 1000 B) and the
  # empty rest (16 B) leave together at 500 B/s each: the rest ends after 0.032 s, the first has 984 B left,
  # alone at 1000 B/s: 0.032 + 0.984 = 1.016 s.
  check gather ompi_linear_sync 4 bw "gather 984 984 0 6 6" "(p-1)*(0.016+1.016)"
}

gatherv_cases() {
  check gatherv linear 4 lat "gatherv 8 $(vec 4 8) 0 6 6" 1
  check gatherv linear 5 lat "gatherv 8 $(vec 5 8) 0 6 6" 1
  # bw: blocks of 984, 1984, 2984 B from ranks 1..3 share the root's down link (max-min): three at 333.3 B/s
  # until the 1000 B one ends (3 s), two at 500 B/s until the 2000 B one (5 s), the last alone (6 s).
  check gatherv linear 4 bw "$(per_rank "gatherv @ 0 984 1984 2984 0 6 6" 0 984 1984 2984)" 6
}

scatter_cases() {
  check scatter linear 4 lat "scatter 8 8 0 6 6" 1
  check scatter linear 5 lat "scatter 8 8 0 6 6" 1
  # bw: the root's p-1 isends share its up link.
  check scatter linear 4 bw "scatter 984 984 0 6 6" "p-1"
  check scatter linear 5 bw "scatter 984 984 3 6 6" "p-1"
  # ompi decision, 8 B, 4 <= p < 8: binomial.
  check scatter ompi 4 lat "scatter 8 8 0 6 6" 2
  check scatter ompi 5 lat "scatter 8 8 0 6 6" 2
  # basic linear: detached blocking sends, all at 0: 1 round.
  check scatter ompi_basic_linear 4 lat "scatter 8 8 0 6 6" 1
  check scatter ompi_basic_linear 5 lat "scatter 8 8 0 6 6" 1
  # rendez-vous (99984 B, 100 s alone): the root waits for each send before the next: p-1 x 100 s.
  check scatter ompi_basic_linear 4 bw "scatter 99984 99984 0 6 6" "(p-1)*100"
  check scatter ompi_linear_nb 4 lat "scatter 8 8 0 6 6" 1
  check scatter ompi_linear_nb 5 lat "scatter 8 8 0 6 6" 1
  # in-order binomial: 0 -> 1, 2 (, 4) at 0 (1), 2 -> 3 (2).
  check scatter ompi_binomial 4 lat "scatter 8 8 0 6 6" 2
  check scatter ompi_binomial 5 lat "scatter 8 8 0 6 6" 2
  # bw, p=4: the root sends 1 block to 1 and 2 blocks to 2 at once: 500 B/s each until 1's (2 s), then
  # 984 B left alone (2.984); 2 -> 3 one block (3.984).
  check scatter ompi_binomial 4 bw "scatter 984 984 0 6 6" 3.984
  check scatter mpich 4 lat "scatter 8 8 0 6 6" 2
  check scatter mpich 5 lat "scatter 8 8 0 6 6" 2
}

scatterv_cases() {
  check scatterv linear 4 lat "scatterv $(vec 4 8) 8 0 6 6" 1
  check scatterv linear 5 lat "scatterv $(vec 5 8) 8 0 6 6" 1
  # bw: 984, 1984, 2984 B to ranks 1..3 share the root's up link: 3 s, 5 s, 6 s (see gatherv).
  check scatterv linear 4 bw "$(per_rank "scatterv 0 984 1984 2984 @ 0 6 6" 0 984 1984 2984)" 6
}

allgather_cases() {
  check allgather linear 4 lat "allgather 8 8 6 6" 1
  check allgather linear 5 lat "allgather 8 8 6 6" 1
  # bw: every rank sends p-1 and receives p-1 messages at once: (p-1) x 1000 B on each link.
  check allgather linear 4 bw "allgather 984 984 6 6" "p-1"
  check allgather linear 5 bw "allgather 984 984 6 6" "p-1"
  # ompi decision, p < 32: recursive doubling.
  check allgather ompi 4 lat "allgather 8 8 6 6" 2
  check allgather ompi 5 lat "allgather 8 8 6 6" 5
  # rdb: p=4: log2 p steps. p=5: 0-1, 2-3 (1); 0-2, 1-3 (2); 0-4 (3); 4's subtree is incomplete: 0 passes
  # 4's block to 2 and 1 (4), 2 to 3 (5).
  check allgather rdb 4 lat "allgather 8 8 6 6" 2
  check allgather rdb 5 lat "allgather 8 8 6 6" 5
  # bw, p=4: 1 block (1 s), then 2 blocks (1.984 s).
  check allgather rdb 4 bw "allgather 984 984 6 6" "1+1.984"
  # bw, p=5: 0-1, 2-3: 1 s; 0-2, 1-3: 2 blocks, 1.984 s; 0-4 from 2.984: 4 -> 0 one block (3.984), 0 -> 4
  # four blocks (3952 B). At 3.984 0 passes 4's block to 2 and 1: three messages share 0's up link
  # (333.3 B/s): 2 and 1 have theirs at 6.984 (then 2 -> 3 at 7.984), 0 -> 4 has 1952 B left, alone: 8.936.
  check allgather rdb 5 bw "allgather 984 984 6 6" 8.936
  # bruck: steps of 1, 2, ... blocks while 2^k <= p/2, then the p - 2^k remaining: p=4: 2 steps, p=5: 3.
  check allgather bruck 4 lat "allgather 8 8 6 6" 2
  check allgather bruck 5 lat "allgather 8 8 6 6" 3
  check allgather bruck 4 bw "allgather 984 984 6 6" "1+1.984"
  check allgather bruck 5 bw "allgather 984 984 6 6" "1+1.984+1"
  # ring: p-1 lockstep sendrecvs.
  check allgather ring 4 lat "allgather 8 8 6 6" "p-1"
  check allgather ring 5 lat "allgather 8 8 6 6" "p-1"
  check allgather ring 5 bw "allgather 984 984 6 6" "p-1"
  # neighbor exchange: p/2 steps on even p (one block, then two); odd p -> ring.
  check allgather ompi_neighborexchange 4 lat "allgather 8 8 6 6" "p/2"
  check allgather ompi_neighborexchange 6 lat "allgather 8 8 6 6" "p/2"
  check allgather ompi_neighborexchange 5 lat "allgather 8 8 6 6" "p-1"
  check allgather ompi_neighborexchange 6 bw "allgather 984 984 6 6" "1+2*1.984"
  # pair: p-1 sendrecvs with rank ^ i; powers of two only.
  check allgather pair 4 lat "allgather 8 8 6 6" "p-1"
  refuse allgather pair 5 "allgather 8 8 6 6" "the allgather pair algorithm needs a power-of-two number of ranks, not 5"
  # mpich decision: rdb on a power of two (32 B in all), bruck otherwise (up to 81920 B).
  check allgather mpich 4 lat "allgather 8 8 6 6" 2
  check allgather mpich 5 lat "allgather 8 8 6 6" 3
}

allgatherv_cases() {
  check allgatherv linear 4 lat "allgatherv 8 $(vec 4 8) 6 6" 1
  check allgatherv linear 5 lat "allgatherv 8 $(vec 5 8) 6 6" 1
  # ompi decision, 8 B per rank, p < 8: gatherv to 0 (1), then the default bcast (binomial, 2).
  check allgatherv ompi 4 lat "allgatherv 8 $(vec 4 8) 6 6" 3
  check allgatherv ompi 5 lat "allgatherv 8 $(vec 5 8) 6 6" 3
  # MPICH ring: every block in one piece: p-1 lockstep sendrecvs.
  check allgatherv mpich_ring 4 lat "allgatherv 8 $(vec 4 8) 6 6" "p-1"
  check allgatherv mpich_ring 5 lat "allgatherv 8 $(vec 5 8) 6 6" "p-1"
  # Bruck: ceil(log2 p) steps.
  check allgatherv ompi_bruck 4 lat "allgatherv 8 $(vec 4 8) 6 6" 2
  check allgatherv ompi_bruck 5 lat "allgatherv 8 $(vec 5 8) 6 6" 3
  # bw, blocks of 984 B: distance 1 one block (1 s), 2 two blocks (1.984 s), 4 the p - 4 = 1 left (1 s).
  check allgatherv ompi_bruck 5 bw "allgatherv 984 $(vec 5 984) 6 6" "1+1.984+1"
  # neighbor exchange: p/2 steps on even p, ring on odd p.
  check allgatherv ompi_neighborexchange 4 lat "allgatherv 8 $(vec 4 8) 6 6" "p/2"
  check allgatherv ompi_neighborexchange 6 lat "allgatherv 8 $(vec 6 8) 6 6" "p/2"
  check allgatherv ompi_neighborexchange 5 lat "allgatherv 8 $(vec 5 8) 6 6" "p-1"
  check allgatherv ring 4 lat "allgatherv 8 $(vec 4 8) 6 6" "p-1"
  check allgatherv ring 5 lat "allgatherv 8 $(vec 5 8) 6 6" "p-1"
  check allgatherv pair 4 lat "allgatherv 8 $(vec 4 8) 6 6" "p-1"
  refuse allgatherv pair 5 "allgatherv 8 $(vec 5 8) 6 6" "the allgatherv pair algorithm needs a power-of-two number of ranks, not 5"
  # MPICH recursive doubling: as allgather rdb (2 on p=4; 5 on p=5).
  check allgatherv mpich_rdb 4 lat "allgatherv 8 $(vec 4 8) 6 6" 2
  check allgatherv mpich_rdb 5 lat "allgatherv 8 $(vec 5 8) 6 6" 5
  # mpich decision on the total count (32 or 40 elements): mpich_rdb on a power of two, else ompi_bruck.
  check allgatherv mpich 4 lat "allgatherv 8 $(vec 4 8) 6 6" 2
  check allgatherv mpich 5 lat "allgatherv 8 $(vec 5 8) 6 6" 3
}

alltoall_cases() {
  check alltoall linear 4 lat "alltoall 8 8 6 6" 1
  check alltoall linear 5 lat "alltoall 8 8 6 6" 1
  check alltoall linear 4 bw "alltoall 984 984 6 6" "p-1"
  # smpi (Open MPI's decision), 8 B, 3 <= p < 8: linear.
  check alltoall smpi 4 lat "alltoall 8 8 6 6" 1
  check alltoall smpi 5 lat "alltoall 8 8 6 6" 1
  # pairwise: p-1 sendrecvs (the step with itself costs nothing).
  check alltoall pairwise 4 lat "alltoall 8 8 6 6" "p-1"
  check alltoall pairwise 5 lat "alltoall 8 8 6 6" "p-1"
  check alltoall pairwise 5 bw "alltoall 984 984 6 6" "p-1"
  # bruck: ceil(log2 p) steps, each packing the blocks whose index has bit k set: p=4: 2 blocks, 2 blocks;
  # p=5: 2, 2, 1 (2 blocks: 1968 + 16 B, 1.984 s).
  check alltoall bruck 4 lat "alltoall 8 8 6 6" 2
  check alltoall bruck 5 lat "alltoall 8 8 6 6" 3
  check alltoall bruck 4 bw "alltoall 984 984 6 6" "2*1.984"
  check alltoall bruck 5 bw "alltoall 984 984 6 6" "2*1.984+1"
  # ring: p-1 sendrecvs with rank+i / rank-i.
  check alltoall ring 4 lat "alltoall 8 8 6 6" "p-1"
  check alltoall ring 5 lat "alltoall 8 8 6 6" "p-1"
  # scatter_dest: blocks of 4 peers, this rank included (its own message crosses its link, 1 s): ceil(p/4).
  check alltoall mvapich2_scatter_dest 4 lat "alltoall 8 8 6 6" 1
  check alltoall mvapich2_scatter_dest 5 lat "alltoall 8 8 6 6" 2
  # bw: p messages leave and enter every host at once, its message to itself included: p x 1 s (linear: p-1).
  check alltoall mvapich2_scatter_dest 4 bw "alltoall 984 984 6 6" "p"
  # mpich decision, 8 B, p < 8: scatter_dest.
  check alltoall mpich 4 lat "alltoall 8 8 6 6" 1
  check alltoall mpich 5 lat "alltoall 8 8 6 6" 2
}

alltoallv_cases() {
  check alltoallv linear 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" 1
  check alltoallv linear 5 lat "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" 1
  check alltoallv linear 4 bw "alltoallv 3936 $(vec 4 984) 3936 $(vec 4 984) 6 6" "p-1"
  # ompi decision: 4 <= p < 64 -> basic linear.
  check alltoallv ompi 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" 1
  check alltoallv ompi 5 lat "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" 1
  check alltoallv ompi_basic_linear 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" 1
  check alltoallv ompi_basic_linear 5 lat "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" 1
  # pair: p-1 sendrecvs with rank ^ i, powers of two only.
  check alltoallv pair 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" "p-1"
  refuse alltoallv pair 5 "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" "the alltoallv pair algorithm needs a power-of-two number of ranks, not 5"
  # bruck (MPICH's throttled exchange): blocks of 4 peers (itself skipped): ceil(p/4) rounds.
  check alltoallv bruck 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" 1
  check alltoallv bruck 5 lat "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" 2
  # bw: this rank skipped, p-1 messages share each link.
  check alltoallv bruck 4 bw "alltoallv 3936 $(vec 4 984) 3936 $(vec 4 984) 6 6" "p-1"
  check alltoallv mpich 4 lat "alltoallv 32 $(vec 4 8) 32 $(vec 4 8) 6 6" 1
  check alltoallv mpich 5 lat "alltoallv 40 $(vec 5 8) 40 $(vec 5 8) 6 6" 2
}

reducescatter_cases() {
  # reduce_scatterv: linear reduce to 0 (1), then scatterv (1).
  check reducescatter reduce_scatterv 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter reduce_scatterv 5 lat "reducescatter $(vec 5 8) 0 6" 2
  # smpi: equal counts -> reduce_scatterv; unequal, few elements -> recursive doubling.
  check reducescatter smpi 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter smpi 5 lat "reducescatter $(vec 5 8) 0 6" 2
  check reducescatter smpi 5 lat "reducescatter 8 8 8 8 16 0 6" 5
  # pair: p-1 sendrecvs.
  check reducescatter pair 4 lat "reducescatter $(vec 4 8) 0 6" "p-1"
  check reducescatter pair 5 lat "reducescatter $(vec 5 8) 0 6" "p-1"
  # recursive doubling: p=4: 2 steps. p=5: 0-1, 2-3 (1); 0-2, 1-3 (2); 0-4 (3); 4's subtree incomplete:
  # 0 sends to 2 and 1 (4), 2 to 3 (5).
  check reducescatter recursive_doubling 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter recursive_doubling 5 lat "reducescatter $(vec 5 8) 0 6" 5
  # bw, parts of 984 B: step 1 sends the 3 parts outside this rank's subtree of 1 (2952 + 16 B), step 2 the 2
  # outside its subtree of 2 (1968 + 16 B).
  check reducescatter recursive_doubling 4 bw "reducescatter $(vec 4 984) 0 6" "2.968+1.984"
  check reducescatter pair 4 bw "reducescatter $(vec 4 984) 0 6" "p-1"
  # mpich decision, few elements: recursive doubling.
  check reducescatter mpich 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter mpich 5 lat "reducescatter $(vec 5 8) 0 6" 5
  # ompi decision, 8 B per rank (32 or 40 in all), 4 <= p < 8: recursive halving.
  check reducescatter ompi 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter ompi 5 lat "reducescatter $(vec 5 8) 0 6" 4
  # recursive halving: p=4: 2 steps. p=5: 0 folds into 1 (1); 1-3 at 2, 2-4 at 1; 1-2, 3-4 at 3; 1 sends 0
  # its part (4).
  check reducescatter ompi_basic_recursivehalving 4 lat "reducescatter $(vec 4 8) 0 6" 2
  check reducescatter ompi_basic_recursivehalving 5 lat "reducescatter $(vec 5 8) 0 6" 4
  # bw, parts of 984 B: halving sends 2 parts (1.984 s), then 1 (1 s).
  check reducescatter ompi_basic_recursivehalving 4 bw "reducescatter $(vec 4 984) 0 6" "1.984+1"
  # ring: p-1 steps (blocking detached send, receive one ahead).
  check reducescatter ompi_ring 4 lat "reducescatter $(vec 4 8) 0 6" "p-1"
  check reducescatter ompi_ring 5 lat "reducescatter $(vec 5 8) 0 6" "p-1"
  check reducescatter ompi_ring 4 bw "reducescatter $(vec 4 984) 0 6" "p-1"
  # butterfly: p=4: 2 rounds, then virtual ranks 1 and 2 (mirror images) swap their blocks (3).
  # p=5: 0 folds into 1 (1); rounds 1-2 (2), 3-4 (1); 1-3, 2-4 (3); 1 sends 0 its part, 2 and 3 swap (4).
  check reducescatter ompi_butterfly 4 lat "reducescatter $(vec 4 8) 0 6" 3
  check reducescatter ompi_butterfly 5 lat "reducescatter $(vec 5 8) 0 6" 4
  # bw: rounds of 2 parts (1.984 s) and 1 part (1 s), then the swap of one part (1 s).
  check reducescatter ompi_butterfly 4 bw "reducescatter $(vec 4 984) 0 6" "1.984+2"
}

scan_cases() {
  # every receive from lower ranks and send to higher ones posted at 0: 1 round.
  check scan linear 4 lat "scan 8 0 6" 1
  check scan linear 5 lat "scan 8 0 6" 1
  # bw: rank 0 sends p-1 messages at once (p-1 s on its link); rank p-1 receives p-1 at once.
  check scan linear 5 bw "scan 984 0 6" "p-1"
}

exscan_cases() {
  check exscan linear 4 lat "exscan 8 0 6" 1
  check exscan linear 5 lat "exscan 8 0 6" 1
  check exscan linear 4 bw "exscan 984 0 6" "p-1"
}

collectives=(barrier bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv
             reducescatter scan exscan)
only=${3:-}
if [ "$what" = --readme ]; then # the table of README.md is this script's
  if diff <("$0" "$build" --table) <(sed -n '/^| collective | algorithm |/,$p' "$here/README.md"); then
    echo "README.md's table is up to date"; exit 0
  fi
  echo "FAIL: README.md's table differs from '$0 BUILD_DIR --table' (< script, > README)"; exit 1
fi
if [ "$what" = --reference ]; then
  for c in "${collectives[@]}"; do "${c}_cases"; done
  exit 0
fi
if [ "$what" = --table ]; then
  echo "| collective | algorithm | ranks | platform | trace line | expected (p = ranks) | seconds |"
  echo "|---|---|---|---|---|---|---|"
  for c in "${collectives[@]}"; do "${c}_cases"; done
  exit 0
fi
if ! declare -F "${what}_cases" > /dev/null; then
  echo "unknown collective '$what'"; exit 2
fi
"${what}_cases"

# Every algorithm --help lists for this collective has a case.
listed=$("$bin" --help | sed -n '/^Collective algorithms/,/^$/p' | awk -v c="$what" '$1 == c {print $2}')
[ -n "$listed" ] || { echo "FAIL: --help lists no algorithm of $what"; exit 1; }
for a in $listed; do
  [ -n "${covered[$what:$a]:-}" ] || { echo "FAIL coll/$what:$a: no hand-computed case"; failures=$((failures + 1)); }
done
echo "$cases cases, $failures failed"
[ "$failures" -eq 0 ]
