#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Step i (1..n-1; step 0 is a local copy): one sendrecv with rank ^ i. Power-of-two sizes only.
void alltoallv_pair(mpi::PointToPoint& rank, const Call& call)
{
  require_power_of_two_ranks("alltoallv pair", call.size);
  int me = rank.rank();
  for (int i = 1; i < call.size; ++i) {
    auto peer = static_cast<std::size_t>(me ^ i);
    rank.sendrecv(me ^ i, (*call.send_counts)[peer], me ^ i, (*call.recv_counts)[peer], kTagAlltoallv);
  }
}

} // namespace tit::colls
