#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <algorithm>

namespace tit::colls {

// Open MPI's ring reduce_scatter: size-1 steps; at each, the block of rank (r - k) % p (k = 1, 2, ...) goes to
// the right neighbour by a blocking send while the next one is received from the left into one of two
// alternating irecvs of the largest block's size.
void reducescatter_ompi_ring(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (n == 1)
    return;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto bytes_of = [&](int r) { return counts[static_cast<std::size_t>(r)]; };
  double max_block = *std::max_element(counts.begin(), counts.end());
  int right = (me + 1) % n;
  int left = (me + n - 1) % n;

  mpi::RequestPtr reqs[2];
  int inbi = 0;
  reqs[inbi] = rank.irecv(left, kTagReduceScatter, max_block);
  rank.send(right, kTagReduceScatter, bytes_of(left));
  for (int k = 2; k < n; ++k) {
    int prevblock = (me + n - k) % n;
    inbi ^= 1;
    reqs[inbi] = rank.irecv(left, kTagReduceScatter, max_block);
    rank.wait(reqs[inbi ^ 1]);
    rank.send(right, kTagReduceScatter, bytes_of(prevblock));
  }
  rank.wait(reqs[inbi]);
}

} // namespace tit::colls
