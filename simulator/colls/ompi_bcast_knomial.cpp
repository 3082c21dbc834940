#include "colls/ompi_rooted.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

// MVAPICH2's intra-node k-nomial bcast (k = 4), which SimGrid's ompi decision uses for Open MPI's "knomial"
// and runs over the whole communicator. Its first call runs SMPI's init_smp. A rank receives from the
// rank that clears its lowest nonzero base-4 digit (relative to the root); it then serves its subtrees from
// the largest down: at each level it isends to up to 3 children and waits for them together.
void bcast_mvapich2_knomial_intra_node(mpi::PointToPoint& rank, const Call& call)
{
  constexpr int k = 4;
  if (auto layout = smp_init_pending(rank, call.size))
    smp_init(rank, *layout);
  int n = call.size;
  int me = rank.rank();
  if (n == 1)
    return;
  int relative = me >= call.root ? me - call.root : me - call.root + n;
  int mask = 1;
  for (; mask < n; mask *= k)
    if (relative % (k * mask) != 0) {
      int src = relative / (k * mask) * (k * mask) + call.root;
      rank.recv(src >= n ? src - n : src, kTagBcast, call.bytes);
      break;
    }
  for (mask /= k; mask > 0; mask /= k) {
    std::vector<mpi::RequestPtr> sends;
    for (int i = 1; i < k; ++i)
      if (relative + mask * i < n) {
        int dst = me + mask * i;
        sends.push_back(rank.isend(dst >= n ? dst - n : dst, kTagBcast, call.bytes));
      }
    rank.waitall(sends);
  }
}

} // namespace tit::colls
