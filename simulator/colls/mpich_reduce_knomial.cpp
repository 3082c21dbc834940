#include "colls/mpich_smp.hpp"

#include <vector>

namespace tit::colls {

// MVAPICH2's k-nomial reduce (k = 4), ranks relative to the root: a rank's parent clears its lowest nonzero
// base-4 digit; it posts receives from all its children (the closest first), waits for them, then isends its
// result to its parent and waits. (SimGrid waits for the children one by one with waitany; nothing happens
// between, so waiting for all is the same.)
void reduce_mvapich2_knomial(mpi::PointToPoint& rank, const Call& call)
{
  constexpr int k = 4;
  if (call.bytes <= 0)
    return;
  int n = call.size;
  int me = rank.rank();
  int rel = (me - call.root + n) % n;
  int dst = -1;
  int mask = 1;
  for (; mask < n; mask *= k)
    if (rel % (k * mask) != 0) {
      dst = rel / (k * mask) * (k * mask) + call.root;
      if (dst >= n)
        dst -= n;
      break;
    }
  std::vector<int> children; // farthest first
  for (mask /= k; mask > 0; mask /= k)
    for (int i = 1; i < k; ++i)
      if (rel + mask * i < n)
        children.push_back((me + mask * i) % n);
  std::vector<mpi::RequestPtr> reqs;
  for (auto it = children.rbegin(); it != children.rend(); ++it)
    reqs.push_back(rank.irecv(*it, kTagReduce, call.bytes));
  if (not reqs.empty())
    rank.waitall(reqs);
  if (me != call.root)
    rank.wait(rank.isend(dst, kTagReduce, call.bytes));
}

} // namespace tit::colls
