#include "colls/colls.hpp"
#include "mpi/world.hpp"
#include "trace/action.hpp"

namespace tit::colls {

namespace {

using trace::Kind;

/// What posting the messages of one nonblocking collective needs: the rank, the collective's tag and call, and the
/// requests posted so far.
struct Posting {
  Posting(mpi::PointToPoint& r, int t, const Call& c) : rank(r), tag(t), call(c), n(c.size), me(r.rank()) {}

  mpi::PointToPoint& rank;
  const int tag;
  const Call& call;
  const int n;
  const int me;
  std::vector<mpi::RequestPtr> reqs;

  static double at(const std::vector<double>* v, int i) { return (*v)[static_cast<std::size_t>(i)]; }
};

void post_barrier(Posting& p)
{
  if (p.me > 0) {
    p.reqs.push_back(p.rank.isend(0, p.tag, 0));
    p.reqs.push_back(p.rank.irecv(0, p.tag, 0));
  } else {
    for (int i = 1; i < p.n; ++i) {
      p.reqs.push_back(p.rank.irecv(mpi::kAnySource, p.tag, 0));
      p.reqs.push_back(p.rank.isend(i, p.tag, 0));
    }
  }
}

void post_bcast(Posting& p)
{
  const Call& call = p.call;
  if (p.me != call.root)
    p.reqs.push_back(p.rank.irecv(call.root, p.tag, call.bytes));
  else
    for (int i = 0; i < p.n; ++i)
      if (i != call.root)
        p.reqs.push_back(p.rank.isend(i, p.tag, call.bytes));
}

/// Reduce, gather and gatherv: every rank sends to the root.
void post_to_root(Posting& p, Kind kind)
{
  const Call& call = p.call;
  if (p.me != call.root) {
    p.reqs.push_back(p.rank.isend(call.root, p.tag, call.bytes));
  } else {
    for (int i = 0; i < p.n; ++i)
      if (i != call.root)
        p.reqs.push_back(p.rank.irecv(i, p.tag,
                                      kind == Kind::GatherV ? Posting::at(call.recv_counts, i)
                                      : kind == Kind::Gather ? call.bytes2
                                                             : call.bytes));
  }
}

/// Scatter and scatterv: the root sends to every rank.
void post_from_root(Posting& p, Kind kind)
{
  const Call& call = p.call;
  if (p.me != call.root) {
    p.reqs.push_back(p.rank.irecv(call.root, p.tag, call.bytes2));
  } else {
    for (int i = 0; i < p.n; ++i)
      if (i != call.root)
        p.reqs.push_back(
            p.rank.isend(i, p.tag, kind == Kind::ScatterV ? Posting::at(call.send_counts, i) : call.bytes));
  }
}

/// Allreduce, allgather, allgatherv and reduce-scatter: a message to and from every other rank.
void post_with_every_rank(Posting& p, Kind kind)
{
  const Call& call = p.call;
  for (int i = 0; i < p.n; ++i) {
    if (i == p.me)
      continue;
    double out = kind == Kind::ReduceScatter ? Posting::at(call.recv_counts, i) : call.bytes;
    double in = kind == Kind::AllReduce      ? call.bytes
                : kind == Kind::AllGather    ? call.bytes2
                : kind == Kind::AllGatherV   ? Posting::at(call.recv_counts, i)
                                             : Posting::at(call.recv_counts, p.me);
    p.reqs.push_back(p.rank.isend(i, p.tag, out));
    p.reqs.push_back(p.rank.irecv(i, p.tag, in));
  }
}

void post_alltoall(Posting& p)
{
  const int n = p.n, me = p.me;
  for (int i = (me + 1) % n; i != me; i = (i + 1) % n)
    p.reqs.push_back(p.rank.irecv(i, p.tag, p.call.bytes2));
  for (int i = (me + n - 1) % n; i != me; i = (i + n - 1) % n)
    p.reqs.push_back(p.rank.isend(i, p.tag, p.call.bytes));
}

void post_alltoallv(Posting& p)
{
  for (int i = 0; i < p.n; ++i)
    if (i != p.me)
      p.reqs.push_back(p.rank.irecv(i, p.tag, Posting::at(p.call.recv_counts, i)));
  for (int i = 0; i < p.n; ++i)
    if (i != p.me)
      p.reqs.push_back(p.rank.isend(i, p.tag, Posting::at(p.call.send_counts, i)));
}

/// Scan and exscan: receive from the lower ranks, send to the higher ones.
void post_scan(Posting& p)
{
  for (int i = 0; i < p.me; ++i)
    p.reqs.push_back(p.rank.irecv(i, p.tag, p.call.bytes));
  for (int i = p.me + 1; i < p.n; ++i)
    p.reqs.push_back(p.rank.isend(i, p.tag, p.call.bytes));
}

} // namespace

// Each nonblocking collective posts every message of a flat algorithm at once, as SimGrid's nonblocking
// collectives do; a wait on the collective waits for all of them.
std::vector<mpi::RequestPtr> post_nonblocking(mpi::PointToPoint& rank, int blocking, const Call& call)
{
  const auto kind = static_cast<Kind>(blocking);
  Posting p(rank, kTagNonBlocking - blocking, call);
  switch (kind) {
    case Kind::Barrier: post_barrier(p); break;
    case Kind::Bcast: post_bcast(p); break;
    case Kind::Reduce:
    case Kind::Gather:
    case Kind::GatherV: post_to_root(p, kind); break;
    case Kind::Scatter:
    case Kind::ScatterV: post_from_root(p, kind); break;
    case Kind::AllReduce:
    case Kind::AllGather:
    case Kind::AllGatherV:
    case Kind::ReduceScatter: post_with_every_rank(p, kind); break;
    case Kind::AllToAll: post_alltoall(p); break;
    case Kind::AllToAllV: post_alltoallv(p); break;
    case Kind::Scan:
    case Kind::Exscan: post_scan(p); break;
    default: break;
  }
  return std::move(p.reqs);
}

} // namespace tit::colls
