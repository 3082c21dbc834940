#!/usr/bin/env python3
"""Helpers of the tracer tests: normalise a trace set for golden comparison and check it.

  trace_tool.py actions LIST          action lines of every rank in list order, without comments and
                                      `compute` lines, trailing blanks removed, runs of identical
                                      test/testany/testall/testsome lines collapsed to one (their
                                      number depends on timing); the key of a wait or test on a
                                      nonblocking collective (negative tag other than -444, the
                                      wildcard) becomes `NBC` (SimGrid's key is an internal counter)
  trace_tool.py check LIST MIN        every rank file starts with its header and `init`, ends with
                                      `finalize`, is not marked incomplete, and has compute lines with
                                      positive integer volumes summing to at least MIN per rank
  trace_tool.py timings DIR           each timings-<r>.csv has the header and one row per action line
                                      of rank-<r>.txt, naming that line's action, with 0 <= start <= end
                                      and rows in time order
  trace_tool.py bursts LIST OUT RATE MODE
                                      compares the compute volume after each barrier of every rank
                                      with the CPU time the program measured itself (cpuwork's
                                      "burst R I NS" lines in OUT): MODE "cpu" requires each within
                                      3% + 0.2 ms of it; MODE "wall" requires their total to exceed
                                      1.5 x the measured total (ranks folded on one core: wall time
                                      counts the other rank's time)
  trace_tool.py computes LIST PROXYLIST MIN TOL
                                      compute volume between consecutive non-compute actions, rank by
                                      rank, of a trace and of its proxy's trace (same action sequence
                                      assumed): prints the ratio of every segment whose original volume
                                      is at least MIN; fails if one differs by more than TOL (relative)
  trace_tool.py first-compute LIST PROXY.c
                                      the proxy times a rank's first compute from MPI_Init's return
                                      exactly for the ranks whose first action after init is a compute
                                      (its tables rank_structure and starts_computing); prints how many
Exit 0 when fine, 1 with a message otherwise.
"""
import os
import sys

POLLS = {"test", "testany", "testall", "testsome"}


def rank_files(list_path):
    base = os.path.dirname(os.path.abspath(list_path))
    files = []
    with open(list_path) as f:
        for line in f:
            line = line.strip()
            if line:
                files.append(line if os.path.isabs(line) else os.path.join(base, line))
    return files


def actions(path):
    out = []
    with open(path) as f:
        for line in f:
            line = line.rstrip()
            words = line.split()
            if not words or words[0].startswith("#") or (len(words) > 1 and words[1] == "compute"):
                continue
            if len(words) == 5 and words[1] in ("wait", "test") and words[4].startswith("-") and words[4] != "-444":
                words[2:] = ["NBC"]  # a nonblocking collective's request: SimGrid's key is internal
            line = " ".join(words)
            if out and out[-1] == line and words[1] in POLLS:
                continue
            out.append(line)
    return out


def fail(msg):
    print("trace_tool: " + msg, file=sys.stderr)
    sys.exit(1)


def check(list_path, min_compute):
    files = rank_files(list_path)
    if not files:
        fail(f"{list_path}: empty trace list")
    for r, path in enumerate(files):
        with open(path) as f:
            lines = [l.rstrip("\n") for l in f]
        if not lines or not lines[0].startswith("# tit-trace "):
            fail(f"{path}:1: expected the '# tit-trace' header")
        header = [l for l in lines if l.startswith("#")]
        for key in ("# compute: ", "# rate: ", "# host: ", "# mpi: ", "# date: "):
            if not any(h.startswith(key) for h in header):
                fail(f"{path}: header line '{key.strip()}' missing")
        if any("INCOMPLETE" in h for h in header):
            fail(f"{path}: marked incomplete")
        body = [(i + 1, l.split()) for i, l in enumerate(lines) if l.strip() and not l.startswith("#")]
        if not body or body[0][1] != [str(r), "init"]:
            fail(f"{path}: first action is not '{r} init'")
        if body[-1][1] != [str(r), "finalize"]:
            fail(f"{path}: last action is not '{r} finalize' (truncated?)")
        total = 0
        for n, w in body:
            if w[0] != str(r):
                fail(f"{path}:{n}: line of rank {w[0]} in the file of rank {r}")
            if w[1] == "compute":
                if len(w) != 3 or not w[2].isdigit() or int(w[2]) <= 0:
                    fail(f"{path}:{n}: compute volume is not a positive integer: {' '.join(w)}")
                total += int(w[2])
        if total < min_compute:
            fail(f"{path}: total compute volume {total} is below the plausible minimum {min_compute}")


def timings(d):
    r = 0
    while os.path.exists(os.path.join(d, f"rank-{r}.txt")):
        with open(os.path.join(d, f"rank-{r}.txt")) as f:
            trace = [l.split() for l in f]
        tpath = os.path.join(d, f"timings-{r}.csv")
        with open(tpath) as f:
            lines = f.readlines()
        comments = [l for l in lines if l.startswith("#")]
        if [c.split(":")[0] for c in comments] != ["# origin", "# host"] or lines[:2] != comments:
            fail(f"{tpath}: expected '# origin:' and '# host:' lines first, got {comments}")
        rows = [l.rstrip("\n").split(",") for l in lines[2:]]
        if rows[0] != ["line", "action", "start_s", "end_s"]:
            fail(f"{tpath}:1: bad header {rows[0]}")
        action_lines = [i + 1 for i, w in enumerate(trace) if w and not w[0].startswith("#")]
        seen = [int(row[0]) for row in rows[1:]]
        if seen != action_lines:
            fail(f"{tpath}: rows name lines {seen[:8]}..., the trace's action lines are {action_lines[:8]}...")
        last = 0.0
        for k, row in enumerate(rows[1:], start=2):
            line, action, start, end = int(row[0]), row[1], float(row[2]), float(row[3])
            if trace[line - 1][1] != action:
                fail(f"{tpath}:{k}: action '{action}' but line {line} of the trace is '{' '.join(trace[line - 1])}'")
            if not (0 <= start <= end) or start < last - 1e-9:
                fail(f"{tpath}:{k}: times out of order ({start}, {end}, previous end {last})")
            last = end
        r += 1
    if r == 0:
        fail(f"{d}: no rank-0.txt")


