#!/usr/bin/env bash
# End-to-end cases of compressed traces (docs/compressed-format.md): tit-replay predicts the same on a compressed
# trace as on the plain one, tit-trace expand gives the files back, and bad files end with exit 2 and a message.
# Usage: run.sh BUILD_DIR CASE
set -u
build=$1
case_name=$2
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
d=$root/tests/e2e/data
replay=$build/bin/tit-replay
tool=$build/bin/tit-trace
. "$(dirname "$0")/../lib/case.sh"

compress() { # TRACES OUT
  run "$tool" compress "$1" "$2"; [ "$status" -eq 0 ] || fail "tit-trace compress $1 failed"
}
same_replay() { # TRACES, then tit-replay's arguments before TRACES: the whole output is the same
  local traces=$1; shift
  compress "$traces" "$tmp/c.tit"
  run "$replay" "${extra[@]}" "$@" "$traces"; [ "$status" -eq 0 ] || fail "plain replay failed"
  cp "$out" "$tmp/plain.out"
  run "$replay" "${extra[@]}" "$@" "$tmp/c.tit"; [ "$status" -eq 0 ] || fail "compressed replay failed"
  grep -q "^Simulated time: " "$out" || fail "no time"
  diff "$tmp/plain.out" "$out" > "$tmp/diff" || { cat "$tmp/diff"; fail "the compressed trace predicts otherwise"; }
}
ring() { compress "$root/traces/ring4" "$tmp/ring.tit"; }
stats_within_3() { # TRACES, then tit-replay's arguments before TRACES: stats ($tmp/s.tit) predicts within 3 % of TRACES
  local traces=$1; shift # sets a (plain) and b (stats), the predicted times
  run "$tool" compress --values stats "$traces" "$tmp/s.tit"; [ "$status" -eq 0 ] || fail "compress $traces failed"
  cp "$err" "$tmp/compress.err"
  run "$replay" "${extra[@]}" "$@" "$traces"; a=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
  run "$replay" "${extra[@]}" "$@" "$tmp/s.tit"; b=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
  [ -n "$a" ] && [ -n "$b" ] || fail "no time for $traces"
  stats_figure "$traces" "$a" "$b"
  awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.03) }' ||
    fail "$traces: stats predicts $b s, plain $a s: more than 3 % apart"
}
stats_figure() { # WHAT PLAIN STATS: prints the relative error (the figure the README quotes; ctest -V shows it)
  awk -v w="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%s: stats %+.3f %% of plain\n", w, (b / a - 1) * 100 }'
}

