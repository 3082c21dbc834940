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
  stencil    RANKS a cube (27, 64...) on a 3-D grid without wrap-around: each iteration, two exchanges with every
             neighbour (26 for an interior rank, 7 for a corner; faces 8 KiB, edges 1 KiB, corners 128 bytes) as
             LULESH makes them (irecvs, computes and isends, a wait for each), then an allreduce; an interior rank's iteration
             is longer than the folder's window, a corner's is not; before the first, a set-up exchange of a
             receive from any source, a send and a wait per neighbour (an interior rank folds the receives and the waits
             into loops of 26, as miniFE's)
Standard library only; output is deterministic.
"""
import os
import sys


def neighbours(r, side):
    """The neighbours of rank r on a side x side x side grid, each with its message size."""
    x, y, z = r % side, r // side % side, r // (side * side)
    near = []
    for dz in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                a, b, c = x + dx, y + dy, z + dz
                if (dx, dy, dz) != (0, 0, 0) and 0 <= min(a, b, c) and max(a, b, c) < side:
                    zeros = (dx, dy, dz).count(0)
                    near.append((a + side * (b + side * c), {2: 8192, 1: 1024, 0: 128}[zeros]))
    return near


def stencil_setup(r, side):
    """The set-up exchange of the stencil pattern, as miniFE's: receives from any source, sends, waits of 8 bytes."""
    near = neighbours(r, side)
    out = [f"{r} irecv -333 9 8 0" for _ in near] + [f"{r} send {p} 9 8 0" for p, _ in near]
    return out + [f"{r} wait -333 {r} 9" for _ in near] + [f"{r} compute 100000"]


def stencil_iteration(r, side):
    """One iteration of rank r of the stencil pattern on a side x side x side grid."""
    near = neighbours(r, side)
    out = []
    for phase in (1, 2):
        out += [f"{r} irecv {p} {phase} {size} 0" for p, size in near]
        out.append(f"{r} compute 1500000")
        for p, size in near:
            out += [f"{r} compute 20000", f"{r} isend {p} {phase} {size} 0"]
        out += [f"{r} wait {p} {r} {phase}" for p, _ in near]  # each receive waited for, then each send
        out += [f"{r} wait {r} {p} {phase}" for p, _ in near]
    out += [f"{r} compute 300000", f"{r} allreduce 1 1000 0"]
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    out, pattern, n, iters = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    os.makedirs(out, exist_ok=True)
    paths = []
    side = round(n ** (1 / 3))
    for r in range(n):
        lines = [f"{r} init", f"{r} compute 5e6"]
        left, right = (r - 1) % n, (r + 1) % n
        for i in range(iters):
            if pattern == "stencil":
                if i == 0:  # a set-up exchange, as miniFE's: one loop of 26 receives on an interior rank
                    lines += stencil_setup(r, side)
                lines += stencil_iteration(r, side)
                continue
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
