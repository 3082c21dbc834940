#!/usr/bin/python3
"""Writes an OTF2 archive the way Score-P records an MPI run (Enter(MPI_Send), MpiSend, Leave; metrics before
Enter and Leave), and the time-independent trace tit-trace must read from it (EXPECTED, a merged dialect-2 file).

Usage: make_archive.py CASE ARCHIVE_DIR EXPECTED.txt
Cases: p2p nonblocking collectives subcomm metric time-rate sendrecv cancel nbc nbc-incomplete rma io missing-world
       missing-comm-group
"""
import sys

import otf2
from otf2.enums import (CollectiveOp, GroupType, MetricMode, Paradigm, RegionRole, Type)

NS = 1_000_000_000  # ticks per second
RATE = 1e9          # the reader's default rate of the time-derived estimate


class Archive:
    def __init__(self, trace, ranks, metric=False, world_group=True):
        self.trace, self.n, self.metric = trace, ranks, metric
        d = trace.definitions
        machine = d.system_tree_node("machine")
        node = d.system_tree_node("node0", parent=machine)
        self.locs = [d.location("Master thread", group=d.location_group(f"MPI Rank {r}", system_tree_parent=node))
                     for r in range(ranks)]
        self.regions = {}
        self.main = d.region("main", paradigm=Paradigm.USER)
        if world_group:
            d.group("MPI_COMM_WORLD locations", group_type=GroupType.COMM_LOCATIONS, paradigm=Paradigm.MPI,
                    members=self.locs)
            self.world = self.comm("MPI_COMM_WORLD", list(range(ranks)))
        self.ins = d.metric("PAPI_TOT_INS", unit="#", metric_mode=MetricMode.ACCUMULATED_START,
                            value_type=Type.UINT64) if metric else None

    def comm(self, name, members):
        d = self.trace.definitions
        group = d.group(name + " group", group_type=GroupType.COMM_GROUP, paradigm=Paradigm.MPI, members=members)
        return d.comm(name, group=group)

    def region(self, name):
        if name not in self.regions:
            self.regions[name] = self.trace.definitions.region(name, paradigm=Paradigm.MPI,
                                                               region_role=RegionRole.FUNCTION)
        return self.regions[name]


class Rank:
    """One rank's events, and the lines tit-trace must read from them."""

    def __init__(self, archive, r, expected):
        self.a, self.r, self.out = archive, r, expected
        self.w = archive.trace.event_writer_from_location(archive.locs[r])
        self.t = 1000 * (r + 1)
        self.ins = 0
        self.requests = 0
        self.w.enter(self.t, archive.main)
        self.line("init")
        self.call("MPI_Init")

    def line(self, text):
        self.out.append(f"{self.r} {text}")

    def metric(self):
        if self.a.ins is not None:
            self.w.metric(self.t, self.a.ins, [self.ins])

    def compute(self, seconds, instructions=0):
        self.t += int(seconds * NS)
        self.ins += instructions
        volume = instructions if self.a.ins is not None else seconds * RATE
        if volume > 0:
            self.line(f"compute {volume:g}")

    def call(self, name, records=(), duration=2000):
        """Enter(name), the records (callables of the writer and the time), Leave(name)."""
        region = self.a.region(name)
        self.metric()
        self.w.enter(self.t, region)
        for i, rec in enumerate(records):
            rec(self.w, self.t + i + 1)
        self.t += duration
        self.metric()
        self.w.leave(self.t, region)

    def request(self):
        self.requests += 1
        return self.requests

    def finish(self):
        self.call("MPI_Finalize")
        self.line("finalize")
        self.t += 1000
        self.w.leave(self.t, self.a.main)


def sizes_line(name, args):
    return f"{name} {' '.join(str(a) for a in args)}"


# ---- cases ----------------------------------------------------------------------------------------------------------

