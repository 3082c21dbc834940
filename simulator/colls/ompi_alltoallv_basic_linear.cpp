#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's basic linear alltoallv is SimGrid's default one: receives from every other rank in rank order,
// then sends, all waited together.
void alltoallv_ompi_basic_linear(mpi::PointToPoint& rank, const Call& call)
{
  alltoallv_linear(rank, call);
}

} // namespace tit::colls
