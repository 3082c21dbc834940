// The communicators SMPI's init_smp derives from MPI_COMM_WORLD (the ranks of each host; the host leaders),
// for the SMP-aware algorithms of the MPICH set (colls/subcomm.hpp runs any algorithm on one of them).
#pragma once

#include "colls/colls.hpp"
#include "colls/ompi_rooted.hpp"
#include "colls/subcomm.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

/// Tags of a sub-communicator's messages are shifted by these, so that they never match the world's (SMPI
/// gives each communicator its own matching context).
inline constexpr int kTagShiftIntraNode = -1000;
inline constexpr int kTagShiftLeaders = -2000;

/// What init_smp finds, seen from world rank `me`.
struct SmpComms {
  std::vector<int> local;   ///< the ranks of this rank's host, in rank order (its intra-node communicator)
  std::vector<int> leaders; ///< the lowest rank of each host, in rank order (the leaders' communicator)
  std::vector<int> leader_of; ///< per world rank: the leader of its host
  int local_index = 0;      ///< this rank's rank on its host
  int leader_index = -1;    ///< this rank's rank among the leaders, -1 if it leads no host
  bool uniform = true;      ///< every host runs as many ranks
};
SmpComms smp_comms(const SmpLayout& layout, int me);

/// The layout of the ranks on the hosts. The first call on a rank runs SMPI's init_smp (smp_init). Outside a
/// simulation (schedule recorders) every rank is on a host of its own and nothing is sent.
SmpLayout smp_setup(mpi::PointToPoint& rank, int size);

} // namespace tit::colls

namespace tit::colls {

// The SMP-aware algorithms on a given layout (the Algorithm versions find it with smp_setup), for tests.
void bcast_smp_binomial_on(mpi::PointToPoint&, const Call&, const SmpLayout&);
void reduce_mvapich2_two_level_on(mpi::PointToPoint&, const Call&, const SmpLayout&);
void allreduce_mvapich2_two_level_on(mpi::PointToPoint&, const Call&, const SmpLayout&);
/// MVAPICH2's k-nomial reduce (k = 4), which the two-level reduce uses when every rank is on one host.
void reduce_mvapich2_knomial(mpi::PointToPoint&, const Call&);

} // namespace tit::colls
