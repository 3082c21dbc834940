#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI 4.1's fixed decision as SimGrid 3.32 has it: on the communicator size only. Its "double ring" is
// SimGrid's basic linear.
void barrier_ompi(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (n < 4 || (n >= 8 && n < 64))
    return barrier_ompi_recursive_doubling(rank, call);
  if (n < 8)
    return barrier_linear(rank, call);
  if ((n >= 256 && n < 512) || (n >= 1024 && n < 4096))
    return barrier_ompi_tree(rank, call);
  barrier_ompi_bruck(rank, call);
}

} // namespace tit::colls
