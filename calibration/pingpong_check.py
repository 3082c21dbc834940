#!/usr/bin/env python3
"""Replays the measured ping-pong on a calibrated platform and compares it with the measurements.

  pingpong_check.py --p2p P2P.csv --platform PLATFORM.xml --replay TIT_REPLAY --hosts A,B
                    --workdir DIR [--tolerance 0.20] [--compare OUT.csv]

Writes a dialect-2 trace of two ranks doing one ping-pong per measured size (rank 0 sends, rank 1
answers, payload in bytes), replays it with tit-replay --actions-log, and prints per size band
(the segments of smpi/os in the platform) the median measured and predicted round trips, the
relative error |predicted - measured| / measured (median and largest over the band's sizes), and the
prediction's distance to the interquartile range of the size's repetitions relative to their median.
Exit status 1 when a band's median distance to the interquartile range exceeds the tolerance, 2 on bad
input.
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import xml.etree.ElementTree as ET


def fail(msg, code=2):
    print(f"pingpong_check: error: {msg}", file=sys.stderr)
    sys.exit(code)


def measured_round_trips(path):
    with open(path) as f:
        first = f.readline().strip()
        if first != "# tit-calibrate p2p v1":
            fail(f"{path}:1: expected '# tit-calibrate p2p v1'")
        lines = [line for line in f if line.strip() and not line.startswith("#")]
    by_size = {}
    for r in csv.DictReader(lines):
        if r["experiment"] == "pingpong":
            by_size.setdefault(int(r["size"]), []).append(float(r["seconds"]))
    if not by_size:
        fail(f"{path}: no pingpong measurement")
    return {s: sorted(v) for s, v in sorted(by_size.items())}


def quartiles(v):
    """First and third quartiles of the repetitions of one size (the value itself when there is one)."""
    if len(v) < 2:
        return v[0], v[0]
    q = statistics.quantiles(v, n=4, method="inclusive")
    return q[0], q[2]


def breaks_of(platform):
    root = ET.parse(platform).getroot()
    for prop in root.iter("prop"):
        if prop.get("id") == "smpi/os":
            return sorted(int(seg.split(":")[0]) for seg in prop.get("value").split(";") if int(seg.split(":")[0]) > 0)
    return []


def band_of(breaks, size):
    b = 0
    while b < len(breaks) and size > breaks[b]:
        b += 1
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--p2p", required=True)
    ap.add_argument("--platform", required=True)
    ap.add_argument("--replay", required=True)
    ap.add_argument("--hosts", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--tolerance", type=float, default=0.20)
    ap.add_argument("--compare")
    a = ap.parse_args()

    reps = measured_round_trips(a.p2p)
    meas = {s: statistics.median(v) for s, v in reps.items()}
    os.makedirs(os.path.join(a.workdir, "pingpong"), exist_ok=True)
    r0 = ["0 init"]
    r1 = ["1 init"]
    for s in meas:
        r0 += [f"0 send 1 0 {s} 6", f"0 recv 1 0 {s} 6"]
        r1 += [f"1 recv 0 0 {s} 6", f"1 send 0 0 {s} 6"]
    r0.append("0 finalize")
    r1.append("1 finalize")
    for r, lines in ((0, r0), (1, r1)):
        with open(os.path.join(a.workdir, "pingpong", f"rank-{r}.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
    hostfile = os.path.join(a.workdir, "pingpong.hosts")
    with open(hostfile, "w") as f:
        f.write("\n".join(a.hosts.split(",")) + "\n")
    log = os.path.join(a.workdir, "pingpong.actions")
    cmd = [a.replay, "--hostfile", hostfile, "--actions-log", log, a.platform, os.path.join(a.workdir, "pingpong")]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{' '.join(cmd)} failed ({run.returncode}):\n{run.stderr}")

    # rank 0's actions: send, recv per size, in order
    starts = []
    ends = []
    with open(log) as f:
        for line in f:
            if line.startswith("#"):
                continue
            rank, start, end, action = line.rstrip("\n").split("\t")[:4]
            if rank == "0" and action.split()[1] == "send":
                starts.append(float(start))
            elif rank == "0" and action.split()[1] == "recv":
                ends.append(float(end))
    if len(starts) != len(meas) or len(ends) != len(meas):
        fail(f"{log}: expected {len(meas)} sends and receives of rank 0, got {len(starts)} and {len(ends)}")
    pred = {s: e - b for s, b, e in zip(meas, starts, ends)}

    breaks = breaks_of(a.platform)
    if a.compare:
        with open(a.compare, "w") as f:
            f.write("# tit-calibrate compare v1\nsize,measured,predicted\n")
            for s in meas:
                f.write(f"{s},{meas[s]:.9g},{pred[s]:.9g}\n")
    # A prediction is judged against what the repetitions of its size measured: its distance to their
    # interquartile range, relative to their median (0 inside it). On a quiet machine the range is narrow and
    # this is the error against the median; when other work disturbs the measurements, the range widens with
    # them, and the model is not blamed for a spread it cannot have.
    def beyond(s):
        q1, q3 = quartiles(reps[s])
        return max(0.0, q1 - pred[s], pred[s] - q3) / meas[s]

    print(f"{'band (bytes)':<22} {'sizes':>5} {'measured (s)':>13} {'predicted (s)':>13} {'median err':>10} "
          f"{'max err':>8} {'beyond IQR':>10}")
    ok = True
    for b in range(len(breaks) + 1):
        sizes = [s for s in meas if band_of(breaks, s) == b]
        if not sizes:
            continue
        lo = "[0" if b == 0 else f"({breaks[b - 1]}"
        hi = f"{breaks[b]}]" if b < len(breaks) else f"{max(sizes)}]"
        errs = [abs(pred[s] - meas[s]) / meas[s] for s in sizes]
        med = statistics.median(errs)
        out = statistics.median(beyond(s) for s in sizes)
        ok = ok and out <= a.tolerance
        print(f"{lo + ', ' + hi:<22} {len(sizes):>5} {statistics.median(meas[s] for s in sizes):>13.4g} "
              f"{statistics.median(pred[s] for s in sizes):>13.4g} {100 * med:>9.1f}% {100 * max(errs):>7.1f}% "
              f"{100 * out:>9.1f}%")
    allerr = [abs(pred[s] - meas[s]) / meas[s] for s in meas]
    print(f"all sizes: median error {100 * statistics.median(allerr):.1f}% (largest {max(allerr):.2g}), tolerance per band "
          f"{100 * a.tolerance:.2g}% beyond the measured interquartile range: {'pass' if ok else 'FAIL'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
