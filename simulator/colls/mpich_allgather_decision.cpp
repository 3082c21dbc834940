#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"
#include "colls/ompi_gather.hpp"

namespace tit::colls {

// SimGrid 3.32's allgather__mpich (Thakur et al.), by the total gathered: recursive doubling on a power of two
// below 512 KiB, Bruck up to 80 KiB, ring above.
void allgather_mpich(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.power_of_two && f.bytes < 524288; }, allgather_rdb},
      {[](const Facts& f) { return f.bytes <= 81920; }, allgather_bruck},
      {mpich::always, allgather_ring},
  };
  mpich::run_first(rules, mpich::facts(call, call.bytes * call.size), rank, call);
}

} // namespace tit::colls
