// The bcast and reduce algorithms of SimGrid 3.32's Open MPI selector (`ompi`) and the decision functions that
// choose among them (smpi_openmpi_selector.cpp). In a replay the reduction is MPI_OP_NULL, which the reduce
// decision treats as commutative. Sizes: `call.bytes` is the buffer; segments are whole elements of
// `call.datatype_size` bytes.
#pragma once

#include "colls/colls.hpp"

#include <optional>
#include <vector>

namespace tit::colls {

// Decisions (Open MPI's fixed rules, as SimGrid 3.32 maps them to its algorithms).
void bcast_ompi(mpi::PointToPoint&, const Call&);
void reduce_ompi(mpi::PointToPoint&, const Call&);

// Bcast. The binomial tree of the decision is bcast_binomial (colls.hpp).
void bcast_ompi_pipeline(mpi::PointToPoint&, const Call&);      ///< segmented chain; segment size from the size
void bcast_ompi_split_bintree(mpi::PointToPoint&, const Call&); ///< halves down a binary tree, then exchanged
void bcast_ntsl(mpi::PointToPoint&, const Call&);          ///< 8 KiB segments along the ring 0 -> 1 -> ... -> n-1
void bcast_ntsb(mpi::PointToPoint&, const Call&);          ///< 8 KiB segments down the binary heap rooted at 0
void bcast_mvapich2_knomial_intra_node(mpi::PointToPoint&, const Call&); ///< 4-nomial tree (after init_smp)
void bcast_scatter_rdb_allgather(mpi::PointToPoint&, const Call&); ///< binomial scatter, recursive-doubling allgather

// Reduce.
void reduce_ompi_basic_linear(mpi::PointToPoint&, const Call&); ///< blocking sends; the root receives n-1 .. 0
void reduce_ompi_chain(mpi::PointToPoint&, const Call&);        ///< n/2 chains, 64 KiB segments
void reduce_ompi_pipeline(mpi::PointToPoint&, const Call&);     ///< one chain, 1/32/64 KiB segments by size
void reduce_ompi_binary(mpi::PointToPoint&, const Call&);       ///< binary tree, 32 KiB segments
void reduce_ompi_binomial(mpi::PointToPoint&, const Call&);     ///< in-order binomial tree, 0 or 1 KiB segments
void reduce_ompi_in_order_binary(mpi::PointToPoint&, const Call&); ///< in-order binary tree to n-1, then to the root

/// Where the ranks run, as SMPI's Comm::init_smp finds it: the host (any identifier) of each rank.
struct SmpLayout {
  std::vector<int> host_of;
};

/// SMPI's Comm::init_smp on MPI_COMM_WORLD, which the SMP-aware algorithms (here the knomial bcast) run the
/// first time they are called: a ring allgather of 4 bytes over all ranks, one over the host leaders (the
/// lowest rank of each host), a scatter-allgather bcast of 4 bytes within each host, then a reduce to 0 and a
/// binomial bcast of 4 bytes over all ranks.
void smp_init(mpi::PointToPoint&, const SmpLayout&);

/// The layout of the communicator `rank` stands for (its ranks' hosts), the first time this rank asks about
/// that communicator in a simulation (SimGrid initialises each communicator once); nothing afterwards, or
/// outside a simulation (schedule recorders).
std::optional<SmpLayout> smp_init_pending(mpi::PointToPoint& rank, int size);
/// The layout this rank's init_smp found on the communicator `rank` stands for; nothing before it (or outside a
/// simulation).
std::optional<SmpLayout> smp_layout_known(mpi::PointToPoint& rank);

} // namespace tit::colls
