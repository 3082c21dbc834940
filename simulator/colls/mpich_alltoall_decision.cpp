#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"

namespace tit::colls {

// SimGrid 3.32's alltoall__mpich, by the bytes sent to each peer: Bruck below 256 bytes from 8 ranks on, the
// throttled scatter_dest below 32768, then pair on an odd number of ranks (SimGrid's pair refuses those and
// aborts; alltoall_pairwise runs Open MPI's pairwise exchange instead), ring on an even one.
void alltoall_mpich(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.bytes < 256 && f.size >= 8; }, alltoall_bruck},
      {[](const Facts& f) { return f.bytes < 32768; }, alltoall_mvapich2_scatter_dest},
      {[](const Facts& f) { return f.size % 2 != 0; }, alltoall_pairwise},
      {mpich::always, alltoall_ring},
  };
  mpich::run_first(rules, mpich::facts(call, call.bytes), rank, call);
}

} // namespace tit::colls
