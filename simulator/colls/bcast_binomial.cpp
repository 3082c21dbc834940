#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Ranks relative to the root: receive from the parent (clear the lowest set bit), then send to the
// children, the farthest (largest subtree) first.
void bcast_binomial(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int relative = (rank.rank() - call.root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (relative & mask) {
      rank.recv((rank.rank() - mask + n) % n, kTagBcast, call.bytes);
      break;
    }
    mask <<= 1;
  }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (relative + mask < n)
      rank.send((rank.rank() + mask) % n, kTagBcast, call.bytes);
}

} // namespace tit::colls
