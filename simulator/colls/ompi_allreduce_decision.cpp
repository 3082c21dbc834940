#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

/// For communicators smaller than `below`: the algorithm of the first band whose bound exceeds the buffer's
/// bytes.
struct Rule {
  int below;
  std::vector<std::pair<double, Algorithm>> bands; ///< (exclusive upper bound in bytes, algorithm)
};

constexpr double kAny = 1e300;

// Open MPI 4.1's fixed decision as SimGrid 3.32 has it, commutative branch (MPI_OP_NULL counts as
// commutative). Its "basic linear" and "nonoverlapping" are both SimGrid's redbcast.
const std::vector<Rule>& rules()
{
  constexpr Algorithm redbcast = allreduce_redbcast;
  constexpr Algorithm rdb = allreduce_rdb;
  constexpr Algorithm ring = allreduce_lr;
  constexpr Algorithm segmented = allreduce_ompi_ring_segmented;
  constexpr Algorithm rabenseifner = allreduce_rab_rdb;
  static const std::vector<Rule> all{
      {4,
       {{8, ring}, {4096, rdb}, {8192, ring}, {16384, rdb}, {65536, ring}, {262144, segmented}, {kAny, rabenseifner}}},
      {8, {{16, ring}, {8192, rdb}, {kAny, rabenseifner}}},
      {16, {{8192, rdb}, {kAny, rabenseifner}}},
      {32, {{64, segmented}, {4096, rdb}, {kAny, rabenseifner}}},
      {64, {{128, segmented}, {kAny, rabenseifner}}},
      {128, {{262144, rdb}, {kAny, rabenseifner}}},
      {256, {{131072, redbcast}, {262144, rdb}, {kAny, rabenseifner}}},
      {512, {{4096, redbcast}, {kAny, rabenseifner}}},
      {2048, {{2048, redbcast}, {16384, rdb}, {kAny, rabenseifner}}},
      {4096, {{2048, redbcast}, {4096, segmented}, {16384, rdb}, {kAny, rabenseifner}}},
      {INT_MAX, {{2048, redbcast}, {16384, segmented}, {32768, rdb}, {kAny, rabenseifner}}},
  };
  return all;
}

} // namespace

void allreduce_ompi(mpi::PointToPoint& rank, const Call& call)
{
  for (auto const& rule : rules()) {
    if (call.size >= rule.below)
      continue;
    for (auto const& [bound, algorithm] : rule.bands)
      if (call.bytes < bound)
        return algorithm(rank, call);
  }
}

} // namespace tit::colls
