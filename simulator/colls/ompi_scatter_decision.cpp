#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

enum class Choice { BasicLinear, Binomial, LinearNb };
using Bands = std::vector<std::pair<std::uint64_t, Choice>>; ///< (exclusive upper bound in bytes, choice)

constexpr auto LI = Choice::BasicLinear;
constexpr auto BI = Choice::Binomial;
constexpr auto NB = Choice::LinearNb;
constexpr std::uint64_t kAny = UINT64_MAX;

// Open MPI 4.1's fixed decision for scatter, as SimGrid 3.32 has it: the bands of the first row whose bound
// exceeds the communicator size, on the bytes of one block.
const std::vector<std::pair<int, Bands>> kRows{
    {4, {{2, NB}, {131072, LI}, {262144, NB}, {kAny, LI}}},
    {8, {{2048, BI}, {4096, LI}, {8192, BI}, {32768, LI}, {1048576, NB}, {kAny, LI}}},
    {16, {{16384, BI}, {1048576, NB}, {kAny, LI}}},
    {32, {{16384, BI}, {32768, LI}, {kAny, NB}}},
    {64, {{512, BI}, {8192, NB}, {16384, BI}, {kAny, NB}}},
    {INT_MAX, {{512, BI}, {kAny, NB}}},
};

Choice choose(int size, std::uint64_t bytes)
{
  for (auto const& [below, bands] : kRows)
    if (size < below)
      for (auto const& [bound, choice] : bands)
        if (bytes < bound)
          return choice;
  return NB;
}

} // namespace

void scatter_ompi(mpi::PointToPoint& rank, const Call& call)
{
  // Each rank decides on its own block: the root on what it sends, the others on what they receive.
  double block = rank.rank() == call.root ? call.bytes : call.bytes2;
  switch (choose(call.size, static_cast<std::uint64_t>(std::llround(block)))) {
    case Choice::BasicLinear:
      return scatter_ompi_basic_linear(rank, call);
    case Choice::Binomial:
      return scatter_ompi_binomial(rank, call);
    case Choice::LinearNb:
      return scatter_ompi_linear_nb(rank, call);
  }
}

} // namespace tit::colls
