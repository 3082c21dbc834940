#include "colls/ompi_gather.hpp"
#include "mpi/world.hpp"

namespace tit::colls {

// Open MPI's Bruck allgatherv: at distance d = 1, 2, 4, ... one sendrecv to rank - d of the blocks of ranks
// rank .. rank + c - 1, from rank + d of theirs, with c = d (n - d at the last step when d > n/2). The
// blocks travel packed in one message (an indexed datatype).
void allgatherv_ompi_bruck(mpi::PointToPoint& rank, const Call& call)
{
  int n = call.size;
  int me = rank.rank();
  auto const& counts = *call.recv_counts;
  auto blocks = [&](int first, int count) {
    double bytes = 0;
    for (int i = 0; i < count; ++i)
      bytes += counts[static_cast<std::size_t>((first + i) % n)];
    return bytes;
  };
  for (int distance = 1; distance < n; distance <<= 1) {
    int recv_from = (me + distance) % n;
    int send_to = (me - distance + n) % n;
    int count = distance <= n / 2 ? distance : n - distance;
    rank.sendrecv(send_to, blocks(me, count), recv_from, blocks(recv_from, count), kTagAllgatherv);
  }
}

} // namespace tit::colls