case $case_name in
  replay-same)
    same_replay "$root/traces/ring4" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml"
    same_replay "$root/traces/halo4" --hostfile "$root/platforms/small-hetero.hosts" "$root/platforms/small-hetero.xml"
    same_replay "$d/detached-thesis.txt.gz" "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml"
    same_replay "$d/anysource" "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy3.xml"
    same_replay "$d/subcomm-halves" "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml"
    same_replay "$d/ibcast4" "${IDEAL[@]}" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml"
    same_replay "$d/colls4/alltoallv" --hostfile "$d/cluster4.hosts" "$d/cluster4.xml" ;;
  expand) # expand(compress(T)) gives T's files back, and the list of them
    ring; run "$tool" expand "$tmp/ring.tit" "$tmp/x"; [ "$status" -eq 0 ] || fail "expand failed"
    for r in 0 1 2 3; do cmp "$root/traces/ring4/rank-$r.txt" "$tmp/x/rank-$r.txt" || fail "rank $r differs"; done
    [ "$(cat "$tmp/x/trace.list")" = "$(printf 'rank-%d.txt\n' 0 1 2 3)" ] || fail "trace.list: $(cat "$tmp/x/trace.list")" ;;
  expand-dialect) # --dialect simgrid writes every action with trace/writer.hpp: the replay predicts the same
    compress "$d/detached-thesis.txt.gz" "$tmp/t.tit"
    run "$tool" expand --dialect simgrid "$tmp/t.tit" "$tmp/x"; [ "$status" -eq 0 ] || fail "expand failed"
    grep -q "^0 send 1 0 [0-9]* 6$" "$tmp/x/rank-0.txt" || fail "no SimGrid-dialect send: $(cat "$tmp/x/rank-0.txt")"
    run "$replay" "${extra[@]}" "${IDEAL[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$tmp/x"
    grep -qx "Simulated time: 8 s" "$out" || fail "expected the 8 s of e2e.thesis-gz-merged"
    run "$tool" expand --dialect thesis "$root/traces/ring4" "$tmp/y"
    expect_error 2 "traces/ring4/rank-0.txt:5: error: cannot write 'send' in dialect 1 (thesis)" ;;
  info) # the same counts from the plain and the compressed trace, and the compressed file's structure
    ring; run "$tool" info "$root/traces/ring4"; sed -n '/^actions/,$p' "$out" > "$tmp/plain.info"
    run "$tool" info "$tmp/ring.tit"; [ "$status" -eq 0 ] || fail "info failed"
    grep -qx "format: compressed, version 6, values exact" "$out" || fail "no format line"
    grep -qx "rank structures: 2" "$out" || fail "ring4: even and odd ranks differ, nothing else"
    diff <(sed -n '/^actions/,$p' "$out" | grep -v -e '^format' -e '^signatures' -e '^loops' -e '^rank struct' \
           -e '^value blocks' -e '^bytes') "$tmp/plain.info" || fail "counts differ" ;;
  truncated) ring; head -c 100 "$tmp/ring.tit" > "$tmp/t.tit"
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$tmp/t.tit"
    expect_error 2 "$tmp/t.tit: error:" "(truncated compressed trace)"
    run "$tool" info "$tmp/t.tit"; expect_error 2 "$tmp/t.tit: error:" "(truncated compressed trace)" ;;
  corrupt) ring; size=$(stat -c %s "$tmp/ring.tit")
    cp "$tmp/ring.tit" "$tmp/c.tit"; printf '\xff' | dd of="$tmp/c.tit" bs=1 seek=$((size - 2)) conv=notrunc 2>/dev/null
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$tmp/c.tit"
    expect_error 2 "$tmp/c.tit: error: value chunk 0: CRC-32 mismatch (corrupt compressed trace)"
    cp "$tmp/ring.tit" "$tmp/v.tit"; printf '\x08' | dd of="$tmp/v.tit" bs=1 seek=8 conv=notrunc 2>/dev/null
    run "$tool" info "$tmp/v.tit"
    expect_error 2 "compressed trace format version 8, but this tit-replay reads versions 6 and 7 only (a newer one)"
    # a file of an earlier build (version 5, never released): refused by tit-trace info and tit-replay, saying what to do
    old=$root/tests/data/compressed/ring4-v5.tit
    refused="$old: error: compressed format version 5 is no longer read; this build reads versions 6 and 7 only: re-compress the trace from its text with tit-trace compress"
    run "$tool" info "$old"; expect_error 2 "$refused"
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$old"
    expect_error 2 "$refused" ;;
  deadlock) # errors of the replay name the compressed file, the rank and the action's number
    compress "$d/deadlock" "$tmp/dl.tit"; run "$replay" "${extra[@]}" "$d/two-hosts.xml" "$d/deploy2.xml" "$tmp/dl.tit"
    expect_error 3 "deadlock" "rank 0 blocked in $tmp/dl.tit (rank 0):2: 0 recv 1 0 8" ;;
  binned) # binned:0.01 keeps each volume within 1 %: the predicted time stays within 1 % of the plain trace's
    python3 "$root/tests/bench/gen-trace.py" --ranks 8 --iterations 40 "$tmp/g" > /dev/null
    for t in "$root/traces/halo4|--hostfile $root/platforms/small-hetero.hosts $root/platforms/small-hetero.xml" \
             "$tmp/g/traces.list|--hostfile $tmp/g/hostfile $tmp/g/platform.xml"; do
      traces=${t%%|*}; read -r -a args <<< "${t#*|}"
      run "$tool" compress --values binned:0.01 "$traces" "$tmp/b.tit"; [ "$status" -eq 0 ] || fail "compress failed"
      run "$replay" "${extra[@]}" "${args[@]}" "$traces"; a=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      run "$replay" "${extra[@]}" "${args[@]}" "$tmp/b.tit"; b=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      [ -n "$a" ] && [ -n "$b" ] || fail "no time for $traces"
      awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
        fail "$traces: binned predicts $b s, plain $a s: more than 1 % apart"
    done
    run "$tool" info "$tmp/b.tit"; grep -qx "format: compressed, version 6, values binned:0.01" "$out" ||
      fail "info does not say the value mode" ;;
  binned-joined) # each compute written as two in a row (as SMPI writes several between two calls): binned sums them
    # before binning, so the file holds the generated trace's computes, and predicts within 1 % of the split trace
    python3 "$root/tests/bench/gen-trace.py" --ranks 8 --iterations 40 --uniform --noise 0.2 "$tmp/g" > /dev/null
    run "$tool" info "$tmp/g/traces.list"; computes=$(awk '$1 == "compute" { print $2 }' "$out")
    python3 - "$tmp/g" <<'PY'
