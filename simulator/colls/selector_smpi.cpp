#include "colls/colls.hpp"
#include "colls/decision.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <climits>
#include <numeric>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

/// Open MPI 4.1's fixed decision for all-to-all, as SimGrid 3.32 uses it, by the bytes sent to each peer.
/// Open MPI's "linear_sync" and "two_proc" variants are replaced by the basic linear one in SimGrid.
const std::vector<SizeRule>& alltoall_rules()
{
  constexpr Algorithm L = alltoall_linear;
  constexpr Algorithm P = alltoall_pairwise;
  constexpr Algorithm B = alltoall_bruck;
  static const std::vector<SizeRule> rules{
      {3, {{2, P}, {4, L}, {16, P}, {64, L}, {256, P}, {4096, L}, {32768, P}, {262144, L}, {1048576, L}, {kAnySize, P}}},
      {8, {{8192, L}, {16384, L}, {65536, L}, {524288, L}, {1048576, P}, {kAnySize, L}}},
      {16, {{262144, L}, {kAnySize, L}}},
      {32, {{4, L}, {512, B}, {8192, L}, {32768, L}, {262144, L}, {524288, L}, {kAnySize, L}}},
      {64, {{512, B}, {524288, L}, {kAnySize, L}}},
      {128, {{1024, B}, {2048, L}, {4096, L}, {262144, L}, {kAnySize, P}}},
      {256, {{1024, B}, {2048, L}, {262144, L}, {kAnySize, P}}},
      {512, {{1024, B}, {8192, L}, {32768, L}, {kAnySize, P}}},
      {1024, {{512, B}, {8192, L}, {16384, L}, {131072, L}, {262144, L}, {kAnySize, P}}},
      {2048, {{512, B}, {1024, L}, {2048, L}, {16384, L}, {262144, L}, {kAnySize, L}}},
      {4096, {{1024, B}, {4096, L}, {8192, L}, {131072, L}, {kAnySize, L}}},
      {INT_MAX, {{2048, B}, {8192, L}, {16384, L}, {32768, L}, {65536, L}, {kAnySize, L}}},
  };
  return rules;
}

} // namespace

void alltoall_smpi(mpi::PointToPoint& rank, const Call& call)
{
  run_decision(alltoall_rules(), call.size, call.bytes, rank, call);
}

void reducescatter_smpi(mpi::PointToPoint& rank, const Call& call)
{
  auto const& counts = *call.recv_counts;
  if (std::all_of(counts.begin(), counts.end(), [&](double c) { return c == counts.front(); }))
    return reducescatter_reduce_scatterv(rank, call);
  // MPICH decides on the number of elements, not bytes.
  double elements = call.datatype_size > 0
                        ? std::accumulate(counts.begin(), counts.end(), 0.0) / call.datatype_size
                        : 0.0;
  if (elements > 524288)
    return reducescatter_pair(rank, call);
  return reducescatter_recursive_doubling(rank, call);
}

const Selector& smpi_selector()
{
  static const Selector smpi{
      .barrier = barrier_linear,
      .bcast = bcast_binomial,
      .reduce = reduce_linear,
      .allreduce = allreduce_reduce_bcast,
      .gather = gather_linear,
      .gatherv = gatherv_linear,
      .scatter = scatter_linear,
      .scatterv = scatterv_linear,
      .allgather = allgather_linear,
      .allgatherv = allgatherv_linear,
      .alltoall = alltoall_smpi,
      .alltoallv = alltoallv_linear,
      .reducescatter = reducescatter_smpi,
      .scan = scan_linear,
      .exscan = exscan_linear,
  };
  return smpi;
}

} // namespace tit::colls
