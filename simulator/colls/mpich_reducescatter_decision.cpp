#include "colls/mpich_all.hpp"
#include "colls/mpich_decision.hpp"

#include <numeric>

namespace tit::colls {

// SimGrid 3.32's reduce_scatter__mpich with a commutative operation, by the total count in elements: the
// pairwise exchange above 524288, recursive doubling otherwise (also for equal counts, unlike the default).
void reducescatter_mpich(mpi::PointToPoint& rank, const Call& call)
{
  using mpich::Facts;
  static const std::vector<mpich::Rule> rules{
      {[](const Facts& f) { return f.count > 524288; }, reducescatter_pair},
      {mpich::always, reducescatter_recursive_doubling},
  };
  auto const& counts = *call.recv_counts;
  double total = std::accumulate(counts.begin(), counts.begin() + call.size, 0.0);
  mpich::run_first(rules, mpich::facts(call, total), rank, call);
}

} // namespace tit::colls