import pathlib, sys
for f in sorted(pathlib.Path(sys.argv[1]).glob("rank-*.txt")):
    out = []
    for l in f.read_text().splitlines():
        w = l.split()
        if len(w) == 3 and w[1] == "compute":
            v = float(w[2])
            out += [f"{w[0]} compute {v * 0.3:g}", f"{w[0]} compute {v * 0.7:g}"]
        else:
            out.append(l)
    f.write_text("".join(l + "\n" for l in out))
PY
    args=(--hostfile "$tmp/g/hostfile" "$tmp/g/platform.xml")
    run "$tool" compress --values binned:0.01 "$tmp/g/traces.list" "$tmp/b.tit"; [ "$status" -eq 0 ] || fail "compress failed"
    run "$tool" info "$tmp/b.tit"; joined=$(awk '$1 == "compute" { print $2 }' "$out")
    [ -n "$computes" ] && [ "$joined" = "$computes" ] || fail "$computes computes generated, $joined in the binned file"
    run "$replay" "${extra[@]}" "${args[@]}" "$tmp/g/traces.list"; a=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
    run "$replay" "${extra[@]}" "${args[@]}" "$tmp/b.tit"; b=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
    [ -n "$a" ] && [ -n "$b" ] || fail "no time"
    awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
      fail "binned predicts $b s, the split trace $a s: more than 1 % apart" ;;
  binned-sizes) # binned:0.01 keeps message sizes exact: 65,536 bytes (rendez-vous, SimGrid's default
    # smpi/send-is-detached-thresh) would be binned to 65,534 (buffered), and rank 0 would compute while rank 1 still
    # does instead of after it: half the time. Computes are binned: 2e9 flops within 1 %, the time too
    mkdir -p "$tmp/s"
    printf '0 init\n0 send 1 0 65536 2\n0 compute 2000000000\n0 finalize\n' > "$tmp/s/rank-0.txt"
    printf '1 init\n1 compute 2000000000\n1 recv 0 0 65536 2\n1 finalize\n' > "$tmp/s/rank-1.txt"
    printf 'rank-0.txt\nrank-1.txt\n' > "$tmp/s/trace.list"
    run "$tool" compress --values binned:0.01 "$tmp/s/trace.list" "$tmp/b.tit"; [ "$status" -eq 0 ] || fail "compress failed"
    run "$tool" expand "$tmp/b.tit" "$tmp/x"; [ "$status" -eq 0 ] || fail "expand failed"
    grep -qx "0 send 1 0 65536 2" "$tmp/x/rank-0.txt" && grep -qx "1 recv 0 0 65536 2" "$tmp/x/rank-1.txt" ||
      fail "the message size is not kept: $(grep -h -e send -e recv "$tmp/x/rank-0.txt" "$tmp/x/rank-1.txt")"
    grep -q "compute 2000000000$" "$tmp/x/rank-0.txt" && fail "the compute volume is not binned"
    for t in "$tmp/s/trace.list" "$tmp/b.tit"; do
      run "$replay" "${extra[@]}" --hostfile "$root/platforms/small-hetero.hosts" "$root/platforms/small-hetero.xml" "$t"
      [ "$status" -eq 0 ] || fail "replay of $t failed"; sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out" > "$t.time"
    done
    a=$(cat "$tmp/s/trace.list.time"); b=$(cat "$tmp/b.tit.time")
    [ -n "$a" ] && [ -n "$b" ] || fail "no time"
    awk -v a="$a" -v b="$b" 'BEGIN { printf "binned sizes: %+.3f %% of plain\n", (b / a - 1) * 100 }'
    awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
      fail "binned predicts $b s, plain $a s: more than 1 % apart" ;;
  stats) # stats draws each volume from a distribution per action of the loop body: on traces whose volumes jitter
    # (generated, +-20 % compute), the predicted time stays within 3 % of the plain trace's, and info says the mode
    for p in halo ring; do
      python3 "$root/tests/bench/gen-trace.py" --ranks 8 --iterations 200 --pattern $p --uniform --noise 0.2 \
        "$tmp/$p" > /dev/null
      run "$tool" compress --values stats "$tmp/$p/traces.list" "$tmp/s.tit"; [ "$status" -eq 0 ] || fail "compress failed"
      args=(--hostfile "$tmp/$p/hostfile" "$tmp/$p/platform.xml")
      run "$replay" "${extra[@]}" "${args[@]}" "$tmp/$p/traces.list"; a=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      run "$replay" "${extra[@]}" "${args[@]}" "$tmp/s.tit"; b=$(sed -n 's/^Simulated time: \(.*\) s$/\1/p' "$out")
      [ -n "$a" ] && [ -n "$b" ] || fail "no time for $p"
      [ "$a" != "$b" ] || fail "$p: the same time to the last digit: were any volumes drawn?"
      stats_figure "$p" "$a" "$b"
      awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.03) }' ||
        fail "$p: stats predicts $b s, plain $a s: more than 3 % apart"
    done
    run "$tool" info "$tmp/s.tit"; grep -qx "format: compressed, version 6, values stats" "$out" ||
      fail "info does not say the value mode"
    # the 8 ranks of the ring have one structure: one value block, shared
    grep -qx "value blocks: 1" "$out" || fail "the ring's ranks do not share their value block"
    # a stats file cut short: an error naming the file (exit 2), never a crash
    head -c $(($(stat -c %s "$tmp/s.tit") - 5)) "$tmp/s.tit" > "$tmp/cut.tit"
    run "$replay" "${extra[@]}" "${args[@]}" "$tmp/cut.tit"
    expect_error 2 "$tmp/cut.tit: error:" "truncated compressed trace"
    ;;
  stats-pattern) # compute volumes in a deterministic pattern over ranks and iterations (gen-trace.py's default
    # 1e6 + 1e5 * ((7 rank + 13 it) mod 20), period 20 on every rank): kept, not drawn, so within 3 % (drawn, they
    # were 4.6 % low on halo)
    for p in halo ring; do
      python3 "$root/tests/bench/gen-trace.py" --ranks 8 --iterations 200 --pattern $p "$tmp/$p" > /dev/null
      stats_within_3 "$tmp/$p/traces.list" --hostfile "$tmp/$p/hostfile" "$tmp/$p/platform.xml"
    done ;;
  stats-sporadic) # computes traced in some iterations only (as SMPI writes them above its threshold): the ranks fold
    # into one structure in stats (several in exact), within 3 %
    python3 "$root/tests/bench/gen-trace.py" --ranks 8 --iterations 200 --pattern ring --uniform --noise 0.2 \
      "$tmp/g" > /dev/null
    python3 - "$tmp/g" <<'PY'
