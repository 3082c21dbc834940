#!/usr/bin/env python3
"""Generate a synthetic time-independent trace for benchmarking tit-replay against smpirun -replay.

Writes, into OUTDIR:
  rank-<r>.txt   one SimGrid-dialect (dialect 2) trace per rank
  traces.list    a trace list (absolute paths, line i = rank i)
  platform.xml   a <cluster> of N hosts behind a backbone (--no-backbone: without one; --fat-tree: a
                 two-level fat tree of px x py hosts, px leaf switches under one top switch, whose
                 links every message between two leaves shares)
  hostfile       one host per line, rank i on host i
  merged.txt     with --merged: the same traces as one merged file, line k of every rank in turn (one
                 open file for any number of ranks)
and prints the total number of actions on stdout.

Each iteration of every rank is a 1-D ring/halo step, a mix of the point-to-point patterns SimGrid
replays:
  compute, irecv left, irecv right, isend right, isend left, wait x4 (or one waitall every 4th
  iteration), compute, blocking ring shift (even ranks send then recv, odd ranks recv then send).
Message sizes cycle through values below and above the 65536-byte detached threshold. The trace is
deadlock-free for any N >= 2 under both the detached and the rendez-vous protocol.

Two more patterns follow issue 18's scaling study:
  ring8k   per iteration: compute 1e6 flops, irecv from the left, isend of 8 KiB to the right, waitall;
  halo2d   an NPB-like 2-D halo on a near-square grid of ranks (periodic): compute, irecv and isend of
           8 KiB with each of the 4 neighbours, waitall, then an allreduce of one double.
And one for setup phases:
  allgather per iteration: compute, then an allgather of one double (p - 1 buffered messages a rank);
  allgathers ITERATIONS allgathers with no computation between them (messages a rank holds, then detaches).

With --noise F (halo and ring patterns), each compute volume is also multiplied by 1 + F*u, u in [-1, 1) a fixed hash of the
rank, the iteration and the action, as measured volumes jitter (the `stats` value mode of compressed
traces is for such traces). The default, 0, writes the traces as before.

Standard library only; output is deterministic for given arguments.
"""

import argparse
import os
import sys

DOUBLE = 0  # datatype id of MPI_DOUBLE (8 bytes) in the SimGrid dialect

# Halo message sizes in doubles: 512 B, 8 KiB, 32 KiB (detached), 128 KiB, 512 KiB (rendez-vous).
HALO_COUNTS = (64, 1024, 4096, 16384, 65536)
# Ring-shift sizes in doubles: 8000 B (detached), 80000 B (rendez-vous), 800 B.
SHIFT_COUNTS = (1000, 10000, 100)


NOISE = 0.0  # --noise
UNIFORM = False  # --uniform


def jitter(flops, rank, it, which):
    """flops * (1 + NOISE * u), u in [-1, 1) from a fixed hash (no random module: the same on every machine)."""
    if NOISE == 0:
        return flops
    h = (rank * 1_000_003 + it * 7919 + which * 104_729 + 12_345) * 2_654_435_761 % 2**32
    h = (h ^ (h >> 15)) * 2_246_822_519 % 2**32
    u = (h ^ (h >> 13)) / 2**31 - 1
    return int(flops * (1 + NOISE * u))


def rank_lines(rank, nranks, iterations):
    left = (rank - 1) % nranks
    right = (rank + 1) % nranks
    yield f"{rank} init"
    for it in range(iterations):
        # Deterministic load imbalance: 1e6 .. 2.9e6 flops.
        flops = 2_000_000 if UNIFORM else 1_000_000 + 100_000 * ((rank * 7 + it * 13) % 20)
        yield f"{rank} compute {jitter(flops, rank, it, 0)}"
        count = HALO_COUNTS[it % len(HALO_COUNTS)]
        yield f"{rank} irecv {left} 1 {count} {DOUBLE}"
        yield f"{rank} irecv {right} 2 {count} {DOUBLE}"
        yield f"{rank} isend {right} 1 {count} {DOUBLE}"
        yield f"{rank} isend {left} 2 {count} {DOUBLE}"
        if it % 4 == 3:
            yield f"{rank} waitall"
        else:
            yield f"{rank} wait {left} {rank} 1"
            yield f"{rank} wait {right} {rank} 2"
            yield f"{rank} wait {rank} {right} 1"
            yield f"{rank} wait {rank} {left} 2"
        yield f"{rank} compute {jitter(flops // 2, rank, it, 1)}"
        shift = SHIFT_COUNTS[it % len(SHIFT_COUNTS)]
        send = f"{rank} send {right} 3 {shift} {DOUBLE}"
        recv = f"{rank} recv {left} 3 {shift} {DOUBLE}"
        if rank % 2 == 0:
            yield send
            yield recv
        else:
            yield recv
            yield send
    yield f"{rank} finalize"


