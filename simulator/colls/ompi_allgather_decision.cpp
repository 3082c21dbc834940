#include "colls/decision.hpp"
#include "colls/ompi_gather.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

constexpr Algorithm BR = allgather_bruck;
constexpr Algorithm RD = allgather_rdb;
constexpr Algorithm RI = allgather_ring;
constexpr Algorithm NE = allgather_ompi_neighborexchange;

// Open MPI 4.1's fixed decision for allgather, as SimGrid 3.32 has it, on the bytes each rank sends: two
// ranks use the pair exchange; other sizes the bands of the first row whose bound exceeds the size.
const std::vector<SizeRule> kRows{
    {32, {{kAnySize, RD}}},
    {64, {{1024, RD}, {65536, NE}, {kAnySize, RI}}},
    {128, {{512, RD}, {65536, NE}, {kAnySize, RI}}},
    {256, {{512, RD}, {131072, NE}, {524288, RI}, {1048576, NE}, {kAnySize, RI}}},
    {512, {{32, RD}, {128, BR}, {1024, RD}, {131072, NE}, {524288, RI}, {1048576, NE}, {kAnySize, RI}}},
    {1024, {{64, RD}, {256, BR}, {2048, RD}, {kAnySize, NE}}},
    {2048, {{4, RD}, {8, BR}, {16, RD}, {32, BR}, {256, RD}, {512, BR}, {4096, RD}, {kAnySize, NE}}},
    {4096, {{32, BR}, {128, RD}, {512, BR}, {4096, RD}, {kAnySize, NE}}},
    {INT_MAX, {{2, RD}, {8, BR}, {16, RD}, {512, BR}, {4096, RD}, {kAnySize, NE}}},
};

} // namespace

void allgather_ompi(mpi::PointToPoint& rank, const Call& call)
{
  if (call.size == 2)
    return allgather_pair(rank, call);
  run_decision(kRows, call.size, std::round(call.bytes), rank, call);
}

} // namespace tit::colls