import pathlib, random, sys
rng = random.Random(7)
for f in sorted(pathlib.Path(sys.argv[1]).glob("rank-*.txt")):
    lines = f.read_text().splitlines()
    f.write_text("".join(l + "\n" for l in lines if " compute " not in l or rng.random() < 0.5))
PY
    compress "$tmp/g/traces.list" "$tmp/e.tit"
    run "$tool" info "$tmp/e.tit"; grep -q "^rank structures: [2-8]$" "$out" || fail "exact: $(grep structures "$out")"
    stats_within_3 "$tmp/g/traces.list" --hostfile "$tmp/g/hostfile" "$tmp/g/platform.xml"
    run "$tool" info "$tmp/s.tit"; grep -qx "rank structures: 1" "$out" || fail "stats: $(grep structures "$out")"
    # the same file every time
    cp "$tmp/s.tit" "$tmp/s1.tit"; run "$tool" compress --values stats "$tmp/g/traces.list" "$tmp/s.tit"
    cmp "$tmp/s.tit" "$tmp/s1.tit" || fail "two stats files of one trace differ" ;;
  stats-together) # a 2 x 2 periodic halo (two receives from each neighbour in a row, as on a 2-wide grid) whose ranks
    # slow down and speed up together (a warm-up, then phases every rank goes through; each rank 2 % of noise of its
    # own): drawn in one order on every rank, within 3 % (one order per rank drew the slow steps on different ranks:
    # +8 % and more)
    python3 "$root/tests/bench/gen-trace.py" --ranks 4 --iterations 1 --pattern ring "$tmp/g" > /dev/null
    python3 - "$tmp/g" "$here" <<'PY'
