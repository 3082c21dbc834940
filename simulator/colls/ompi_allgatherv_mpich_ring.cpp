#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace tit::colls {

// MPICH's ring allgatherv: blocks travel to rank + 1 and come from rank - 1, cut in pieces of at most
// max(smallest block, 256 KiB) (counted in elements); each step is a sendrecv, or a lone send or receive
// when one direction has nothing left, or nothing when both pieces are empty.
void allgatherv_mpich_ring(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  double dt = call.datatype_size > 0 ? call.datatype_size : 1;
  auto extent = static_cast<std::int64_t>(dt);
  std::vector<std::int64_t> counts; // elements
  for (double bytes : *call.recv_counts)
    counts.push_back(std::llround(bytes / dt));
  auto count = [&](int r) { return counts[static_cast<std::size_t>(r)]; };
  std::int64_t total = 0;
  for (auto c : counts)
    total += c;
  int left = (n + me - 1) % n;
  int right = (me + 1) % n;
  std::int64_t to_recv = total - count(me);
  std::int64_t to_send = total - count(right);
  std::int64_t piece = *std::min_element(counts.begin(), counts.end());
  if (piece * extent < 32768 * 8)
    piece = 32768 * 8 / extent;
  if (piece == 0)
    piece = 1;

  int send_idx = me;
  int recv_idx = left;
  std::int64_t send_off = 0;
  std::int64_t recv_off = 0;
  while (to_send > 0 || to_recv > 0) {
    std::int64_t send_now = to_send > 0 ? std::min(count(send_idx) - send_off, piece) : 0;
    std::int64_t recv_now = to_recv > 0 ? std::min(count(recv_idx) - recv_off, piece) : 0;
    if (send_now == 0 && recv_now != 0) {
      rank.recv(left, kTagAllgatherv, recv_now * dt);
    } else if (send_now != 0 && recv_now == 0) {
      rank.send(right, kTagAllgatherv, send_now * dt);
    } else if (send_now != 0) {
      rank.sendrecv(right, send_now * dt, left, recv_now * dt, kTagAllgatherv);
    }
    to_send -= send_now;
    to_recv -= recv_now;
    send_off += send_now;
    recv_off += recv_now;
    if (send_off == count(send_idx)) {
      send_off = 0;
      send_idx = (send_idx + n - 1) % n;
    }
    if (recv_off == count(recv_idx)) {
      recv_off = 0;
      recv_idx = (recv_idx + n - 1) % n;
    }
  }
}

} // namespace tit::colls
