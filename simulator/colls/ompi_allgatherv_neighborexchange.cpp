#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// allgather_ompi_neighborexchange with per-rank blocks: the first exchange carries this rank's block and
// the neighbour's, each later one the two blocks of an even rank and its successor, packed in one message.
// Odd sizes use the ring.
void allgatherv_ompi_neighborexchange(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  if (n % 2 != 0)
    return allgatherv_ring(rank, call);
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto count = [&](int r) { return counts[static_cast<std::size_t>(r)]; };
  bool even = me % 2 == 0;
  int neighbor[2] = {even ? (me + 1) % n : (me - 1 + n) % n, even ? (me - 1 + n) % n : (me + 1) % n};
  int offset[2] = {even ? 2 : -2, even ? -2 : 2};
  int recv_from[2] = {even ? me : neighbor[0], even ? me : neighbor[0]};
  rank.sendrecv(neighbor[0], count(me), neighbor[0], count(neighbor[0]), kTagAllgatherv);
  int send_from = even ? me : recv_from[0];
  for (int i = 1; i < n / 2; ++i) {
    int parity = i % 2;
    recv_from[parity] = (recv_from[parity] + offset[parity] + n) % n;
    rank.sendrecv(neighbor[parity], count(send_from) + count(send_from + 1), neighbor[parity],
                  count(recv_from[parity]) + count(recv_from[parity] + 1), kTagAllgatherv);
    send_from = recv_from[parity];
  }
}

} // namespace tit::colls
