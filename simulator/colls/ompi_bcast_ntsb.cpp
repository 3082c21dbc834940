#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// SimGrid's "non-topology-specific binary" pipelined bcast (bcast-NTSB.cpp): a root other than 0 first sends
// the whole buffer to 0; then the data flows down the binary heap rooted at 0 (children 2r+1 and 2r+2) in
// segments of 8192 bytes' worth of whole elements. Rank 0 isends every segment to its left then its right
// child and waits for all; the others post every receive, then wait for each in turn and isend it to their
// children, and wait for all their sends (left ones first in the list). Elements left over after the whole
// segments are broadcast again by the selector's own bcast. A message of one segment or less goes with
// blocking calls. (SimGrid tags the segments with consecutive tags; one tag in posting order matches them the
// same way.)
void bcast_ntsb(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  if (n == 1) // SimGrid sends to rank -1 (and fails)
    return;
  std::int64_t count = ompi::element_count(call);
  std::int64_t ts = ompi::type_size(call);
  std::int64_t segment = 8192 / ts > 0 ? 8192 / ts : 1;
  std::int64_t pipe = count / segment;
  std::int64_t remainder = count % segment;
  int from = (me - 1) / 2;
  std::vector<int> children;
  for (int child : {2 * me + 1, 2 * me + 2})
    if (child < n)
      children.push_back(child);
  auto segment_bytes = static_cast<double>(segment * ts);

  if (call.root != 0) {
    if (me == call.root)
      rank.send(0, kTagBcast, call.bytes);
    else if (me == 0)
      rank.recv(call.root, kTagBcast, call.bytes);
  }
  if (count <= segment) {
    if (me != 0)
      rank.recv(from, kTagBcast, call.bytes);
    for (int child : children)
      rank.send(child, kTagBcast, call.bytes);
    return;
  }
  // The sends of segment i to the left child are at i, to the right one at pipe + i (SimGrid's array).
  std::vector<mpi::RequestPtr> sends(children.size() * static_cast<std::size_t>(pipe));
  auto send_segment = [&](std::int64_t i) {
    for (std::size_t c = 0; c < children.size(); ++c)
      sends[c * static_cast<std::size_t>(pipe) + static_cast<std::size_t>(i)] =
          rank.isend(children[c], kTagBcast, segment_bytes);
  };
  if (me == 0) {
    for (std::int64_t i = 0; i < pipe; ++i)
      send_segment(i);
    rank.waitall(sends);
  } else {
    std::vector<mpi::RequestPtr> recvs;
    for (std::int64_t i = 0; i < pipe; ++i)
      recvs.push_back(rank.irecv(from, kTagBcast, segment_bytes));
    if (children.empty()) {
      rank.waitall(recvs);
    } else {
      for (std::int64_t i = 0; i < pipe; ++i) {
        rank.wait(recvs[static_cast<std::size_t>(i)]);
        send_segment(i);
      }
      rank.waitall(sends);
    }
  }
  if (remainder != 0)
    bcast_ompi(rank, Call{.size = n, .root = call.root, .bytes = static_cast<double>(remainder * ts),
                          .datatype_size = call.datatype_size});
}

} // namespace tit::colls
