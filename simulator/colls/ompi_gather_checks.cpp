#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <fmt/format.h>

namespace tit::colls {

void require_power_of_two_ranks(const char* algorithm, int size)
{
  if (size <= 0 || (size & (size - 1)) != 0)
    throw mpi::MpiError(fmt::format("the {} algorithm needs a power-of-two number of ranks, not {} (SimGrid 3.32 "
                                    "stops on an uncaught exception there too)",
                                    algorithm, size));
}

} // namespace tit::colls
