// Collective algorithms, each built from the point-to-point operations of mpi::Rank (so overheads,
// protocol thresholds and contention apply), one algorithm per file, chosen by selector tables.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace tit::mpi {
class PointToPoint;
struct Request;
}

namespace tit::colls {

struct Selector;

/// One collective call as the trace gives it, sizes in bytes (see trace::Action for each field's meaning).
struct Call {
  int size = 1;                   ///< communicator size
  int root = 0;
  double bytes = 0;               ///< buffer, or bytes sent to each peer
  double bytes2 = 0;              ///< bytes received from each peer
  const std::vector<double>* send_counts = nullptr; ///< per-rank bytes sent (alltoallv, scatterv)
  const std::vector<double>* recv_counts = nullptr; ///< per-rank bytes received (alltoallv, gatherv, allgatherv,
                                                    ///< reducescatter)
  double datatype_size = 1;       ///< bytes per element, for choices made on element counts
  const Selector* selector = nullptr; ///< the algorithm set in use, for algorithms built on other collectives
};

using Algorithm = void (*)(mpi::PointToPoint&, const Call&);

/// Tags of the collectives' internal messages: negative, so they never match user messages (tags >= 0).
enum Tag : int {
  kTagBarrier = -16,
  kTagBcast = -17,
  kTagReduce = -18,
  kTagGather = -19,
  kTagGatherv = -20,
  kTagScatter = -21,
  kTagScatterv = -22,
  kTagAllgather = -23,
  kTagAllgatherv = -24,
  kTagAlltoall = -25,
  kTagAlltoallv = -26,
  kTagReduceScatter = -27,
  kTagScan = -28,
  kTagNonBlocking = -100, ///< nonblocking collectives: kTagNonBlocking - collective kind
};

// Algorithms (one file each).
void barrier_linear(mpi::PointToPoint&, const Call&);         ///< Open MPI basic linear, through rank 0
void bcast_binomial(mpi::PointToPoint&, const Call&);         ///< binomial tree, largest subtree first
void reduce_linear(mpi::PointToPoint&, const Call&);          ///< everyone isends to the root, which receives in rank order
void allreduce_reduce_bcast(mpi::PointToPoint&, const Call&); ///< reduce_linear to 0, then bcast_binomial from 0
void gather_linear(mpi::PointToPoint&, const Call&);
void gatherv_linear(mpi::PointToPoint&, const Call&);
void scatter_linear(mpi::PointToPoint&, const Call&);
void scatterv_linear(mpi::PointToPoint&, const Call&);
void allgather_linear(mpi::PointToPoint&, const Call&);       ///< to every other rank: isend then irecv; wait for all
void allgatherv_linear(mpi::PointToPoint&, const Call&);
void alltoall_linear(mpi::PointToPoint&, const Call&);        ///< receives from rank+1 upward, sends from rank-1 downward
void alltoall_pairwise(mpi::PointToPoint&, const Call&);      ///< one sendrecv per step
void alltoall_bruck(mpi::PointToPoint&, const Call&);         ///< log2(p) steps of packed blocks
void alltoallv_linear(mpi::PointToPoint&, const Call&);       ///< receives from everyone in rank order, then sends
void reducescatter_reduce_scatterv(mpi::PointToPoint&, const Call&); ///< reduce_linear to 0 then scatterv_linear
void reducescatter_pair(mpi::PointToPoint&, const Call&);     ///< MPICH pairwise exchange
void reducescatter_recursive_doubling(mpi::PointToPoint&, const Call&); ///< MPICH recursive doubling
void scan_linear(mpi::PointToPoint&, const Call&);            ///< receive from every lower rank, send to every higher one
void exscan_linear(mpi::PointToPoint&, const Call&);

// Decision functions of SimGrid 3.32's default selector.
void alltoall_smpi(mpi::PointToPoint&, const Call&);       ///< Open MPI 4's decision: linear, pairwise or Bruck by size
void reducescatter_smpi(mpi::PointToPoint&, const Call&);  ///< equal counts: reduce + scatterv; else MPICH's choice

/// Nonblocking collectives (SimGrid 3.32's implementations): every message posted at once, returned to be
/// waited as one request. `blocking` names the collective (trace::Kind::Bcast, ...).
std::vector<std::shared_ptr<mpi::Request>> post_nonblocking(mpi::PointToPoint& rank, int blocking, const Call& call);

/// An algorithm set: the algorithm of each collective.
struct Selector {
  Algorithm barrier, bcast, reduce, allreduce, gather, gatherv, scatter, scatterv, allgather, allgatherv, alltoall,
      alltoallv, reducescatter, scan, exscan;
};
/// SimGrid 3.32's default selector (`smpi`): the reference's algorithms.
const Selector& smpi_selector();

} // namespace tit::colls
