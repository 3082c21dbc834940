#include "colls/mpich_all.hpp"
#include "colls/ompi_tree.hpp"
#include "mpi/world.hpp"

#include <cmath>
#include <cstdint>

namespace tit::colls {

// SimGrid's bcast scatter_LR_allgather: the buffer cut into n pieces of ceil(bytes / n) bytes, scattered down a
// binomial tree from the root (ompi::binomial_scatter), then n-1 ring steps in which every rank passes to its
// right neighbour the piece it received last from its left one (its own first).
void bcast_scatter_lr_allgather(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto nbytes = static_cast<std::int64_t>(std::llround(call.bytes));
  int rel = (me - call.root + n) % n;
  ompi::binomial_scatter(rank, n, rel, nbytes, kTagBcast, [&](int r) { return (r + call.root) % n; });
  std::int64_t piece = (nbytes + n - 1) / n;
  auto piece_of = [&](int r) { // bytes of the piece of world rank r
    std::int64_t b = nbytes - ((r - call.root + n) % n) * piece;
    return static_cast<double>(b > piece ? piece : (b < 0 ? 0 : b));
  };
  int left = (n + me - 1) % n;
  int right = (me + 1) % n;
  int src = me;
  int next_src = left;
  for (int i = 1; i < n; ++i) {
    rank.sendrecv(right, piece_of(src), left, piece_of(next_src), kTagBcast);
    src = next_src;
    next_src = (n + next_src - 1) % n;
  }
}

} // namespace tit::colls
