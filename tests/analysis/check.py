#!/usr/bin/python3
"""Checks of tit-replay's analysis and timeline outputs, used by tests/analysis/run.sh.

  check.py invariants ANALYSIS.json           every rank: busy + communication + waiting = elapsed; delay
                                              costs never negative and summing to the total waiting; the
                                              critical path as long as the prediction
  check.py value ANALYSIS.json PATH EXPECTED  one number (PATH like total.patterns.late_sender or
                                              ranks.1.waiting, or cost:RANK:ACTIVITY:short_term)
  check.py csv-vs-paje TIMELINE.csv PJ_DUMP   the Paje states are exactly the CSV's actions
  check.py csv-vs-chrome TIMELINE.csv TRACE.json  the Chrome slices are exactly the CSV's actions, and every
                                              flow start has its end
  check.py same-actions A.json B.json NAME...  both analyses have exactly the actions NAME... (by kind), with
                                              the same busy, communication, waiting and critical-path times
"""
import csv
import json
import sys

TOL = 1e-9


def close(a, b, tol=TOL):
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


def fail(msg):
    print(f"check.py: FAIL: {msg}")
    sys.exit(1)


def invariants(path):
    d = json.load(open(path))
    assert d["schema"] == "tit-replay analysis v1"
    waiting = 0.0
    for r in d["ranks"]:
        total = r["busy"] + r["communication"] + r["waiting"]
        if not close(total, r["elapsed"]):
            fail(f"rank {r['rank']}: busy + communication + waiting = {total!r} != elapsed {r['elapsed']!r}")
        for k in ("busy", "communication", "waiting"):
            if r[k] < -1e-12:
                fail(f"rank {r['rank']}: negative {k} {r[k]}")
        if not close(sum(r["patterns"].values()), r["waiting"]):
            fail(f"rank {r['rank']}: patterns do not add up to its waiting")
        waiting += r["waiting"]
    costs = d["delay_costs"]
    total = 0.0
    for c in costs["causes"]:
        if c["short_term"] < -1e-12 or c["long_term"] < -1e-12:
            fail(f"negative delay cost {c}")
        total += c["short_term"] + c["long_term"]
    if not close(total, waiting, 1e-7):
        fail(f"delay costs sum to {total!r}, total waiting is {waiting!r}")
    if not close(costs["total"], total, 1e-7):
        fail(f"delay_costs.total {costs['total']!r} != sum of causes {total!r}")
    if not close(d["critical_path"]["length"], d["simulated_time"], 1e-7):
        fail(f"critical path {d['critical_path']['length']!r} != simulated time {d['simulated_time']!r}")
    path = sum(r["critical_path"] for r in d["ranks"])
    if not close(path, d["critical_path"]["length"], 1e-7):
        fail(f"critical path per rank sums to {path!r}, length {d['critical_path']['length']!r}")
    print(f"invariants hold: {len(d['ranks'])} ranks, waiting {waiting:.9g} s, costs {total:.9g} s, "
          f"path {d['critical_path']['length']:.9g} s")


def value(path, where, expected):
    d = json.load(open(path))
    if where.startswith("cost:"):
        _, rank, activity, part = where.split(":")
        got = sum(c[part] for c in d["delay_costs"]["causes"] if c["rank"] == int(rank) and c["activity"] == activity)
    else:
        got = d
        for k in where.split("."):
            got = got[int(k)] if isinstance(got, list) else got.get(k, 0.0)
    if not close(float(got), float(expected), 1e-6):
        fail(f"{where} = {got!r}, expected {expected}")
    print(f"{where} = {got:.9g} as expected")


def csv_actions(path):
    with open(path, newline="") as f:
        first = f.readline()
        if not first.startswith("# tit-replay timeline csv v1"):
            fail(f"{path}: no schema line")
        rows = list(csv.DictReader(f))
    actions = [(int(r["rank"]), r["action"], float(r["start"]), float(r["end"])) for r in rows if r["record"] == "action"]
    messages = [r for r in rows if r["record"] == "message"]
    return sorted(actions), messages


def csv_rows_in_order(path):
    with open(path, newline="") as f:
        f.readline()
        return [(int(r["rank"]), r["action"], float(r["start"]), float(r["end"])) for r in csv.DictReader(f)
                if r["record"] == "action"]


def csv_vs_paje(csv_path, dump_path):
    actions, messages = csv_actions(csv_path)
    states = []
    links = 0
    for line in open(dump_path):
        f = [x.strip() for x in line.split(",")]
        if f[0] == "State":
            rank = int(f[1].split()[1])
            states.append((rank, f[7], float(f[3]), float(f[4])))
        elif f[0] == "Link":
            links += 1
    states.sort()
    # pj_dump leaves out the zero-length states that sit at the very end of the run (a container's
    # destruction time): they are in the file (with the destruction moved later, pj_dump shows them).
    end = max(a[3] for a in actions)
    last = {}
    for a in csv_rows_in_order(csv_path):
        last[a[0]] = a
    hidden = {a for a in last.values() if a[2] == a[3] == end}
    shown = [a for a in actions if a not in hidden]
    if len(states) != len(actions) and len(states) == len(shown):
        actions = shown
    if len(states) != len(actions):
        fail(f"{len(states)} Paje states, {len(actions)} CSV actions")
    for s, a in zip(states, actions):
        if s[0] != a[0] or s[1] != a[1] or not close(s[2], a[2], 1e-9) or not close(s[3], a[3], 1e-9):
            fail(f"Paje state {s} != CSV action {a}")
    if links < len(messages):
        fail(f"{links} Paje links for {len(messages)} messages")
    print(f"Paje matches the CSV: {len(states)} states, {links} links")


def csv_vs_chrome(csv_path, trace_path):
    actions, messages = csv_actions(csv_path)
    d = json.load(open(trace_path))
    slices = sorted((e["tid"], e["name"], e["args"]["start_s"], e["args"]["end_s"]) for e in d["traceEvents"]
                    if e["ph"] == "X")
    if slices != actions:
        fail(f"Chrome slices differ from the CSV actions ({len(slices)} vs {len(actions)})")
    for e in d["traceEvents"]:
        if e["ph"] == "X" and not close(e["ts"] + e["dur"], e["args"]["end_s"] * 1e6, 1e-9):
            fail(f"slice {e} has ts + dur != end")
    starts = {e["id"] for e in d["traceEvents"] if e["ph"] == "s"}
    ends = {e["id"] for e in d["traceEvents"] if e["ph"] == "f"}
    if not ends <= starts:
        fail("a flow ends that never started")
    if len(ends) != len(messages):
        fail(f"{len(ends)} flows, {len(messages)} CSV messages")
    print(f"Chrome trace matches the CSV: {len(slices)} slices, {len(ends)} flows")


def same_actions(a_path, b_path, *names):
    a, b = (json.load(open(p))["actions"] for p in (a_path, b_path))
    for path, d in ((a_path, a), (b_path, b)):
        if sorted(d) != sorted(names):
            fail(f"{path}: actions {sorted(d)}, expected {sorted(names)}")
    for name in names:
        for k in ("busy", "communication", "waiting", "critical_path"):
            if not close(a[name][k], b[name][k]):
                fail(f"action {name}: {k} {a[name][k]!r} in {a_path}, {b[name][k]!r} in {b_path}")
    print(f"the same {len(names)} actions with the same times")


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    {"invariants": invariants, "value": value, "csv-vs-paje": csv_vs_paje, "csv-vs-chrome": csv_vs_chrome,
     "same-actions": same_actions}[cmd](*args)