def case_p2p(a, ranks):
    r0, r1 = ranks
    w = a.world
    r0.compute(0.5)
    r0.call("MPI_Send", [lambda x, t: x.mpi_send(t, 1, w, 7, 800)]); r0.line("send 1 7 800 6")
    r1.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, 0, w, 7, 800)]); r1.line("recv 0 7 800 6")
    r0.call("MPI_Ssend", [lambda x, t: x.mpi_send(t, 1, w, 8, 16)]); r0.line("Ssend 1 8 16 6")
    r1.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, 0, w, 8, 16)]); r1.line("recv 0 8 16 6")
    r1.compute(0.25)
    r1.call("MPI_Bsend", [lambda x, t: x.mpi_send(t, 0, w, 9, 4)]); r1.line("bsend 0 9 4 6")
    r0.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, 1, w, 9, 4)]); r0.line("recv 1 9 4 6")
    r0.call("MPI_Comm_rank")  # an MPI call without records: no line


def case_nonblocking(a, ranks):
    r0, r1 = ranks
    w = a.world
    # rank 0: isend + irecv, wait on each (MPI_Wait), then an isend tested (MPI_Test) and waited in MPI_Waitall
    q1, q2 = r0.request(), r0.request()
    r0.call("MPI_Isend", [lambda x, t: x.mpi_isend(t, 1, w, 1, 100, q1)]); r0.line("isend 1 1 100 6")
    r0.call("MPI_Irecv", [lambda x, t: x.mpi_irecv_request(t, q2)]); r0.line("irecv 1 2 200 6")
    r0.compute(0.125)
    r0.call("MPI_Wait", [lambda x, t: x.mpi_isend_complete(t, q1)]); r0.line("wait 0 1 1")
    r0.call("MPI_Wait", [lambda x, t: x.mpi_irecv(t, 1, w, 2, 200, q2)]); r0.line("wait 1 0 2")
    q3 = r0.request()
    r0.call("MPI_Isend", [lambda x, t: x.mpi_isend(t, 1, w, 3, 8, q3)]); r0.line("isend 1 3 8 6")
    r0.call("MPI_Test", [lambda x, t: x.mpi_request_test(t, q3)]); r0.line("test 0 1 3")
    r0.call("MPI_Waitall", [lambda x, t: x.mpi_isend_complete(t, q3)]); r0.line("waitall 1")
    # rank 1: two irecvs and an isend completed together by MPI_Waitall (all pending: waitall), one test completing
    p1, p2, p3 = r1.request(), r1.request(), r1.request()
    r1.call("MPI_Irecv", [lambda x, t: x.mpi_irecv_request(t, p1)]); r1.line("irecv 0 1 100 6")
    r1.call("MPI_Isend", [lambda x, t: x.mpi_isend(t, 0, w, 2, 200, p2)]); r1.line("isend 0 2 200 6")
    r1.call("MPI_Irecv", [lambda x, t: x.mpi_irecv_request(t, p3)]); r1.line("irecv 0 3 8 6")
    r1.call("MPI_Test", [lambda x, t: x.mpi_request_test(t, p1)]); r1.line("test 0 1 1")
    r1.call("MPI_Waitall", [lambda x, t: x.mpi_irecv(t, 0, w, 1, 100, p1),
                            lambda x, t: x.mpi_isend_complete(t, p2)])
    r1.line("wait 0 1 1"), r1.line("wait 1 0 2")  # not every pending request: one wait each
    r1.call("MPI_Testall", [lambda x, t: x.mpi_irecv(t, 0, w, 3, 8, p3)]); r1.line("test 0 1 3")


def coll(op, comm, root, sent, received):
    return lambda x, t: (x.mpi_collective_begin(t), x.mpi_collective_end(t, op, comm, root, sent, received))


