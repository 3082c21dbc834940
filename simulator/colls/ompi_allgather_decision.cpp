#include "colls/ompi_gather.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

enum class Choice { Bruck, Rdb, Ring, Neighbor, Pair };
using Bands = std::vector<std::pair<std::uint64_t, Choice>>; ///< (exclusive upper bound in bytes, choice)

constexpr auto BR = Choice::Bruck;
constexpr auto RD = Choice::Rdb;
constexpr auto RI = Choice::Ring;
constexpr auto NE = Choice::Neighbor;
constexpr std::uint64_t kAny = UINT64_MAX;

// Open MPI 4.1's fixed decision for allgather, as SimGrid 3.32 has it, on the bytes each rank sends: two
// ranks use the pair exchange; other sizes the bands of the first row whose bound exceeds the size.
const std::vector<std::pair<int, Bands>> kRows{
    {32, {{kAny, RD}}},
    {64, {{1024, RD}, {65536, NE}, {kAny, RI}}},
    {128, {{512, RD}, {65536, NE}, {kAny, RI}}},
    {256, {{512, RD}, {131072, NE}, {524288, RI}, {1048576, NE}, {kAny, RI}}},
    {512, {{32, RD}, {128, BR}, {1024, RD}, {131072, NE}, {524288, RI}, {1048576, NE}, {kAny, RI}}},
    {1024, {{64, RD}, {256, BR}, {2048, RD}, {kAny, NE}}},
    {2048, {{4, RD}, {8, BR}, {16, RD}, {32, BR}, {256, RD}, {512, BR}, {4096, RD}, {kAny, NE}}},
    {4096, {{32, BR}, {128, RD}, {512, BR}, {4096, RD}, {kAny, NE}}},
    {INT_MAX, {{2, RD}, {8, BR}, {16, RD}, {512, BR}, {4096, RD}, {kAny, NE}}},
};

Choice choose(int size, std::uint64_t bytes)
{
  if (size == 2)
    return Choice::Pair;
  for (auto const& [below, bands] : kRows)
    if (size < below)
      for (auto const& [bound, choice] : bands)
        if (bytes < bound)
          return choice;
  return NE;
}

} // namespace

void allgather_ompi(mpi::PointToPoint& rank, const Call& call)
{
  switch (choose(call.size, static_cast<std::uint64_t>(std::llround(call.bytes)))) {
    case Choice::Bruck:
      return allgather_bruck(rank, call);
    case Choice::Rdb:
      return allgather_rdb(rank, call);
    case Choice::Ring:
      return allgather_ring(rank, call);
    case Choice::Neighbor:
      return allgather_ompi_neighborexchange(rank, call);
    case Choice::Pair:
      return allgather_pair(rank, call);
  }
}

} // namespace tit::colls
