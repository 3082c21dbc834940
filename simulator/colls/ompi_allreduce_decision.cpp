#include "colls/decision.hpp"
#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

// Open MPI 4.1's fixed decision as SimGrid 3.32 has it, commutative branch (MPI_OP_NULL counts as
// commutative). Its "basic linear" and "nonoverlapping" are both SimGrid's redbcast.
const std::vector<SizeRule>& rules()
{
  constexpr Algorithm redbcast = allreduce_redbcast;
  constexpr Algorithm rdb = allreduce_rdb;
  constexpr Algorithm ring = allreduce_lr;
  constexpr Algorithm segmented = allreduce_ompi_ring_segmented;
  constexpr Algorithm rabenseifner = allreduce_rab_rdb;
  static const std::vector<SizeRule> all{
      {4,
       {{8, ring}, {4096, rdb}, {8192, ring}, {16384, rdb}, {65536, ring}, {262144, segmented}, {kAnySize, rabenseifner}}},
      {8, {{16, ring}, {8192, rdb}, {kAnySize, rabenseifner}}},
      {16, {{8192, rdb}, {kAnySize, rabenseifner}}},
      {32, {{64, segmented}, {4096, rdb}, {kAnySize, rabenseifner}}},
      {64, {{128, segmented}, {kAnySize, rabenseifner}}},
      {128, {{262144, rdb}, {kAnySize, rabenseifner}}},
      {256, {{131072, redbcast}, {262144, rdb}, {kAnySize, rabenseifner}}},
      {512, {{4096, redbcast}, {kAnySize, rabenseifner}}},
      {2048, {{2048, redbcast}, {16384, rdb}, {kAnySize, rabenseifner}}},
      {4096, {{2048, redbcast}, {4096, segmented}, {16384, rdb}, {kAnySize, rabenseifner}}},
      {INT_MAX, {{2048, redbcast}, {16384, segmented}, {32768, rdb}, {kAnySize, rabenseifner}}},
  };
  return all;
}

} // namespace

void allreduce_ompi(mpi::PointToPoint& rank, const Call& call)
{
  run_decision(rules(), call.size, call.bytes, rank, call);
}

} // namespace tit::colls
