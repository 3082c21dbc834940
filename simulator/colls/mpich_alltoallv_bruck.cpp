#include "colls/mpich_all.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <vector>

namespace tit::colls {

// SimGrid's alltoallv "bruck" (in fact MPICH's throttled linear exchange): blocks of 4 peers; per block,
// irecvs from rank+i then isends to rank-i (this rank itself skipped), then a wait for the block.
void alltoallv_bruck(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  if (n <= 1)
    return;
  auto const& sends = *call.send_counts;
  auto const& recvs = *call.recv_counts;
  constexpr int block = 4;
  std::vector<mpi::RequestPtr> reqs;
  for (int first = 0; first < n; first += block) {
    int count = std::min(block, n - first);
    reqs.clear();
    for (int i = 0; i < count; ++i) {
      int src = (me + i + first) % n;
      if (src != me)
        reqs.push_back(rank.irecv(src, kTagAlltoallv, recvs[static_cast<std::size_t>(src)]));
    }
    for (int i = 0; i < count; ++i) {
      int dst = (me - i - first + n) % n;
      if (dst != me)
        reqs.push_back(rank.isend(dst, kTagAlltoallv, sends[static_cast<std::size_t>(dst)]));
    }
    rank.waitall(reqs);
  }
}

} // namespace tit::colls