def case_collectives(a, ranks):
    n, w = a.n, a.world
    undefined = 0xFFFFFFFF
    for rk in ranks:
        r = rk.r
        root = r == 1
        rk.call("MPI_Barrier", [coll(CollectiveOp.BARRIER, w, undefined, 0, 0)]); rk.line("barrier")
        rk.call("MPI_Bcast", [coll(CollectiveOp.BCAST, w, 1, n * 64 if root else 0, 64)]); rk.line("bcast 64 1 6")
        rk.call("MPI_Reduce", [coll(CollectiveOp.REDUCE, w, 1, 32, n * 32 if root else 0)])
        rk.line("reduce 32 0 1 6")
        rk.call("MPI_Allreduce", [coll(CollectiveOp.ALLREDUCE, w, undefined, n * 8, n * 8)])
        rk.line("allreduce 8 0 6")
        rk.call("MPI_Alltoall", [coll(CollectiveOp.ALLTOALL, w, undefined, n * 16, n * 16)])
        rk.line("alltoall 16 16 6 6")
        rk.call("MPI_Allgather", [coll(CollectiveOp.ALLGATHER, w, undefined, n * 4, n * 4)])
        rk.line("allgather 4 4 6 6")
        rk.call("MPI_Gather", [coll(CollectiveOp.GATHER, w, 1, 12, n * 12 if root else 0)])
        rk.line("gather 12 12 1 6 6")
        rk.call("MPI_Scatter", [coll(CollectiveOp.SCATTER, w, 1, n * 20 if root else 0, 20)])
        rk.line("scatter 20 20 1 6 6")
        rk.call("MPI_Alltoallv", [coll(CollectiveOp.ALLTOALLV, w, undefined, 30 * n, 30 * n)])
        rk.line(sizes_line("alltoallv", [30 * n] + [30] * n + [30 * n] + [30] * n + [6, 6]))
        rk.call("MPI_Allgatherv", [coll(CollectiveOp.ALLGATHERV, w, undefined, n * 10, 10 * n)])
        rk.line(sizes_line("allgatherv", [10] + [10] * n + [6, 6]))
        rk.call("MPI_Gatherv", [coll(CollectiveOp.GATHERV, w, 1, 5, 5 * n if root else 0)])
        rk.line(sizes_line("gatherv", [5] + [5] * n + [1, 6, 6]))
        rk.call("MPI_Scatterv", [coll(CollectiveOp.SCATTERV, w, 1, 6 * n if root else 0, 6)])
        rk.line(sizes_line("scatterv", [6] * n + [6, 1, 6, 6]))
        rk.call("MPI_Reduce_scatter", [coll(CollectiveOp.REDUCE_SCATTER, w, undefined, 2 * n, 2 * n)])
        rk.line(sizes_line("reducescatter", [2] * n + [0, 6]))
        rk.call("MPI_Scan", [coll(CollectiveOp.SCAN, w, undefined, (n - r) * 8, (r + 1) * 8)]); rk.line("scan 8 0 6")
        rk.call("MPI_Exscan", [coll(CollectiveOp.EXSCAN, w, undefined, (n - r - 1) * 8, r * 8)])
        rk.line("exscan 8 0 6")


def case_subcomm(a, ranks):
    odd = a.comm("odd ranks", [3, 1])  # rank 3 is rank 0 of the communicator
    for rk in ranks:
        r = rk.r
        member = r in (1, 3)
        rk.line(f"comm_split 0 0 {0 if r == 3 else 1} 1 2" if member else "comm_split 0 -1 0 -1")
    for rk in ranks:
        if rk.r in (1, 3):
            me = 0 if rk.r == 3 else 1
            rk.call("MPI_Bcast", [coll(CollectiveOp.BCAST, odd, 1, 2 * 40 if me == 1 else 0, 40)])
            rk.line("bcast 40 1 6 comm=1")
    r1, r3 = ranks[1], ranks[3]
    r3.call("MPI_Send", [lambda x, t: x.mpi_send(t, 1, odd, 5, 24)]); r3.line("send 1 5 24 6 comm=1")
    r1.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, 0, odd, 5, 24)]); r1.line("recv 3 5 24 6 comm=1")


