#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's recursive doubling barrier: with p' the largest power of two <= p, rank p'+i first sendrecvs with
// rank i (which only receives); ranks below p' sendrecv with rank XOR 2^k; then rank i sends to rank p'+i.
void barrier_ompi_recursive_doubling(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  int adjsize = 1;
  while (adjsize * 2 <= n)
    adjsize *= 2;
  if (adjsize != n) {
    if (me >= adjsize)
      rank.sendrecv(me - adjsize, 0, me - adjsize, 0, kTagBarrier);
    else if (me < n - adjsize)
      rank.recv(me + adjsize, kTagBarrier, 0);
  }
  if (me < adjsize)
    for (int mask = 1; mask < adjsize; mask <<= 1) {
      int remote = me ^ mask;
      if (remote < adjsize)
        rank.sendrecv(remote, 0, remote, 0, kTagBarrier);
    }
  if (adjsize != n && me < n - adjsize)
    rank.send(me + adjsize, kTagBarrier, 0);
}

} // namespace tit::colls
