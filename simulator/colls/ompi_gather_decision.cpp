#include "colls/decision.hpp"
#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

constexpr Algorithm LI = gather_ompi_basic_linear;
constexpr Algorithm BI = gather_ompi_binomial;
constexpr Algorithm SY = gather_ompi_linear_sync;

// Open MPI 4.1's fixed decision for gather, as SimGrid 3.32 has it: the bands of the first row whose bound
// exceeds the communicator size, on the bytes of one block.
const std::vector<SizeRule> kRows{
    {4, {{2, SY}, {4, LI}, {32768, BI}, {65536, LI}, {131072, BI}, {kAnySize, SY}}},
    {8, {{1024, BI}, {8192, LI}, {32768, BI}, {262144, LI}, {kAnySize, SY}}},
    {256, {{kAnySize, BI}}},
    {512, {{2048, BI}, {8192, LI}, {kAnySize, BI}}},
    {INT_MAX, {{kAnySize, BI}}},
};

} // namespace

void gather_ompi(mpi::PointToPoint& rank, const Call& call)
{
  // Each rank decides on its own block: the root on what it receives, the others on what they send.
  double block = rank.rank() == call.root ? call.bytes2 : call.bytes;
  run_decision(kRows, call.size, std::round(block), rank, call);
}

} // namespace tit::colls
