#include "colls/mpich_all.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <vector>

namespace tit::colls {

// MVAPICH2's scatter_dest all-to-all (MPICH's medium-size algorithm with Tony Ladd's throttling): blocks of 4
// peers; per block, irecvs from rank+i then isends to rank-i (i counted from the block's start, this rank
// itself included: its own block travels through the network too), then a wait for the block.
void alltoall_mvapich2_scatter_dest(mpi::PointToPoint& rank, const Call& call)
{
  if (call.bytes2 <= 0)
    return; // recvcount == 0
  int n = call.size;
  int me = rank.rank();
  int block = std::min(4, n);
  std::vector<mpi::RequestPtr> reqs;
  for (int first = 0; first < n; first += block) {
    int count = std::min(block, n - first);
    reqs.clear();
    for (int i = 0; i < count; ++i)
      reqs.push_back(rank.irecv((me + i + first) % n, kTagAlltoall, call.bytes2));
    for (int i = 0; i < count; ++i)
      reqs.push_back(rank.isend((me - i - first + n) % n, kTagAlltoall, call.bytes));
    rank.waitall(reqs);
  }
}

} // namespace tit::colls
