#include "colls/ompi_gather.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <algorithm>

namespace tit::colls {

// In-order binomial tree from the root: each rank receives the blocks of its children's subtrees, nearest
// child first (one message per subtree), then sends everything it holds to its parent (blocking).
void gather_ompi_binomial(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto tree = ompi::build_in_order_bmtree(n, me, call.root);
  int vrank = (me - call.root + n) % n;
  // The root counts in its receive blocks; the other ranks in their send blocks.
  double block = me == call.root ? call.bytes2 : call.bytes;
  double held = block;
  for (int child : tree.next) {
    int vchild = (child - call.root + n) % n;
    double bytes = std::min(vchild - vrank, n - vchild) * block;
    rank.recv(child, kTagGather, bytes);
    held += bytes;
  }
  if (me != call.root)
    rank.send(tree.prev, kTagGather, held);
}

} // namespace tit::colls
