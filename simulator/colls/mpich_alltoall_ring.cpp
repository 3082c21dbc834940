#include "colls/mpich_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's ring all-to-all: step i = 0 .. p-1, one sendrecv to rank+i and from rank-i (step 0 is this rank's
// copy to itself, which costs nothing).
void alltoall_ring(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  for (int i = 0; i < n; ++i)
    rank.sendrecv((me + i) % n, call.bytes, (me - i + n) % n, call.bytes2, kTagAlltoall);
}

} // namespace tit::colls
