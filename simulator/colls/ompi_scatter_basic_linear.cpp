#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// The root sends each other rank its block in rank order (blocking sends); the others receive theirs.
void scatter_ompi_basic_linear(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  if (me != call.root)
    return rank.recv(call.root, kTagScatter, call.bytes2);
  for (int dst = 0; dst < call.size; ++dst)
    if (dst != me)
      rank.send(dst, kTagScatter, call.bytes);
}

} // namespace tit::colls
