#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// SimGrid's default allreduce: a reduce to rank 0, then a broadcast from rank 0.
void allreduce_reduce_bcast(mpi::PointToPoint& rank, const Call& call)
{
  Call at_zero = call;
  at_zero.root = 0;
  reduce_linear(rank, at_zero);
  bcast_binomial(rank, at_zero);
}

} // namespace tit::colls
