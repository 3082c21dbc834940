#include "colls/mpich_all.hpp"
#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <vector>

namespace tit::colls {
namespace {

/// Elements of blocks [first, last).
long long span(const std::vector<long long>& counts, int first, int last)
{
  long long total = 0;
  for (int i = first; i < last; ++i)
    total += counts[static_cast<std::size_t>(i)];
  return total;
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
  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int newrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 != 0) {
      rank.send(me - 1, kTagReduce, bytes(padded));
      newrank = -1;
    } else {
      rank.recv(me + 1, kTagReduce, bytes(count));
      newrank = me / 2;
    }
  }
  std::vector<long long> cnts(static_cast<std::size_t>(pof2), padded / pof2);
  cnts.back() = padded - (padded / pof2) * (pof2 - 1);
  auto real_rank = [&](int newdst) { return newdst < rem ? newdst * 2 : newdst + rem; };
  int send_idx = 0;
  int recv_idx = 0;
  int last_idx = 0;
  if (newrank != -1) {
    last_idx = pof2;
    for (int mask = 1; mask < pof2;) {
      int newdst = newrank ^ mask;
      int dst = real_rank(newdst);
      long long send_cnt = 0;
      long long recv_cnt = 0;
      if (newrank < newdst) {
        send_idx = recv_idx + pof2 / (mask * 2);
        send_cnt = span(cnts, send_idx, last_idx);
        recv_cnt = span(cnts, recv_idx, send_idx);
      } else {
        recv_idx = send_idx + pof2 / (mask * 2);
        send_cnt = span(cnts, send_idx, recv_idx);
        recv_cnt = span(cnts, recv_idx, last_idx);
      }
      rank.sendrecv(dst, bytes(send_cnt), dst, bytes(recv_cnt), kTagReduce);
      send_idx = recv_idx;
      mask <<= 1;
      if (mask < pof2)
        last_idx = recv_idx + pof2 / mask;
    }
  }
  int newroot = root - rem;
  if (root < 2 * rem) {
    if (root % 2 != 0) {
      if (me == root) {
        rank.recv(0, kTagReduce, bytes(cnts[0]));
        newrank = 0;
        send_idx = 0;
        last_idx = 2;
      } else if (newrank == 0) {
        rank.send(root, kTagReduce, bytes(cnts[0]));
        newrank = -1;
      }
      newroot = 0;
    } else {
      newroot = root / 2;
    }
  }
  if (newrank == -1)
    return;
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
    int dst = real_rank(newdst);
    if (newdst == 0 && root < 2 * rem && root % 2 != 0)
      dst = root;
    int newdst_tree_root = newdst >> j << j;
    int newroot_tree_root = newroot >> j << j;
    long long send_cnt = 0;
    long long recv_cnt = 0;
    if (newrank < newdst) {
      if (mask != pof2 / 2)
        last_idx = last_idx + pof2 / (mask * 2);
      recv_idx = send_idx + pof2 / (mask * 2);
      send_cnt = span(cnts, send_idx, recv_idx);
      recv_cnt = span(cnts, recv_idx, last_idx);
    } else {
      recv_idx = send_idx - pof2 / (mask * 2);
      send_cnt = span(cnts, send_idx, last_idx);
      recv_cnt = span(cnts, recv_idx, send_idx);
    }
    if (newdst_tree_root == newroot_tree_root) {
      rank.send(dst, kTagReduce, bytes(send_cnt));
      break;
    }
    rank.recv(dst, kTagReduce, bytes(recv_cnt));
    if (newrank > newdst)
      send_idx = recv_idx;
    mask >>= 1;
    --j;
  }
}

} // namespace tit::colls