def ring_lines(rank, nranks, iterations):
    """A lighter pattern: one neighbour exchange per iteration around a ring, so that fewer transfers
    overlap and the replay is less bound by SimGrid's network solver (which both replayers share)."""
    left = (rank - 1) % nranks
    right = (rank + 1) % nranks
    yield f"{rank} init"
    for it in range(iterations):
        flops = 2_000_000 if UNIFORM else 1_000_000 + 100_000 * ((rank * 7 + it * 13) % 20)
        count = HALO_COUNTS[it % len(HALO_COUNTS)]
        tag = it % 5
        yield f"{rank} compute {jitter(flops, rank, it, 0)}"
        yield f"{rank} irecv {left} {tag} {count} {DOUBLE}"
        yield f"{rank} isend {right} {tag} {count} {DOUBLE}"
        yield f"{rank} compute {jitter(flops // 5, rank, it, 1)}"
        yield f"{rank} wait {left} {rank} {tag}"
        yield f"{rank} wait {rank} {right} {tag}"
    yield f"{rank} finalize"


def ring8k_lines(rank, nranks, iterations):
    """Issue 18's ring: one 8 KiB buffered message per rank and iteration, all in flight together."""
    left = (rank - 1) % nranks
    right = (rank + 1) % nranks
    yield f"{rank} init"
    for _ in range(iterations):
        yield f"{rank} compute 1000000"
        yield f"{rank} irecv {left} 0 1024 {DOUBLE}"
        yield f"{rank} isend {right} 0 1024 {DOUBLE}"
        yield f"{rank} waitall"
    yield f"{rank} finalize"


def grid_shape(nranks):
    """The most square px x py = nranks (px <= py)."""
    px = int(nranks ** 0.5)
    while nranks % px:
        px -= 1
    return px, nranks // px


def halo2d_lines(rank, nranks, iterations):
    """An NPB-like step: a 2-D periodic halo exchange of 8 KiB per neighbour, then an allreduce."""
    px, py = grid_shape(nranks)
    x, y = rank % px, rank // px
    neighbours = [((x - 1) % px) + y * px, ((x + 1) % px) + y * px, x + ((y - 1) % py) * px, x + ((y + 1) % py) * px]
    yield f"{rank} init"
    for it in range(iterations):
        yield f"{rank} compute {1_000_000 + 50_000 * ((rank * 7 + it * 13) % 20)}"
        for tag, n in enumerate(neighbours):
            yield f"{rank} irecv {n} {tag ^ 1} 1024 {DOUBLE}"
        for tag, n in enumerate(neighbours):
            yield f"{rank} isend {n} {tag} 1024 {DOUBLE}"
        yield f"{rank} waitall"
        yield f"{rank} allreduce 1 1000 {DOUBLE}"
    yield f"{rank} finalize"


def allgather_lines(rank, nranks, iterations):
    """Setup phases of real codes (miniFE's three): SMPI's default allgather sends every rank's block to every
    other rank at once, p - 1 buffered messages a rank between two computations."""
    yield f"{rank} init"
    for it in range(iterations):
        yield f"{rank} compute {1_000_000 + 50_000 * ((rank * 7 + it * 13) % 20)}"
        yield f"{rank} allgather 1 1 {DOUBLE} {DOUBLE}"
    yield f"{rank} finalize"


def allgathers_lines(rank, nranks, iterations):
    """ITERATIONS allgathers back to back, then one computation: (p - 1) x ITERATIONS buffered messages a rank
    between two computations, beyond what a rank keeps when that is more than twice the ranks (or 256)."""
    yield f"{rank} init"
    yield f"{rank} compute {1_000_000 + 50_000 * (rank % 20)}"
    for _ in range(iterations):
        yield f"{rank} allgather 1 1 {DOUBLE} {DOUBLE}"
    yield f"{rank} compute 1000000"
    yield f"{rank} finalize"


