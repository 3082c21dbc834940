#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Step i (1..n-1): this rank's block to rank + i, the block of rank - i from it, in one sendrecv.
void allgatherv_ring(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  for (int i = 1; i < n; ++i) {
    int src = (me - i + n) % n;
    rank.sendrecv((me + i) % n, call.bytes, src, counts[static_cast<std::size_t>(src)], kTagAllgatherv);
  }
}

} // namespace tit::colls
