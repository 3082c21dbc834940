#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Step i (1..n-1): exchange of this rank's block with rank ^ i. Power-of-two sizes only.
void allgather_pair(mpi::PointToPoint& rank, const Call& call)
{
  require_power_of_two_ranks("allgather pair", call.size);
  int me = rank.rank();
  for (int i = 1; i < call.size; ++i)
    rank.sendrecv(me ^ i, call.bytes, me ^ i, call.bytes2, kTagAllgather);
}

} // namespace tit::colls
