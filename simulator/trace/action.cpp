// Names of action kinds and sizes of datatypes.
#include "trace/action.hpp"

#include <array>
#include <cstddef>

namespace tit::trace {

namespace {

constexpr std::array<std::string_view, static_cast<std::size_t>(Kind::CommFree) + 1> kKindNames = {
    "init",     "finalize",  "comm_size", "comm_split",     "comm_dup",  "compute",   "sleep",   "location",
    "send",     "isend",     "recv",      "irecv",          "wait",      "test",      "waitall", "sendRecv",
    "barrier",  "bcast",     "reduce",    "allreduce",      "alltoall",  "alltoallv", "gather",  "scatter",
    "allgather", "gatherv",  "scatterv",  "allgatherv",     "reducescatter", "scan",  "exscan",  "Ssend",
    "ISsend",   "bsend",     "ibsend",    "Start",          "Startall",  "waitAny",   "testany", "testall",
    "testsome", "nonblocking collective", "comm_create", "comm_free",
};

// Sizes of SimGrid 3.32's datatype ids 0..59 on x86_64 (id -1, a derived type, is replayed as 0 bytes).
constexpr std::array<int, 60> kDatatypeSizes = {
    8,  4, 1, 2, 8,  4,  1,  8,  1, 1,  // 0 double .. 9 unsigned char
    2,  4, 8, 8, 16, 4,  1,  1,  2, 4,  // 10 unsigned short .. 19 int32
    8,  1, 2, 4, 8,  8,  16, 32, 8, 8,  // 20 int64 .. 29 offset
    8,  16, 16, 8, 8, 8, 16, 16, 4, 4,  // 30 float_int .. 39 real4
    8,  16, 8, 16, 16, 4, 2, 4, 8, 16,  // 40 real8 .. 49 integer16
    32, 1, 8, 16, 32, 0, 0, 1, 8, 8,    // 50 long_double_int .. 59 count
};

} // namespace

std::string_view kind_name(Kind kind)
{
  auto i = static_cast<std::size_t>(kind);
  return i < kKindNames.size() ? kKindNames[i] : std::string_view("?");
}

int datatype_size(int id)
{
  if (id == -1)
    return 0;
  if (id < 0 || id >= static_cast<int>(kDatatypeSizes.size()))
    return -1;
  return kDatatypeSizes[static_cast<std::size_t>(id)];
}

} // namespace tit::trace