PATTERNS = {"halo": rank_lines, "ring": ring_lines, "ring8k": ring8k_lines, "halo2d": halo2d_lines,
            "allgather": allgather_lines, "allgathers": allgathers_lines}


PLATFORM = """<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- Generated by tests/bench/gen-trace.py: {n} hosts of 1 Gflop/s, 10 Gb/s links{backbone_text}. -->
  <cluster id="bench" prefix="node-" suffix=".bench" radical="0-{last}"
           speed="1Gf" bw="1.25GBps" lat="1us"{backbone}/>
</platform>
"""


def cluster_attributes(nranks, topology):
    """The cluster's extra attributes and their description for one of the three topologies."""
    if topology == "backbone":
        return ' bb_bw="12.5GBps" bb_lat="2us"', ", 100 Gb/s backbone"
    if topology == "fat-tree":
        # py hosts per leaf switch, px leaf switches, one top switch: its links carry every message between leaves.
        px, py = grid_shape(nranks)
        return (f' topology="FAT_TREE" topo_parameters="2;{py},{px};1,1;1,1"',
                f", two-level fat tree: {px} leaf switches of {py} hosts under one top switch")
    return "", ""


def write_merged(path, rank_paths):
    """Interleaves the rank files line by line, so that a reader of the merged file holds few lines of
    ranks it has not reached yet. Opens one rank file at a time."""
    with open(path, "w", encoding="ascii") as out:
        lines = []
        for p in rank_paths:
            with open(p, encoding="ascii") as f:
                lines.append(f.read().splitlines())
        longest = max(len(l) for l in lines)
        for k in range(longest):
            out.write("".join(l[k] + "\n" for l in lines if k < len(l)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir")
    parser.add_argument("--ranks", type=int, required=True)
    parser.add_argument("--iterations", type=int, required=True)
    parser.add_argument("--pattern", choices=sorted(PATTERNS), default="halo")
    parser.add_argument("--noise", type=float, default=0.0,
                        help="relative jitter of compute volumes, 0 <= F < 1 (default 0: none)")
    parser.add_argument("--uniform", action="store_true",
                        help="halo, ring: the same base compute volume on every rank and iteration (no imbalance pattern)")
    parser.add_argument("--merged", action="store_true", help="also write merged.txt (see above)")
    topology = parser.add_mutually_exclusive_group()
    topology.add_argument("--no-backbone", action="store_true",
                          help="a cluster without a backbone: no link shared by all the ranks' messages")
    topology.add_argument("--fat-tree", action="store_true",
                          help="a two-level fat tree with one top switch instead of a backbone (see above)")
    args = parser.parse_args()
    if not 0 <= args.noise < 1:
        parser.error("need 0 <= --noise < 1")
    global NOISE, UNIFORM
    NOISE = args.noise
    UNIFORM = args.uniform
    if args.ranks < 2 or args.iterations < 1:
        parser.error("need --ranks >= 2 and --iterations >= 1")

    outdir = os.path.abspath(args.outdir)
    os.makedirs(outdir, exist_ok=True)
    total = 0
    paths = []
    for rank in range(args.ranks):
        path = os.path.join(outdir, f"rank-{rank}.txt")
        lines = list(PATTERNS[args.pattern](rank, args.ranks, args.iterations))
        with open(path, "w", encoding="ascii") as f:
            f.write("\n".join(lines))
            f.write("\n")
        total += len(lines)
        paths.append(path)
    if args.merged:
        write_merged(os.path.join(outdir, "merged.txt"), paths)
    with open(os.path.join(outdir, "traces.list"), "w", encoding="ascii") as f:
        f.write("\n".join(paths) + "\n")
    with open(os.path.join(outdir, "platform.xml"), "w", encoding="ascii") as f:
        kind = "none" if args.no_backbone else "fat-tree" if args.fat_tree else "backbone"
        backbone, backbone_text = cluster_attributes(args.ranks, kind)
        f.write(PLATFORM.format(n=args.ranks, last=args.ranks - 1, backbone=backbone, backbone_text=backbone_text))
    with open(os.path.join(outdir, "hostfile"), "w", encoding="ascii") as f:
        f.write("".join(f"node-{i}.bench\n" for i in range(args.ranks)))
    print(total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
