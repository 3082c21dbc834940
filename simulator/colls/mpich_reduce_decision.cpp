#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"

namespace tit::colls {

// SimGrid 3.32's reduce__mpich: on MPI_COMM_WORLD with a commutative operation (a replay's MPI_OP_NULL counts
// as one), MVAPICH2's two-level reduce; on the communicators init_smp creates, by count and size.
void reduce_mpich(mpi::PointToPoint& rank, const Call& call)
{
  reduce_mvapich2_two_level(rank, call);
}

void reduce_mpich_flat(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.count < f.pof2 || f.bytes < 2048; }, reduce_binomial},
      {mpich::always, reduce_scatter_gather},
  };
  mpich::run_first(rules, mpich::facts(call, call.bytes), rank, call);
}

} // namespace tit::colls
