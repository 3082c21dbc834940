#include "colls/colls.hpp"
#include "mpi/world.hpp"
#include "trace/action.hpp"

namespace tit::colls {

// Each nonblocking collective posts every message of a flat algorithm at once, as SimGrid's nonblocking
// collectives do; a wait on the collective waits for all of them.
std::vector<mpi::RequestPtr> post_nonblocking(mpi::PointToPoint& rank, int blocking, const Call& call)
{
  using trace::Kind;
  const auto kind = static_cast<Kind>(blocking);
  const int tag = kTagNonBlocking - blocking;
  const int n = call.size;
  const int me = rank.rank();
  auto at = [](const std::vector<double>* v, int i) { return (*v)[static_cast<std::size_t>(i)]; };
  std::vector<mpi::RequestPtr> reqs;
  switch (kind) {
    case Kind::Barrier:
      if (me > 0) {
        reqs.push_back(rank.isend(0, tag, 0));
        reqs.push_back(rank.irecv(0, tag, 0));
      } else {
        for (int i = 1; i < n; ++i) {
          reqs.push_back(rank.irecv(mpi::kAnySource, tag, 0));
          reqs.push_back(rank.isend(i, tag, 0));
        }
      }
      break;
    case Kind::Bcast:
      if (me != call.root)
        reqs.push_back(rank.irecv(call.root, tag, call.bytes));
      else
        for (int i = 0; i < n; ++i)
          if (i != call.root)
            reqs.push_back(rank.isend(i, tag, call.bytes));
      break;
    case Kind::Reduce:
    case Kind::Gather:
    case Kind::GatherV:
      if (me != call.root) {
        reqs.push_back(rank.isend(call.root, tag, call.bytes));
      } else {
        for (int i = 0; i < n; ++i)
          if (i != call.root)
            reqs.push_back(rank.irecv(i, tag,
                                      kind == Kind::GatherV ? at(call.recv_counts, i)
                                      : kind == Kind::Gather ? call.bytes2
                                                             : call.bytes));
      }
      break;
    case Kind::Scatter:
    case Kind::ScatterV:
      if (me != call.root) {
        reqs.push_back(rank.irecv(call.root, tag, call.bytes2));
      } else {
        for (int i = 0; i < n; ++i)
          if (i != call.root)
            reqs.push_back(rank.isend(i, tag, kind == Kind::ScatterV ? at(call.send_counts, i) : call.bytes));
      }
      break;
    case Kind::AllReduce:
    case Kind::AllGather:
    case Kind::AllGatherV:
    case Kind::ReduceScatter:
      for (int i = 0; i < n; ++i) {
        if (i == me)
          continue;
        double out = kind == Kind::ReduceScatter ? at(call.recv_counts, i) : call.bytes;
        double in = kind == Kind::AllReduce      ? call.bytes
                    : kind == Kind::AllGather    ? call.bytes2
                    : kind == Kind::AllGatherV   ? at(call.recv_counts, i)
                                                 : at(call.recv_counts, me);
        reqs.push_back(rank.isend(i, tag, out));
        reqs.push_back(rank.irecv(i, tag, in));
      }
      break;
    case Kind::AllToAll:
      for (int i = (me + 1) % n; i != me; i = (i + 1) % n)
        reqs.push_back(rank.irecv(i, tag, call.bytes2));
      for (int i = (me + n - 1) % n; i != me; i = (i + n - 1) % n)
        reqs.push_back(rank.isend(i, tag, call.bytes));
      break;
    case Kind::AllToAllV:
      for (int i = 0; i < n; ++i)
        if (i != me)
          reqs.push_back(rank.irecv(i, tag, at(call.recv_counts, i)));
      for (int i = 0; i < n; ++i)
        if (i != me)
          reqs.push_back(rank.isend(i, tag, at(call.send_counts, i)));
      break;
    case Kind::Scan:
    case Kind::Exscan:
      for (int i = 0; i < me; ++i)
        reqs.push_back(rank.irecv(i, tag, call.bytes));
      for (int i = me + 1; i < n; ++i)
        reqs.push_back(rank.isend(i, tag, call.bytes));
      break;
    default:
      break;
  }
  return reqs;
}

} // namespace tit::colls
