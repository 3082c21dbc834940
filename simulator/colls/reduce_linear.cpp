#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's default reduce (a nonblocking reduce waited at once): non-roots isend their buffer to the
// root, which receives from every other rank in rank order and waits for all.
void reduce_linear(mpi::PointToPoint& rank, const Call& call)
{
  std::vector<mpi::RequestPtr> reqs;
  if (rank.rank() != call.root) {
    reqs.push_back(rank.isend(call.root, kTagReduce, call.bytes));
  } else {
    for (int src = 0; src < call.size; ++src)
      if (src != call.root)
        reqs.push_back(rank.irecv(src, kTagReduce, call.bytes));
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
