#include "colls/ompi_gather.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

enum class Choice { GatherBcast, Bruck, Ring, Neighbor, Pair };
using Bands = std::vector<std::pair<std::uint64_t, Choice>>; ///< (exclusive upper bound in bytes, choice)

constexpr auto GB = Choice::GatherBcast;
constexpr auto BR = Choice::Bruck;
constexpr auto RI = Choice::Ring;
constexpr auto NE = Choice::Neighbor;
constexpr auto PA = Choice::Pair;
constexpr std::uint64_t kAny = UINT64_MAX;

// Open MPI 4.1's fixed decision for allgatherv, as SimGrid 3.32 has it ("ring" is MPICH's ring there):
// two ranks have their own bands; other sizes use those of the first row whose bound exceeds the size.
const Bands kTwoRanks{{2048, RI}, {4096, PA}, {8192, RI}, {kAny, PA}};
const std::vector<std::pair<int, Bands>> kRows{
    {8, {{256, GB}, {4096, NE}, {8192, RI}, {16384, NE}, {262144, BR}, {kAny, NE}}},
    {16, {{1024, GB}, {kAny, BR}}},
    {32, {{128, GB}, {262144, BR}, {kAny, RI}}},
    {64, {{256, GB}, {8192, BR}, {kAny, RI}}},
    {128, {{256, GB}, {4096, BR}, {kAny, RI}}},
    {256, {{1024, BR}, {65536, NE}, {kAny, RI}}},
    {512, {{1024, BR}, {kAny, RI}}},
    {1024, {{512, BR}, {1024, GB}, {4096, BR}, {1048576, NE}, {kAny, RI}}},
    {INT_MAX, {{4096, BR}, {kAny, NE}}},
};

Choice choose(int size, std::uint64_t per_rank)
{
  const Bands* bands = &kTwoRanks;
  if (size != 2)
    for (auto const& [below, row] : kRows)
      if (size < below) {
        bands = &row;
        break;
      }
  for (auto const& [bound, choice] : *bands)
    if (per_rank < bound)
      return choice;
  return bands->back().second;
}

} // namespace

void allgatherv_ompi_with(mpi::PointToPoint& rank, const Call& call, Algorithm bcast)
{
  // Open MPI decides on the mean bytes per rank (an integer division).
  std::uint64_t total = 0;
  for (double bytes : *call.recv_counts)
    total += static_cast<std::uint64_t>(std::llround(bytes));
  std::uint64_t per_rank = call.size > 0 ? total / static_cast<std::uint64_t>(call.size) : 0;
  switch (choose(call.size, per_rank)) {
    case Choice::GatherBcast:
      return allgatherv_gb(rank, call, bcast);
    case Choice::Bruck:
      return allgatherv_ompi_bruck(rank, call);
    case Choice::Ring:
      return allgatherv_mpich_ring(rank, call);
    case Choice::Neighbor:
      return allgatherv_ompi_neighborexchange(rank, call);
    case Choice::Pair:
      return allgatherv_pair(rank, call);
  }
}

void allgatherv_ompi(mpi::PointToPoint& rank, const Call& call)
{
  allgatherv_ompi_with(rank, call, call.selector ? call.selector->bcast : bcast_ompi); // the bcast in use
}

} // namespace tit::colls
