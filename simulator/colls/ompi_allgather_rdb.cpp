#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <vector>

namespace tit::colls {
namespace {

/// One point-to-point operation of the schedule.
struct Op {
  enum Kind { SendRecv, Send, Recv } kind;
  int peer;
  double send_bytes;
  double recv_bytes;
};

// The sizes SimGrid's recursive doubling sends depend on what each rank has received (a receive's size
// is the smaller of the message and the buffer posted), so every rank's state is followed, step by step,
// and the operations of `me` kept.
std::vector<Op> rdb_schedule(int n, int me, double block)
{
  std::vector<double> curr(static_cast<std::size_t>(n), block); // bytes gathered so far
  std::vector<double> last(static_cast<std::size_t>(n), 0);     // bytes of the latest receive
  std::vector<Op> ops;
  auto at = [](std::vector<double>& v, int r) -> double& { return v[static_cast<std::size_t>(r)]; };
  int level = 0;
  for (int mask = 1; mask < n; mask <<= 1, ++level) {
    // Exchange with rank ^ mask of everything gathered, against a buffer of mask blocks.
    std::vector<double> before = curr;
    for (int r = 0; r < n; ++r) {
      int dst = r ^ mask;
      if (dst >= n)
        continue;
      double posted = mask * block;
      if (r == me)
        ops.push_back({Op::SendRecv, dst, at(before, r), posted});
      at(last, r) = std::min(at(before, dst), posted);
      at(curr, r) += at(last, r);
    }
    // Where the partner subtree is incomplete, ranks holding the data forward it down a tree, one bit at a
    // time from the highest; a rank may forward what it has just received.
    for (int tmp_mask = mask >> 1, k = level; tmp_mask > 0; tmp_mask >>= 1, --k) {
      std::vector<double> sent_now = last;
      for (int r = 0; r < n; ++r) {
        int dst_tree_root = ((r ^ mask) >> level) << level;
        if (dst_tree_root + mask <= n)
          continue;
        int rank_tree_root = (r >> level) << level;
        int completed = n - rank_tree_root - mask;
        int dst = r ^ tmp_mask;
        int tree_root = (r >> k) << k;
        if (dst > r && r < tree_root + completed && dst >= tree_root + completed) {
          if (r == me)
            ops.push_back({Op::Send, dst, at(sent_now, r), 0});
        } else if (dst < r && dst < tree_root + completed && r >= tree_root + completed) {
          double posted = completed * block;
          if (r == me)
            ops.push_back({Op::Recv, dst, 0, posted});
          at(last, r) = std::min(at(sent_now, dst), posted);
          at(curr, r) += at(last, r);
        }
      }
    }
  }
  return ops;
}

} // namespace

// MPICH's recursive doubling (SimGrid's rdb): log2(p) exchanges with rank ^ 2^k of all blocks gathered, plus,
// for sizes not a power of two, blocking sends and receives that complete the ranks whose partner is missing.
void allgather_rdb(mpi::PointToPoint& rank, const Call& call)
{
  for (auto const& op : rdb_schedule(call.size, rank.rank(), call.bytes2)) {
    switch (op.kind) {
      case Op::SendRecv:
        rank.sendrecv(op.peer, op.send_bytes, op.peer, op.recv_bytes, kTagAllgather);
        break;
      case Op::Send:
        rank.send(op.peer, kTagAllgather, op.send_bytes);
        break;
      case Op::Recv:
        rank.recv(op.peer, kTagAllgather, op.recv_bytes);
        break;
    }
  }
}

} // namespace tit::colls
