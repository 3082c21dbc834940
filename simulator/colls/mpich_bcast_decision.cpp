#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"
#include "colls/mpich_smp.hpp"

namespace tit::colls {

// SimGrid 3.32's bcast__mpich on MPI_COMM_WORLD: init_smp, then the SMP binomial tree when every host runs as
// many ranks; otherwise, and on the communicators init_smp creates, by message size and ranks.
void bcast_mpich(mpi::PointToPoint& rank, const Call& call)
{
  SmpLayout layout = smp_setup(rank, call.size);
  if (smp_comms(layout, rank.rank()).uniform)
    return bcast_smp_binomial_on(rank, call, layout);
  bcast_mpich_flat(rank, call);
}

void bcast_mpich_flat(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.bytes < 12288 || f.size <= 8; }, bcast_binomial},
      {[](const Facts& f) { return f.bytes < 524288 && f.size % 2 == 0; }, bcast_scatter_rdb_allgather},
      {mpich::always, bcast_scatter_lr_allgather},
  };
  mpich::run_first(rules, mpich::facts(call, call.bytes), rank, call);
}

} // namespace tit::colls
