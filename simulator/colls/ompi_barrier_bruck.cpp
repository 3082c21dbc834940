#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's Bruck (dissemination) barrier: for each distance 2^k < p, one sendrecv sending to rank + 2^k and
// receiving from rank - 2^k.
void barrier_ompi_bruck(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  for (int distance = 1; distance < n; distance <<= 1)
    rank.sendrecv((me + distance) % n, 0, (me + n - distance) % n, 0, kTagBarrier);
}

} // namespace tit::colls
