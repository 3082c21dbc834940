#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Step i (1..n-1): this rank's block to rank + i, the block of rank - i from it, in one sendrecv.
void allgather_ring(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  for (int i = 1; i < n; ++i)
    rank.sendrecv((me + i) % n, call.bytes, (me - i + n) % n, call.bytes2, kTagAllgather);
}

} // namespace tit::colls
