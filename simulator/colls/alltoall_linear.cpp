#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's basic linear all-to-all: receives posted from rank+1 upward, sends from rank-1 downward.
void alltoall_linear(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  rank.sendrecv(me, call.bytes, me, call.bytes2, kTagAlltoall); // its own block, copied first (free by default)
  std::vector<mpi::RequestPtr> reqs;
  for (int i = (me + 1) % n; i != me; i = (i + 1) % n)
    reqs.push_back(rank.irecv(i, kTagAlltoall, call.bytes2));
  for (int i = (me + n - 1) % n; i != me; i = (i + n - 1) % n)
    reqs.push_back(rank.isend(i, kTagAlltoall, call.bytes));
  rank.waitall(reqs);
}

} // namespace tit::colls
