#include "colls/ompi_rooted.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's basic linear reduce: every other rank sends its buffer to the root with a blocking send; the
// root receives from rank n-1 first, then from n-2 down to 0 (skipping itself), one blocking receive each.
void reduce_ompi_basic_linear(mpi::PointToPoint& rank, const Call& call)
{
  if (rank.rank() != call.root) {
    rank.send(call.root, kTagReduce, call.bytes);
    return;
  }
  for (int src = call.size - 1; src >= 0; --src)
    if (src != call.root)
      rank.recv(src, kTagReduce, call.bytes);
}

} // namespace tit::colls
