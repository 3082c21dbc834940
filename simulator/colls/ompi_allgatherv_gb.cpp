#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <algorithm>

namespace tit::colls {

// SimGrid's gatherv (gatherv_linear) to rank 0, then a broadcast from rank 0 of the received buffer up to
// the end of its furthest block: the largest block, the traces' displacements being all 0.
void allgatherv_gb(mpi::PointToPoint& rank, const Call& call, Algorithm bcast)
{
  Call gather = call;
  gather.root = 0;
  gatherv_linear(rank, gather);
  auto const& counts = *call.recv_counts;
  Call broadcast = call;
  broadcast.root = 0;
  broadcast.bytes = counts.empty() ? 0 : *std::max_element(counts.begin(), counts.end());
  bcast(rank, broadcast);
}

} // namespace tit::colls
