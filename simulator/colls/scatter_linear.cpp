#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// The root isends a block to every other rank in rank order; the others receive theirs.
void scatter_linear(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  if (rank.rank() != call.root) {
    reqs.push_back(rank.irecv(call.root, kTagScatter, call.bytes2));
  } else {
    for (int dst = 0; dst < call.size; ++dst)
      if (dst != call.root)
        reqs.push_back(rank.isend(dst, kTagScatter, call.bytes));
      else
        rank.sendrecv(dst, call.bytes, dst, call.bytes2, kTagScatter); // the root's own block, in turn
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
