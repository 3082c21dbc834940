#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Step i (1..n-1): exchange of blocks with rank ^ i. Power-of-two sizes only.
void allgatherv_pair(mpi::PointToPoint& rank, const Call& call)
{
  require_power_of_two_ranks("allgatherv pair", call.size);
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  for (int i = 1; i < call.size; ++i)
    rank.sendrecv(me ^ i, call.bytes, me ^ i, counts[static_cast<std::size_t>(me ^ i)], kTagAllgatherv);
}

} // namespace tit::colls
