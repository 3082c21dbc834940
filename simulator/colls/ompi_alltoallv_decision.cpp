#include "colls/ompi_gather.hpp"

namespace tit::colls {

// Open MPI 4.1's fixed decision for alltoallv, as SimGrid 3.32 has it: on the communicator size only.
void alltoallv_ompi(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  bool pair = n < 4 || (n >= 64 && n < 128) || (n >= 256 && n < 1024);
  if (pair)
    return alltoallv_pair(rank, call);
  alltoallv_ompi_basic_linear(rank, call);
}

} // namespace tit::colls
