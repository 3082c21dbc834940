#include "colls/mpich_all.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <vector>

namespace tit::colls {

// SimGrid's allgatherv mpich_rdb (MPICH's recursive doubling): at level i (mask 2^i) a rank exchanges with
// rank ^ mask everything it has gathered, posting a receive for all blocks from its partner's subtree on; where
// the partner subtree is cut off by p (not a power of two), the ranks holding its data forward it down a tree,
// one bit at a time from the highest. What a rank sends depends on what it received, so every rank's state is
// followed and the operations of this rank kept.
void allgatherv_mpich_rdb(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto at = [](auto& v, int r) -> auto& { return v[static_cast<std::size_t>(r)]; };
  std::vector<double> before(static_cast<std::size_t>(n) + 1, 0); // before[r]: bytes of blocks 0 .. r-1
  for (int r = 0; r < n; ++r)
    at(before, r + 1) = at(before, r) + counts[static_cast<std::size_t>(r)];
  double total = at(before, n);
  if (total == 0)
    return;
  std::vector<double> curr(counts.begin(), counts.begin() + n); // bytes gathered so far
  std::vector<double> last(static_cast<std::size_t>(n), 0);     // bytes of the latest receive
  int level = 0;
  for (int mask = 1; mask < n; mask <<= 1, ++level) {
    std::vector<double> held = curr;
    for (int r = 0; r < n; ++r) {
      int dst = r ^ mask;
      if (dst >= n)
        continue;
      int dst_tree_root = dst >> level << level;
      if (r == me)
        rank.sendrecv(dst, at(held, r), dst, total - at(before, dst_tree_root), kTagAllgatherv);
      at(last, r) = at(held, dst);
      at(curr, r) += at(last, r);
    }
    for (int tmp_mask = mask >> 1, k = level; tmp_mask > 0; tmp_mask >>= 1, --k) {
      std::vector<double> forwarded = last;
      for (int r = 0; r < n; ++r) {
        int dst_tree_root = ((r ^ mask) >> level) << level;
        if (dst_tree_root + mask <= n)
          continue;
        int my_tree_root = (r >> level) << level;
        int completed = n - my_tree_root - mask;
        int dst = r ^ tmp_mask;
        int tree_root = (r >> k) << k;
        if (dst > r && r < tree_root + completed && dst >= tree_root + completed) {
          if (r == me)
            rank.send(dst, kTagAllgatherv, at(forwarded, r));
        } else if (dst < r && dst < tree_root + completed && r >= tree_root + completed) {
          if (r == me)
            rank.recv(dst, kTagAllgatherv, total - at(before, std::min(my_tree_root + mask, n)));
          at(last, r) = at(forwarded, dst);
          at(curr, r) += at(last, r);
        }
      }
    }
  }
}

} // namespace tit::colls
