// A group of ranks seen from one of its members, as a PointToPoint: any algorithm runs on it. Used for the
// communicators init_smp derives (MPICH set) and for those the traces create (replay/communicators.hpp).
#pragma once

#include "mpi/world.hpp"

#include <functional>
#include <vector>

namespace tit::colls {

/// Ranks are indices into `members` (world ranks, or ranks of the enclosing view); tags go through `tag_of`, so
/// that the group's messages never match another communicator's (SMPI gives each communicator its own matching
/// context). `context` identifies the communicator (SMP layouts are kept per communicator).
class SubComm final : public mpi::PointToPoint {
public:
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int context,
          std::function<int(int)> tag_of)
      : world_(world), members_(members), index_(index), context_(context), tag_of_(std::move(tag_of))
  {
  }
  /// A communicator derived from `world` (init_smp's), its tags shifted by `tag_shift`.
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int tag_shift)
      : SubComm(world, members, index, derived_context(world.context(), tag_shift),
                [tag_shift](int tag) { return tag + tag_shift; })
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
  const simgrid::s4u::Host* host_of(int r) const override { return world_.host_of(at(r)); }
  int context() const override { return context_; }
  std::map<int, std::vector<int>>* smp_layouts() override { return world_.smp_layouts(); }

private:
  /// The enclosing view's rank of member `r`; a receive from any source stays one.
  int at(int r) const { return r == mpi::kAnySource ? r : members_[static_cast<std::size_t>(r)]; }
  /// Communicators init_smp derives get identities below every communicator of the trace.
  static int derived_context(int parent, int tag_shift) { return -(parent * 8 + 1) + tag_shift; }
  mpi::PointToPoint& world_;
  const std::vector<int>& members_;
  int index_;
  int context_;
  std::function<int(int)> tag_of_;
};

} // namespace tit::colls
