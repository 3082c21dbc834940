#include "colls/mpich_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's reduce binomial (MPICH's), commutative branch: ranks relative to the root; at mask 1, 2, 4, ...
// a rank whose bit is clear receives the whole buffer from relative rank (rel | mask), if it exists; the first
// rank whose bit is set sends its partial result to (rel & ~mask) and is done.
void reduce_binomial(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (call.bytes <= 0)
    return; // count == 0
  int rel = (rank.rank() - call.root + n) % n;
  for (int mask = 1; mask < n; mask <<= 1) {
    if ((mask & rel) == 0) {
      int source = rel | mask;
      if (source < n)
        rank.recv((source + call.root) % n, kTagReduce, call.bytes);
    } else {
      rank.send(((rel & ~mask) + call.root) % n, kTagReduce, call.bytes);
      break;
    }
  }
}

} // namespace tit::colls
