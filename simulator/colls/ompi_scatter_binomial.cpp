#include "colls/ompi_gather.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <algorithm>

namespace tit::colls {

// In-order binomial tree from the root: a rank with children receives its subtree's blocks from its parent
// (into a buffer posted for n blocks), then sends each child the blocks of its subtree, nearest child first
// (blocking); a leaf receives its own block.
void scatter_ompi_binomial(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto tree = ompi::build_in_order_bmtree(n, me, call.root);
  int vrank = (me - call.root + n) % n;
  if (vrank % 2 != 0)
    return rank.recv(tree.prev, kTagScatter, call.bytes2);
  // The root counts in its send blocks; the other ranks in their receive blocks.
  double block = me == call.root ? call.bytes : call.bytes2;
  if (me != call.root)
    rank.recv(tree.prev, kTagScatter, call.bytes2 * n);
  for (int child : tree.next) {
    int vchild = (child - call.root + n) % n;
    rank.send(child, kTagScatter, std::min(vchild - vrank, n - vchild) * block);
  }
}

} // namespace tit::colls
