#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// The root isends each other rank its block in rank order, then waits for all; the others receive theirs.
void scatter_ompi_linear_nb(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  if (me != call.root)
    return rank.recv(call.root, kTagScatter, call.bytes2);
  std::vector<mpi::RequestPtr> reqs;
  for (int dst = 0; dst < call.size; ++dst)
    if (dst != me)
      reqs.push_back(rank.isend(dst, kTagScatter, call.bytes));
  rank.waitall(reqs);
}

} // namespace tit::colls
