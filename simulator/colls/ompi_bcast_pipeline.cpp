#include "colls/ompi_rooted.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <array>
#include <vector>

namespace tit::colls {

// Open MPI's pipelined bcast along a chain from the root (fanout 1), in segments of 16, 64 or 128 KiB chosen
// from the communicator and message sizes. The root isends each segment to its child and waits for it;
// inner ranks keep one receive ahead: post the next segment's receive, wait for the current one, isend it on
// and wait. Receives are posted for whole segments, the last one included.
void bcast_ompi_pipeline(mpi::PointToPoint& rank, const Call& call)
{
  std::int64_t count = ompi::element_count(call);
  std::int64_t ts = ompi::type_size(call);
  if (call.size == 1 || count <= 0) // SimGrid: a communicator of one returns; no segment size for 0 elements
    return;
  auto message = static_cast<double>(ts * count);
  std::int64_t segsize = 1024 << 7;
  if (call.size < 1.6134e-6 * message + 2.1102)
    segsize = 1024 << 7;
  else if (call.size < 2.3679e-6 * message + 1.1787)
    segsize = 1024 << 6;
  else if (call.size < 3.2118e-6 * message + 8.7936)
    segsize = 1024 << 4;
  std::int64_t per_segment = ompi::segment_count(segsize, ts, count);
  std::int64_t segments = (count + per_segment - 1) / per_segment;
  auto full = static_cast<double>(per_segment * ts);
  auto last = static_cast<double>((count - (segments - 1) * per_segment) * ts);
  auto tree = ompi::build_chain(1, call.size, rank.rank(), call.root);

  auto send_to_children = [&](double bytes) {
    std::vector<mpi::RequestPtr> sends;
    for (int child : tree.next)
      sends.push_back(rank.isend(child, kTagBcast, bytes));
    rank.waitall(sends);
  };
  if (rank.rank() == call.root) {
    for (std::int64_t seg = 0; seg < segments; ++seg)
      send_to_children(seg == segments - 1 ? last : full);
    return;
  }
  std::array<mpi::RequestPtr, 2> recvs;
  int current = 0;
  recvs[current] = rank.irecv(tree.prev, kTagBcast, full);
  for (std::int64_t seg = 1; seg < segments; ++seg) {
    current ^= 1;
    recvs[current] = rank.irecv(tree.prev, kTagBcast, full);
    rank.wait(recvs[current ^ 1]);
    if (not tree.next.empty())
      send_to_children(full);
  }
  rank.wait(recvs[current]);
  if (not tree.next.empty())
    send_to_children(last);
}

} // namespace tit::colls
