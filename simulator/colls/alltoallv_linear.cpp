#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Receives posted from every other rank in rank order, then sends to every other rank; wait for all.
// Empty blocks are still messages (their envelope travels).
void alltoallv_linear(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  auto own = static_cast<std::size_t>(me);
  rank.sendrecv(me, (*call.send_counts)[own], me, (*call.recv_counts)[own], kTagAlltoallv); // own block first
  std::vector<mpi::RequestPtr> reqs;
  for (int i = 0; i < call.size; ++i)
    if (i != me)
      reqs.push_back(rank.irecv(i, kTagAlltoallv, (*call.recv_counts)[static_cast<std::size_t>(i)]));
  for (int i = 0; i < call.size; ++i)
    if (i != me)
      reqs.push_back(rank.isend(i, kTagAlltoallv, (*call.send_counts)[static_cast<std::size_t>(i)]));
  rank.waitall(reqs);
}

} // namespace tit::colls