def case_metric(a, ranks):
    r0, r1 = ranks
    w = a.world
    r0.compute(0.5, instructions=123456)
    r1.compute(0.1, instructions=777)
    r0.call("MPI_Send", [lambda x, t: x.mpi_send(t, 1, w, 0, 8)]); r0.line("send 1 0 8 6")
    r1.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, 0, w, 0, 8)]); r1.line("recv 0 0 8 6")
    r1.compute(0.2, instructions=1000000)
    r1.call("MPI_Barrier", [coll(CollectiveOp.BARRIER, w, 0xFFFFFFFF, 0, 0)]); r1.line("barrier")
    r0.call("MPI_Barrier", [coll(CollectiveOp.BARRIER, w, 0xFFFFFFFF, 0, 0)]); r0.line("barrier")


def case_time_rate(a, ranks):
    r0, r1 = ranks
    for rk, seconds in ((r0, 0.002), (r1, 0.75)):
        rk.compute(seconds)
        rk.call("MPI_Barrier", [coll(CollectiveOp.BARRIER, a.world, 0xFFFFFFFF, 0, 0)]); rk.line("barrier")


def case_sendrecv(a, ranks):
    r0, r1 = ranks
    w = a.world
    r0.call("MPI_Sendrecv", [lambda x, t: x.mpi_send(t, 1, w, 0, 64), lambda x, t: x.mpi_recv(t, 1, w, 0, 32)])
    r0.line("sendRecv 64 1 32 1 6 6")
    r1.call("MPI_Sendrecv", [lambda x, t: x.mpi_send(t, 0, w, 0, 32), lambda x, t: x.mpi_recv(t, 0, w, 0, 64)])
    r1.line("sendRecv 32 0 64 0 6 6")
    # tagged: the isend, recv and wait it amounts to
    r0.call("MPI_Sendrecv", [lambda x, t: x.mpi_send(t, 1, w, 4, 8), lambda x, t: x.mpi_recv(t, 1, w, 5, 8)])
    r0.line("isend 1 4 8 6"), r0.line("recv 1 5 8 6"), r0.line("wait 0 1 4")
    r1.call("MPI_Sendrecv", [lambda x, t: x.mpi_send(t, 0, w, 5, 8), lambda x, t: x.mpi_recv(t, 0, w, 4, 8)])
    r1.line("isend 0 5 8 6"), r1.line("recv 0 4 8 6"), r1.line("wait 1 0 5")


def case_cancel(a, ranks):
    r0, r1 = ranks
    q = r0.request()
    r0.call("MPI_Irecv", [lambda x, t: x.mpi_irecv_request(t, q)])
    r0.call("MPI_Cancel", [lambda x, t: x.mpi_request_cancelled(t, q)])  # the receive never happened: no line


