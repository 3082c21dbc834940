#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's tree barrier: a fan-in on the hypercube tree (at step 2^k, rank r with partner r XOR 2^k aligned
// on 2^k: the higher sends to the lower), then the same tree in reverse as a fan-out.
void barrier_ompi_tree(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  int depth = 1;
  while (depth < n)
    depth <<= 1;
  auto linked = [&](int partner, int jump) { return (partner & (jump - 1)) == 0 && partner < n; };
  for (int jump = 1; jump < depth; jump <<= 1) {
    int partner = me ^ jump;
    if (not linked(partner, jump))
      continue;
    if (partner > me)
      rank.recv(partner, kTagBarrier, 0);
    else
      rank.send(partner, kTagBarrier, 0);
  }
  for (int jump = depth >> 1; jump > 0; jump >>= 1) {
    int partner = me ^ jump;
    if (not linked(partner, jump))
      continue;
    if (partner > me)
      rank.send(partner, kTagBarrier, 0);
    else
      rank.recv(partner, kTagBarrier, 0);
  }
}

} // namespace tit::colls
