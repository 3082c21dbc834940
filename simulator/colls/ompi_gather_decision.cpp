#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace tit::colls {
namespace {

enum class Choice { BasicLinear, Binomial, LinearSync };
using Bands = std::vector<std::pair<std::uint64_t, Choice>>; ///< (exclusive upper bound in bytes, choice)

constexpr auto LI = Choice::BasicLinear;
constexpr auto BI = Choice::Binomial;
constexpr auto SY = Choice::LinearSync;
constexpr std::uint64_t kAny = UINT64_MAX;

// Open MPI 4.1's fixed decision for gather, as SimGrid 3.32 has it: the bands of the first row whose bound
// exceeds the communicator size, on the bytes of one block.
const std::vector<std::pair<int, Bands>> kRows{
    {4, {{2, SY}, {4, LI}, {32768, BI}, {65536, LI}, {131072, BI}, {kAny, SY}}},
    {8, {{1024, BI}, {8192, LI}, {32768, BI}, {262144, LI}, {kAny, SY}}},
    {256, {{kAny, BI}}},
    {512, {{2048, BI}, {8192, LI}, {kAny, BI}}},
    {INT_MAX, {{kAny, BI}}},
};

Choice choose(int size, std::uint64_t bytes)
{
  for (auto const& [below, bands] : kRows)
    if (size < below)
      for (auto const& [bound, choice] : bands)
        if (bytes < bound)
          return choice;
  return BI;
}

} // namespace

void gather_ompi(mpi::PointToPoint& rank, const Call& call)
{
  // Each rank decides on its own block: the root on what it receives, the others on what they send.
  double block = rank.rank() == call.root ? call.bytes2 : call.bytes;
  switch (choose(call.size, static_cast<std::uint64_t>(std::llround(block)))) {
    case Choice::BasicLinear:
      return gather_ompi_basic_linear(rank, call);
    case Choice::Binomial:
      return gather_ompi_binomial(rank, call);
    case Choice::LinearSync:
      return gather_ompi_linear_sync(rank, call);
  }
}

} // namespace tit::colls
