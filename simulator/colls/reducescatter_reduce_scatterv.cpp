#include "colls/colls.hpp"
#include "mpi/world.hpp"

#include <numeric>

namespace tit::colls {

// A reduce of the whole vector to rank 0, then a scatterv of each rank's part from rank 0.
void reducescatter_reduce_scatterv(mpi::PointToPoint& rank, const Call& call)
{
  auto const& counts = *call.recv_counts;
  Call reduce = call;
  reduce.root = 0;
  reduce.bytes = std::accumulate(counts.begin(), counts.end(), 0.0);
  reduce_linear(rank, reduce);
  Call scatter = call;
  scatter.root = 0;
  scatter.send_counts = &counts;
  scatter.bytes2 = counts[static_cast<std::size_t>(rank.rank())];
  scatterv_linear(rank, scatter);
}

} // namespace tit::colls
