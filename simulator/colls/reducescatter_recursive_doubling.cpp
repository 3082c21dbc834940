#include "colls/colls.hpp"
#include "mpi/world.hpp"

namespace tit::colls {
namespace {

/// Bytes of the parts of every rank outside [first, first + width) (the parts a subtree does not exchange).
double outside(const std::vector<double>& counts, int first, int width)
{
  double total = 0;
  int n = static_cast<int>(counts.size());
  for (int j = 0; j < first && j < n; ++j)
    total += counts[static_cast<std::size_t>(j)];
  for (int j = first + width; j < n; ++j)
    total += counts[static_cast<std::size_t>(j)];
  return total;
}

} // namespace

// MPICH's recursive doubling: at step k partners rank XOR 2^k exchange everything but their own subtrees'
// parts; on a non-power-of-two communicator the ranks that had no partner get the result within their
// subtree by recursive halving.
void reducescatter_recursive_doubling(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  for (int mask = 1, level = 0; mask < n; mask <<= 1, ++level) {
    int dst = me ^ mask;
    int dst_tree_root = (dst >> level) << level;
    int my_tree_root = (me >> level) << level;
    double send_bytes = outside(counts, my_tree_root, mask);
    double recv_bytes = outside(counts, dst_tree_root, mask);
    if (dst < n)
      rank.sendrecv(dst, send_bytes, dst, recv_bytes, kTagReduceScatter);
    if (dst_tree_root + mask <= n)
      continue;
    int completed = n - my_tree_root - mask; // ranks of this subtree that have the data
    int k = level;                            // log2(mask)
    for (int tmp_mask = mask >> 1; tmp_mask > 0; tmp_mask >>= 1, --k) {
      int peer = me ^ tmp_mask;
      int tree_root = (me >> k) << k;
      if (peer > me && me < tree_root + completed && peer >= tree_root + completed)
        rank.send(peer, kTagReduceScatter, recv_bytes);
      else if (peer < me && peer < tree_root + completed && me >= tree_root + completed)
        rank.recv(peer, kTagReduceScatter, recv_bytes);
    }
  }
}

} // namespace tit::colls
