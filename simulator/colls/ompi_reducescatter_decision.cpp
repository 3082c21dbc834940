#include "colls/decision.hpp"
#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <numeric>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

// Open MPI 4.1's fixed decision as SimGrid 3.32 has it, commutative branch (MPI_OP_NULL counts as
// commutative; SimGrid never sets its "zero counts" flag). Its "non-overlapping" is SimGrid's default
// reduce_scatter: reducescatter_smpi.
const std::vector<SizeRule>& rules()
{
  constexpr Algorithm basic = reducescatter_smpi;
  constexpr Algorithm halving = reducescatter_ompi_recursive_halving;
  constexpr Algorithm ring = reducescatter_ompi_ring;
  constexpr Algorithm butterfly = reducescatter_ompi_butterfly;
  static const std::vector<SizeRule> all{
      {4, {{65536, ring}, {131072, butterfly}, {kAnySize, ring}}},
      {8, {{8, basic}, {262144, halving}, {kAnySize, ring}}},
      {32, {{262144, halving}, {kAnySize, ring}}},
      {64, {{64, basic}, {2048, halving}, {524288, butterfly}, {kAnySize, ring}}},
      {128, {{256, basic}, {512, halving}, {2048, butterfly}, {4096, halving}, {kAnySize, butterfly}}},
      {256, {{256, basic}, {512, halving}, {kAnySize, butterfly}}},
      {512, {{256, basic}, {1024, halving}, {kAnySize, butterfly}}},
      {1024, {{512, basic}, {2048, halving}, {8192, butterfly}, {16384, halving}, {kAnySize, butterfly}}},
      {2048, {{512, basic}, {4096, halving}, {16384, butterfly}, {32768, halving}, {kAnySize, butterfly}}},
      {4096, {{512, basic}, {4096, halving}, {kAnySize, butterfly}}},
      {INT_MAX, {{1024, basic}, {8192, halving}, {kAnySize, butterfly}}},
  };
  return all;
}

} // namespace

void reducescatter_ompi(mpi::PointToPoint& rank, const Call& call)
{
  auto const& counts = *call.recv_counts;
  double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  run_decision(rules(), call.size, total, rank, call);
}

} // namespace tit::colls
