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

constexpr Algorithm LI = scatter_ompi_basic_linear;
constexpr Algorithm BI = scatter_ompi_binomial;
constexpr Algorithm NB = scatter_ompi_linear_nb;

// Open MPI 4.1's fixed decision for scatter, as SimGrid 3.32 has it: the bands of the first row whose bound
// exceeds the communicator size, on the bytes of one block.
const std::vector<SizeRule> kRows{
    {4, {{2, NB}, {131072, LI}, {262144, NB}, {kAnySize, LI}}},
    {8, {{2048, BI}, {4096, LI}, {8192, BI}, {32768, LI}, {1048576, NB}, {kAnySize, LI}}},
    {16, {{16384, BI}, {1048576, NB}, {kAnySize, LI}}},
    {32, {{16384, BI}, {32768, LI}, {kAnySize, NB}}},
    {64, {{512, BI}, {8192, NB}, {16384, BI}, {kAnySize, NB}}},
    {INT_MAX, {{512, BI}, {kAnySize, NB}}},
};

} // namespace

void scatter_ompi(mpi::PointToPoint& rank, const Call& call)
{
  // Each rank decides on its own block: the root on what it sends, the others on what they receive.
  double block = rank.rank() == call.root ? call.bytes : call.bytes2;
  run_decision(kRows, call.size, std::round(block), rank, call);
}

} // namespace tit::colls
