#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <fmt/core.h>

namespace tit::colls {

// Open MPI's barrier for two ranks: one sendrecv with the other one (rank 0 with 1, whatever the size, as in
// SimGrid, which never checks it).
void barrier_ompi_two_procs(mpi::PointToPoint& rank, const Call& call)
{
  if (call.size != 2) // elsewhere it pairs ranks that never answer: refuse rather than deadlock
    throw mpi::MpiError(fmt::format("the barrier ompi_two_procs algorithm needs exactly 2 ranks, not {}", call.size));
  int remote = (rank.rank() + 1) & 1;
  rank.sendrecv(remote, 0, remote, 0, kTagBarrier);
}

} // namespace tit::colls