def case_nbc(a, ranks):
    """Nonblocking collectives as Score-P records them (OTF2 3.0): NonBlockingCollectiveRequest in the call that starts
    one, NonBlockingCollectiveComplete with its operation, communicator, root and sizes in the wait or test that
    completes it. Read as the blocking form's line with an `i`, completed by `wait -333 -333 -1`."""
    n, w = a.n, a.world
    odd = a.comm("rank 1 alone", [1])  # a sub-communicator of one rank
    for rk in ranks:
        r = rk.r
        rk.line(f"comm_split 0 0 0 1 1" if r == 1 else "comm_split 0 -1 0 -1")
    for rk in ranks:
        r = rk.r
        q1, q2, q3 = rk.request(), rk.request(), rk.request()
        # an ibcast (root 1) computed over, tested once before it completes, completed by MPI_Wait
        rk.call("MPI_Ibcast", [lambda x, t, q=q1: x.non_blocking_collective_request(t, q)])
        rk.line("ibcast 64 1 6")
        rk.compute(0.25)
        rk.call("MPI_Test", [lambda x, t, q=q1: x.mpi_request_test(t, q)]); rk.line("test -333 -333 -1")
        rk.call("MPI_Wait", [lambda x, t, q=q1: x.non_blocking_collective_complete(
            t, CollectiveOp.BCAST, w, 1, n * 64 if r == 1 else 0, 64, q)])
        rk.line("wait -333 -333 -1")
        # an iallreduce and an isend to the next rank, completed by one MPI_Waitall: a wait each
        peer = (r + 1) % n
        rk.call("MPI_Iallreduce", [lambda x, t, q=q2: x.non_blocking_collective_request(t, q)])
        rk.line("iallreduce 8 0 6")
        rk.call("MPI_Isend", [lambda x, t, q=q3: x.mpi_isend(t, peer, w, 4, 16, q)]); rk.line(f"isend {peer} 4 16 6")
        rk.call("MPI_Recv", [lambda x, t: x.mpi_recv(t, (r - 1) % n, w, 4, 16)]); rk.line(f"recv {(r - 1) % n} 4 16 6")
        rk.call("MPI_Waitall", [lambda x, t, q=q2: x.non_blocking_collective_complete(
                                    t, CollectiveOp.ALLREDUCE, w, 0xFFFFFFFF, n * 8, n * 8, q),
                                lambda x, t, q=q3: x.mpi_isend_complete(t, q)])
        rk.line("wait -333 -333 -1"), rk.line(f"wait {r} {peer} 4")
        if r == 1:  # an ibarrier on the sub-communicator
            q4 = rk.request()
            rk.call("MPI_Ibarrier", [lambda x, t, q=q4: x.non_blocking_collective_request(t, q)])
            rk.call("MPI_Wait", [lambda x, t, q=q4: x.non_blocking_collective_complete(
                t, CollectiveOp.BARRIER, odd, 0xFFFFFFFF, 0, 0, q)])
            rk.line("ibarrier comm=1"), rk.line("wait -333 -333 -1")


def case_nbc_incomplete(a, ranks):
    q = ranks[0].request()
    ranks[0].call("MPI_Ibcast", [lambda x, t: x.non_blocking_collective_request(t, q)])


def case_rma(a, ranks):
    win = a.trace.definitions.rma_win("window", comm=a.world)
    ranks[0].call("MPI_Put", [lambda x, t: x.rma_put(t, win, 1, 64, 1)])


CASES = {
    "p2p": (2, False, case_p2p), "nonblocking": (2, False, case_nonblocking),
    "collectives": (3, False, case_collectives), "subcomm": (4, False, case_subcomm),
    "metric": (2, True, case_metric), "time-rate": (2, False, case_time_rate), "sendrecv": (2, False, case_sendrecv),
    "cancel": (2, False, case_cancel), "rma": (2, False, case_rma), "missing-world": (2, False, None),
    "nbc": (2, False, case_nbc), "nbc-incomplete": (2, False, case_nbc_incomplete),
}


def main():
    case, path, expected_path = sys.argv[1:4]
    n, metric, body = CASES[case]
    expected = []
    with otf2.writer.open(path, timer_resolution=NS) as trace:
        a = Archive(trace, n, metric=metric, world_group=case != "missing-world")
        if case == "missing-world":  # the world's locations group is missing: which location is which rank?
            a.trace.definitions.region("MPI_Init", paradigm=Paradigm.MPI)
            return
        ranks = [Rank(a, r, expected) for r in range(n)]
        body(a, ranks)
        for rk in ranks:
            rk.finish()
    order = {f"{r} ": i for i, r in enumerate(range(n))}
    by_rank = sorted(enumerate(expected), key=lambda e: (int(e[1].split()[0]), e[0]))
    with open(expected_path, "w") as f:
        for _, line in by_rank:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
