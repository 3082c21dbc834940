#include "colls/halving.hpp"
#include "colls/mpich_all.hpp"
#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {

namespace {

/// The ranks of the halving: p' (`pof2`) the largest power of two <= p, and r = p - p' (`rem`).
struct Halving {
  explicit Halving(int n)
  {
    while (pof2 * 2 <= n)
      pof2 *= 2;
    rem = n - pof2;
  }
  /// The world rank of rank `newdst` among the p'.
  int real_rank(int newdst) const { return newdst < rem ? newdst * 2 : newdst + rem; }

  int pof2 = 1;
  int rem = 0;
};

/// The first 2r ranks fold: odd ranks send their buffer (`padded_bytes`) to rank-1 and drop out, even ones receive
/// it (`count_bytes`). The rank's number among the p' (newrank), -1 for a rank that dropped out.
int fold(mpi::PointToPoint& rank, int me, const Halving& h, double padded_bytes, double count_bytes)
{
  int newrank = me - h.rem;
  if (me < 2 * h.rem) {
    if (me % 2 != 0) {
      rank.send(me - 1, kTagReduce, padded_bytes);
      newrank = -1;
    } else {
      rank.recv(me + 1, kTagReduce, count_bytes);
      newrank = me / 2;
    }
  }
  return newrank;
}

/// The root's number among the p' (newroot). An odd root that was folded away first receives block 0 from rank 0 and
/// takes its place (its `newrank` and window `w`); rank 0 then drops out (newrank -1).
int bring_in_root(mpi::PointToPoint& rank, int me, int root, const Halving& h, const std::vector<double>& blocks,
                  int& newrank, HalvingWindow& w)
{
  int newroot = root - h.rem;
  if (root < 2 * h.rem) {
    if (root % 2 != 0) {
      if (me == root) {
        rank.recv(0, kTagReduce, blocks[0]);
        newrank = 0;
        w.send_idx = 0;
        w.last_idx = 2;
      } else if (newrank == 0) {
        rank.send(root, kTagReduce, blocks[0]);
        newrank = -1;
      }
      newroot = 0;
    } else {
      newroot = root / 2;
    }
  }
  return newroot;
}

/// The gather of the blocks to the root (number `newroot` among the p') down a binomial tree, retracing the halving
/// from window `w`: at each level the rank whose subtree does not hold the root sends its blocks and is done.
void gather_to_root(mpi::PointToPoint& rank, int root, const Halving& h, const std::vector<double>& blocks,
                    int newrank, int newroot, const HalvingWindow& w)
{
  const int pof2 = h.pof2;
  const int rem = h.rem;
  int send_idx = w.send_idx;
  int recv_idx = w.recv_idx;
  int last_idx = w.last_idx;
  int j = 0;
  int mask = 1;
  while (mask < pof2) {
    mask <<= 1;
    ++j;
  }
  mask >>= 1;
  --j;
  while (mask > 0) {
    int newdst = newrank ^ mask;
    int dst = h.real_rank(newdst);
    if (newdst == 0 && root < 2 * rem && root % 2 != 0)
      dst = root;
    int newdst_tree_root = newdst >> j << j;
    int newroot_tree_root = newroot >> j << j;
    double send_bytes = 0;
    double recv_bytes = 0;
    if (newrank < newdst) {
      if (mask != pof2 / 2)
        last_idx = last_idx + pof2 / (mask * 2);
      recv_idx = send_idx + pof2 / (mask * 2);
      send_bytes = block_bytes(blocks, send_idx, recv_idx);
      recv_bytes = block_bytes(blocks, recv_idx, last_idx);
    } else {
      recv_idx = send_idx - pof2 / (mask * 2);
      send_bytes = block_bytes(blocks, send_idx, last_idx);
      recv_bytes = block_bytes(blocks, recv_idx, send_idx);
    }
    if (newdst_tree_root == newroot_tree_root) {
      rank.send(dst, kTagReduce, send_bytes);
      break;
    }
    rank.recv(dst, kTagReduce, recv_bytes);
    if (newrank > newdst)
      send_idx = recv_idx;
    mask >>= 1;
    --j;
  }
}

} // namespace

// SimGrid's reduce scatter_gather (MPICH's Rabenseifner reduce). With p' the largest power of two <= p and
// r = p - p', the first 2r ranks fold: odd ranks send their buffer to rank-1 and drop out. The p' others run
// a reduce-scatter by recursive halving (partner newrank XOR 1, 2, 4, ...) on p' blocks of count/p' elements
// (the last takes the rest), then gather the blocks to the root down a binomial tree, retracing the halving:
// at each level the rank whose subtree does not hold the root sends its blocks and is done. An odd root that
// was folded away first receives block 0 from rank 0 and takes its place. Fewer elements than ranks are
// padded to p elements.
void reduce_scatter_gather(mpi::PointToPoint& rank, const Call& call)
{
  long long count = element_count(call);
  if (count == 0)
    return;
  double element = element_size(call);
  int n = call.size;
  int me = rank.rank();
  int root = call.root;
  long long padded = count < n ? n : count;
  auto bytes = [&](long long elements) { return static_cast<double>(elements) * element; };
  const Halving h(n);
  int newrank = fold(rank, me, h, bytes(padded), bytes(count));
  std::vector<double> blocks(static_cast<std::size_t>(h.pof2), bytes(padded / h.pof2));
  blocks.back() = bytes(padded - (padded / h.pof2) * (h.pof2 - 1));
  auto real_rank = [&](int newdst) { return h.real_rank(newdst); };
  HalvingWindow w;
  if (newrank != -1)
    w = reduce_scatter_by_halving(rank, newrank, h.pof2, blocks, real_rank, kTagReduce);
  int newroot = bring_in_root(rank, me, root, h, blocks, newrank, w);
  if (newrank == -1)
    return;
  gather_to_root(rank, root, h, blocks, newrank, newroot, w);
}

} // namespace tit::colls
