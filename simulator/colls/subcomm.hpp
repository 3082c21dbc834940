// A group of ranks seen from one of its members, as a PointToPoint: any algorithm runs on it. Used for the
// communicators init_smp derives (MPICH set) and for those the traces create (replay/communicators.hpp).
#pragma once

#include "mpi/world.hpp"

#include <functional>
#include <vector>

namespace tit::colls {

/// Ranks are indices into `members` (world ranks, or ranks of the enclosing view); a tag is matched by what
/// `match_of` gives, so that the group's messages never match another communicator's (SMPI gives each
/// communicator its own matching context). `context` identifies the communicator (SMP layouts are kept per
/// communicator).
class SubComm final : public mpi::PointToPoint {
public:
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int context,
          std::function<mpi::Match(int)> match_of)
      : world_(world), members_(members), index_(index), context_(context), match_of_(std::move(match_of))
  {
  }
  /// A communicator derived from `world` (init_smp's): its tags are `world`'s shifted by `tag_shift`.
  SubComm(mpi::PointToPoint& world, const std::vector<int>& members, int index, int tag_shift)
      : SubComm(world, members, index, derived_context(world.context(), tag_shift),
                [&world, tag_shift](int tag) { return world.match(tag + tag_shift); })
  {
  }
  using PointToPoint::irecv;
  using PointToPoint::isend;
  using PointToPoint::recv;
  using PointToPoint::send;
  using PointToPoint::sendrecv;
  int rank() const override { return index_; }
  mpi::Match match(int tag) const override { return match_of_(tag); }
  void send(int dst, mpi::Match m, double bytes) override { world_.send(at(dst), m, bytes); }
  mpi::RequestPtr isend(int dst, mpi::Match m, double bytes) override { return world_.isend(at(dst), m, bytes); }
  void recv(int src, mpi::Match m, double bytes) override { world_.recv(at(src), m, bytes); }
  mpi::RequestPtr irecv(int src, mpi::Match m, double bytes) override { return world_.irecv(at(src), m, bytes); }
  void wait(const mpi::RequestPtr& req) override { world_.wait(req); }
  void waitall(std::vector<mpi::RequestPtr>& reqs) override { world_.waitall(reqs); }
  void sendrecv(int dst, double send_bytes, int src, double recv_bytes, mpi::Match m) override
  {
    world_.sendrecv(at(dst), send_bytes, at(src), recv_bytes, m);
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
  std::function<mpi::Match(int)> match_of_;
};

} // namespace tit::colls
