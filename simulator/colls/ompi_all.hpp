// The allreduce, barrier and reduce_scatter algorithms of SimGrid 3.32's Open MPI selector (`ompi`), with
// the decision functions that choose among them (smpi_openmpi_selector.cpp). In a replay the reduction is
// MPI_OP_NULL, which these decisions treat as commutative.
#pragma once

#include "colls/colls.hpp"

#include <cmath>

namespace tit::colls {

/// Tag of the allreduce algorithms' own messages (SimGrid's COLL_TAG_ALLREDUCE; colls.hpp has none).
inline constexpr int kTagOmpiAllreduce = -29;

/// Bytes of one element of `call`'s datatype: several algorithms split or choose on element counts.
inline double element_size(const Call& call)
{
  return call.datatype_size > 0 ? call.datatype_size : 1;
}

/// Elements in the buffer of `call`.
inline long long element_count(const Call& call)
{
  return std::llround(call.bytes / element_size(call));
}

/// MPICH's reduction of a communicator that is not a power of two to its p' = largest power of two ranks, as
/// the rdb and rab_rdb allreduces do it: with r = p - p', each of the first 2r even ranks sends its buffer to
/// the odd rank above it and drops out. Returns this rank's rank among the p' (odd ranks of the first 2r:
/// rank / 2, the others: rank - r), or -1 when it dropped out.
int allreduce_fold_in(mpi::PointToPoint& rank, const Call& call, int pof2);
/// The rank of new rank `newrank` after allreduce_fold_in with r = `rem`.
inline int allreduce_fold_real_rank(int newrank, int rem)
{
  return newrank < rem ? newrank * 2 + 1 : newrank + rem;
}
/// The end of the fold: each odd rank of the first 2r returns the result to the even rank below it.
void allreduce_fold_out(mpi::PointToPoint& rank, const Call& call, int pof2);

// Allreduce (`bytes`: the buffer).
void allreduce_ompi(mpi::PointToPoint&, const Call&);  ///< Open MPI's fixed decision, commutative branch
void allreduce_lr(mpi::PointToPoint&, const Call&);    ///< logical ring reduce-scatter then ring all-gather
void allreduce_rdb(mpi::PointToPoint&, const Call&);   ///< MPICH recursive doubling
void allreduce_rab_rdb(mpi::PointToPoint&, const Call&); ///< Rabenseifner: recursive halving then doubling
void allreduce_ompi_ring_segmented(mpi::PointToPoint&, const Call&); ///< pipelined ring, 1 MiB segments
void allreduce_redbcast(mpi::PointToPoint&, const Call&); ///< reduce_ompi to 0, then bcast_ompi from 0

// Barrier.
void barrier_ompi(mpi::PointToPoint&, const Call&);    ///< by communicator size: recursive doubling, linear, ...
void barrier_ompi_recursive_doubling(mpi::PointToPoint&, const Call&);
void barrier_ompi_bruck(mpi::PointToPoint&, const Call&);     ///< dissemination: sendrecv with rank +- 2^k
void barrier_ompi_two_procs(mpi::PointToPoint&, const Call&); ///< one sendrecv with the other rank
void barrier_ompi_tree(mpi::PointToPoint&, const Call&);      ///< fan-in then fan-out on a hypercube tree

// Reduce-scatter (`recv_counts`: the bytes each rank keeps).
void reducescatter_ompi(mpi::PointToPoint&, const Call&);
void reducescatter_ompi_recursive_halving(mpi::PointToPoint&, const Call&);
void reducescatter_ompi_ring(mpi::PointToPoint&, const Call&);
void reducescatter_ompi_butterfly(mpi::PointToPoint&, const Call&); ///< Traff's butterfly

} // namespace tit::colls
