#!/usr/bin/env bash
# Message identity: user messages on sub-communicators are user messages (timelines, analysis), collectives
# on sub-communicators run on their own members (nonblocking barrier, SMP layouts of every selector), and
# negative tags in traces get a clear error. Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
a=$root/tests/analysis
bin=$build/bin/tit-replay
. "$(dirname "$0")/../lib/case.sh"
run() { capture "$bin" "$@"; }
time_of() { sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out"; }
# on_comm DIR: copies tests/analysis/data/chain into DIR with every point-to-point line on a dup of the world
on_comm() {
  mkdir -p "$1"
  for r in 0 1 2; do
    awk -v r="$r" '{ print } $2 == "init" { print r " comm_dup 0 1" }' "$a/data/chain/rank-$r.txt" |
      sed -E 's/^([0-9]+ (send|recv) .*)$/\1 0 comm=1/' >"$1/rank-$r.txt"
  done
}

# same_as_world WHAT: with body RANK SUFFIX writing a rank's actions, ranks {2, 3} of 4 running them on a
# sub-communicator (hosts atlas, boreas, dorado:2) end when a 2-rank world running them on dorado does, under each
# selector (the per-rank table has 9 decimals).
same_as_world() {
  mkdir -p "$tmp/sub" "$tmp/world"
  for r in 0 1 2 3; do
    { echo "$r init"
      if [ "$r" -ge 2 ]; then echo "$r comm_split 0 1 $r 1 2"; body "$r" " comm=1"; else echo "$r comm_split 0 -1 0 -1"; fi
      echo "$r finalize"; } >"$tmp/sub/rank-$r.txt"
  done
  for r in 0 1; do { echo "$r init"; body "$r" ""; echo "$r finalize"; } >"$tmp/world/rank-$r.txt"; done
  printf 'atlas\nboreas\ndorado:2\n' >"$tmp/h4"; printf 'dorado:2\n' >"$tmp/h2"
  P=$root/platforms/small-hetero.xml
  for set in smpi ompi mpich; do
    run --cfg=coll/selector:$set --hostfile "$tmp/h4" "$P" "$tmp/sub"
    expect_ok
    sub=$(awk '$1 == "2" || $1 == "3" { print $3 }' "$out" | sort -g | tail -1)
    run --cfg=coll/selector:$set --hostfile "$tmp/h2" "$P" "$tmp/world"
    expect_ok
    world=$(time_of)
    awk -v s="$sub" -v w="$world" 'BEGIN { d = s - w; if (d < 0) d = -d; exit !(s != "" && w > 0 && d <= 1e-9 * w + 6e-10) }' ||
      fail "$set: $1 on a sub-communicator end at $sub, on a world of the same ranks at $world"
  done
}

case $case_name in
  subcomm-analysis) # tests/analysis's chain, its messages on a duplicate of MPI_COMM_WORLD: the same answers
    on_comm "$tmp/chain"
    run "${IDEAL[@]}" --hostfile "$a/data/abcd.hosts" "$a/data/ideal4.xml" "$tmp/chain" --analysis-json "$tmp/a.json"
    expect_ok
    for check in "ranks.1.patterns.late_sender 3" "ranks.2.patterns.late_sender 3" "cost:0:compute:short_term 3" \
      "cost:0:compute:long_term 2.25" "delay_costs.total 6"; do
      # shellcheck disable=SC2086 # two words on purpose
      /usr/bin/python3 "$a/check.py" value "$tmp/a.json" $check || fail "check $check"
    done
    ! grep -q '"non_blocking_collective": [1-9]' "$tmp/a.json" || fail "a late sender reported as a nonblocking collective" ;;
  subcomm-timelines)
    on_comm "$tmp/chain"
    run "${IDEAL[@]}" --hostfile "$a/data/abcd.hosts" "$a/data/ideal4.xml" "$tmp/chain" --csv "$tmp/t.csv" \
      --paje "$tmp/t.paje" --chrome-trace "$tmp/t.json"
    expect_ok
    [ "$(grep -c '^message,.*,p2p$' "$tmp/t.csv")" -eq 2 ] || fail "CSV: two user messages expected"
    ! grep -q '^message,.*,collective$' "$tmp/t.csv" || fail "CSV: a user message drawn as a collective one"
    grep -q '^message,0,.*tag=0,' "$tmp/t.csv" || fail "CSV: the tag within the communicator (0) expected"
    ! grep -q 'LT_Message run V_coll' "$tmp/t.paje" || fail "Paje: a user message drawn as a collective one"
    ! grep -q '"collective-message"' "$tmp/t.json" || fail "Chrome: a user message drawn as a collective one" ;;
  ibarrier-subcomm) # an ibarrier on ranks {1, 2, 3} of 4 takes what an ibarrier of a 3-rank world takes
    mkdir -p "$tmp/sub" "$tmp/world"
    for r in 0 1 2 3; do
      color=1; [ "$r" -eq 0 ] && color=-1
      { echo "$r init"; echo "$r compute $((r * 1000))"
        if [ "$color" -eq 1 ]; then echo "$r comm_split 0 1 $r 1 3"; echo "$r ibarrier comm=1"; echo "$r compute 500"
          echo "$r wait -333 -333 -3335"; else echo "$r comm_split 0 -1 0 -1"; fi
        echo "$r finalize"; } >"$tmp/sub/rank-$r.txt"
    done
    for r in 0 1 2; do
      { echo "$r init"; echo "$r compute $(((r + 1) * 1000))"; echo "$r ibarrier"; echo "$r compute 500"
        echo "$r wait -333 -333 -3335"; echo "$r finalize"; } >"$tmp/world/rank-$r.txt"
    done
    printf 'A\nB\nC\nD\n' >"$tmp/h4"; printf 'B\nC\nD\n' >"$tmp/h3"
    run --hostfile "$tmp/h4" "$a/data/ideal4.xml" "$tmp/sub"
    expect_ok
    sub=$(awk '$1 ~ /^[123]$/ { print $3 }' "$out" | sort -g | tail -1)
    run --hostfile "$tmp/h3" "$a/data/ideal4.xml" "$tmp/world"
    expect_ok
    world=$(awk '$1 ~ /^[012]$/ { print $3 }' "$out" | sort -g | tail -1)
    [ -n "$sub" ] && [ "$sub" = "$world" ] || fail "sub-communicator ibarrier ends at $sub, on a world of 3 at $world" ;;
  selectors-subcomm) # every collective on ranks {2, 3} (one host) = the same collectives of a 2-rank world there
    body() { echo "$1 bcast 3000000 0$2"; echo "$1 allreduce 2000000 1000$2"; echo "$1 reduce 1000000 1000 1$2"
      echo "$1 barrier$2"; echo "$1 alltoall 700000 700000$2"; echo "$1 allgather 90000 90000$2"
      echo "$1 bcast 3000 1$2"; echo "$1 allreduce 200 10$2"; echo "$1 gather 50000 50000 1$2"
      echo "$1 scatter 50000 50000 0$2"; local l=$(($1 % 2)) # the rank within the pair: counts that agree
      echo "$1 gatherv $(((l + 1) * 4000)) 4000 8000 0$2"; echo "$1 scatterv 4000 8000 $(((l + 1) * 4000)) 1$2"
      echo "$1 allgatherv $(((l + 1) * 3000)) 3000 6000$2"
      echo "$1 alltoallv $(((l + 1) * 3000)) $(((l + 1) * 1000)) $(((l + 1) * 2000)) $(((l + 1) * 3000)) $(((l + 1) * 1000)) $(((l + 1) * 2000))$2"
      echo "$1 reducescatter 5000 7000 300$2"; echo "$1 scan 4000 50$2"; echo "$1 exscan 4000 50$2"; }
    same_as_world "collectives"
    ;;
  nonblocking-subcomm) # every nonblocking collective on ranks {2, 3} (one host) = the same on a 2-rank world there
    body() { local k=$(($1 % 2 + 1)) # 1 + the rank within the pair: counts that agree
      for c in "ibcast 3000000 0" "iallreduce 2000000 1000" "ireduce 1000000 1000 1" "ibarrier" \
        "ialltoall 700000 700000" "ialltoallv $((k * 300)) $((k * 100)) $((k * 200)) $((k * 300)) $((k * 100)) $((k * 200))" \
        "igather 9000 9000 1" "iscatter 9000 9000 0" "iallgather 90000 90000" "igatherv $((k * 100)) 100 200 1" \
        "iscatterv 100 200 $((k * 100)) 0" "iallgatherv $((k * 100)) 100 200" "ireducescatter 100 200 10" \
        "iscan 100 10" "iexscan 100 10"; do
        echo "$1 $c$2"; echo "$1 compute $((1000 * ($1 % 2 + 1)))"; echo "$1 waitall"; done; }
    same_as_world "nonblocking collectives"
    ;;
  negative-tags)
    mkdir -p "$tmp/t"
    printf '0 init\n0 send 1 -5 8\n0 finalize\n' >"$tmp/t/rank-0.txt"
    printf '1 init\n1 recv 0 -5 8\n1 finalize\n' >"$tmp/t/rank-1.txt"
    run --hostfile "$a/data/abcd.hosts" --np 2 "$a/data/ideal4.xml" "$tmp/t"
    expect_error 2 "$tmp/t/rank-0.txt:2: error: 'send' tag '-5' is negative (a message's tag must be >= 0)"
    printf '0 init\n0 send 1 3 8\n0 finalize\n' >"$tmp/t/rank-0.txt"
    printf '1 init\n1 irecv 0 -444 8\n1 wait 0 1 -444\n1 finalize\n' >"$tmp/t/rank-1.txt"
    run --hostfile "$a/data/abcd.hosts" --np 2 "$a/data/ideal4.xml" "$tmp/t"
    expect_error 2 "$tmp/t/rank-1.txt:2: error: 'irecv' tag -444 is MPI_ANY_TAG: receives from any tag are not supported" ;;
  *) echo "unknown case $case_name" >&2; exit 2 ;;
esac
echo "PASS [$case_name]"
