#include "colls/ompi_all.hpp"
#include "mpi/world.hpp"

#include <numeric>
#include <vector>

namespace tit::colls {

// Open MPI's basic recursive halving reduce_scatter: the non-power-of-two fold of the first 2r ranks (even
// sends the whole vector to odd), recursive halving among the p' remaining ranks (partner XOR p'/2, ..., 1;
// each step an irecv, a blocking send, a wait, skipped when either side has nothing), then odd ranks send the
// even ones their part.
void reducescatter_ompi_recursive_halving(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto part = [&](int r) { return counts[static_cast<std::size_t>(r)]; };
  double total = std::accumulate(counts.begin(), counts.end(), 0.0);
  if (total == 0)
    return;

  int pof2 = 1;
  while (pof2 * 2 <= n)
    pof2 *= 2;
  int remain = n - pof2;
  int tmp_rank = me - remain;
  if (me < 2 * remain) {
    if ((me & 1) == 0) {
      rank.send(me + 1, kTagReduceScatter, total);
      tmp_rank = -1;
    } else {
      rank.recv(me - 1, kTagReduceScatter, total);
      tmp_rank = me / 2;
    }
  }

  if (tmp_rank >= 0) {
    // The parts of the p' remaining ranks, each folded rank holding its even neighbour's too.
    std::vector<double> parts(static_cast<std::size_t>(pof2));
    for (int i = 0; i < pof2; ++i)
      parts[static_cast<std::size_t>(i)] = i < remain ? part(2 * i + 1) + part(2 * i) : part(i + remain);
    auto sum = [&](int first, int last) {
      return std::accumulate(parts.begin() + first, parts.begin() + last, 0.0);
    };
    int send_index = 0;
    int recv_index = 0;
    int last_index = pof2;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
      int tmp_peer = tmp_rank ^ mask;
      int peer = tmp_peer < remain ? tmp_peer * 2 + 1 : tmp_peer + remain;
      double send_bytes = 0;
      double recv_bytes = 0;
      if (tmp_rank < tmp_peer) {
        send_index = recv_index + mask;
        send_bytes = sum(send_index, last_index);
        recv_bytes = sum(recv_index, send_index);
      } else {
        recv_index = send_index + mask;
        send_bytes = sum(send_index, recv_index);
        recv_bytes = sum(recv_index, last_index);
      }
      if (send_bytes > 0 && recv_bytes > 0) {
        auto request = rank.irecv(peer, kTagReduceScatter, recv_bytes);
        rank.send(peer, kTagReduceScatter, send_bytes);
        rank.wait(request);
      }
      send_index = recv_index;
      last_index = recv_index + mask;
    }
  }

  if (me < 2 * remain) {
    if ((me & 1) == 0) {
      if (part(me) != 0)
        rank.recv(me + 1, kTagReduceScatter, part(me));
    } else if (part(me - 1) != 0) {
      rank.send(me - 1, kTagReduceScatter, part(me - 1));
    }
  }
}

} // namespace tit::colls
