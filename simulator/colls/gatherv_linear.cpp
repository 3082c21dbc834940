#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// gather_linear with a block size per sender.
void gatherv_linear(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  if (rank.rank() != call.root) {
    reqs.push_back(rank.isend(call.root, kTagGatherv, call.bytes));
  } else {
    for (int src = 0; src < call.size; ++src)
      if (src != call.root)
        reqs.push_back(rank.irecv(src, kTagGatherv, (*call.recv_counts)[static_cast<std::size_t>(src)]));
      else // the root's own block, in turn
        rank.sendrecv(src, call.bytes, src, (*call.recv_counts)[static_cast<std::size_t>(src)], kTagGatherv);
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
