#include "colls/colls.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

void barrier_linear(mpi::Rank& rank, int size)
{
  constexpr int tag = mpi::kBarrierTag;
  if (rank.rank() > 0) {
    rank.send(0, tag, 0);
    rank.recv(0, tag, 0);
    return;
  }
  std::vector<mpi::RequestPtr> reqs;
  reqs.reserve(static_cast<std::size_t>(size));
  for (int i = 1; i < size; ++i)
    reqs.push_back(rank.irecv(i, tag, 0));
  rank.waitall(reqs);
  reqs.clear();
  for (int i = 1; i < size; ++i)
    reqs.push_back(rank.isend(i, tag, 0));
  rank.waitall(reqs);
}

} // namespace tit::colls
