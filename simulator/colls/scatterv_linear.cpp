#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// scatter_linear with a block size per receiver.
void scatterv_linear(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  if (rank.rank() != call.root) {
    reqs.push_back(rank.irecv(call.root, kTagScatterv, call.bytes2));
  } else {
    for (int dst = 0; dst < call.size; ++dst)
      if (dst != call.root)
        reqs.push_back(rank.isend(dst, kTagScatterv, (*call.send_counts)[static_cast<std::size_t>(dst)]));
      else // the root's own block, in turn
        rank.sendrecv(dst, (*call.send_counts)[static_cast<std::size_t>(dst)], dst, call.bytes2, kTagScatterv);
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
