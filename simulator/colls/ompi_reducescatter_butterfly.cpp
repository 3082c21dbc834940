#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <cstdint>
#include <numeric>
#include <vector>

namespace tit::colls {
namespace {

/// The `bits` low-order bits of x in reverse order.
int mirror(int x, int bits)
{
  auto v = static_cast<std::uint32_t>(x);
  std::uint32_t r = 0;
  for (int i = 0; i < bits; ++i)
    r |= ((v >> i) & 1U) << (bits - 1 - i);
  return static_cast<int>(r);
}

} // namespace

// Traff's butterfly as Open MPI's reduce_scatter_intra_butterfly: the non-power-of-two fold (even ranks among
// the first 2r send the whole vector to odd ones), log2(p') sendrecv rounds exchanging halves of the current
// window of p' blocks (block i: the parts of the ranks folded into virtual rank i), then each virtual rank
// sends its result block to the rank at the mirror position of its own (and the first half of it to that rank's
// folded even neighbour).
// (SimGrid 3.32 applies MPI_OP_NULL here unchecked; its replay survives because Op::apply does nothing while
// replaying.)
void reducescatter_ompi_butterfly(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (n < 2)
    return;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto part = [&](int r) { return counts[static_cast<std::size_t>(r)]; };
  std::vector<double> displs(static_cast<std::size_t>(n) + 1, 0);
  std::partial_sum(counts.begin(), counts.end(), displs.begin() + 1);
  double total = displs.back();

  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int rem = n - pof2;
  int log2_size = 0;
  while ((1 << log2_size) < pof2)
    ++log2_size;
  auto real_rank = [&](int vrank) { return vrank < rem ? vrank * 2 + 1 : vrank + rem; };
  auto first_rank = [&](int block) { return block < rem ? 2 * block : block + rem; }; // first rank of a block
  // Bytes of blocks [lo, hi].
  auto blocks = [&](int lo, int hi) {
    return displs[static_cast<std::size_t>(real_rank(hi)) + 1] - displs[static_cast<std::size_t>(first_rank(lo))];
  };

  int vrank = me - rem;
  if (me < 2 * rem) {
    if (me % 2 == 0) {
      rank.send(me + 1, kTagReduceScatter, total);
      vrank = -1;
    } else {
      rank.recv(me - 1, kTagReduceScatter, total);
      vrank = me / 2;
    }
  }

  if (vrank == -1) { // excluded: the result comes from the holder of the neighbour's block
    int peer = real_rank(mirror((me + 1) / 2, log2_size));
    rank.recv(peer, kTagReduceScatter, part(me));
    return;
  }
  int nblocks = pof2;
  int send_index = 0;
  int recv_index = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int peer = real_rank(vrank ^ mask);
    nblocks /= 2;
    if ((vrank & mask) == 0)
      send_index += nblocks;
    else
      recv_index += nblocks;
    rank.sendrecv(peer, blocks(send_index, send_index + nblocks - 1), peer,
                  blocks(recv_index, recv_index + nblocks - 1), kTagReduceScatter);
    send_index = recv_index;
  }
  int vpeer = mirror(vrank, log2_size);
  int peer = real_rank(vpeer);
  int index = first_rank(send_index);
  if (vpeer < rem) { // two parts: the excluded neighbour's first
    rank.send(peer - 1, kTagReduceScatter, part(index));
    ++index;
  }
  if (vpeer != vrank)
    rank.sendrecv(peer, part(index), peer, part(me), kTagReduceScatter);
}

} // namespace tit::colls
