#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Every other rank sends its block (blocking); the root receives them one by one in rank order.
void gather_ompi_basic_linear(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  if (me != call.root)
    return rank.send(call.root, kTagGather, call.bytes);
  for (int src = 0; src < call.size; ++src)
    if (src != me)
      rank.recv(src, kTagGather, call.bytes2);
}

} // namespace tit::colls
