#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// To every other rank, in rank order: isend this rank's block, irecv that rank's; then wait for all.
void allgather_linear(mpi::PointToPoint& rank, const Call& call)
{
  rank.sendrecv(rank.rank(), call.bytes, rank.rank(), call.bytes2, kTagAllgather); // own block first
  std::vector<mpi::RequestPtr> reqs;
  for (int other = 0; other < call.size; ++other) {
    if (other == rank.rank())
      continue;
    reqs.push_back(rank.isend(other, kTagAllgather, call.bytes));
    reqs.push_back(rank.irecv(other, kTagAllgather, call.bytes2));
  }
  rank.waitall(reqs);
}

} // namespace tit::colls
