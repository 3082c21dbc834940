#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// MPICH's pairwise exchange: at step i, send to rank+i the part it keeps, receive this rank's part from
// rank-i.
void reducescatter_pair(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  for (int i = 1; i < n; ++i) {
    int src = (me - i + n) % n;
    int dst = (me + i) % n;
    rank.sendrecv(dst, counts[static_cast<std::size_t>(dst)], src, counts[static_cast<std::size_t>(me)],
                  kTagReduceScatter);
  }
}

} // namespace tit::colls
