// The algorithms of SimGrid 3.32's MPICH selector (`mpich`, smpi_mpich_selector.cpp) that no other set had,
// and the decision functions that choose among them. In a replay the reduction is MPI_OP_NULL, which these
// decisions treat as commutative; an online run with a commutative operation takes the same branches.
#pragma once

#include "colls/colls.hpp"

namespace tit::colls {

/// COLL_TAG_REDUCE + 1: the two-level reduce's transfer of the result from the root's host leader to the root.
inline constexpr int kTagMpichReduceResult = -30;

// Decisions (one file each, mpich_*_decision.cpp). On MPI_COMM_WORLD, bcast, reduce and allreduce first run
// SMPI's init_smp (once) and take its SMP-aware algorithms; the *_flat ones are the decisions SimGrid takes
// on the communicators init_smp creates (ranks of one host, host leaders).
void bcast_mpich(mpi::PointToPoint&, const Call&);         ///< uniform hosts: SMP binomial; else as the flat one
void bcast_mpich_flat(mpi::PointToPoint&, const Call&);    ///< binomial, scatter + rdb allgather, scatter + ring
void reduce_mpich(mpi::PointToPoint&, const Call&);        ///< MVAPICH2's two-level reduce
void reduce_mpich_flat(mpi::PointToPoint&, const Call&);   ///< binomial, or Rabenseifner's scatter-gather
void allreduce_mpich(mpi::PointToPoint&, const Call&);     ///< MVAPICH2's two-level allreduce
void allreduce_mpich_flat(mpi::PointToPoint&, const Call&); ///< recursive doubling, or Rabenseifner
void alltoall_mpich(mpi::PointToPoint&, const Call&);      ///< bruck, scatter_dest, pair or ring
void allgather_mpich(mpi::PointToPoint&, const Call&);     ///< rdb, bruck or ring
void allgatherv_mpich(mpi::PointToPoint&, const Call&);    ///< mpich_rdb, ompi_bruck or mpich_ring
void reducescatter_mpich(mpi::PointToPoint&, const Call&); ///< pair above 524288 elements, else recursive doubling

// Algorithms (one file each).
void bcast_scatter_lr_allgather(mpi::PointToPoint&, const Call&); ///< binomial scatter, then a ring allgather
void bcast_smp_binomial(mpi::PointToPoint&, const Call&);   ///< binomial over host leaders, then within each host
void reduce_binomial(mpi::PointToPoint&, const Call&);      ///< MPICH's binomial tree (commutative)
void reduce_scatter_gather(mpi::PointToPoint&, const Call&); ///< recursive-halving reduce-scatter, binomial gather
void reduce_mvapich2_two_level(mpi::PointToPoint&, const Call&);    ///< within each host, then over the leaders
void allreduce_mvapich2_two_level(mpi::PointToPoint&, const Call&); ///< within each host, over leaders, bcast
void alltoall_mvapich2_scatter_dest(mpi::PointToPoint&, const Call&); ///< irecv/isend 4 peers at a time
void alltoall_ring(mpi::PointToPoint&, const Call&);        ///< sendrecv with rank+i / rank-i, i = 0 .. p-1
void alltoallv_bruck(mpi::PointToPoint&, const Call&);      ///< irecv/isend 4 peers at a time, self skipped
void allgatherv_mpich_rdb(mpi::PointToPoint&, const Call&); ///< recursive doubling of variable blocks

} // namespace tit::colls
