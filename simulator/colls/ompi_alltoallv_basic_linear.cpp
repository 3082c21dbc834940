#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// Receives from every other rank in rank order, then sends to every other rank in rank order, all waited
// together. Empty blocks are still messages.
void alltoallv_ompi_basic_linear(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  if (call.size == 1)
    return;
  std::vector<mpi::RequestPtr> reqs;
  for (int i = 0; i < call.size; ++i)
    if (i != me)
      reqs.push_back(rank.irecv(i, kTagAlltoallv, (*call.recv_counts)[static_cast<std::size_t>(i)]));
  for (int i = 0; i < call.size; ++i)
    if (i != me)
      reqs.push_back(rank.isend(i, kTagAlltoallv, (*call.send_counts)[static_cast<std::size_t>(i)]));
  rank.waitall(reqs);
}

} // namespace tit::colls
