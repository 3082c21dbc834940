#!/usr/bin/env python3
"""Traces for the fast-forward tests (tests/fastforward/run.sh), one SimGrid-dialect file per rank in OUTDIR, and
a trace list OUTDIR/traces.list.

usage: gen.py OUTDIR PATTERN RANKS ITERATIONS

Every pattern is an init, a warm-up compute, a loop of ITERATIONS iterations, an allreduce and a finalize:
  ring       each iteration: compute 2e6, irecv from the left, isend 64 KiB to the right, waitall (all alike)
  pipeline   a wavefront: rank r receives from r-1, computes 1e6, sends 8 KiB to r+1 (the first iterations fill
             the pipeline)
  drift      ring, the compute volume growing by 1 % of its first value every iteration
  phases     ring, the compute volume alternating between 1e6 and 4e6
  noise      ring, the compute volume 2e6 x (1 + 0.2 u), u in [-1, 1) a fixed hash of rank and iteration
  bytes      ring, the message growing by 512 bytes every iteration (message volumes that change)
  uneven     ring, and every other iteration rank 0 sends rank 1 one more message: ranks 0 and 1 fold a loop of
             two iterations, run half as many times as the others' (their loops differ)
  short      ring with ITERATIONS as given (a short loop is not cut)
Standard library only; output is deterministic.
"""
import os
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    out, pattern, n, iters = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    paths = []
    for r in range(n):
        lines = [f"{r} init", f"{r} compute 5e6"]
        left, right = (r - 1) % n, (r + 1) % n
        for i in range(iters):
            if pattern == "pipeline":
                if r > 0:
                    lines.append(f"{r} recv {r - 1} 0 1024 0")
                lines.append(f"{r} compute 1000000")
                if r < n - 1:
                    lines.append(f"{r} send {r + 1} 0 1024 0")
                continue
            volume = 2000000
            size = 8192
            if pattern == "drift":
                volume = 2000000 + 20000 * i
            elif pattern == "phases":
                volume = 1000000 if i % 2 == 0 else 4000000
            elif pattern == "noise":
                u = ((r * 7919 + i * 104729) % 1000) / 500.0 - 1.0
                volume = int(2000000 * (1 + 0.2 * u))
            elif pattern == "bytes":
                size = 8192 + 64 * i
            lines.append(f"{r} compute {volume}")
            if pattern == "uneven" and i % 2 == 1 and r in (0, 1):
                lines.append(f"{r} send 1 1 8 0" if r == 0 else f"{r} recv 0 1 8 0")
            lines.append(f"{r} irecv {left} 0 {size} 0")
            lines.append(f"{r} isend {right} 0 {size} 0")
            lines.append(f"{r} waitall 2")
        lines += [f"{r} allreduce 1 1000 0", f"{r} finalize"]
        path = os.path.join(out, f"rank-{r}.txt")
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        paths.append(os.path.abspath(path))
    with open(os.path.join(out, "traces.list"), "w") as f:
        f.write("\n".join(paths) + "\n")


if __name__ == "__main__":
    main()
