#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace tit::colls::ompi {

void tree_reduce(mpi::PointToPoint& rank, const Tree& tree, std::int64_t count, std::int64_t type_size,
                 std::int64_t segcount)
{
  // SimGrid divides by a zero segment count; the lone rank of a communicator of one is a leaf whose parent is
  // no rank (or itself).
  if (count <= 0 || segcount <= 0 || (tree.next.empty() && (tree.prev < 0 || tree.prev == rank.rank())))
    return;
  auto bytes = [type_size](std::int64_t elements) { return static_cast<double>(elements * type_size); };
  std::int64_t segments = (count + segcount - 1) / segcount;

  if (tree.next.empty()) { // leaf: every segment up with a blocking send
    for (std::int64_t left = count; left > 0; left -= std::min(left, segcount))
      rank.send(tree.prev, kTagReduce, bytes(std::min(left, segcount)));
    return;
  }

  // Two receive slots used in turn: post the receive of (segment, child), then wait for the one posted
  // before it; once the last child's part of a segment is in (at the next segment's first child), the
  // segment goes up. One more round than segments drains the last one.
  std::array<mpi::RequestPtr, 2> slot;
  int current = 0;
  std::int64_t seg_elements = 0;
  for (std::int64_t seg = 0; seg <= segments; ++seg) {
    std::int64_t previous_elements = seg_elements;
    seg_elements = seg == segments - 1 ? count - segcount * seg : segcount;
    for (std::size_t i = 0; i < tree.next.size(); ++i) {
      if (seg < segments)
        slot[current] = rank.irecv(tree.next[i], kTagReduce, bytes(seg_elements));
      if (auto& before = slot[current ^ 1]) { // SimGrid: a waitall of this one request
        std::vector<mpi::RequestPtr> one{before};
        rank.waitall(one);
        before.reset();
      }
      if (i == 0 && seg > 0) {
        if (rank.rank() != tree.root)
          rank.send(tree.prev, kTagReduce, bytes(previous_elements));
        if (seg == segments)
          break;
      }
      current ^= 1;
    }
  }
}

} // namespace tit::colls::ompi