def bursts(list_path, out_path, rate, mode):
    measured = {}
    with open(out_path) as f:
        for line in f:
            w = line.split()
            if len(w) == 4 and w[0] == "burst":
                measured[(int(w[1]), int(w[2]))] = int(w[3]) * 1e-9
    if not measured:
        fail(f"{out_path}: no 'burst' lines")
    traced = {}
    for r, path in enumerate(rank_files(list_path)):
        body = [l.split() for l in open(path) if l.strip() and not l.startswith("#")]
        barrier = -1
        for i, w in enumerate(body):
            if w[1] == "barrier":
                barrier += 1
                nxt = body[i + 1] if i + 1 < len(body) else None
                if nxt is not None and nxt[1] == "compute":
                    traced[(r, barrier)] = int(nxt[2]) / rate
    total_m = total_t = 0.0
    for key in sorted(measured):
        m = measured[key]
        t = traced.get(key, 0.0)
        print(f"rank {key[0]} burst {key[1]}: program {m * 1e3:.3f} ms, trace {t * 1e3:.3f} ms, ratio {t / m:.4f}")
        total_m += m
        total_t += t
        if mode == "cpu" and abs(t - m) > 0.03 * m + 2e-4:
            fail(f"rank {key[0]} burst {key[1]}: the trace says {t * 1e3:.3f} ms of CPU, the program measured {m * 1e3:.3f} ms")
    print(f"total: program {total_m * 1e3:.3f} ms, trace {total_t * 1e3:.3f} ms, ratio {total_t / total_m:.4f}")
    if mode == "wall" and total_t < 1.5 * total_m:
        fail(f"wall-time volumes total {total_t * 1e3:.3f} ms, not above 1.5 x the CPU time {total_m * 1e3:.3f} ms: "
             "were the ranks folded on one core?")


def segments(path):
    """Compute volume summed between consecutive non-compute action lines."""
    out, acc = [], 0.0
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if len(words) > 2 and words[1] == "compute":
                acc += float(words[2])
            else:
                out.append(acc)
                acc = 0.0
    out.append(acc)
    return out


def computes(list_path, proxy_list, minimum, tol):
    worst, n, errs = 0.0, 0, []
    for rank, (a, b) in enumerate(zip(rank_files(list_path), rank_files(proxy_list))):
        for i, (x, y) in enumerate(zip(segments(a), segments(b))):
            if x >= minimum:
                n += 1
                err = abs(y - x) / x
                worst = max(worst, err)
                errs.append(err)
                print("rank %d segment %d: trace %.0f proxy %.0f ratio %.3f" % (rank, i, x, y, y / x))
                if err > tol:
                    fail("rank %d segment %d: proxy compute %.0f, trace %.0f: off by more than %g" % (rank, i, y, x, tol))
    errs.sort()
    q = lambda p: errs[min(len(errs) - 1, int(p * len(errs)))] if errs else 0.0
    print("compute segments >= %g: %d, worst relative difference %.3f (median %.3f, 90th percentile %.3f, "
          "within 5%%: %d)" % (minimum, n, worst, q(0.5), q(0.9), sum(e <= 0.05 for e in errs)))


def c_table(source, name):
    """The integers of `static const ... name[...] = {...};` in a generated C file."""
    import re
    m = re.search(r"static const [a-z ]+" + name + r"\[[A-Z]*\] = \{([-0-9, ]*)\};", source)
    if not m:
        fail("%s: no table %s" % ("the proxy", name))
    return [int(v) for v in m.group(1).split(",") if v.strip()]


def first_compute(list_path, proxy_c):
    with open(proxy_c) as f:
        source = f.read()
    structure, starts = c_table(source, "rank_structure"), c_table(source, "starts_computing")
    n = 0
    for rank, path in enumerate(rank_files(list_path)):
        first = next((w[1] for w in (l.split() for l in open(path))
                      if len(w) > 1 and not w[0].startswith("#") and w[1] not in ("init", "comm_size")), None)
        expected = 1 if first == "compute" else 0
        if starts[structure[rank]] != expected:
            fail("rank %d: first action %s, but the proxy's starts_computing says %d" % (rank, first, starts[structure[rank]]))
        n += expected
    print("first computes timed from MPI_Init: %d of %d ranks" % (n, len(structure)))


def main(argv):
    if len(argv) >= 2 and argv[0] == "actions":
        for path in rank_files(argv[1]):
            for line in actions(path):
                print(line)
    elif len(argv) == 3 and argv[0] == "check":
        check(argv[1], int(float(argv[2])))
    elif len(argv) == 5 and argv[0] == "bursts":
        bursts(argv[1], argv[2], float(argv[3]), argv[4])
    elif len(argv) == 5 and argv[0] == "computes":
        computes(argv[1], argv[2], float(argv[3]), float(argv[4]))
    elif len(argv) == 3 and argv[0] == "first-compute":
        first_compute(argv[1], argv[2])
    elif len(argv) == 2 and argv[0] == "timings":
        timings(argv[1])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