import pathlib, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, sys.argv[2])
from fixed_noise import noise
out = pathlib.Path(sys.argv[1])
for r in range(4):
    x, y = r % 2, r // 2
    nx, ny = (x + 1) % 2 + 2 * y, x + 2 * ((y + 1) % 2)
    lines = [f"{r} init"]
    for it in range(48):
        common = 6 - 0.6 * it if it < 8 else 1 + 0.8 * noise(it)
        lines.append(f"{r} compute {int(2e7 * common * (0.99 + 0.02 * noise(it, r)))}")
        lines += [f"{r} irecv {nx} 1 80000 0", f"{r} irecv {nx} 2 80000 0", f"{r} irecv {ny} 3 80000 0",
                  f"{r} irecv {ny} 4 80000 0", f"{r} isend {nx} 2 80000 0", f"{r} isend {nx} 1 80000 0",
                  f"{r} isend {ny} 4 80000 0", f"{r} isend {ny} 3 80000 0", f"{r} waitall 8"]
    lines.append(f"{r} finalize")
    (out / f"rank-{r}.txt").write_text("".join(l + "\n" for l in lines))
PY
    stats_within_3 "$tmp/g/traces.list" --hostfile "$tmp/g/hostfile" "$tmp/g/platform.xml" ;;
  stats-polling) # two pairs: a producer computes the same 3e7 flops every step and sends; its consumer posts the
    # receive and polls three times (compute, testall) until it arrives, the polls' lengths varying but summing to the
    # producer's work (a rank waiting by polling, as AMG's traces do). Drawn, the polls of a step no longer sum to
    # it: a step whose draws sum to more delays the pair, one whose draws sum to less gains nothing (the last test
    # waits for the message): +4.0 %, which the lock-step check does not see (-0.06 %). Gaps a test closes are kept
    # as traced: the plain trace's time
    python3 "$root/tests/bench/gen-trace.py" --ranks 4 --iterations 1 --pattern ring "$tmp/g" > /dev/null
    python3 - "$tmp/g" "$here" <<'PY'
import pathlib, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, sys.argv[2])
from fixed_noise import noise
out = pathlib.Path(sys.argv[1])
for pair in range(2):
    p, c = 2 * pair, 2 * pair + 1
    lp, lc = [f"{p} init"], [f"{c} init"]
    for it in range(60):
        lp += [f"{p} compute 30000000", f"{p} send {c} 1 1000 0", f"{p} recv {c} 2 1000 0"]
        w = [0.5 + noise(it, 10 * pair + k) for k in range(3)]
        lc.append(f"{c} irecv {p} 1 1000 0")
        for share in w:
            lc += [f"{c} compute {3e7 * share / sum(w):.0f}", f"{c} testall 1"]
        lc.append(f"{c} send {p} 2 1000 0")
    for r, l in ((p, lp), (c, lc)):
        l.append(f"{r} finalize")
        (out / f"rank-{r}.txt").write_text("\n".join(l) + "\n")
PY
    stats_within_3 "$tmp/g/traces.list" --hostfile "$tmp/g/hostfile" "$tmp/g/platform.xml"
    awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.005) }' ||
      fail "stats predicts $b s, plain $a s: more than 0.5 % apart" ;;
  stats-check) # 8 ranks, 80 steps each ended by an allreduce; at each step one rank, chosen at random, computes 3
    # times more than the others (a rotating root's extra work; issue 35's CoMD and miniFE traces were off by -11 to
    # +50 %). Drawn, each rank's large volumes land on steps of their own, a third of the steps have none and the
    # prediction falls by about a fifth. The check at compress time finds it (the draws' lock-step estimate), says so
    # on stderr and in `info`, and keeps the traced values: the plain trace's time
    mkdir -p "$tmp/g"
    python3 - "$tmp/g" "$here" <<'PY'
import pathlib, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, sys.argv[2])
from fixed_noise import noise
out = pathlib.Path(sys.argv[1])
hot = [int(8 * noise(it, 99)) % 8 for it in range(80)]
for r in range(8):
    lines = [f"{r} init"]
    for it in range(80):
        v = 1e7 * (3 if hot[it] == r else 1) * (0.95 + 0.1 * noise(it, r))
        lines += [f"{r} compute {v:.0f}", f"{r} allreduce 8 1 0"]
    lines.append(f"{r} finalize")
    (out / f"rank-{r}.txt").write_text("\n".join(lines) + "\n")
