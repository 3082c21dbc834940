// A group of ranks seen from one of its members, as a PointToPoint: any algorithm runs on it. Used for the
// communicators init_smp derives (MPICH set) and for those the traces create (replay/communicators.hpp).
#pragma once

#include "mpi/world.hpp"

#include <functional>
#include <vector>

namespace tit::colls {

/// Ranks are indices into `members` (world ranks); tags go through `tag_of`, so that the group's messages
/// never match another communicator's (SMPI gives each communicator its own matching context).
class SubComm final : public mpi::PointToPoint {
public:
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, std::function<int(int)> tag_of)
      : world_(world), members_(members), index_(index), tag_of_(std::move(tag_of))
  {
  }
  /// Tags shifted by `tag_shift`.
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int tag_shift)
      : SubComm(world, members, index, [tag_shift](int tag) { return tag + tag_shift; })
  {
  }
  int rank() const override { return index_; }
  void send(int dst, int tag, double bytes) override { world_.send(at(dst), tag_of_(tag), bytes); }
  mpi::RequestPtr isend(int dst, int tag, double bytes) override { return world_.isend(at(dst), tag_of_(tag), bytes); }
  void recv(int src, int tag, double bytes) override { world_.recv(at(src), tag_of_(tag), bytes); }
  mpi::RequestPtr irecv(int src, int tag, double bytes) override { return world_.irecv(at(src), tag_of_(tag), bytes); }
  void wait(const mpi::RequestPtr& req) override { world_.wait(req); }
  void waitall(std::vector<mpi::RequestPtr>& reqs) override { world_.waitall(reqs); }
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, int tag) override
  {
    world_.sendrecv(at(dst), send_bytes, at(src), recv_bytes, tag_of_(tag));
  }

private:
  int at(int r) const { return members_[static_cast<std::size_t>(r)]; }
  mpi::PointToPoint& world_;
  const std::vector<int>& members_;
  int index_;
  std::function<int(int)> tag_of_;
};

} // namespace tit::colls
