#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"
#include "colls/ompi_gather.hpp"

#include <numeric>

namespace tit::colls {

// SimGrid 3.32's allgatherv__mpich, by the total count gathered, in elements (SimGrid sums the counts without
// their datatype size): nothing when it is 0, MPICH's recursive doubling on a power of two below 524288, Open
// MPI's Bruck up to 81920, MPICH's ring above.
void allgatherv_mpich(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.count == 0; }, [](mpi::PointToPoint&, const Call&) {}},
      {[](const Facts& f) { return f.power_of_two && f.count < 524288; }, allgatherv_mpich_rdb},
      {[](const Facts& f) { return f.count <= 81920; }, allgatherv_ompi_bruck},
      {mpich::always, allgatherv_mpich_ring},
  };
  auto const& counts = *call.recv_counts;
  double total = std::accumulate(counts.begin(), counts.begin() + call.size, 0.0);
  mpich::run_first(rules, mpich::facts(call, total), rank, call);
}

} // namespace tit::colls
