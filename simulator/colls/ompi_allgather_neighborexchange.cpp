#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's neighbour exchange (even sizes; odd ones use the ring): even ranks talk to rank + 1 first,
// odd ranks to rank - 1, then the two neighbours alternate. The first exchange carries one block, the
// n/2 - 1 others two blocks.
void allgather_ompi_neighborexchange(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (n % 2 != 0)
    return allgather_ring(rank, call);
  int me = rank.rank();
  bool even = me % 2 == 0;
  int neighbor[2] = {even ? (me + 1) % n : (me - 1 + n) % n, even ? (me - 1 + n) % n : (me + 1) % n};
  double block = call.bytes2; // SimGrid sends from the receive buffer, in receive-datatype units
  rank.sendrecv(neighbor[0], block, neighbor[0], block, kTagAllgather);
  for (int i = 1; i < n / 2; ++i)
    rank.sendrecv(neighbor[i % 2], 2 * block, neighbor[i % 2], 2 * block, kTagAllgather);
}

} // namespace tit::colls
