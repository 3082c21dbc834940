#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <cmath>
#include <cstdint>
#include <vector>

namespace tit::colls {
namespace {

/// The elements of the first segment of a block of `count` elements of `type_size` bytes (Open MPI's
/// COLL_TUNED_COMPUTED_SEGCOUNT: the segment size in elements, rounded to the nearest, if smaller).
std::int64_t first_segment(std::int64_t count, std::int64_t type_size, std::int64_t segment_bytes)
{
  if (segment_bytes >= type_size && segment_bytes < type_size * count) {
    std::int64_t elements = segment_bytes / type_size;
    if (segment_bytes - elements * type_size > (type_size >> 1))
      ++elements;
    return elements;
  }
  return count;
}

} // namespace

// Open MPI's synchronized linear gather. For every other rank in turn the root posts a receive for its
// first segment, sends it a 0-byte go-ahead, posts a receive for the rest and waits for the first segment;
// it then waits for all the rests. The others receive the go-ahead, then send both segments (blocking).
void gather_ompi_linear_sync(mpi::PointToPoint& rank, const Call& call)
{
  int me = rank.rank();
  double block = me == call.root ? call.bytes2 : call.bytes;
  std::int64_t segment_bytes = block > 92160 ? 32768 : 1024;
  auto type_size = static_cast<std::int64_t>(call.datatype_size);
  std::int64_t count = type_size > 0 ? std::llround(block / static_cast<double>(type_size)) : 0;
  std::int64_t first = first_segment(count, type_size, segment_bytes);
  double first_bytes = type_size > 0 ? static_cast<double>(first * type_size) : block;
  double rest_bytes = block - first_bytes;

  if (me != call.root) {
    rank.recv(call.root, kTagGather, 0);
    rank.send(call.root, kTagGather, first_bytes);
    rank.send(call.root, kTagGather, rest_bytes);
    return;
  }
  std::vector<mpi::RequestPtr> rests;
  for (int src = 0; src < call.size; ++src) {
    if (src == me)
      continue;
    auto first_req = rank.irecv(src, kTagGather, first_bytes);
    rank.send(src, kTagGather, 0);
    rests.push_back(rank.irecv(src, kTagGather, rest_bytes));
    rank.wait(first_req);
  }
  rank.waitall(rests);
}

} // namespace tit::colls
