#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Non-roots isend their block to the root, which receives from every other rank in rank order.
void gather_linear(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  if (rank.rank() != call.root) {
    reqs.push_back(rank.isend(call.root, kTagGather, call.bytes));
  } else {
    for (int src = 0; src < call.size; ++src)
      if (src != call.root)
        reqs.push_back(rank.irecv(src, kTagGather, call.bytes2));
      else
        rank.sendrecv(src, call.bytes, src, call.bytes2, kTagGather); // the root's own block, in turn
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
