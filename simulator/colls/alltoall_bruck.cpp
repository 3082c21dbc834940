#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Bruck's all-to-all: local rotations (no communication), then for each power of two p < n one
// sendrecv with rank+p / rank-p of the blocks whose index has bit p set, packed in one message.
void alltoall_bruck(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  for (int pof2 = 1; pof2 < n; pof2 *= 2) {
    int blocks = 0;
    for (int block = 1; block < n; ++block)
      if (block & pof2)
        ++blocks;
    double bytes = blocks * call.bytes;
    rank.sendrecv((me + pof2) % n, bytes, (me - pof2 + n) % n, bytes, kTagAlltoall);
  }
}

} // namespace tit::colls
