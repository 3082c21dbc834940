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
