#!/usr/bin/python3
"""Writes a random, deadlock-free dialect-2 trace (one file per rank) for the analysis property tests.

Usage: random_trace.py OUTDIR SEED [RANKS] [STEPS]

Each step is, for every rank, a computation of random length, then one of: a blocking message between
a random pair (sizes on both sides of the 65536-byte rendez-vous threshold), a nonblocking exchange
between two ranks (isend/irecv/wait), a collective of every rank (random kind and root), or nothing.
All ranks draw the same step kinds from the same generator, so the trace never deadlocks.
"""
import os
import random
import sys


def main():
    out, seed = sys.argv[1], int(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 6
    steps = int(sys.argv[4]) if len(sys.argv) > 4 else 40
    rng = random.Random(seed)
    lines = [["init"] for _ in range(n)]
    size = lambda: rng.choice([0, 8, 1000, 60000, 70000, 1000000])
    for _ in range(steps):
        for r in range(n):
            if rng.random() < 0.8:
                lines[r].append(f"compute {rng.randint(1, 1000) * 1e6:g}")
        kind = rng.choice(["p2p", "p2p", "nb", "coll", "none"])
        if kind == "p2p":
            a, b = rng.sample(range(n), 2)
            s = size()
            lines[a].append(f"send {b} 1 {s}")
            lines[b].append(f"recv {a} 1 {s}")
        elif kind == "nb":
            a, b = rng.sample(range(n), 2)
            s, t = size(), size()
            lines[a] += [f"isend {b} 2 {s}", f"irecv {b} 3 {t}"]
            lines[b] += [f"irecv {a} 2 {s}", f"isend {a} 3 {t}"]
            if rng.random() < 0.5:
                lines[b].append(f"compute {rng.randint(1, 1000) * 1e6:g}")
            lines[a].append("waitall")
            lines[b].append("waitall")
        elif kind == "coll":
            c = rng.choice(["barrier", "bcast", "reduce", "allreduce", "alltoall", "allgather", "scan", "gather"])
            root = rng.randrange(n)
            s = size() // 8
            for r in range(n):
                lines[r].append({"barrier": "barrier", "bcast": f"bcast {s} {root} 0",
                                 "reduce": f"reduce {s} 1e6 {root} 0", "allreduce": f"allreduce {s} 1e6 0",
                                 "alltoall": f"alltoall {s} {s} 0 0", "allgather": f"allgather {s} {s} 0 0",
                                 "scan": f"scan {s} 1e6 0", "gather": f"gather {s} {s} {root} 0 0"}[c])
    os.makedirs(out, exist_ok=True)
    for r in range(n):
        with open(os.path.join(out, f"rank-{r}.txt"), "w") as f:
            for l in lines[r] + ["finalize"]:
                f.write(f"{r} {l}\n")


if __name__ == "__main__":
    main()
