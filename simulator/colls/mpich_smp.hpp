// The communicators SMPI's init_smp derives from MPI_COMM_WORLD (the ranks of each host; the host leaders),
// for the SMP-aware algorithms of the MPICH set, and a view that runs any algorithm on one of them.
#pragma once

#include "colls/colls.hpp"
#include "colls/ompi_rooted.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

/// Tags of a sub-communicator's messages are shifted by these, so that they never match the world's (SMPI
/// gives each communicator its own matching context).
inline constexpr int kTagShiftIntraNode = -1000;
inline constexpr int kTagShiftLeaders = -2000;

/// A sub-communicator seen from one of its members: ranks are indices into `members` (world ranks).
class SubComm final : public mpi::PointToPoint {
public:
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int tag_shift)
      : world_(world), members_(members), index_(index), shift_(tag_shift)
  {
  }
  int rank() const override { return index_; }
  void send(int dst, int tag, double bytes) override { world_.send(at(dst), tag + shift_, bytes); }
  mpi::RequestPtr isend(int dst, int tag, double bytes) override { return world_.isend(at(dst), tag + shift_, bytes); }
  void recv(int src, int tag, double bytes) override { world_.recv(at(src), tag + shift_, bytes); }
  mpi::RequestPtr irecv(int src, int tag, double bytes) override { return world_.irecv(at(src), tag + shift_, bytes); }
  void wait(const mpi::RequestPtr& req) override { world_.wait(req); }
  void waitall(std::vector<mpi::RequestPtr>& reqs) override { world_.waitall(reqs); }
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, int tag) override
  {
    world_.sendrecv(at(dst), send_bytes, at(src), recv_bytes, tag + shift_);
  }

private:
  int at(int r) const { return members_[static_cast<std::size_t>(r)]; }
  mpi::PointToPoint& world_;
  const std::vector<int>& members_;
  int index_;
  int shift_;
};

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
