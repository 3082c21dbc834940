#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Non-roots send 0 bytes to rank 0 and wait for its answer; rank 0 receives from everyone, then sends to all.
void barrier_linear(mpi::PointToPoint& rank, const Call& call)
{
  if (rank.rank() > 0) {
    rank.send(0, kTagBarrier, 0);
    rank.recv(0, kTagBarrier, 0);
    return;
  }
  std::vector<mpi::RequestPtr> reqs;
  for (int i = 1; i < call.size; ++i)
    reqs.push_back(rank.irecv(i, kTagBarrier, 0));
  rank.waitall(reqs);
  reqs.clear();
  for (int i = 1; i < call.size; ++i)
    reqs.push_back(rank.isend(i, kTagBarrier, 0));
  rank.waitall(reqs);
}

} // namespace tit::colls
