#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Bruck's allgather: with rank - 2^k / rank + 2^k, one sendrecv of all the blocks gathered so far (their
// count doubling), then one of the remaining n - 2^k blocks; the final local rotation costs nothing.
void allgather_bruck(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  double block = call.bytes2; // SimGrid sends and receives in receive-datatype units here
  double bytes = block;
  int pof2 = 1;
  for (; pof2 <= n / 2; pof2 *= 2) {
    rank.sendrecv((me - pof2 + n) % n, bytes, (me + pof2) % n, bytes, kTagAllgather);
    bytes *= 2;
  }
  int remainder = n - pof2;
  if (remainder > 0)
    rank.sendrecv((me - pof2 + n) % n, remainder * block, (me + pof2) % n, remainder * block, kTagAllgather);
}

} // namespace tit::colls
