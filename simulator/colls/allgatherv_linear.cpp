#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// allgather_linear with a block size per rank.
void allgatherv_linear(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  rank.sendrecv(me, call.bytes, me, (*call.recv_counts)[static_cast<std::size_t>(me)], kTagAllgatherv); // own block
  std::vector<mpi::RequestPtr> reqs;
  for (int other = 0; other < call.size; ++other) {
    if (other == rank.rank())
      continue;
    reqs.push_back(rank.isend(other, kTagAllgatherv, call.bytes));
    reqs.push_back(rank.irecv(other, kTagAllgatherv, (*call.recv_counts)[static_cast<std::size_t>(other)]));
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
