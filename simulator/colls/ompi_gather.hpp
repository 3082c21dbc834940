// The allgather, allgatherv, gather, scatter and alltoallv algorithms of SimGrid 3.32's Open MPI selector
// (`ompi`), with the decision functions that choose among them (smpi_openmpi_selector.cpp).
//
// Sizes are bytes (see Call). Where SimGrid counts elements (pipeline and segment sizes), `datatype_size`
// gives the bytes of one element. Where SimGrid mixes the send and the receive datatype, both are taken to
// have the same size (SMPI fails a message whose two datatypes differ, MPI_BYTE aside).
#pragma once

#include "colls/colls.hpp"

namespace tit::colls {

// Allgather (`bytes`: this rank's block, `bytes2`: the block received from each rank).
void allgather_ompi(mpi::PointToPoint&, const Call&);             ///< by communicator size and block size
void allgather_bruck(mpi::PointToPoint&, const Call&);            ///< log2(p) sendrecvs of doubling block counts
void allgather_rdb(mpi::PointToPoint&, const Call&);              ///< MPICH recursive doubling
void allgather_ring(mpi::PointToPoint&, const Call&);             ///< p-1 sendrecvs with rank+i / rank-i
void allgather_ompi_neighborexchange(mpi::PointToPoint&, const Call&); ///< two blocks with each neighbour in turn
void allgather_pair(mpi::PointToPoint&, const Call&);             ///< sendrecv with rank^i (power-of-two sizes)

// Allgatherv (`bytes`: this rank's block, `recv_counts`: every rank's block).
void allgatherv_ompi(mpi::PointToPoint&, const Call&);            ///< by communicator size and mean block size
/// The same decision, its gather-broadcast choice broadcasting with `bcast` (SimGrid calls the selected one).
void allgatherv_ompi_with(mpi::PointToPoint&, const Call&, Algorithm bcast);
/// SimGrid's GB (Open MPI's "default"): SimGrid's gatherv to rank 0, then `bcast` of the largest block from 0.
void allgatherv_gb(mpi::PointToPoint&, const Call&, Algorithm bcast);
void allgatherv_mpich_ring(mpi::PointToPoint&, const Call&);      ///< ring pipelined in 256 KiB pieces
void allgatherv_ompi_bruck(mpi::PointToPoint&, const Call&);      ///< Bruck with packed (indexed) blocks
void allgatherv_ompi_neighborexchange(mpi::PointToPoint&, const Call&);
void allgatherv_ring(mpi::PointToPoint&, const Call&);            ///< p-1 sendrecvs with rank+i / rank-i
void allgatherv_pair(mpi::PointToPoint&, const Call&);            ///< sendrecv with rank^i (power-of-two sizes)

// Gather (`bytes`: sent by each rank, `bytes2`: received by the root from each rank).
void gather_ompi(mpi::PointToPoint&, const Call&);                ///< by communicator size and block size
void gather_ompi_basic_linear(mpi::PointToPoint&, const Call&);   ///< blocking sends, received in rank order
void gather_ompi_binomial(mpi::PointToPoint&, const Call&);       ///< in-order binomial tree, subtrees packed
void gather_ompi_linear_sync(mpi::PointToPoint&, const Call&);    ///< root-paced: 0-byte go, two segments each

// Scatter (`bytes`: sent by the root to each rank, `bytes2`: received by each rank).
void scatter_ompi(mpi::PointToPoint&, const Call&);               ///< by communicator size and block size
void scatter_ompi_basic_linear(mpi::PointToPoint&, const Call&);  ///< blocking sends in rank order
void scatter_ompi_binomial(mpi::PointToPoint&, const Call&);      ///< in-order binomial tree, subtrees packed
void scatter_ompi_linear_nb(mpi::PointToPoint&, const Call&);     ///< isends in rank order, then wait for all

// Alltoallv (`send_counts`, `recv_counts`).
void alltoallv_ompi(mpi::PointToPoint&, const Call&);             ///< by communicator size: linear or pair
void alltoallv_ompi_basic_linear(mpi::PointToPoint&, const Call&); ///< all irecvs, then all isends, wait for all
void alltoallv_pair(mpi::PointToPoint&, const Call&);             ///< sendrecv with rank^i (power-of-two sizes)

/// The Open MPI selector's bcast decision, which allgatherv_ompi's gather-broadcast choice calls; defined
/// with the ompi bcast algorithms.
void bcast_ompi(mpi::PointToPoint&, const Call&);

/// SimGrid's pair algorithms throw on communicator sizes that are not powers of two, which ends the
/// replay: so does this (an mpi::MpiError naming `algorithm`).
void require_power_of_two_ranks(const char* algorithm, int size);

} // namespace tit::colls
