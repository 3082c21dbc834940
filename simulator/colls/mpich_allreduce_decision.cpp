#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"
#include "colls/ompi_all.hpp"

namespace tit::colls {

// SimGrid 3.32's allreduce__mpich: on MPI_COMM_WORLD with a commutative operation, MVAPICH2's two-level
// allreduce; on the communicators init_smp creates, Rabenseifner above 2048 bytes (with at least p' elements),
// else recursive doubling.
void allreduce_mpich(mpi::PointToPoint& rank, const Call& call)
{
  allreduce_mvapich2_two_level(rank, call);
}

void allreduce_mpich_flat(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.bytes > 2048 && f.count >= f.pof2; }, allreduce_rab_rdb},
      {mpich::always, allreduce_rdb},
  };
  mpich::run_first(rules, mpich::facts(call, call.bytes), rank, call);
}

} // namespace tit::colls
