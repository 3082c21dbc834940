#include "colls/ompi_all.hpp"
#include "colls/ompi_rooted.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's redbcast (Open MPI's "basic linear" and "nonoverlapping" allreduce): the selector's reduce to
// rank 0, then its bcast from rank 0 (colls::reduce and colls::bcast), here those of the ompi selector.
void allreduce_redbcast(mpi::PointToPoint& rank, const Call& call)
{
  Call at_zero = call;
  at_zero.root = 0;
  // the reduce and bcast in use, as SimGrid's colls::reduce and colls::bcast (ompi's when none is given)
  (call.selector ? call.selector->reduce : reduce_ompi)(rank, at_zero);
  (call.selector ? call.selector->bcast : bcast_ompi)(rank, at_zero);
}

} // namespace tit::colls