(out / "traces.list").write_text("".join(f"{out}/rank-{r}.txt\n" for r in range(8)))
(out / "hostfile").write_text("".join(f"n{r}\n" for r in range(8)))
PY
    run "$tool" compress --values stats "$tmp/g/traces.list" "$tmp/s.tit"; [ "$status" -eq 0 ] || fail "compress failed"
    grep -q "warning: $tmp/s.tit: values 'stats': the draws would move the check's estimate by -" "$err" ||
      fail "no warning of the check"
    grep -q "every value kept as traced instead" "$err" || fail "the warning does not say what was written"
    run "$tool" info "$tmp/s.tit"; grep -q "^stats: no value drawn, every one kept as traced" "$out" ||
      fail "info does not say that no value was drawn"
    stats_within_3 "$tmp/g/traces.list" --hostfile "$tmp/g/hostfile" "$root/platforms/cluster-backbone.xml" ;;
  stats-warmup) # a 4 x 4 periodic halo of small messages on a shared backbone (SMPI's halo2d at 16 ranks): 40 steps
    # whose first 4 are a warm-up every rank goes through (8, 4.5, 2, 1.35 times the later volumes), 3 % of noise of
    # each rank's own and 5 steps 3 times slower on one rank each. The warm-up is kept in order at the start of the
    # draws (a schedule's head): within 1 %. Drawn among the others in each rank's order, it staggered the ranks, whose
    # messages then met less on the backbone: -3.0 %
    mkdir -p "$tmp/g"
    python3 - "$tmp/g" "$here" <<'PY'
import pathlib, sys
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, sys.argv[2])
from fixed_noise import noise
out = pathlib.Path(sys.argv[1])
warm, slow = [8, 4.5, 2, 1.35], {(3, 7), (14, 15), (10, 23), (12, 25), (1, 36)}
for r in range(16):
    x, y = r % 4, r // 4
    nb = [(x + 3) % 4 + 4 * y, (x + 1) % 4 + 4 * y, x + 4 * ((y + 3) % 4), x + 4 * ((y + 1) % 4)]
    lines = [f"{r} init"]
    for it in range(40):
        v = 38000 * (warm[it] if it < 4 else 1) * (0.97 + 0.06 * noise(it, r)) * (3 if (r, it) in slow else 1)
        lines.append(f"{r} compute {v:.1f}")
        lines += [f"{r} irecv {p} {f ^ 1} 192 0" for f, p in enumerate(nb)]
        lines += [f"{r} isend {p} {f} 192 0" for f, p in enumerate(nb)]
        lines.append(f"{r} waitall")
    lines.append(f"{r} finalize")
    (out / f"rank-{r}.txt").write_text("\n".join(lines) + "\n")
(out / "traces.list").write_text("".join(f"{out}/rank-{r}.txt\n" for r in range(16)))
(out / "hostfile").write_text("".join(f"n{r}\n" for r in range(16)))
PY
    stats_within_3 "$tmp/g/traces.list" --hostfile "$tmp/g/hostfile" "$root/platforms/cluster-backbone.xml"
    awk -v a="$a" -v b="$b" 'BEGIN { d = (b - a) / a; if (d < 0) d = -d; exit !(d <= 0.01) }' ||
      fail "stats predicts $b s, plain $a s: more than 1 % apart"
    # drawn: the check at compress time finds the draws as good as the traced values
    ! grep -q "values 'stats'" "$tmp/compress.err" || fail "the check kept the values of a trace stats keeps within 1 %"
    run "$tool" info "$tmp/s.tit"; grep -q "^stats: [1-9][0-9]* of [0-9]* schedules drawn" "$out" || fail "info: nothing drawn" ;;
  stats-classes) # a 3-D periodic halo (as halo3d.c) with jittered computes, now and then a short one between two calls
    # (as SMPI traces them) and one after the loop: its rank structures are the grid's boundary classes (6 at 16 ranks,
    # 9 at 64), whose loops are the same actions at the same places with other neighbours. Their computes pool into one
    # distribution per place: within 3 % at both sizes, the 64-rank file at most twice the 16-rank one, and at 64 ranks
    # the computes after the loop drawn too (64 of them), so that the ranks of a class share one value block
    for n in 16 64; do
      python3 "$root/tests/bench/gen-trace.py" --ranks $n --iterations 1 --pattern ring "$tmp/g$n" > /dev/null
      python3 - "$tmp/g$n" $n 40 <<'PY'
