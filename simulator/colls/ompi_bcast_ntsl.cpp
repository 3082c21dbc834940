#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// SimGrid's "non-topology-specific linear" pipelined bcast (bcast-NTSL.cpp): a root other than 0 first sends
// the whole buffer to 0; then the data flows 0 -> 1 -> ... -> n-1 in segments of 8192 bytes' worth of whole
// elements. Rank 0 isends every segment and waits for all; the others post every receive, then wait for each
// in turn and isend it on, and wait for all their sends. Elements left over after the whole segments are
// broadcast again by the selector's own bcast. A message of one segment or less goes with blocking calls.
// (SimGrid tags the segments with consecutive tags; one tag in posting order matches them the same way.)
void bcast_ntsl(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  std::int64_t count = ompi::element_count(call);
  std::int64_t ts = ompi::type_size(call);
  std::int64_t segment = 8192 / ts > 0 ? 8192 / ts : 1;
  std::int64_t pipe = count / segment;
  std::int64_t remainder = count % segment;
  int to = (me + 1) % n;
  int from = (me + n - 1) % n;
  auto segment_bytes = static_cast<double>(segment * ts);

  if (call.root != 0) {
    if (me == call.root)
      rank.send(0, kTagBcast, call.bytes);
    else if (me == 0)
      rank.recv(call.root, kTagBcast, call.bytes);
  }
  if (count <= segment) {
    if (me == 0) {
      rank.send(to, kTagBcast, call.bytes); // to itself on a communicator of one, never received (as SimGrid)
    } else {
      rank.wait(rank.irecv(from, kTagBcast, call.bytes));
      if (me != n - 1)
        rank.send(to, kTagBcast, call.bytes);
    }
    return;
  }
  std::vector<mpi::RequestPtr> sends;
  if (me == 0) {
    for (std::int64_t i = 0; i < pipe; ++i)
      sends.push_back(rank.isend(to, kTagBcast, segment_bytes));
    rank.waitall(sends);
  } else {
    std::vector<mpi::RequestPtr> recvs;
    for (std::int64_t i = 0; i < pipe; ++i)
      recvs.push_back(rank.irecv(from, kTagBcast, segment_bytes));
    if (me == n - 1) {
      rank.waitall(recvs);
    } else {
      for (auto const& r : recvs) {
        rank.wait(r);
        sends.push_back(rank.isend(to, kTagBcast, segment_bytes));
      }
      rank.waitall(sends);
    }
  }
  if (remainder != 0)
    bcast_ompi(rank, Call{.size = n, .root = call.root, .bytes = static_cast<double>(remainder * ts),
                          .datatype_size = call.datatype_size});
}

} // namespace tit::colls