import pathlib, sys
out, n, iters = pathlib.Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
d = {16: (4, 2, 2), 64: (4, 4, 4)}[n]  # as MPI_Dims_create
def jitter(r, it, k):  # 1 +- 20 %, a fixed hash
    h = (r * 1_000_003 + it * 7919 + k * 104_729 + 12_345) * 2_654_435_761 % 2**32
    h = (h ^ (h >> 15)) * 2_246_822_519 % 2**32
    return 1 + 0.2 * ((h ^ (h >> 13)) / 2**31 - 1)
for r in range(n):
    c = (r % d[0], r // d[0] % d[1], r // (d[0] * d[1]))
    nb = []
    for dim in range(3):
        for s in (-1, 1):
            cc = list(c); cc[dim] = (cc[dim] + s) % d[dim]
            nb.append(cc[0] + d[0] * (cc[1] + d[1] * cc[2]))
    lines = [f"{r} init"]
    for it in range(iters):
        lines.append(f"{r} compute {int(4e6 * jitter(r, it, 0))}")
        for f, p in enumerate(nb):
            if jitter(r, it, f + 1) > 1.17:
                lines.append(f"{r} compute {int(2e4 * jitter(r, it, f + 7))}")
            lines.append(f"{r} irecv {p} {f ^ 1} 576 0")
        lines += [f"{r} isend {p} {f} 576 0" for f, p in enumerate(nb)]
        lines.append(f"{r} waitall")
    lines += [f"{r} compute {int(3e5 * jitter(r, iters, 0))}", f"{r} finalize"]
    (out / f"rank-{r}.txt").write_text("\n".join(lines) + "\n")
PY
      stats_within_3 "$tmp/g$n/traces.list" --hostfile "$tmp/g$n/hostfile" "$tmp/g$n/platform.xml"
      cp "$tmp/s.tit" "$tmp/s$n.tit"
      run "$tool" info "$tmp/s$n.tit"; cp "$out" "$tmp/info$n"
    done
    grep -qx "rank structures: 6" "$tmp/info16" || fail "16 ranks: $(grep structures "$tmp/info16")"
    grep -qx "rank structures: 9" "$tmp/info64" || fail "64 ranks: $(grep structures "$tmp/info64")"
    grep -qx "value blocks: 9" "$tmp/info64" || fail "64 ranks: $(grep blocks "$tmp/info64"), not one per class"
    s16=$(stat -c %s "$tmp/s16.tit"); s64=$(stat -c %s "$tmp/s64.tit")
    [ "$s64" -le $((2 * s16)) ] || fail "stats grows from $s16 B at 16 ranks to $s64 B at 64: more than twice" ;;
  list) # a trace list naming a compressed file alone is read; with other files it is refused with its line
    ring; printf '# whole run\nring.tit\n' > "$tmp/trace.list"
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$root/traces/ring4"
    cp "$out" "$tmp/plain.out"
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$tmp/trace.list"
    [ "$status" -eq 0 ] || fail "the list was not read"; diff "$tmp/plain.out" "$out" || fail "another prediction"
    printf '%s\nring.tit\n' "$root/traces/ring4/rank-0.txt" > "$tmp/mixed.list"
    run "$replay" "${extra[@]}" "$root/platforms/small-hetero.xml" "$root/platforms/small-hetero.deploy4.xml" "$tmp/mixed.list"
    expect_error 2 "$tmp/mixed.list:2: error:" "is a compressed trace, which holds every rank: a trace list names it on its only line" ;;
  bad-values) run "$tool" compress --values lossy "$root/traces/ring4" "$tmp/r.tit"
    expect_error 2 "unknown value mode 'lossy' (accepted: exact, binned:R, stats)"
    [ ! -e "$tmp/r.tit" ] || fail "a file was written" ;;
  bad-input) run "$tool" compress "$d/unknown" "$tmp/r.tit"; expect_error 2 "$d/unknown/" ;;
  *) echo "unknown case $case_name"; exit 2 ;;
esac
echo "PASS [$case_name]"
